//! `oxilearn evaluate`: score one concept, or a saved model (`--model`), on learning
//! problems. A model gets F1 and accuracy from its memberships and, when its predictions
//! are scored (CELOE, TBC), AUC-PR and AUC-ROC from its ranking.
//!
//! `--semantics` applies to models too: a CELOE model predicts under the one asked for (its
//! own by default; under open world the examples whose membership is unknown are counted,
//! as non-members, in `unknown`), a TBC model only under the one it was trained with.

use anyhow::Context;
use serde::Serialize;

use super::args::EvaluateArgs;
use super::kb_source;
use super::model_file;
use super::print_json_one_or_many;
use super::problems::{fallback_kb, load_selected};
use crate::KnowledgeBase;
use crate::concept::Concept;
use crate::eval::Confusion;
use crate::eval::{auc_pr, auc_roc};
use crate::learn::{Model, semantics_name};
use crate::oracle::IndividualSet;
use crate::oracle::{MembershipOracle, Semantics};
use crate::problem::LearningProblem;

/// The documented JSON shape, one object per problem (names are stable).
#[derive(Serialize)]
struct EvaluationJson {
    problem: String,
    concept: String,
    dl: String,
    semantics: Semantics,
    #[serde(flatten)]
    confusion: Confusion,
    accuracy: f64,
    precision: f64,
    recall: f64,
    f1: f64,
    positives: usize,
    negatives: usize,
    /// Open world only: examples whose membership is unknown (counted as not covered).
    #[serde(skip_serializing_if = "Option::is_none")]
    unknown: Option<usize>,
}

fn evaluate_one(
    kb: &KnowledgeBase,
    p: &LearningProblem,
    concept: &Concept,
    semantics: Semantics,
) -> anyhow::Result<EvaluationJson> {
    let (pos, neg) = kb.example_sets(p)?;
    let among = pos.union(&neg);
    let (covered, unknown) = match semantics {
        Semantics::Closed => (kb.oracle().covered(concept, &among)?, None),
        Semantics::Open => {
            let t = kb.oracle().truth(concept, &among)?;
            let unknown = t.unknown(&among).len();
            (t.true_set, Some(unknown))
        }
    };
    let confusion = Confusion::from_sets(&covered, &pos, &neg);
    Ok(EvaluationJson {
        problem: p.name.clone(),
        concept: kb.manchester(concept),
        dl: kb.dl(concept),
        semantics,
        confusion,
        accuracy: confusion.accuracy(),
        precision: confusion.precision(),
        recall: confusion.recall(),
        f1: confusion.f1(),
        positives: pos.len(),
        negatives: neg.len(),
        unknown,
    })
}

/// One problem's scores of a saved model.
#[derive(Serialize)]
struct ModelEvaluationJson {
    problem: String,
    algorithm: String,
    /// The model's summary (its concept where it is one).
    model: String,
    /// The semantics the model predicted under.
    semantics: Semantics,
    #[serde(flatten)]
    confusion: Confusion,
    accuracy: f64,
    precision: f64,
    recall: f64,
    f1: f64,
    #[serde(skip_serializing_if = "Option::is_none")]
    auc_pr: Option<f64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    auc_roc: Option<f64>,
    positives: usize,
    negatives: usize,
    /// Open world, models that are a concept: examples whose membership is unknown
    /// (predicted non-members).
    #[serde(skip_serializing_if = "Option::is_none")]
    unknown: Option<usize>,
}

fn evaluate_model(
    kb: &KnowledgeBase,
    p: &LearningProblem,
    algorithm: &str,
    model: &dyn Model,
) -> anyhow::Result<ModelEvaluationJson> {
    let (pos, neg) = kb.example_sets(p)?;
    let among = pos.union(&neg);
    let predictions = model.predict(kb.oracle(), &among)?;
    let member = IndividualSet::from_ids(
        among.universe(),
        predictions
            .iter()
            .filter(|q| q.member)
            .map(|q| q.individual),
    );
    let confusion = Confusion::from_sets(&member, &pos, &neg);
    let unknown = match (model.semantics(), model.concept()) {
        (Semantics::Open, Some(c)) => Some(kb.oracle().truth(c, &among)?.unknown(&among).len()),
        _ => None,
    };
    let scored: Option<Vec<(f64, bool)>> = model.is_scored().then(|| {
        predictions
            .iter()
            .map(|q| (q.ranking_value().unwrap_or(0.0), pos.contains(q.individual)))
            .collect()
    });
    Ok(ModelEvaluationJson {
        problem: p.name.clone(),
        algorithm: algorithm.to_owned(),
        model: model
            .describe(kb.vocabulary())
            .lines()
            .next()
            .unwrap_or_default()
            .to_owned(),
        semantics: model.semantics(),
        confusion,
        accuracy: confusion.accuracy(),
        precision: confusion.precision(),
        recall: confusion.recall(),
        f1: confusion.f1(),
        auc_pr: scored.as_deref().and_then(auc_pr),
        auc_roc: scored.as_deref().and_then(auc_roc),
        positives: pos.len(),
        negatives: neg.len(),
        unknown,
    })
}

fn run_model(args: &EvaluateArgs, path: &std::path::Path) -> anyhow::Result<()> {
    if let Some((algorithm, classes)) = model_file::multiclass_of(path)? {
        return super::evaluate_multiclass::run(args, path, &algorithm, &classes);
    }
    let algorithm = model_file::algorithm_of(path)?;
    if args.label_column.is_some() {
        anyhow::bail!(
            "--label-column reads labelled examples for a multi-class model; {} is a {} model, \
             scored on positive and negative examples",
            path.display(),
            algorithm.as_deref().unwrap_or("binary")
        );
    }
    let problems = load_selected(&args.problems, &args.problem)?;
    let scope = kb_source::learning_scope(&args.kb, &problems, false);
    let kb = kb_source::open_kb(&args.kb, fallback_kb(&problems), scope)?;
    let loaded = model_file::load(path, &kb)?;
    let model = match args.semantics {
        Some(s) => loaded.model.with_semantics(s).with_context(|| {
            format!(
                "--semantics {} with the model {}",
                semantics_name(s),
                path.display()
            )
        })?,
        None => loaded.model,
    };
    let results = problems
        .iter()
        .map(|p| evaluate_model(&kb, p, &loaded.header.algorithm, model.as_ref()))
        .collect::<anyhow::Result<Vec<_>>>()?;
    if args.json {
        return print_json_one_or_many(&results);
    }
    outln!(
        "model: {} ({}, {} world)",
        path.display(),
        loaded.header.algorithm,
        semantics_name(model.semantics())
    );
    outln!(
        "{:<24} {:>5} {:>5} {:>5} {:>5} {:>8} {:>7} {:>7} {:>7}",
        "problem",
        "tp",
        "fp",
        "tn",
        "fn",
        "accuracy",
        "f1",
        "AUC-PR",
        "AUC-ROC"
    );
    let opt = |v: Option<f64>| v.map_or_else(|| "–".to_owned(), |v| format!("{v:.4}"));
    for r in &results {
        let c = r.confusion;
        outln!(
            "{:<24} {:>5} {:>5} {:>5} {:>5} {:>8.4} {:>7.4} {:>7} {:>7}",
            r.problem,
            c.tp,
            c.fp,
            c.tn,
            c.fn_,
            r.accuracy,
            r.f1,
            opt(r.auc_pr),
            opt(r.auc_roc)
        );
        if let Some(n) = r.unknown {
            outln!(
                "  {}: {n} examples of unknown membership (counted as non-members)",
                r.problem
            );
        }
    }
    Ok(())
}

pub fn run(args: EvaluateArgs) -> anyhow::Result<()> {
    if let Some(path) = args.model.clone() {
        return run_model(&args, &path);
    }
    let problems = load_selected(&args.problems, &args.problem)?;
    let scope = kb_source::learning_scope(&args.kb, &problems, false);
    let kb = kb_source::open_kb(&args.kb, fallback_kb(&problems), scope)?;
    let text = args.concept.as_deref().unwrap_or_default();
    let concept = kb.parse_concept(text)?;
    let semantics: Semantics = args.semantics.unwrap_or_default();
    let results = problems
        .iter()
        .map(|p| evaluate_one(&kb, p, &concept, semantics))
        .collect::<anyhow::Result<Vec<_>>>()?;
    if args.json {
        return print_json_one_or_many(&results);
    }
    outln!(
        "concept: {}",
        results.first().map_or("", |r| r.concept.as_str())
    );
    outln!(
        "{:<24} {:>5} {:>5} {:>5} {:>5} {:>8} {:>9} {:>7} {:>7}",
        "problem",
        "tp",
        "fp",
        "tn",
        "fn",
        "accuracy",
        "precision",
        "recall",
        "f1"
    );
    for r in &results {
        let c = r.confusion;
        outln!(
            "{:<24} {:>5} {:>5} {:>5} {:>5} {:>8.4} {:>9.4} {:>7.4} {:>7.4}",
            r.problem,
            c.tp,
            c.fp,
            c.tn,
            c.fn_,
            r.accuracy,
            r.precision,
            r.recall,
            r.f1
        );
    }
    Ok(())
}

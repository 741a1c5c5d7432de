//! `learn --algorithm tbc` and `cv --algorithm tbc`: terminological Bayesian classifiers.
//! `learn` prints the feature concepts, the network (CPTs; intervals for robust), the
//! training score and statistics; `cv` reports AUC-PR and AUC-ROC per fold and mean ± sd
//! (JSON `"auc_pr": {"mean", "sd", "folds"}`, `"auc_roc"` likewise), beside F1/accuracy
//! of the 0.5-threshold classification.

use anyhow::Context;
use serde::Serialize;

use super::args::{CvArgs, LearnArgs};
use super::kb_source::{self, Session};
use super::print_json;
use super::problems::{examples_of, fallback_kb, folds_of, load_selected};
use crate::eval::{Confusion, Summary, auc_pr, auc_roc};
use crate::learn::tbc::{
    FeatureSemantics, Prediction, TbcModel, TbcParams, TbcStats, TrainingScore, fit_within,
};
use crate::oracle::{IndividualSet, Semantics};
use crate::problem::LearningProblem;
use crate::refine::rho::{Rho, RhoOptions};

/// The learner's parameters from the command line.
fn params(args: &LearnArgs) -> anyhow::Result<TbcParams> {
    let p = TbcParams {
        structure: args.tbc.structure.into(),
        missing: args.tbc.missing.into(),
        selection: args.tbc.selection.into(),
        semantics: match Semantics::from(args.semantics) {
            Semantics::Open => FeatureSemantics::Open,
            Semantics::Closed => FeatureSemantics::Closed,
        },
        beam_width: args.tbc.beam_width,
        depth: args.tbc.beam_depth,
        max_length: args.search.max_length.unwrap_or(3),
        max_features: args.tbc.max_features,
        max_tests: args
            .search
            .max_tests
            .map_or(20_000, |t| usize::try_from(t).unwrap_or(usize::MAX)),
        time_limit_secs: Some(args.search.max_runtime),
        ..TbcParams::default()
    };
    p.validate()
        .context("invalid learner parameters (see --help)")?;
    Ok(p)
}

/// ρ restricted to the paper's language (⊓, ⊔, ¬, ∃).
fn operator(session: &Session) -> Rho {
    Rho::new(session.signature(), RhoOptions::boolean_existential())
}

#[derive(Serialize)]
struct PredictionJson {
    individual: String,
    positive: bool,
    probability: f64,
    #[serde(skip_serializing_if = "Option::is_none")]
    interval: Option<(f64, f64)>,
}

/// One problem's `learn` output.
#[derive(Serialize)]
struct TbcLearnJson {
    problem: String,
    algorithm: &'static str,
    params: TbcParams,
    positives: usize,
    negatives: usize,
    /// Feature concepts in Manchester syntax (short names).
    features: Vec<String>,
    model: TbcModel,
    score: TrainingScore,
    auc_pr: f64,
    auc_roc: f64,
    predictions: Vec<PredictionJson>,
    stats: TbcStats,
}

fn ranking(preds: &[Prediction], pos: &IndividualSet) -> (f64, f64) {
    let scored: Vec<(f64, bool)> = preds
        .iter()
        .map(|p| (p.probability, pos.contains(p.individual)))
        .collect();
    (
        auc_pr(&scored).unwrap_or(f64::NAN),
        auc_roc(&scored).unwrap_or(f64::NAN),
    )
}

fn threshold_confusion(
    preds: &[Prediction],
    pos: &IndividualSet,
    neg: &IndividualSet,
) -> Confusion {
    let covered: IndividualSet = IndividualSet::from_ids(
        pos.universe(),
        preds
            .iter()
            .filter(|p| p.probability >= 0.5)
            .map(|p| p.individual),
    );
    Confusion::from_sets(&covered, pos, neg)
}

fn learn_one(
    session: &Session,
    args: &LearnArgs,
    p: &LearningProblem,
) -> anyhow::Result<TbcLearnJson> {
    let examples = examples_of(session, p)?;
    let (pos, neg) = (examples.positives(), examples.negatives());
    let params = params(args)?;
    let rho = operator(session);
    let run = fit_within(&session.oracle, pos, neg, examples.all(), &rho, &params)
        .with_context(|| format!("learning {}", p.name))?;
    let preds = run.model.predict(&session.oracle, examples.all())?;
    let (pr, roc) = ranking(&preds, pos);
    let sig = session.signature();
    Ok(TbcLearnJson {
        problem: p.name.clone(),
        algorithm: "tbc",
        params,
        positives: pos.len(),
        negatives: neg.len(),
        features: run
            .model
            .features
            .iter()
            .map(|c| session.manchester(c))
            .collect(),
        predictions: preds
            .iter()
            .map(|q| PredictionJson {
                individual: sig
                    .individual_iri(q.individual)
                    .map_or_else(String::new, |i| i.as_str().to_owned()),
                positive: pos.contains(q.individual),
                probability: q.probability,
                interval: q.interval,
            })
            .collect(),
        model: run.model,
        score: run.score,
        auc_pr: pr,
        auc_roc: roc,
        stats: run.stats,
    })
}

pub fn learn(args: LearnArgs) -> anyhow::Result<()> {
    let problems = load_selected(&args.problems, &args.problem)?;
    let session = kb_source::open(&args.kb, fallback_kb(&problems))?;
    let mut results = Vec::new();
    for p in &problems {
        let r = learn_one(&session, &args, p)?;
        if !args.json {
            outln!(
                "problem {} ({} positives, {} negatives), tbc",
                r.problem,
                r.positives,
                r.negatives
            );
            for line in r.model.describe(&session.vocabulary).lines() {
                outln!("  {line}");
            }
            outln!(
                "  training: CLL {:.4}, BIC {:.4} (|Θ| = {}), AUC-PR {:.4}, AUC-ROC {:.4}",
                r.score.cll,
                r.score.bic,
                r.score.parameters,
                r.auc_pr,
                r.auc_roc
            );
            outln!(
                "  stats: {} features tested, {} queries, {} ms, {:?}",
                r.stats.features_tested,
                r.stats.queries_sent,
                r.stats.elapsed_ms,
                r.stats.termination
            );
        }
        results.push(r);
    }
    if args.json {
        print_json(&results)?;
    }
    Ok(())
}

#[derive(Serialize)]
struct FoldJson {
    fold: usize,
    features: Vec<String>,
    auc_pr: f64,
    auc_roc: f64,
    train_cll: f64,
    test_f1: f64,
    test_accuracy: f64,
    stats: TbcStats,
}

/// One problem's `cv` output.
#[derive(Serialize)]
struct TbcCvJson {
    problem: String,
    algorithm: &'static str,
    folds: usize,
    seed: u64,
    auc_pr: Summary,
    auc_roc: Summary,
    test_f1: Summary,
    test_accuracy: Summary,
    per_fold: Vec<FoldJson>,
}

fn cv_one(session: &Session, args: &CvArgs, p: &LearningProblem) -> anyhow::Result<TbcCvJson> {
    let examples = examples_of(session, p)?;
    let params = params(&args.learn)?;
    let rho = operator(session);
    let folds = folds_of(&examples, args.folds, args.seed, &p.name)?;
    let mut per_fold = Vec::new();
    for (i, fold) in folds.iter().enumerate() {
        let run = fit_within(
            &session.oracle,
            &fold.train_positives,
            &fold.train_negatives,
            examples.all(),
            &rho,
            &params,
        )
        .with_context(|| format!("{} fold {}/{}", p.name, i + 1, args.folds))?;
        let test = fold.test_positives.union(&fold.test_negatives);
        let preds = run
            .model
            .predict_within(&session.oracle, &test, examples.all())?;
        let (pr, roc) = ranking(&preds, &fold.test_positives);
        let c = threshold_confusion(&preds, &fold.test_positives, &fold.test_negatives);
        per_fold.push(FoldJson {
            fold: i + 1,
            features: run
                .model
                .features
                .iter()
                .map(|c| session.manchester(c))
                .collect(),
            auc_pr: pr,
            auc_roc: roc,
            train_cll: run.score.cll,
            test_f1: c.f1(),
            test_accuracy: c.accuracy(),
            stats: run.stats,
        });
    }
    let summary = |f: &dyn Fn(&FoldJson) -> f64| Summary::of(per_fold.iter().map(f).collect());
    Ok(TbcCvJson {
        problem: p.name.clone(),
        algorithm: "tbc",
        folds: args.folds,
        seed: args.seed,
        auc_pr: summary(&|f| f.auc_pr),
        auc_roc: summary(&|f| f.auc_roc),
        test_f1: summary(&|f| f.test_f1),
        test_accuracy: summary(&|f| f.test_accuracy),
        per_fold,
    })
}

pub fn cv(args: CvArgs) -> anyhow::Result<()> {
    let problems = load_selected(&args.learn.problems, &args.learn.problem)?;
    let session = kb_source::open(&args.learn.kb, fallback_kb(&problems))?;
    let mut results = Vec::new();
    for p in &problems {
        let r = cv_one(&session, &args, p)?;
        if !args.learn.json {
            outln!(
                "problem {}: {}-fold cross-validation of tbc (seed {})",
                r.problem,
                r.folds,
                r.seed
            );
            outln!(
                "  {:>4} {:>7} {:>8} {:>8}  features",
                "fold",
                "AUC-PR",
                "AUC-ROC",
                "test F1"
            );
            for f in &r.per_fold {
                outln!(
                    "  {:>4} {:>7.4} {:>8.4} {:>8.4}  {}",
                    f.fold,
                    f.auc_pr,
                    f.auc_roc,
                    f.test_f1,
                    f.features.join("; ")
                );
            }
            outln!(
                "  mean: AUC-PR {:.4} ± {:.4}, AUC-ROC {:.4} ± {:.4}",
                r.auc_pr.mean,
                r.auc_pr.sd,
                r.auc_roc.mean,
                r.auc_roc.sd
            );
        }
        results.push(r);
    }
    if args.learn.json {
        print_json(&results)?;
    }
    Ok(())
}

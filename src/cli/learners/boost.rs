//! `--algorithm owl-boost` (Fuzzy OWL-Boost) and `--algorithm wfoil-dl` (its weak learner
//! alone). The extra JSON fields are the training loss, each round's error and α, the
//! paper's hypothesis properties on the training examples (consistency, soundness,
//! completeness), AUC-ROC/AUC-PR, and in `learn` the Fuzzy OWL 2 text and a score and degree
//! per example.

use anyhow::Context;
use clap::Args;
use serde::Serialize;

use super::LearnArgs;
use super::{LearnerEntry, SharedFlags, group};
use crate::KnowledgeBase;
use crate::eval::{auc_pr, auc_roc};
use crate::learn::boost::{AlphaForm, BoostModel, BoostParams, OwlBoost, Partition, TNorm};
use crate::learn::{Examples, FitResult, Learner};
use crate::oracle::Semantics;
use crate::refine::rho::{Rho, RhoOptions};

/// Budgets only: the weak learner has no ρ operator and no quality measure of its own.
const SHARED: SharedFlags = SharedFlags::Only(&["max-runtime", "max-tests"]);

pub const OWL_BOOST: LearnerEntry = LearnerEntry {
    name: "owl-boost",
    about: "Fuzzy OWL-Boost: Real AdaBoost over wFoil-DL's fuzzy EL(D) concept inclusions; \
            predicts a score and a degree",
    shared: SHARED,
    own: &[group::<BoostArgs>, group::<WeakArgs>],
    operator,
    multi_class: false,
    build: build_boost,
    extras,
};

pub const WFOIL_DL: LearnerEntry = LearnerEntry {
    name: "wfoil-dl",
    about: "wFoil-DL: one sequential-covering run of Fuzzy OWL-Boost's weak learner \
            (fuzzy EL(D) concept inclusions)",
    shared: SHARED,
    own: &[group::<WeakArgs>],
    operator,
    multi_class: false,
    build: build_wfoil,
    extras,
};

/// The learner builds its own atoms from the examples' neighbourhood; ρ is not used, so
/// the command's operator reads no numeric split points.
fn operator(_: &LearnArgs) -> RhoOptions {
    RhoOptions {
        use_numeric_data: false,
        ..RhoOptions::default()
    }
}

pub fn params(args: &LearnArgs) -> anyhow::Result<BoostParams> {
    if args.semantics == Semantics::Open {
        // A degree is a sup over the known successors and values: under the open world
        // an absent value is unknown, not degree 0, so every degree would only be a lower
        // bound, and a vote of −1 for "not covered" would be unsound.
        anyhow::bail!(
            "--algorithm {} reads degrees under the closed-world semantics only: under the \
             open world a missing value or successor is unknown rather than degree 0, so \
             the degrees (and the vote for an individual no axiom covers) would not be \
             sound; drop --semantics open",
            args.algorithm
        );
    }
    let (b, w) = (&args.boost, &args.weak);
    let p = BoostParams {
        rounds: b.rounds,
        tnorm: w.tnorm,
        alpha: b.alpha_form,
        fuzzy_sets: w.fuzzy_sets,
        partition: w.fuzzy_partition,
        theta: w.theta,
        max_negative_share: w.max_negative_share,
        max_axioms: w.max_axioms.unwrap_or(if args.algorithm == WFOIL_DL.name {
            BoostParams::WEAK_LEARNER_ALONE_AXIOMS
        } else {
            BoostParams::default().max_axioms
        }),
        max_conjuncts: w.max_conjuncts,
        role_depth: w.role_depth,
        max_values: w.max_values,
        cover_degree: w.cover_degree,
        validation_folds: b.validation_folds,
        threshold_sets: !w.no_threshold_sets,
    };
    p.validate()
        .context("invalid learner parameters (see --help)")?;
    Ok(p)
}

fn build_boost<'a>(
    args: &LearnArgs,
    _: &KnowledgeBase,
    _: &'a Rho,
) -> anyhow::Result<Box<dyn Learner + 'a>> {
    Ok(Box::new(OwlBoost::new(params(args)?)?))
}

fn build_wfoil<'a>(
    args: &LearnArgs,
    _: &KnowledgeBase,
    _: &'a Rho,
) -> anyhow::Result<Box<dyn Learner + 'a>> {
    Ok(Box::new(OwlBoost::weak_learner_alone(params(args)?)?))
}

#[derive(Serialize)]
struct PredictionJson {
    individual: String,
    positive: bool,
    score: f64,
    degree: f64,
}

/// The target's IRI in the Fuzzy OWL 2 output (the problem names no class).
const TARGET: &str = "http://oxilearn.org/owl-boost#Target";

fn extras(
    kb: &KnowledgeBase,
    fit: &FitResult,
    examples: &Examples,
    fold: bool,
) -> anyhow::Result<serde_json::Map<String, serde_json::Value>> {
    let mut out = fit.report.to_json();
    let preds = fit.model.predict(kb.oracle(), examples.all())?;
    let scored: Vec<(f64, bool)> = preds
        .iter()
        .map(|p| {
            (
                p.score.unwrap_or(0.0),
                examples.positives().contains(p.individual),
            )
        })
        .collect();
    // The paper's properties of a hypothesis on the training examples. Consistency: the
    // GCIs only bound fresh atoms WLᵢ and T from below, so K ∪ h is consistent whenever K is.
    out.insert("consistent".into(), true.into());
    out.insert(
        "sound".into(),
        preds
            .iter()
            .all(|p| !examples.negatives().contains(p.individual) || !p.member)
            .into(),
    );
    out.insert(
        "complete".into(),
        preds
            .iter()
            .all(|p| !examples.positives().contains(p.individual) || p.member)
            .into(),
    );
    out.insert("auc_pr".into(), auc_pr(&scored).unwrap_or(f64::NAN).into());
    out.insert(
        "auc_roc".into(),
        auc_roc(&scored).unwrap_or(f64::NAN).into(),
    );
    if fold {
        return Ok(out);
    }
    out.insert(
        "model_text".into(),
        fit.model.describe(kb.vocabulary()).into(),
    );
    if let Ok(body) = fit.model.body() {
        let model: Option<BoostModel> = boost_model_of(fit, kb, &body);
        if let Some(m) = model {
            out.insert("fuzzy_owl2".into(), m.fuzzy_owl2(TARGET).into());
        }
    }
    let sig = kb.signature();
    let predictions = preds
        .iter()
        .map(|q| {
            let iri = sig
                .individual_iri(q.individual)
                .with_context(|| format!("individual {:?} has no IRI in the KB", q.individual))?;
            Ok(PredictionJson {
                individual: iri.as_str().to_owned(),
                positive: examples.positives().contains(q.individual),
                score: q.score.unwrap_or(0.0),
                degree: q.degree.unwrap_or(0.0),
            })
        })
        .collect::<anyhow::Result<Vec<_>>>()?;
    out.insert("predictions".into(), serde_json::to_value(predictions)?);
    Ok(out)
}

/// The fitted model as a [`BoostModel`] (read back from its saved body: the registry hands
/// out `dyn Model`).
fn boost_model_of(
    fit: &FitResult,
    kb: &KnowledgeBase,
    body: &serde_json::Value,
) -> Option<BoostModel> {
    BoostModel::from_body(fit.model.algorithm(), body, kb.vocabulary()).ok()
}

/// The learners that train on graded examples when a problem has them.
pub const TAKES_GRADED: &[&str] = &["owl-boost", "wfoil-dl"];

/// A problem's graded training set: each listed example with its degree (`fuzzyEx` or
/// JSON `degrees`; 1 for a positive and 0 for a negative when not given) and each graded
/// individual that is not listed; every IRI must be an individual of the KB.
pub fn graded_training(
    kb: &KnowledgeBase,
    problem: &crate::problem::LearningProblem,
    examples: &Examples,
) -> anyhow::Result<crate::learn::TrainingSet> {
    use std::collections::BTreeMap;
    let sig = kb.signature();
    let mut degrees: BTreeMap<crate::oracle::IndividualId, f64> = BTreeMap::new();
    for id in examples.positives().iter() {
        degrees.insert(id, 1.0);
    }
    for id in examples.negatives().iter() {
        degrees.insert(id, 0.0);
    }
    let mut unknown = Vec::new();
    for (iri, d) in &problem.degrees {
        match sig.individual_id(iri) {
            Some(id) => {
                degrees.insert(id, *d);
            }
            None => unknown.push(iri.as_str()),
        }
    }
    if !unknown.is_empty() {
        anyhow::bail!(
            "problem {}: graded examples that are not individuals of the KB: {}",
            problem.name,
            unknown.join(", ")
        );
    }
    Ok(
        crate::learn::TrainingSet::weighted(degrees.into_iter().collect())?
            .with_context(examples.all().clone()),
    )
}

/// Options of `--algorithm owl-boost`: the boosting around the weak learner.
#[derive(Debug, Args, Clone)]
#[command(next_help_heading = "Fuzzy OWL-Boost options (--algorithm owl-boost)")]
pub struct BoostArgs {
    /// Boosting rounds at most (early stop when a round is no better than chance).
    #[arg(long, value_name = "N", default_value_t = 30)]
    pub rounds: usize,
    /// Real AdaBoost's vote: confidence = each round's covered and uncovered blocks vote
    /// ½ ln(W₊/W₋) of their weights; error = α·t(WL) with α = ½ ln((1−ε)/ε) (the paper's),
    /// correlation = the same with α = ½ ln((1+r)/(1−r)).
    #[arg(long, value_enum, default_value_t)]
    pub alpha_form: AlphaForm,
    /// owl-boost: inner stratified folds of the training examples that choose how many
    /// rounds to keep (0 = keep them all).
    #[arg(long, value_name = "K", default_value_t = 5)]
    pub validation_folds: usize,
}

/// Options of the weak learner, wFoil-DL: `--algorithm wfoil-dl` alone, or inside
/// `--algorithm owl-boost`.
#[derive(Debug, Args, Clone)]
#[command(next_help_heading = "wFoil-DL options (--algorithm owl-boost, wfoil-dl)")]
pub struct WeakArgs {
    /// The t-norm of fuzzy conjunction.
    #[arg(long, value_enum, default_value_t)]
    pub tnorm: TNorm,
    /// Fuzzy sets per numeric data property: 3, 5 or 7 (0: chosen among them by
    /// --validation-folds; 3 when that is 0).
    #[arg(long, value_name = "K", default_value_t = 0)]
    pub fuzzy_sets: usize,
    /// How numeric values are partitioned into fuzzy sets.
    #[arg(long, value_enum, default_value_t)]
    pub fuzzy_partition: Partition,
    /// θ: an axiom stops growing once its confidence reaches this.
    #[arg(long, value_name = "F", default_value_t = 0.7)]
    pub theta: f64,
    /// An axiom also stops growing once it covers at most this weighted share of the negatives.
    #[arg(long, value_name = "F", default_value_t = 0.0)]
    pub max_negative_share: f64,
    /// Axioms per weak hypothesis at most [default: 1 for owl-boost (boosting combines
    /// single rules), 5 for wfoil-dl alone].
    #[arg(long, value_name = "N")]
    pub max_axioms: Option<usize>,
    /// Conjuncts per axiom at most.
    #[arg(long, value_name = "N", default_value_t = 3)]
    pub max_conjuncts: usize,
    /// Nesting of ∃ in the operator's atoms.
    #[arg(long, value_name = "N", default_value_t = 1)]
    pub role_depth: usize,
    /// ∃r.{a} atoms for roles with at most this many distinct successors (0 = none).
    #[arg(long, value_name = "N", default_value_t = 12)]
    pub max_values: usize,
    /// τ: an axiom covers an individual above this degree (0 = the paper's reading).
    #[arg(long, value_name = "F", default_value_t = 0.0)]
    pub cover_degree: f64,
    /// Leave out the "F or lower" / "F or higher" threshold sets of each fuzzy partition.
    #[arg(long)]
    pub no_threshold_sets: bool,
}

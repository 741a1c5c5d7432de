//! `--algorithm tbc`: terminological Bayesian classifiers. The operator is ρ restricted to
//! the paper's language (⊓, ⊔, ¬, ∃) with the command line's switches for that language;
//! the extra JSON fields are the parameters, the network, the training score, AUC-PR and
//! AUC-ROC on the training examples and (in `learn`) a probability per example.

use anyhow::Context;
use clap::Args;
use serde::Serialize;

use super::LearnArgs;
use super::celoe::rho_options;
use super::{LearnerEntry, SharedFlags, group};
use crate::KnowledgeBase;
use crate::eval::{auc_pr, auc_roc};

use crate::learn::tbc::{
    FeatureSemantics, Missing, Selection, Structure, Tbc, TbcParams, TbcReport,
};
use crate::learn::{Examples, FitResult, Learner};
use crate::oracle::Semantics;
use crate::refine::rho::{Rho, RhoOptions};

pub const ENTRY: LearnerEntry = LearnerEntry {
    name: "tbc",
    about: "terminological Bayesian classifier: naive or TAN Bayes over learned feature concepts; \
            predicts probabilities",
    shared: SharedFlags::Only(&[
        "max-runtime",
        "max-tests",
        "max-length",
        "no-negation",
        "no-exists",
        "no-disjunction",
        "inverse",
        "self",
    ]),
    own: &[group::<TbcArgs>],
    operator,
    multi_class: false,
    build,
    extras,
};

/// ρ restricted to ⊓, ⊔, ¬, ∃, narrowed further by `--no-negation`, `--no-exists`,
/// `--no-disjunction` and widened by `--inverse`, `--self`.
fn operator(args: &LearnArgs) -> RhoOptions {
    let user = rho_options(&args.rho);
    let paper = RhoOptions::boolean_existential();
    RhoOptions {
        use_negation: paper.use_negation && user.use_negation,
        use_exists: paper.use_exists && user.use_exists,
        use_disjunction: paper.use_disjunction && user.use_disjunction,
        use_inverse: user.use_inverse,
        use_self: user.use_self,
        ..paper
    }
}

pub fn params(args: &LearnArgs) -> anyhow::Result<TbcParams> {
    let p = TbcParams {
        structure: args.tbc.structure,
        missing: args.tbc.missing,
        selection: args.tbc.selection,
        semantics: match args.semantics {
            Semantics::Open => FeatureSemantics::Open,
            Semantics::Closed => FeatureSemantics::Closed,
        },
        beam_width: args.tbc.beam_width,
        depth: args.tbc.beam_depth,
        max_length: args.search.max_length.unwrap_or(3),
        max_features: args.tbc.max_features,
        // A length the user gave is the longest feature, unless told to widen further.
        widen_to: args
            .tbc
            .widen_to
            .or(args.search.max_length)
            .unwrap_or(TbcParams::default().widen_to),
        proposals: args.tbc.proposals,
        proposal_tests: args.tbc.proposal_tests,
        ..TbcParams::default()
    };
    p.validate()
        .context("invalid learner parameters (see --help)")?;
    Ok(p)
}

fn build<'a>(
    args: &LearnArgs,
    _: &KnowledgeBase,
    rho: &'a Rho,
) -> anyhow::Result<Box<dyn Learner + 'a>> {
    Ok(Box::new(Tbc::new(params(args)?, rho)?))
}

#[derive(Serialize)]
struct PredictionJson {
    individual: String,
    positive: bool,
    probability: f64,
    #[serde(skip_serializing_if = "Option::is_none")]
    interval: Option<(f64, f64)>,
}

fn extras(
    kb: &KnowledgeBase,
    fit: &FitResult,
    examples: &Examples,
    fold: bool,
) -> anyhow::Result<serde_json::Map<String, serde_json::Value>> {
    let report = fit
        .report
        .get::<TbcReport>()
        .context("a TBC run without its report")?;
    let mut out = fit.report.to_json();
    // Short names for people (the model keeps full IRIs).
    let short: Vec<String> = report
        .model
        .features
        .iter()
        .map(|c| kb.manchester(c))
        .collect();
    out.insert("features".into(), short.into());
    if fold {
        out.remove("model");
        out.remove("params");
        out.remove("score");
        out.insert("train_cll".into(), report.score.cll.into());
        return Ok(out);
    }
    let preds = fit.model.predict(kb.oracle(), examples.all())?;
    let scored: Vec<(f64, bool)> = preds
        .iter()
        .map(|p| {
            (
                p.probability.unwrap_or(0.0),
                examples.positives().contains(p.individual),
            )
        })
        .collect();
    out.insert("auc_pr".into(), auc_pr(&scored).unwrap_or(f64::NAN).into());
    out.insert(
        "auc_roc".into(),
        auc_roc(&scored).unwrap_or(f64::NAN).into(),
    );
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
                probability: q.probability.unwrap_or(0.0),
                interval: q.interval,
            })
        })
        .collect::<anyhow::Result<Vec<_>>>()?;
    out.insert("predictions".into(), serde_json::to_value(predictions)?);
    Ok(out)
}

/// Options of `--algorithm tbc`.
#[derive(Debug, Args, Clone)]
#[command(next_help_heading = "TBC options (--algorithm tbc)")]
pub struct TbcArgs {
    /// Network shape.
    #[arg(long, value_enum, default_value_t)]
    pub structure: Structure,
    /// Treatment of unknown memberships (sem needs tan; robust needs naive).
    #[arg(long, value_enum, default_value_t)]
    pub missing: Missing,
    /// Feature selection: fs (forward) or ffsbe (forward selection, backward elimination).
    #[arg(long, value_enum, default_value_t)]
    pub selection: Selection,
    /// Candidates kept per level of the feature search.
    #[arg(long, value_name = "N", default_value_t = 5)]
    pub beam_width: usize,
    /// Refinement steps from ⊤ in the feature search.
    #[arg(long, value_name = "N", default_value_t = 3)]
    pub beam_depth: usize,
    /// Most feature concepts in the network.
    #[arg(long, value_name = "N", default_value_t = 10)]
    pub max_features: usize,
    /// Longest feature the search widens to when nothing within the current length helps
    /// (default 8; with --max-length, that length: no widening). Not in the paper.
    #[arg(long, value_name = "N")]
    pub widen_to: Option<usize>,
    /// Candidate features proposed by a short CELOE run on the training examples, offered
    /// to the beam at every step (BIC decides); 0: the paper's search. Not in the paper.
    #[arg(long, value_name = "N", default_value_t = 10)]
    pub proposals: usize,
    /// Most concepts the proposal run tests (and at most half of --max-tests/--max-runtime).
    #[arg(long, value_name = "N", default_value_t = 50_000)]
    pub proposal_tests: u64,
}

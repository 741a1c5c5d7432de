//! `--algorithm celoe`: CELOE's parameters from the command line.

use anyhow::Context;

use super::super::args::{LearnArgs, QualityArg, RhoArgs};
use super::super::registry::{LearnerEntry, SHARED};
use crate::KnowledgeBase;
use crate::concept::Concept;
use crate::learn::celoe::{Celoe, CeloeParams, ValidationSplit};
use crate::learn::search::OeHeuristic;
use crate::learn::{Learner, QualityMeasure};
use crate::refine::rho::{Rho, RhoOptions};

pub const ENTRY: LearnerEntry = LearnerEntry {
    name: "celoe",
    about: "best-first refinement search with the ρ operator (DL-Learner's and Ontolearn's CELOE)",
    shared: SHARED,
    own: &[
        "noise",
        "max-depth",
        "max-results",
        "start-class",
        "keep-searching",
        "no-minimize",
        "expansion-penalty",
        "gain-bonus",
        "start-bonus",
        "refinement-penalty",
        "has-value",
        "frequency-threshold",
        "no-validation",
        "validation-rounds",
        "mix-pool",
    ],
    operator: |args| rho_options(&args.rho),
    build,
    extras: |_, _, _, _| Ok(serde_json::Map::new()),
};

pub fn quality_of(q: QualityArg) -> QualityMeasure {
    match q {
        QualityArg::F1 => QualityMeasure::F1,
        QualityArg::Accuracy => QualityMeasure::Accuracy,
    }
}

/// The full ρ language with the command line's switches.
pub fn rho_options(a: &RhoArgs) -> RhoOptions {
    RhoOptions {
        use_negation: !a.no_negation,
        use_all: !a.no_all,
        use_exists: !a.no_exists,
        use_cardinality: !a.no_cardinality,
        cardinality_limit: a.cardinality_limit,
        use_boolean_data: !a.no_booleans,
        use_numeric_data: !a.no_numbers,
        max_numeric_splits: a.numeric_splits,
        use_example_splits: !a.no_example_splits,
        every_split_in_top: !a.widest_bounds_only,
        use_inverse: a.inverse,
        use_self: a.has_self,
        use_disjunction: !a.no_disjunction,
        use_has_value: a.has_value,
        ..RhoOptions::default()
    }
}

/// CELOE's parameters from the command line.
pub fn params(args: &LearnArgs, kb: &KnowledgeBase) -> anyhow::Result<CeloeParams> {
    let c = &args.celoe;
    let start = match &c.start_class {
        Some(text) => kb.parse_concept(text)?,
        None => Concept::Top,
    };
    let params = CeloeParams {
        quality: quality_of(args.search.quality),
        noise_percentage: c.noise.unwrap_or(100.0),
        max_depth: c.max_depth,
        max_length: args.search.max_length,
        max_results: c.max_results,
        start,
        heuristic: OeHeuristic {
            start_node_bonus: c.start_bonus,
            gain_bonus_factor: c.gain_bonus,
            expansion_penalty_factor: c.expansion_penalty,
            node_refinement_penalty: c.refinement_penalty,
        },
        stop_on_perfect: !c.keep_searching,
        minimize: !c.no_minimize,
        semantics: args.semantics.into(),
        validation: (!c.no_validation).then(|| ValidationSplit {
            rounds: usize::from(c.validation_rounds),
            ..ValidationSplit::default()
        }),
        mix_pool: c.mix_pool,
        mix_disjunctions: !args.rho.no_disjunction,
        ..CeloeParams::default()
    };
    params
        .validate()
        .context("invalid learner parameters (see --help)")?;
    Ok(params)
}

fn build<'a>(
    args: &LearnArgs,
    kb: &KnowledgeBase,
    rho: &'a Rho,
) -> anyhow::Result<Box<dyn Learner + 'a>> {
    Ok(Box::new(Celoe::new(params(args, kb)?, rho)?))
}

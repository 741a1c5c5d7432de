//! `--algorithm forest-mixing`: Forest Mixing's parameters from the command line. It takes
//! CELOE's search options (noise, depth, results, heuristic weights) and its own (trees,
//! start classes, the pool draw, the mixing length, the node heuristic); its operator is
//! CELOE's.

use anyhow::Context;

use super::super::args::{ForestHeuristicArg, LearnArgs};
use super::super::registry::{LearnerEntry, SHARED};
use super::celoe::{quality_of, rho_options};
use crate::KnowledgeBase;
use crate::learn::Learner;
use crate::learn::forest::{ALGORITHM, ForestHeuristic, ForestMixing, ForestParams};
use crate::learn::search::{OeHeuristic, ValidationSplit};
use crate::refine::rho::Rho;

pub const ENTRY: LearnerEntry = LearnerEntry {
    name: ALGORITHM,
    about: "CELOE's search as several trees from classes covering all positives, sharing one \
            pool of refinements and mixing the trees' best expressions",
    shared: SHARED,
    own: &[
        "noise",
        "max-depth",
        "max-results",
        "keep-searching",
        "no-minimize",
        "expansion-penalty",
        "gain-bonus",
        "start-bonus",
        "refinement-penalty",
        "trees",
        "start-classes",
        "max-nodes-per-tree",
        "max-mix-length",
        "forest-heuristic",
        "ht1-weight",
        "fh-alpha",
        "fh-beta",
        "fh-gamma",
        "start-coverage",
        "no-validation",
        "validation-rounds",
        "mix-pool",
    ],
    operator: |args| rho_options(&args.rho),
    build,
    extras: |_, _, _, _| Ok(serde_json::Map::new()),
};

/// Forest Mixing's parameters from the command line.
pub fn params(args: &LearnArgs, kb: &KnowledgeBase) -> anyhow::Result<ForestParams> {
    let c = &args.celoe;
    let f = &args.forest;
    let start_classes = f
        .start_classes
        .iter()
        .map(|text| {
            kb.parse_concept(text)
                .with_context(|| format!("--start-classes {text}"))
        })
        .collect::<anyhow::Result<Vec<_>>>()?;
    let base = OeHeuristic {
        start_node_bonus: c.start_bonus,
        gain_bonus_factor: c.gain_bonus,
        expansion_penalty_factor: c.expansion_penalty,
        node_refinement_penalty: c.refinement_penalty,
    };
    let heuristic = match f.forest_heuristic {
        ForestHeuristicArg::Celoe => ForestHeuristic::Celoe(base),
        ForestHeuristicArg::Ht1 => ForestHeuristic::Ht1 {
            base,
            weight: f.ht1_weight,
        },
        ForestHeuristicArg::Fh => ForestHeuristic::Fh {
            alpha: f.fh_alpha,
            beta: f.fh_beta,
            gamma: f.fh_gamma,
        },
    };
    let params = ForestParams {
        quality: quality_of(args.search.quality),
        // As CELOE: no noise constraint unless given, the optimistic bound prunes.
        noise_percentage: c.noise.unwrap_or(100.0),
        start_coverage: f.start_coverage,
        max_depth: c.max_depth,
        max_length: args.search.max_length,
        max_results: c.max_results,
        trees: f.trees,
        start_classes,
        max_nodes_added_per_tree: f.max_nodes_per_tree,
        max_mix_length: f.max_mix_length,
        heuristic,
        stop_on_perfect: !c.keep_searching,
        minimize: !c.no_minimize,
        semantics: args.semantics.into(),
        validation: (!c.no_validation).then(|| ValidationSplit {
            rounds: usize::from(c.validation_rounds),
            ..ValidationSplit::default()
        }),
        mix_pool: c.mix_pool,
        mix_disjunctions: !args.rho.no_disjunction,
        ..ForestParams::default()
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
    Ok(Box::new(ForestMixing::new(params(args, kb)?, rho)?))
}

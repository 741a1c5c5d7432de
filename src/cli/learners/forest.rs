//! `--algorithm forest-mixing`: Forest Mixing's parameters from the command line. It takes
//! CELOE's search options (noise, depth, results, heuristic weights) and its own (trees,
//! start classes, the pool draw, the mixing length, the node heuristic); its operator is
//! CELOE's.

use anyhow::Context;
use clap::{Args, ValueEnum};

use super::LearnArgs;
use super::celoe::rho_options;
use super::celoe::{CeloeArgs, HasValueArgs, SolutionArgs};
use super::{LearnerEntry, SharedFlags, group};
use crate::KnowledgeBase;
use crate::learn::Learner;
use crate::learn::forest::{ALGORITHM, ForestHeuristic, ForestMixing, ForestParams};
use crate::learn::search::{OeHeuristic, ValidationSplit};
use crate::refine::rho::{Rho, RhoOptions};

pub const ENTRY: LearnerEntry = LearnerEntry {
    name: ALGORITHM,
    about: "CELOE's search as several trees from classes covering all positives, sharing one \
            pool of refinements and mixing the trees' best expressions",
    shared: SharedFlags::All,
    own: &[
        group::<CeloeArgs>,
        group::<SolutionArgs>,
        group::<ForestArgs>,
        group::<HasValueArgs>,
    ],
    operator: |args| RhoOptions {
        use_has_value: args.values.enabled(),
        ..rho_options(&args.rho)
    },
    multi_class: false,
    build,
    extras: |_, _, _, _| Ok(serde_json::Map::new()),
};

/// Forest Mixing's default `--trees`.
pub const TREES: usize = 2;

/// Forest Mixing's parameters from the command line.
pub fn params(args: &LearnArgs, kb: &KnowledgeBase) -> anyhow::Result<ForestParams> {
    let (c, s, f) = (&args.celoe, &args.solutions, &args.forest);
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
        quality: args.search.quality,
        // As CELOE: no noise constraint unless given, the optimistic bound prunes.
        noise_percentage: c.noise.unwrap_or(100.0),
        start_coverage: f.start_coverage,
        max_depth: c.max_depth.unwrap_or(super::celoe::MAX_DEPTH),
        max_length: args.search.max_length,
        max_results: s.max_results,
        trees: f.trees.unwrap_or(TREES),
        start_classes,
        max_nodes_added_per_tree: f.max_nodes_per_tree,
        max_mix_length: f.max_mix_length,
        heuristic,
        stop_on_perfect: !s.keep_searching,
        minimize: !c.no_minimize,
        semantics: args.semantics,
        validation: (!s.no_validation).then(|| ValidationSplit {
            rounds: usize::from(s.validation_rounds),
            ..ValidationSplit::default()
        }),
        mix_pool: s.mix_pool,
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

/// Forest Mixing's own options (it also takes CELOE's search options: --noise,
/// --max-depth, --max-results, --keep-searching, --no-minimize and the heuristic weights).
#[derive(Debug, Args, Clone)]
#[command(next_help_heading = "Forest Mixing options (--algorithm forest-mixing)")]
pub struct ForestArgs {
    /// Most trees grown from computed start classes (the most specific classes covering
    /// all positives; ⊤ when none does) [default: 2].
    #[arg(long, value_name = "N")]
    pub trees: Option<usize>,
    /// The share of the positives a computed start class must cover (the paper's PosCov
    /// = 1.0; lower tolerates noisy positives).
    #[arg(long, value_name = "F", default_value_t = 1.0)]
    pub start_coverage: f64,
    /// A tree's start class (repeatable: one tree each; replaces the computed ones).
    #[arg(long = "start-classes", value_name = "EXPR")]
    pub start_classes: Vec<String>,
    /// The paper's maxNodesAddedPerTree: expressions a tree takes from the shared pool per
    /// turn.
    #[arg(long, value_name = "N", default_value_t = 10)]
    pub max_nodes_per_tree: usize,
    /// Longest conjunction the mixing step adds to the pool.
    #[arg(long, value_name = "N", default_value_t = 10)]
    pub max_mix_length: usize,
    /// Node score: celoe (CELOE's), ht1 (+ weight / parent's refinements), fh (F1 with
    /// depth penalty and high/low-F1 bonus/penalty).
    #[arg(long, value_enum, default_value_t)]
    pub forest_heuristic: ForestHeuristicArg,
    /// HT1's weight of 1 / (parent's refinement count).
    #[arg(long, value_name = "F", default_value_t = 0.1)]
    pub ht1_weight: f64,
    /// FH's penalty α per horizontal expansion.
    #[arg(long, value_name = "F", default_value_t = 0.1)]
    pub fh_alpha: f64,
    /// FH's bonus β when F1 ≥ 0.8.
    #[arg(long, value_name = "F", default_value_t = 0.1)]
    pub fh_beta: f64,
    /// FH's penalty γ when F1 ≤ 0.3.
    #[arg(long, value_name = "F", default_value_t = 0.1)]
    pub fh_gamma: f64,
}

#[derive(Debug, Clone, Copy, ValueEnum, Default, PartialEq, Eq)]
pub enum ForestHeuristicArg {
    /// CELOE's score (DL-Learner's OEHeuristicRuntime).
    #[default]
    Celoe,
    /// The paper's HT1.
    Ht1,
    /// The paper's FH.
    Fh,
}

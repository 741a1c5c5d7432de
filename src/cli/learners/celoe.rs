//! `--algorithm celoe`: CELOE's parameters from the command line.

use anyhow::Context;
use clap::Args;

use super::{LearnArgs, RhoArgs};
use super::{LearnerEntry, SharedFlags, group};
use crate::KnowledgeBase;
use crate::concept::Concept;
use crate::learn::Learner;
use crate::learn::celoe::{Celoe, CeloeParams, ValidationSplit};
use crate::learn::search::OeHeuristic;
use crate::refine::rho::{Rho, RhoOptions};

pub const ENTRY: LearnerEntry = LearnerEntry {
    name: "celoe",
    about: "best-first refinement search with the ρ operator (DL-Learner's and Ontolearn's CELOE)",
    shared: SharedFlags::All,
    own: &[
        group::<CeloeArgs>,
        group::<SolutionArgs>,
        group::<StartArgs>,
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

/// The full ρ language with the command line's switches (∃r.{a} only for the learners that
/// take [`HasValueArgs`]: see their operators).
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
        ..RhoOptions::default()
    }
}

/// CELOE's parameters from the command line.
pub fn params(args: &LearnArgs, kb: &KnowledgeBase) -> anyhow::Result<CeloeParams> {
    let (c, s) = (&args.celoe, &args.solutions);
    let start = match &args.start.start_class {
        Some(text) => kb.parse_concept(text)?,
        None => Concept::Top,
    };
    let params = CeloeParams {
        quality: args.search.quality,
        noise_percentage: c.noise.unwrap_or(100.0),
        max_depth: c.max_depth.unwrap_or(MAX_DEPTH),
        max_length: args.search.max_length,
        max_results: s.max_results,
        start,
        heuristic: OeHeuristic {
            start_node_bonus: c.start_bonus,
            gain_bonus_factor: c.gain_bonus,
            expansion_penalty_factor: c.expansion_penalty,
            node_refinement_penalty: c.refinement_penalty,
        },
        stop_on_perfect: !s.keep_searching,
        minimize: !c.no_minimize,
        semantics: args.semantics,
        validation: (!s.no_validation).then(|| ValidationSplit {
            rounds: usize::from(s.validation_rounds),
            ..ValidationSplit::default()
        }),
        mix_pool: s.mix_pool,
        mix_disjunctions: !args.rho.no_disjunction,
        neighbourhood: if args.start.no_neighbourhood {
            None
        } else {
            CeloeParams::default().neighbourhood
        },
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

/// CELOE's search: also the search of Forest Mixing's trees and of each multi-class rule.
#[derive(Debug, Args, Clone)]
#[command(next_help_heading = "CELOE search (celoe, forest-mixing, multiclass)")]
pub struct CeloeArgs {
    /// Percentage of positives a solution may miss (DL-Learner's noise constraint). Without
    /// it, no constraint: nodes are pruned by their optimistic bound instead.
    #[arg(long, value_name = "PCT")]
    pub noise: Option<f64>,
    /// Deepest class expression considered [default: 7].
    #[arg(long, value_name = "N")]
    pub max_depth: Option<usize>,
    /// Report solutions as found, without removing redundant parts.
    #[arg(long)]
    pub no_minimize: bool,
    /// Score penalty per horizontal expansion of a node (DL-Learner's family configurations
    /// use 0.02).
    #[arg(long, value_name = "F", default_value_t = 0.1)]
    pub expansion_penalty: f64,
    /// Score bonus per unit of quality gained over the parent node.
    #[arg(long, value_name = "F", default_value_t = 0.3)]
    pub gain_bonus: f64,
    /// Score bonus of the start node.
    #[arg(long, value_name = "F", default_value_t = 0.1)]
    pub start_bonus: f64,
    /// Score penalty per refinement a node produced.
    #[arg(long, value_name = "F", default_value_t = 0.0001)]
    pub refinement_penalty: f64,
}

/// CELOE's default `--max-depth`.
pub const MAX_DEPTH: usize = 7;

/// How CELOE chooses and reports its solutions (and Forest Mixing's).
#[derive(Debug, Args, Clone)]
#[command(next_help_heading = "CELOE solutions (celoe, forest-mixing)")]
pub struct SolutionArgs {
    /// Best distinct solutions reported.
    #[arg(long, value_name = "N", default_value_t = 10)]
    pub max_results: usize,
    /// Keep searching after a perfect solution (until the budget ends).
    #[arg(long)]
    pub keep_searching: bool,
    /// Return the best expression on the training examples even when it is not perfect,
    /// instead of the best of the length a validation split supports.
    #[arg(long)]
    pub no_validation: bool,
    /// Thirds of the training examples held out in turn to choose that length (1–3; the
    /// held-out qualities are averaged).
    #[arg(long, value_name = "N", default_value_t = 3, value_parser = clap::value_parser!(u8).range(1..=3))]
    pub validation_rounds: u8,
    /// Best concepts kept for mixing (conjunctions and disjunctions of partial solutions,
    /// scored from their parts' coverage without a query); 0: DL-Learner's CELOE (for
    /// Forest Mixing: only the paper's mixing).
    #[arg(long, value_name = "N", default_value_t = 20)]
    pub mix_pool: usize,
}

/// CELOE's alone: where the search starts.
#[derive(Debug, Args, Clone)]
#[command(next_help_heading = "CELOE only (celoe, multiclass)")]
pub struct StartArgs {
    /// Start the search from this class expression instead of owl:Thing.
    #[arg(long, value_name = "EXPR")]
    pub start_class: Option<String>,
    /// Do not add, when the search first stalls, the expressions built from the examples'
    /// neighbourhood (`A ⊓ ∃r.∃s.(B ⊔ C)` from the classes the positives' successors carry):
    /// DL-Learner's CELOE, top-down only.
    #[arg(long)]
    pub no_neighbourhood: bool,
}

/// The individuals ∃r.{a} (hasValue) may name: only successors frequent among the examples,
/// so the candidates are bounded by the examples, never the KB's individuals. On by default:
/// classes of held-out individuals often turn on a specific project, topic or place, and
/// without ∃r.{a} CELOE cannot say so (issue 31). `--frequency-threshold` also sets the tree
/// learners' ∃r.{o} features.
#[derive(Debug, Args, Clone)]
#[command(next_help_heading = "hasValue (celoe, forest-mixing, multiclass)")]
pub struct HasValueArgs {
    /// No ∃r.{a} (hasValue): DL-Learner's default (a `.conf` file's useHasValue = false).
    #[arg(long, conflicts_with = "has_value")]
    pub no_has_value: bool,
    /// Use ∃r.{a} for the individuals that at least --frequency-threshold examples reach
    /// through r (DL-Learner's op.useHasValue). The default: this flag only overrides a
    /// `.conf` file's useHasValue = false.
    #[arg(long)]
    pub has_value: bool,
    /// Fewest examples that must share a successor for it to be a hasValue candidate
    /// (DL-Learner's op.frequencyThreshold).
    #[arg(long, value_name = "N", default_value_t = 3)]
    pub frequency_threshold: usize,
}

impl HasValueArgs {
    /// Whether the operator proposes ∃r.{a}.
    pub fn enabled(&self) -> bool {
        !self.no_has_value
    }
}

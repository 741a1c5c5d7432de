//! `--algorithm tdt` (alias `decision-tree`): a terminological decision tree over the
//! examples' neighbourhood features and ρ-refinements, pruned by internal cross-validation.
//! Its options ([`TreeArgs`]) are shared with `trf`; it also reads `--max-depth` (default
//! [`MAX_DEPTH`]) and `--frequency-threshold`. The operator is CELOE's ρ.

use anyhow::Context;
use clap::{Args, ValueEnum};

use super::LearnArgs;
use super::celoe::rho_options;
use super::{LearnerEntry, SharedFlags, group};
use crate::KnowledgeBase;
use crate::learn::Learner;
use crate::learn::features::FeatureParams;
use crate::learn::tdt::{ALGORITHM, Criterion, Tdt, TdtParams};
use crate::refine::rho::Rho;

pub const ENTRY: LearnerEntry = LearnerEntry {
    name: ALGORITHM,
    about: "terminological decision tree: splits on neighbourhood features and ρ-refinements by \
            information gain, pruned by internal cross-validation; multi-class; a binary tree \
            is one class expression",
    shared: SharedFlags::Only(&[
        "max-runtime",
        "no-negation",
        "no-all",
        "no-exists",
        "inverse",
    ]),
    own: &[group::<TreeArgs>, borrowed_flags],
    operator: |args| rho_options(&args.rho),
    multi_class: true,
    build,
    extras: |_, _, _, _| Ok(serde_json::Map::new()),
};

/// Flags of other learners' groups the tree learners read with their own defaults.
pub fn borrowed_flags() -> Vec<String> {
    ["max-depth", "trees", "frequency-threshold"]
        .map(str::to_owned)
        .to_vec()
}

/// The tree's default `--max-depth`.
pub const MAX_DEPTH: usize = 10;

/// The neighbourhood features the command line asks for.
pub fn features(args: &LearnArgs) -> FeatureParams {
    FeatureParams {
        frequency_threshold: args.values.frequency_threshold,
        depth: args.trees.feature_depth,
        max_thresholds: args.trees.max_thresholds,
        max_counts: args.trees.max_counts,
        ..FeatureParams::default()
    }
}

/// How the trees grow, from the tree options, with the learner's default depth and
/// refinements per node.
pub fn grow_params(
    args: &LearnArgs,
    max_depth: usize,
    refinements: usize,
) -> crate::learn::tdt::GrowParams {
    let t = &args.trees;
    crate::learn::tdt::GrowParams {
        criterion: t.criterion.into(),
        max_depth: args.celoe.max_depth.unwrap_or(max_depth),
        min_leaf: t.min_leaf,
        feature_sample: t.feature_sample,
        refinements: t.tree_refinements.unwrap_or(refinements),
    }
}

pub fn params(args: &LearnArgs) -> anyhow::Result<TdtParams> {
    let t = &args.trees;
    let d = TdtParams::default();
    let params = TdtParams {
        grow: grow_params(args, MAX_DEPTH, d.grow.refinements),
        features: features(args),
        prune_folds: t.prune_folds,
        seed: t.tree_seed,
        semantics: args.semantics,
    };
    params
        .validate()
        .context("invalid learner parameters (see --help)")?;
    Ok(params)
}

fn build<'a>(
    args: &LearnArgs,
    _kb: &KnowledgeBase,
    rho: &'a Rho,
) -> anyhow::Result<Box<dyn Learner + 'a>> {
    Ok(Box::new(Tdt::new(params(args)?, Some(rho))?))
}

/// Options of the tree learners (`tdt`, `trf`).
#[derive(Debug, Args, Clone)]
#[command(
    next_help_heading = "Tree options (tdt, trf; also --max-depth, --trees, --frequency-threshold)"
)]
pub struct TreeArgs {
    /// The impurity a split decreases.
    #[arg(long, value_enum, default_value_t)]
    pub criterion: CriterionArg,
    /// Fewest training examples in a leaf.
    #[arg(long, value_name = "N", default_value_t = 1)]
    pub min_leaf: usize,
    /// ρ-refinements of the parent's test tried at each node [default: tdt 20, trf 5].
    #[arg(long, value_name = "N")]
    pub tree_refinements: Option<usize>,
    /// Features drawn at random per node [default: tdt all, trf √(features)].
    #[arg(long, value_name = "N")]
    pub feature_sample: Option<usize>,
    /// Longest role chain in a feature (1 or 2).
    #[arg(long, value_name = "N", default_value_t = 2)]
    pub feature_depth: usize,
    /// Most numeric thresholds per data property and level.
    #[arg(long, value_name = "N", default_value_t = 16)]
    pub max_thresholds: usize,
    /// Most count thresholds `≥n r.C` (n ≥ 2) per role and filler (0: no count features).
    #[arg(long, value_name = "N", default_value_t = 0)]
    pub max_counts: usize,
    /// Folds of the internal cross-validation choosing tdt's pruning (< 2: no pruning).
    #[arg(long, value_name = "N", default_value_t = 5)]
    pub prune_folds: usize,
    /// trf: class-balanced bootstrap samples (Rizzo et al.'s, every class drawn equally often)
    /// instead of plain ones: more recall on a minority class, but on noisy labels the
    /// oversampled minority's flipped labels are memorised and accuracy drops.
    #[arg(long)]
    pub balance: bool,
    /// Seed of the trees' random choices (folds, bootstraps, feature subsets).
    #[arg(long, value_name = "N", default_value_t = 1)]
    pub tree_seed: u64,
}

#[derive(Debug, Clone, Copy, ValueEnum, Default, PartialEq, Eq)]
pub enum CriterionArg {
    /// Information gain.
    #[default]
    Entropy,
    Gini,
}

impl From<CriterionArg> for Criterion {
    fn from(c: CriterionArg) -> Self {
        match c {
            CriterionArg::Entropy => Criterion::Entropy,
            CriterionArg::Gini => Criterion::Gini,
        }
    }
}

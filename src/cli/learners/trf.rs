//! `--algorithm trf` (alias `random-forest`): a terminological random forest, trees grown
//! in parallel on bootstraps (class-balanced with `--balance`) with random feature subsets;
//! scores are vote shares. It takes the tree options ([`super::tdt::TreeArgs`]), `--trees` (default
//! [`TREES`]), `--max-depth` (default [`MAX_DEPTH`]) and `--frequency-threshold`.

use anyhow::Context;

use super::LearnArgs;
use super::celoe::rho_options;
use super::tdt::{TreeArgs, borrowed_flags, features, grow_params};
use super::{LearnerEntry, SharedFlags, group};
use crate::KnowledgeBase;
use crate::learn::Learner;
use crate::learn::trf::{ALGORITHM, Trf, TrfParams};
use crate::refine::rho::Rho;

pub const ENTRY: LearnerEntry = LearnerEntry {
    name: ALGORITHM,
    about: "terminological random forest: trees on bootstraps (class-balanced with --balance) \
            with random feature subsets, in parallel; predicts vote shares",
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

/// The forest's default `--trees`.
pub const TREES: usize = 50;
/// The forest's default `--max-depth`.
pub const MAX_DEPTH: usize = 12;

pub fn params(args: &LearnArgs) -> anyhow::Result<TrfParams> {
    let t = &args.trees;
    let d = TrfParams::default();
    let params = TrfParams {
        trees: args.forest.trees.unwrap_or(TREES),
        grow: grow_params(args, MAX_DEPTH, d.grow.refinements),
        features: features(args),
        balance: t.balance,
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
    Ok(Box::new(Trf::new(params(args)?, Some(rho))?))
}

//! The registry of learners the CLI can run. `learn`, `cv` and `bench learn` go through it
//! and nothing else: adding a learner is its library module plus one [`LearnerEntry`] here
//! (its constructor from the parsed arguments, the shared flags it can use and its own).

use anyhow::bail;
use clap::builder::{PossibleValue, PossibleValuesParser};

use super::args::LearnArgs;
use super::learners;
use crate::KnowledgeBase;
use crate::learn::{Examples, FitResult, Learner};
use crate::refine::rho::{Rho, RhoOptions};

/// Builds the learner from the arguments (parameters validated) over the command's operator.
pub type BuildFn =
    for<'a> fn(&LearnArgs, &KnowledgeBase, &'a Rho) -> anyhow::Result<Box<dyn Learner + 'a>>;

/// Learner-specific JSON fields of one run (`fold`: for a cross-validation fold, where
/// per-example output is left out).
pub type ExtrasFn = fn(
    &KnowledgeBase,
    &FitResult,
    &Examples,
    bool,
) -> anyhow::Result<serde_json::Map<String, serde_json::Value>>;

/// One learner as the CLI sees it.
pub struct LearnerEntry {
    /// `--algorithm` value, also the model files' `algorithm`.
    pub name: &'static str,
    pub about: &'static str,
    /// The shared flags (long names) it uses; the others are refused when given.
    pub shared: &'static [&'static str],
    /// Its own flags (long names): refused for every other learner.
    pub own: &'static [&'static str],
    /// The operator's language for this learner.
    pub operator: fn(&LearnArgs) -> RhoOptions,
    pub build: BuildFn,
    pub extras: ExtrasFn,
}

/// Every learner.
pub const REGISTRY: &[&LearnerEntry] = &[
    &learners::celoe::ENTRY,
    &learners::tbc::ENTRY,
    &learners::forest::ENTRY,
    &learners::boost::OWL_BOOST,
    &learners::boost::WFOIL_DL,
    &learners::multiclass::ENTRY,
];

/// Flags every learner command shares, whether or not the learner uses them.
pub const SHARED: &[&str] = &[
    "max-runtime",
    "max-tests",
    "quality",
    "max-length",
    "no-negation",
    "no-all",
    "no-exists",
    "no-cardinality",
    "cardinality-limit",
    "no-booleans",
    "no-numbers",
    "numeric-splits",
    "no-disjunction",
    "inverse",
    "self",
];

/// `--algorithm`'s parser: the registry's names, each with its description.
pub fn algorithm_parser() -> PossibleValuesParser {
    PossibleValuesParser::new(
        REGISTRY
            .iter()
            .map(|e| PossibleValue::new(e.name).help(e.about))
            .collect::<Vec<_>>(),
    )
}

/// The entry of `--algorithm` after checking that every flag given on the command line is
/// one it uses; all refused flags are reported at once.
pub fn entry_for(args: &LearnArgs) -> anyhow::Result<&'static LearnerEntry> {
    let Some(entry) = REGISTRY.iter().copied().find(|e| e.name == args.algorithm) else {
        bail!(
            "unknown --algorithm {}; known: {}",
            args.algorithm,
            REGISTRY
                .iter()
                .map(|e| e.name)
                .collect::<Vec<_>>()
                .join(", ")
        );
    };
    let mut refused = Vec::new();
    for flag in &args.explicit {
        let flag = flag.as_str();
        if SHARED.contains(&flag) && !entry.shared.contains(&flag) {
            refused.push(format!("--{flag} (not used by {})", entry.name));
        } else if let Some(owner) = REGISTRY
            .iter()
            .find(|e| e.name != entry.name && e.own.contains(&flag) && !entry.own.contains(&flag))
        {
            refused.push(format!(
                "--{flag} (an option of --algorithm {})",
                owner.name
            ));
        }
    }
    if !refused.is_empty() {
        bail!(
            "--algorithm {} does not take {}",
            entry.name,
            refused.join(", ")
        );
    }
    Ok(entry)
}

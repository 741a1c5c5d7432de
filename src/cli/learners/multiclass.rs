//! `--algorithm multiclass`: multi-class rule theories (MRL, MRSI, MRSU, CN2). The entry
//! makes the learner known to the registry (flags, parameters); its commands run through
//! the CLI's `multiclass` module, since a multi-class problem is not a positive/negative one.

use std::collections::BTreeSet;

use anyhow::{Context, bail};
use clap::Args;

use super::LearnArgs;
use super::celoe::{self, CeloeArgs, StartArgs};
use super::{LearnerEntry, SharedFlags, group};
use crate::KnowledgeBase;
use crate::concept::Iri;
use crate::learn::Learner;
use crate::learn::multiclass::{Combine, MultiClass, MultiClassParams};
use crate::problem::MultiClassProblem;
use crate::refine::rho::{Rho, RhoOptions};

pub const ENTRY: LearnerEntry = LearnerEntry {
    name: crate::learn::multiclass::ALGORITHM,
    about: "multi-class rule theories: one-vs-rest covering with CELOE, combined by MRL, MRSI, MRSU or CN2",
    // Not --max-tests: each rule search has its own test budget (--rule-tests).
    shared: SharedFlags::AllBut(&["max-tests"]),
    // The whole operator of the binary learners (issue 31 item 4), with CELOE's start
    // options: rules may name individuals (`∃r.{a}`), on by default.
    own: &[
        group::<CeloeArgs>,
        group::<StartArgs>,
        group::<MulticlassArgs>,
    ],
    operator: |args| RhoOptions {
        use_has_value: args.start.has_value || !args.multiclass.no_has_value,
        ..celoe::rho_options(&args.rho)
    },
    build,
    extras: |_, _, _, _| Ok(serde_json::Map::new()),
};

/// The parameters from the command line and, when given, the problem (its ignored classes).
pub fn params(
    args: &LearnArgs,
    kb: &KnowledgeBase,
    problem: Option<&MultiClassProblem>,
) -> anyhow::Result<MultiClassParams> {
    let m = &args.multiclass;
    let celoe = celoe::params(args, kb)?;
    let mut ignored = BTreeSet::new();
    for given in &m.ignore_class {
        let iri = Iri::new(given.trim().trim_start_matches('<').trim_end_matches('>'));
        // A mistyped IRI would be silently ignored and the rules could read the answer off
        // the class it meant to hide.
        let sig = kb.signature();
        if !sig.classes.contains(&iri) && !sig.schema_classes.contains(&iri) {
            bail!(
                "--ignore-class {given}: not a class of the knowledge base (expected the full \
                 IRI of a named class)"
            );
        }
        ignored.insert(iri);
    }
    if let Some(p) = problem {
        ignored.extend(p.ignored_classes.iter().map(|c| Iri::new(c.as_str())));
    }
    let params = MultiClassParams {
        combine: m.combine,
        celoe,
        rule_tests: m.rule_tests,
        max_rules_per_class: m.max_rules,
        min_chi2: m.min_chi2,
        seed: m.combine_seed,
        ignored_classes: ignored,
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
    Ok(Box::new(MultiClass::new(params(args, kb, None)?, rho)?))
}

/// Options of `--algorithm multiclass` (multi-class rule theories, issue 15).
#[derive(Debug, Args, Clone)]
#[command(next_help_heading = "Multi-class options (--algorithm multiclass)")]
pub struct MulticlassArgs {
    /// How the one-vs-rest rules become one model (the library's enum, so each method is
    /// described once, on its variant).
    #[arg(long, value_enum, default_value_t = Combine::Mrsi)]
    pub combine: Combine,
    /// Candidate concepts CELOE tests per rule of the covering learner.
    #[arg(long, value_name = "N", default_value_t = 2000)]
    pub rule_tests: u64,
    /// Most rules per class (default: until the class is covered or no rule is good enough).
    #[arg(long, value_name = "N")]
    pub max_rules: Option<usize>,
    /// χ² a rule must reach on the examples it was learned from to be kept (default 3.84:
    /// significance 0.05).
    #[arg(long, value_name = "X", default_value_t = crate::learn::multiclass::chi2::CHI2_CRITICAL_05)]
    pub min_chi2: f64,
    /// Seed of the random choices among ties (MRL's order, tied classes).
    #[arg(long, value_name = "N", default_value_t = 1)]
    pub combine_seed: u64,
    /// A class rules must not use (repeatable; adds to a `.conf` file's ignoredConcepts).
    #[arg(long = "ignore-class", value_name = "IRI")]
    pub ignore_class: Vec<String>,
    /// No ∃r.{a} (hasValue) in rules. By default rules may name the individuals that at
    /// least --frequency-threshold examples reach through r (a project, a topic, an
    /// element: what such classes often turn on); --has-value is then implied.
    #[arg(long, conflicts_with = "has_value")]
    pub no_has_value: bool,
}

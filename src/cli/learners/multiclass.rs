//! `--algorithm multiclass`: multi-class rule theories (MRL, MRSI, MRSU, CN2). The entry
//! makes the learner known to the registry (flags, parameters); its commands run through
//! [`crate::cli::multiclass`], since a multi-class problem is not a positive/negative one.

use std::collections::BTreeSet;

use anyhow::{Context, bail};

use super::super::args::{CombineArg, LearnArgs};
use super::super::registry::LearnerEntry;
use super::celoe;
use crate::KnowledgeBase;
use crate::concept::Iri;
use crate::learn::Learner;
use crate::learn::multiclass::{Combine, MultiClass, MultiClassParams};
use crate::problem::MultiClassProblem;
use crate::refine::rho::Rho;

pub const ENTRY: LearnerEntry = LearnerEntry {
    name: crate::learn::multiclass::ALGORITHM,
    about: "multi-class rule theories: one-vs-rest covering with CELOE, combined by MRL, MRSI, MRSU or CN2",
    // Not --max-tests: each rule search has its own test budget (--rule-tests).
    shared: &[
        "max-runtime",
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
        "no-example-splits",
        "widest-bounds-only",
        "no-disjunction",
        "inverse",
        "self",
    ],
    own: &[
        "combine",
        "label-column",
        "test",
        "rule-tests",
        "max-rules",
        "min-chi2",
        "combine-seed",
        "ignore-class",
        "noise",
        "max-depth",
        "no-minimize",
        "expansion-penalty",
        "gain-bonus",
        "start-bonus",
        "refinement-penalty",
    ],
    operator: |args| celoe::rho_options(&args.rho),
    build,
    extras: |_, _, _, _| Ok(serde_json::Map::new()),
};

pub fn combine_of(c: CombineArg) -> Combine {
    match c {
        CombineArg::Mrl => Combine::Mrl,
        CombineArg::Mrsi => Combine::Mrsi,
        CombineArg::Mrsu => Combine::Mrsu,
        CombineArg::Cn2 => Combine::Cn2,
    }
}

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
        combine: combine_of(m.combine),
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

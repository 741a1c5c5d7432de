//! `--algorithm multiclass`: multi-class rule theories (MRL, MRSI, MRSU, CN2). The entry
//! makes the learner known to the registry (flags, parameters); `learn` and `cv` run its
//! problems through the multi-class pipeline (`cli::multiclass_run`), which this
//! learner enters as [`Rules`]: it fits a rule table that one combination turns into the
//! model, scored with its rules, and adds the combination, the rules and the default class
//! to the JSON.

use std::collections::{BTreeMap, BTreeSet};
use std::sync::Arc;

use anyhow::{Context, bail};
use clap::Args;
use serde::Serialize;

use super::super::learner::{Prepared, control, max_runtime};
use super::super::multiclass_learner::{Fit, MultiClassCli};
use super::super::progress::SearchProgress;
use super::LearnArgs;
use super::celoe::{self, CeloeArgs, HasValueArgs, StartArgs};
use super::{LearnerEntry, SharedFlags, group};
use crate::KnowledgeBase;
use crate::concept::Iri;
use crate::learn::multiclass::RulesRun;
use crate::learn::multiclass::{Combine, MultiClass, MultiClassModel, MultiClassParams};
use crate::learn::{Learner, TrainingSet};
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
        group::<HasValueArgs>,
        group::<MulticlassArgs>,
    ],
    operator: |args| RhoOptions {
        use_has_value: args.values.enabled(),
        ..celoe::rho_options(&args.rho)
    },
    multi_class: true,
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
}

/// Whether `args` selects the multi-class learner (its problems are multi-class).
pub fn handles(args: &LearnArgs) -> bool {
    args.algorithm == crate::learn::multiclass::ALGORITHM
}

/// One rule as printed in JSON.
#[derive(Serialize)]
struct RuleJson {
    class: String,
    manchester: String,
    dl: String,
    /// Training examples covered, per class.
    coverage: BTreeMap<String, usize>,
}

/// The learner's fields after `algorithm`.
#[derive(Serialize)]
pub struct Head {
    combine: &'static str,
}

/// The learner's fields after `examples`.
#[derive(Serialize)]
pub struct Body {
    /// In the order the method reads them (MRL: the list).
    rules: Vec<RuleJson>,
    default_class: String,
}

/// One fit of the rule table of `training`, the problem's ignored classes hidden.
pub fn learner_run(
    args: &LearnArgs,
    prep: &Prepared,
    problem: &MultiClassProblem,
    training: &TrainingSet,
    label: &str,
) -> anyhow::Result<(RulesRun, serde_json::Value)> {
    let learner = MultiClass::new(params(args, &prep.kb, Some(problem))?, &prep.rho)?;
    let progress = Arc::new(SearchProgress::new(label, args.quiet));
    let run = learner.learn_rules(
        prep.kb.oracle(),
        training,
        &control(args, max_runtime(args)?, &progress),
    );
    progress.finish();
    let mut run = run.with_context(|| format!("learning {label}"))?;
    run.stats.load_ms = prep.load_ms;
    run.stats.signature_ms = prep.signature_ms;
    Ok((run, learner.parameters()))
}

/// The rules in the order the method reads them, and the default rule's class.
fn body(kb: &KnowledgeBase, model: &MultiClassModel) -> Body {
    let t = &model.table;
    let c = &model.combination;
    let order: Vec<usize> = if c.method == Combine::Mrl {
        c.order.clone()
    } else {
        (0..t.rules.len()).collect()
    };
    let per_class = |counts: Vec<usize>| -> BTreeMap<String, usize> {
        t.classes.iter().cloned().zip(counts).collect()
    };
    let default_class = if c.method == Combine::Mrl {
        c.default_class
    } else {
        let most = c.default_counts.iter().copied().max().unwrap_or(0);
        c.default_counts
            .iter()
            .position(|&n| n == most)
            .unwrap_or(0)
    };
    Body {
        rules: order
            .iter()
            .map(|&r| {
                let rule = &t.rules[r];
                RuleJson {
                    class: t.classes[rule.class].clone(),
                    manchester: kb.manchester(&rule.concept),
                    dl: kb.dl(&rule.concept),
                    coverage: per_class(t.class_counts(&rule.covers)),
                }
            })
            .collect(),
        default_class: t.classes[default_class].clone(),
    }
}

/// The rule learner in the multi-class pipeline: its rule table combined by `--combine`.
pub struct Rules;

impl MultiClassCli for Rules {
    type Fitted = MultiClassModel;
    type Head = Head;
    type Body = Body;

    fn fit(
        &self,
        args: &LearnArgs,
        prep: &Prepared,
        problem: &MultiClassProblem,
        training: TrainingSet,
        label: &str,
    ) -> anyhow::Result<Fit<MultiClassModel>> {
        let (run, parameters) = learner_run(args, prep, problem, &training, label)?;
        let m = &args.multiclass;
        Ok(Fit {
            fitted: MultiClassModel::new(run.table, m.combine, m.combine_seed, args.semantics),
            stats: run.stats,
            parameters,
        })
    }

    fn head(&self, args: &LearnArgs) -> Head {
        Head {
            combine: args.multiclass.combine.name(),
        }
    }

    fn body(&self, kb: &KnowledgeBase, fitted: &MultiClassModel) -> Body {
        body(kb, fitted)
    }

    fn titles(&self, args: &LearnArgs) -> (String, String) {
        let combine = args.multiclass.combine.name();
        (
            format!("multiclass, combine {combine}"),
            format!("multiclass {combine}"),
        )
    }
}

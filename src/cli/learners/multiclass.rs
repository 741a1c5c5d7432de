//! `--algorithm multiclass`: multi-class rule theories (MRL, MRSI, MRSU, CN2). The entry
//! makes the learner known to the registry (flags, parameters); `learn` and `cv` of a
//! multi-class problem run through [`learn`] and [`cv`] here. A multi-class problem (see
//! [`crate::problem::load_multiclass`]) is opened like any other (its one-vs-rest problems
//! give the examples' neighbourhood, see [`open`]); the learner fits a rule table, which one
//! combination turns into the model. Cross-validation is the library's
//! ([`crate::learn::multiclass::experiment`]), each fold fitted here with a progress bar.

use std::collections::BTreeSet;

use anyhow::{Context, bail};
use clap::Args;

use super::super::learner::{Prepared, cancelled, control, max_runtime, prepare, stats_line};
use super::super::progress::SearchProgress;
use super::LearnArgs;
use super::celoe::{self, CeloeArgs, HasValueArgs, StartArgs};
use super::{LearnerEntry, SharedFlags, group};
use crate::KnowledgeBase;
use crate::concept::Iri;
use crate::eval::Summary;
use crate::learn::Learner;
use crate::learn::multiclass::RulesRun;
use crate::learn::multiclass::experiment::{
    self, CvSetup, CvSummary, ProblemCv, evaluate, labelled, summarize,
};
use crate::learn::multiclass::measures::Scores;
use crate::learn::multiclass::{Combine, MultiClass, MultiClassModel, MultiClassParams};
use crate::learn::{Model, RunStats, TrainingSet, document};
use crate::oracle::IndividualSet;
use crate::problem::MultiClassProblem;
use crate::problem::{LearningProblem, load_multiclass};
use crate::refine::rho::{Rho, RhoOptions};
use serde::Serialize;
use std::collections::BTreeMap;
use std::sync::Arc;

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

/// The problems of `--problems`, only those named by `--problem`.
pub fn load(args: &LearnArgs) -> anyhow::Result<Vec<MultiClassProblem>> {
    let path = &args.problems;
    let all = load_multiclass(path, args.label_column.as_deref())
        .with_context(|| format!("reading multi-class problems from {}", path.display()))?;
    if args.problem.is_empty() {
        return Ok(all);
    }
    let unknown: Vec<&String> = args
        .problem
        .iter()
        .filter(|n| !all.iter().any(|p| &p.name == *n))
        .collect();
    if !unknown.is_empty() {
        bail!(
            "unknown problem(s) {:?} in {}; available: {}",
            unknown,
            path.display(),
            all.iter()
                .map(|p| p.name.as_str())
                .collect::<Vec<_>>()
                .join(", ")
        );
    }
    Ok(all
        .into_iter()
        .filter(|p| args.problem.contains(&p.name))
        .collect())
}

/// Opens the KB for `problem` (and the individuals of `extra`, e.g. a test file).
fn open(
    args: &LearnArgs,
    problem: &MultiClassProblem,
    extra: Option<&MultiClassProblem>,
) -> anyhow::Result<Prepared> {
    let mut scope: Vec<LearningProblem> = problem.one_vs_rest();
    if let Some(e) = extra {
        scope.extend(e.one_vs_rest());
    }
    prepare(args, &scope, None)
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

/// The JSON of one `learn` run.
#[derive(Serialize)]
struct LearnJson {
    problem: String,
    algorithm: &'static str,
    combine: &'static str,
    classes: Vec<String>,
    /// Training examples per class.
    examples: BTreeMap<String, usize>,
    /// In the order the method reads them (MRL: the list).
    rules: Vec<RuleJson>,
    default_class: String,
    train: Scores,
    #[serde(skip_serializing_if = "Option::is_none")]
    test: Option<Scores>,
    stats: RunStats,
    #[serde(skip)]
    description: String,
}

fn learner_run(
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
    use crate::learn::Learner as _;
    Ok((run, learner.parameters()))
}

/// `learn --algorithm multiclass`.
pub fn learn(args: LearnArgs) -> anyhow::Result<()> {
    let problems = load(&args)?;
    if args.test_file.is_some() && problems.len() != 1 {
        bail!(
            "--test evaluates one problem: select one of the {} with --problem",
            problems.len()
        );
    }
    if args.save_model.is_some() && problems.len() != 1 {
        bail!(
            "--save-model saves one model: select one of the {} problems with --problem",
            problems.len()
        );
    }
    let mut results = Vec::new();
    for problem in &problems {
        if cancelled() {
            break;
        }
        let test = match &args.test_file {
            Some(path) => {
                let mut t = load_multiclass(path, args.label_column.as_deref())
                    .with_context(|| format!("reading the test examples {}", path.display()))?;
                if t.len() != 1 {
                    bail!(
                        "{} holds {} problems; --test takes one",
                        path.display(),
                        t.len()
                    );
                }
                Some(
                    t.remove(0)
                        .relabel(path, &problem.classes)
                        .with_context(|| format!("reading the test examples {}", path.display()))?,
                )
            }
            None => None,
        };
        let prep = open(&args, problem, test.as_ref())?;
        let examples = labelled(prep.kb.signature(), problem)?;
        let training = TrainingSet::multi_class(problem.classes.clone(), examples.clone())?;
        let (run, parameters) = learner_run(&args, &prep, problem, &training, &problem.name)?;
        let combine = args.multiclass.combine;
        let semantics = args.semantics;
        let model =
            MultiClassModel::new(run.table, combine, args.multiclass.combine_seed, semantics);
        let among = training.context(prep.kb.signature().individual_count());
        let oracle = prep.kb.oracle();
        let (train, _) = evaluate(oracle, &model, &examples, &among)?;
        let test = match &test {
            Some(t) => {
                let ex = labelled(prep.kb.signature(), t)?;
                let set = IndividualSet::from_ids(among.universe(), ex.iter().map(|e| e.0));
                Some(evaluate(oracle, &model, &ex, &among.union(&set))?.0)
            }
            None => None,
        };
        if let Some(path) = &args.save_model {
            let text =
                document::to_json(&model, parameters, Some(&problem.name), prep.kb.signature())
                    .with_context(|| {
                        format!("saving the model of {} to {}", problem.name, path.display())
                    })?;
            crate::enrich::file::write_atomically(path, text.as_bytes())?;
        }
        results.push(learn_json(
            &prep.kb, problem, &model, run.stats, train, test,
        ));
        std::mem::forget(prep);
    }
    if let Some(path) = &args.report {
        super::super::report::write(path, &results)?;
    }
    if args.json {
        super::super::print_json(&results)?;
    } else {
        for r in &results {
            print_learn(r)?;
        }
    }
    Ok(())
}

fn learn_json(
    kb: &KnowledgeBase,
    problem: &MultiClassProblem,
    model: &MultiClassModel,
    stats: RunStats,
    train: Scores,
    test: Option<Scores>,
) -> LearnJson {
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
    LearnJson {
        problem: problem.name.clone(),
        algorithm: crate::learn::multiclass::ALGORITHM,
        combine: c.method.name(),
        classes: t.classes.clone(),
        examples: per_class(t.class_counts(&t.all_examples())),
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
        train,
        test,
        stats,
        description: model.describe(kb.vocabulary()),
    }
}

fn scores_line(s: &Scores) -> String {
    format!(
        "accuracy {:.4}, multi-model accuracy {:.4}, average recall {:.4}, weighted AUC {}",
        s.accuracy,
        s.multi_model_accuracy,
        s.average_recall,
        s.weighted_auc
            .map_or_else(|| "n/a".to_owned(), |a| format!("{a:.4}"))
    )
}

fn print_learn(r: &LearnJson) -> anyhow::Result<()> {
    let counts: Vec<String> = r.examples.iter().map(|(c, n)| format!("{c} {n}")).collect();
    outln!(
        "problem {} ({} classes: {}), multiclass, combine {}",
        r.problem,
        r.classes.len(),
        counts.join(", "),
        r.combine
    );
    for line in r.description.lines() {
        outln!("  {line}");
    }
    outln!("  train: {}", scores_line(&r.train));
    if let Some(t) = &r.test {
        outln!("  test:  {}", scores_line(t));
        outln!(
            "  test confusion (rows actual, columns predicted: {}):",
            t.confusion.classes.join(", ")
        );
        for (c, row) in t.confusion.classes.iter().zip(&t.confusion.matrix) {
            let cells: Vec<String> = row.iter().map(|n| format!("{n:>4}")).collect();
            outln!("    {c:>12} {}", cells.join(""));
        }
    }
    outln!("  stats: {}", stats_line(&r.stats));
    Ok(())
}

/// Stratified `k`-fold cross-validation of `problem` with the learner of `args`, one rule
/// table per fold combined by each of `methods` (Ctrl-C stops before the next fold).
pub fn cross_validate(
    args: &LearnArgs,
    problem: &MultiClassProblem,
    k: usize,
    seed: u64,
    methods: &[Combine],
) -> anyhow::Result<ProblemCv> {
    let prep = open(args, problem, None)?;
    let examples = labelled(prep.kb.signature(), problem)?;
    let setup = CvSetup {
        classes: &problem.classes,
        examples: &examples,
        universe: prep.kb.signature().individual_count(),
        folds: k,
        seed,
        methods,
        combine_seed: args.multiclass.combine_seed,
        semantics: args.semantics,
    };
    let out = experiment::cross_validate(prep.kb.oracle(), &setup, &mut |i,
                                                                         training|
     -> anyhow::Result<
        Option<RulesRun>,
    > {
        if cancelled() {
            return Ok(None);
        }
        let label = format!("{} fold {}/{k}", problem.name, i + 1);
        Ok(Some(
            learner_run(args, &prep, problem, &training, &label)?.0,
        ))
    })
    .with_context(|| format!("problem {}", problem.name))?;
    std::mem::forget(prep);
    Ok(out)
}

#[derive(Serialize)]
struct CvJson {
    problem: String,
    algorithm: &'static str,
    combine: &'static str,
    folds: usize,
    folds_completed: usize,
    seed: u64,
    #[serde(flatten)]
    summary: CvSummary,
    /// Rules and cost of each fold's fit.
    per_fold: Vec<RunStats>,
}

/// `cv --algorithm multiclass`.
pub fn cv(args: &LearnArgs, folds: usize, seed: u64) -> anyhow::Result<()> {
    if args.test_file.is_some() {
        bail!("cv holds out its own folds; --test is for learn");
    }
    let problems = load(args)?;
    let method = args.multiclass.combine;
    let mut results = Vec::new();
    for p in &problems {
        let r = cross_validate(args, p, folds, seed, &[method])?;
        let summary = summarize(&r.classes, &r.methods[0]);
        results.push(CvJson {
            problem: p.name.clone(),
            algorithm: crate::learn::multiclass::ALGORITHM,
            combine: method.name(),
            folds: r.folds,
            folds_completed: r.completed,
            seed,
            summary,
            per_fold: r.fold_stats,
        });
    }
    if args.json {
        super::super::print_json(&results)?;
        return Ok(());
    }
    for r in &results {
        let s = &r.summary;
        let ms = |x: &Summary| format!("{:.4} ± {:.4}", x.mean, x.sd);
        outln!(
            "problem {}, multiclass {}, {} folds ({} completed), seed {}",
            r.problem,
            r.combine,
            r.folds,
            r.folds_completed,
            r.seed
        );
        outln!("  accuracy             {}", ms(&s.accuracy));
        outln!("  multi-model accuracy {}", ms(&s.multi_model_accuracy));
        outln!("  average recall       {}", ms(&s.average_recall));
        outln!(
            "  weighted AUC         {} (pooled {})",
            ms(&s.weighted_auc),
            s.pooled_weighted_auc
                .map_or_else(|| "n/a".to_owned(), |a| format!("{a:.4}"))
        );
    }
    Ok(())
}

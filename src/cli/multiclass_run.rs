//! The one pipeline of multi-class problems behind `learn` and `cv`, for every learner
//! that fits them (the registry's `multi_class`). A problems file is multi-class when it
//! is one ([`crate::problem::is_multiclass`]); `--algorithm multiclass` always reads its
//! problems so. The pipeline reads the problems (and a `--test` file, relabelled onto the
//! training classes), opens the KB over their one-vs-rest problems, fits, and scores with
//! the library's multi-class measures and folds ([`crate::learn::experiment::multiclass`]).
//!
//! A learner enters through [`MultiClassCli`]: the rule learner
//! ([`super::learners::multiclass`]) fits its rule table and adds its combination and rules
//! to the JSON; any other learner runs from the registry and is scored through its
//! predictions' labels and distributions ([`Predicted`]).

use std::collections::BTreeMap;

use anyhow::{Context, bail};
use serde::Serialize;

use super::learner::{Prepared, cancelled, fit_training, prepare, stats_line};
use super::learners::{LearnArgs, LearnerEntry, REGISTRY, entry_for, multiclass};
use super::multiclass_learner::{Fit, MultiClassCli};
use crate::KnowledgeBase;
use crate::eval::Summary;
use crate::learn::experiment::multiclass::{
    Classifier, CvSummary, FoldFit, FoldSetup, MultiClassCv, Predicted, cross_validate, evaluate,
    labelled, summarize,
};
use crate::learn::multiclass::measures::Scores;
use crate::learn::{RunStats, TrainingSet, document};
use crate::oracle::IndividualSet;
use crate::problem::{LearningProblem, MultiClassProblem, is_multiclass, load_multiclass};

/// Whether `args` runs multi-class problems: the rule learner's, or a problems file that
/// holds multi-class problems.
pub fn wanted(args: &LearnArgs) -> bool {
    multiclass::handles(args) || is_multiclass(&args.problems, args.label_column.as_deref())
}

/// A learner of the registry, scored through its predictions.
struct Registered;

impl MultiClassCli for Registered {
    type Fitted = Predicted;
    type Head = ();
    type Body = ();

    fn fit(
        &self,
        args: &LearnArgs,
        prep: &Prepared,
        problem: &MultiClassProblem,
        training: TrainingSet,
        label: &str,
    ) -> anyhow::Result<Fit<Predicted>> {
        let run = fit_training(prep, args, training, label)?;
        let parameters = (prep.entry.build)(args, &prep.kb, &prep.rho)?.parameters();
        Ok(Fit {
            fitted: Predicted {
                model: run.model,
                classes: problem.classes.clone(),
            },
            stats: run.stats,
            parameters,
        })
    }

    fn head(&self, _: &LearnArgs) {}

    fn body(&self, _: &KnowledgeBase, _: &Predicted) {}

    fn titles(&self, args: &LearnArgs) -> (String, String) {
        (args.algorithm.clone(), args.algorithm.clone())
    }
}

/// The learner of `args` when it fits multi-class problems; a clear error naming the file
/// and the learners that do otherwise.
fn learner_for(args: &LearnArgs) -> anyhow::Result<&'static LearnerEntry> {
    let entry = entry_for(args)?;
    if !entry.multi_class {
        let able: Vec<&str> = REGISTRY
            .iter()
            .filter(|e| e.multi_class)
            .map(|e| e.name)
            .collect();
        bail!(
            "{} holds multi-class problems (examples labelled with their classes); \
             --algorithm {} learns binary (positive/negative) problems only. Learners of \
             multi-class problems: {}",
            args.problems.display(),
            entry.name,
            able.join(", ")
        );
    }
    Ok(entry)
}

/// `learn` of multi-class problems.
pub fn learn(args: LearnArgs) -> anyhow::Result<()> {
    if learner_for(&args)?.name == crate::learn::multiclass::ALGORITHM {
        run_learn(&args, &multiclass::Rules)
    } else {
        run_learn(&args, &Registered)
    }
}

/// `cv` of multi-class problems.
pub fn cv(args: &LearnArgs, folds: usize, seed: u64) -> anyhow::Result<()> {
    if args.algorithm.contains(',') {
        bail!(
            "--algorithm {}: {} holds multi-class problems; cross-validate their learners \
             one at a time",
            args.algorithm,
            args.problems.display()
        );
    }
    let name = learner_for(args)?.name;
    if args.report.is_some() {
        bail!(
            "cv --algorithm {name} writes no --report yet: report a split with \
             `learn --algorithm {name} --test FILE --report FILE.html`"
        );
    }
    if name == crate::learn::multiclass::ALGORITHM {
        run_cv(args, &multiclass::Rules, folds, seed)
    } else {
        run_cv(args, &Registered, folds, seed)
    }
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

/// The `--test` examples of `problem`, labelled with its classes.
fn test_problem(
    args: &LearnArgs,
    problem: &MultiClassProblem,
) -> anyhow::Result<Option<MultiClassProblem>> {
    let Some(path) = &args.test_file else {
        return Ok(None);
    };
    let reading = || format!("reading the test examples {}", path.display());
    let mut t = load_multiclass(path, args.label_column.as_deref()).with_context(reading)?;
    if t.len() != 1 {
        bail!(
            "{} holds {} problems; --test takes one",
            path.display(),
            t.len()
        );
    }
    Ok(Some(
        t.remove(0)
            .relabel(path, &problem.classes)
            .with_context(reading)?,
    ))
}

/// Opens the KB for `problem` (and the individuals of `extra`, e.g. a test file).
pub fn open(
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

/// The name of a fold's run (its progress line).
pub fn fold_label(problem: &MultiClassProblem, fold: usize, folds: usize) -> String {
    format!("{} fold {}/{folds}", problem.name, fold + 1)
}

/// The JSON of one `learn` run: the common fields around the learner's own.
#[derive(Serialize)]
struct LearnJson<H, B> {
    problem: String,
    algorithm: &'static str,
    #[serde(flatten)]
    head: H,
    classes: Vec<String>,
    /// Training examples per class.
    examples: BTreeMap<String, usize>,
    #[serde(flatten)]
    body: B,
    train: Scores,
    #[serde(skip_serializing_if = "Option::is_none")]
    test: Option<Scores>,
    stats: RunStats,
    #[serde(skip)]
    title: String,
    #[serde(skip)]
    description: String,
}

fn run_learn<L: MultiClassCli>(args: &LearnArgs, learner: &L) -> anyhow::Result<()> {
    let problems = load(args)?;
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
        let test = test_problem(args, problem)?;
        let prep = open(args, problem, test.as_ref())?;
        results.push(learn_one(args, learner, &prep, problem, test.as_ref())?);
        // The answer is out; the exit returns the memory (as `learn` of binary problems).
        std::mem::forget(prep);
    }
    if let Some(path) = &args.report {
        super::report::write(path, &results)?;
    }
    if args.json {
        super::print_json(&results)?;
    } else {
        for r in &results {
            print_learn(r)?;
        }
    }
    Ok(())
}

fn learn_one<L: MultiClassCli>(
    args: &LearnArgs,
    learner: &L,
    prep: &Prepared,
    problem: &MultiClassProblem,
    test: Option<&MultiClassProblem>,
) -> anyhow::Result<LearnJson<L::Head, L::Body>> {
    let kb = &prep.kb;
    let examples = labelled(kb.signature(), problem)?;
    let training = TrainingSet::multi_class(problem.classes.clone(), examples.clone())?;
    let among = training.context(kb.signature().individual_count());
    let fit = learner.fit(args, prep, problem, training, &problem.name)?;
    let oracle = kb.oracle();
    let (train, _) = evaluate(oracle, &fit.fitted, &examples, &among)?;
    let test = match test {
        Some(t) => {
            let ex = labelled(kb.signature(), t)?;
            let set = IndividualSet::from_ids(among.universe(), ex.iter().map(|e| e.0));
            Some(evaluate(oracle, &fit.fitted, &ex, &among.union(&set))?.0)
        }
        None => None,
    };
    let model = fit.fitted.model();
    if let Some(path) = &args.save_model {
        let text = document::to_json(model, fit.parameters, Some(&problem.name), kb.signature())
            .with_context(|| {
                format!("saving the model of {} to {}", problem.name, path.display())
            })?;
        crate::enrich::file::write_atomically(path, text.as_bytes())?;
    }
    Ok(LearnJson {
        problem: problem.name.clone(),
        algorithm: prep.entry.name,
        head: learner.head(args),
        classes: problem.classes.clone(),
        examples: problem
            .classes
            .iter()
            .enumerate()
            .map(|(c, name)| (name.clone(), examples.iter().filter(|e| e.1 == c).count()))
            .collect(),
        body: learner.body(kb, &fit.fitted),
        train,
        test,
        stats: fit.stats,
        title: learner.titles(args).0,
        description: model.describe(kb.vocabulary()),
    })
}

/// One line of multi-class measures.
pub fn scores_line(s: &Scores) -> String {
    format!(
        "accuracy {:.4}, multi-model accuracy {:.4}, average recall {:.4}, weighted AUC {}",
        s.accuracy,
        s.multi_model_accuracy,
        s.average_recall,
        s.weighted_auc
            .map_or_else(|| "n/a".to_owned(), |a| format!("{a:.4}"))
    )
}

/// The confusion matrix's rows, one a line, after `indent`.
pub fn confusion_lines(s: &Scores, indent: &str) -> Vec<String> {
    let c = &s.confusion;
    c.classes
        .iter()
        .zip(&c.matrix)
        .map(|(class, row)| {
            let cells: Vec<String> = row.iter().map(|n| format!("{n:>4}")).collect();
            format!("{indent}{class:>12} {}", cells.join(""))
        })
        .collect()
}

fn print_learn<H, B>(r: &LearnJson<H, B>) -> anyhow::Result<()> {
    let counts: Vec<String> = r.examples.iter().map(|(c, n)| format!("{c} {n}")).collect();
    outln!(
        "problem {} ({} classes: {}), {}",
        r.problem,
        r.classes.len(),
        counts.join(", "),
        r.title
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
        for line in confusion_lines(t, "    ") {
            outln!("{line}");
        }
    }
    outln!("  stats: {}", stats_line(&r.stats));
    Ok(())
}

/// The JSON of one problem's cross-validation.
#[derive(Serialize)]
struct CvJson<H> {
    problem: String,
    algorithm: &'static str,
    #[serde(flatten)]
    head: H,
    folds: usize,
    folds_completed: usize,
    seed: u64,
    #[serde(flatten)]
    summary: CvSummary,
    /// The cost of each fold's fit.
    per_fold: Vec<RunStats>,
    #[serde(skip)]
    title: String,
}

/// Stratified `k`-fold cross-validation of `problem` with `learner` (Ctrl-C stops before
/// the next fold).
fn cross_validate_one<L: MultiClassCli>(
    args: &LearnArgs,
    learner: &L,
    problem: &MultiClassProblem,
    k: usize,
    seed: u64,
) -> anyhow::Result<(MultiClassCv, &'static str)> {
    let prep = open(args, problem, None)?;
    let examples = labelled(prep.kb.signature(), problem)?;
    let setup = FoldSetup {
        classes: &problem.classes,
        examples: &examples,
        universe: prep.kb.signature().individual_count(),
        folds: k,
        seed,
    };
    let out = cross_validate(prep.kb.oracle(), &setup, &mut |i,
                                                             training|
     -> anyhow::Result<
        Option<FoldFit>,
    > {
        if cancelled() {
            return Ok(None);
        }
        let label = fold_label(problem, i, k);
        let fit = learner.fit(args, &prep, problem, training, &label)?;
        Ok(Some(FoldFit {
            classifiers: vec![Box::new(fit.fitted)],
            stats: fit.stats,
        }))
    })
    .with_context(|| format!("problem {}", problem.name))?;
    let name = prep.entry.name;
    std::mem::forget(prep);
    Ok((out, name))
}

fn run_cv<L: MultiClassCli>(
    args: &LearnArgs,
    learner: &L,
    folds: usize,
    seed: u64,
) -> anyhow::Result<()> {
    let problems = load(args)?;
    let mut results = Vec::new();
    for p in &problems {
        let (r, algorithm) = cross_validate_one(args, learner, p, folds, seed)?;
        let summary = match r.classifiers.first() {
            Some(c) => summarize(&r.classes, &c.folds, &c.pooled),
            None => summarize(&r.classes, &[], &[]),
        };
        results.push(CvJson {
            problem: p.name.clone(),
            algorithm,
            head: learner.head(args),
            folds: r.folds,
            folds_completed: r.completed,
            seed,
            summary,
            per_fold: r.fold_stats,
            title: learner.titles(args).1,
        });
    }
    if args.json {
        return super::print_json(&results);
    }
    for r in &results {
        let s = &r.summary;
        let ms = |x: &Summary| format!("{:.4} ± {:.4}", x.mean, x.sd);
        outln!(
            "problem {}, {}, {} folds ({} completed), seed {}",
            r.problem,
            r.title,
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

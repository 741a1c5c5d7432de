//! `learn`, `cv` and `bench multiclass` for `--algorithm multiclass`. A multi-class problem
//! (see [`crate::problem::load_multiclass`]) is opened like any other (its one-vs-rest
//! problems give the examples' neighbourhood, see [`prepare`]); the learner fits a rule
//! table, which one combination turns into the model. Cross-validation learns one rule
//! table per fold and combines it with every method asked for, so the methods are compared
//! on the same rules.

use std::collections::BTreeMap;
use std::sync::Arc;

use anyhow::{Context, bail};
use serde::Serialize;

use super::learner::{Prepared, cancelled, control, max_runtime, prepare, stats_line};
use super::learners::LearnArgs;
use super::learners::multiclass::params;
use super::progress::SearchProgress;
use crate::KnowledgeBase;
use crate::eval::{FoldError, Summary, stratified_deal};
use crate::learn::multiclass::measures::{Outcome, Scores, score};
use crate::learn::multiclass::{Combine, MultiClass, MultiClassModel, RulesRun};
use crate::learn::{Model, RunStats, TrainingSet, document};
use crate::oracle::{IndividualId, IndividualSet};
use crate::problem::{LearningProblem, MultiClassProblem, load_multiclass};

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

/// The examples of `problem` as (individual, class) over the KB; every IRI that is not an
/// individual of the KB is reported at once.
pub(super) fn labelled(
    kb: &KnowledgeBase,
    problem: &MultiClassProblem,
) -> anyhow::Result<Vec<(IndividualId, usize)>> {
    let sig = kb.signature();
    let mut out = Vec::new();
    let mut missing = Vec::new();
    for (iri, c) in &problem.examples {
        match sig.individual_id(iri) {
            Some(id) => out.push((id, *c)),
            None => missing.push(iri.as_str()),
        }
    }
    if !missing.is_empty() {
        let shown: Vec<&str> = missing.iter().take(10).copied().collect();
        bail!(
            "problem {}: {} example(s) are not individuals of the KB: {}{}",
            problem.name,
            missing.len(),
            shown.join(", "),
            if missing.len() > 10 { ", …" } else { "" }
        );
    }
    out.sort_by_key(|(id, _)| *id);
    Ok(out)
}

/// The measures of `model` on `examples` (asking the oracle over `among`).
fn evaluate(
    kb: &KnowledgeBase,
    model: &MultiClassModel,
    examples: &[(IndividualId, usize)],
    among: &IndividualSet,
) -> anyhow::Result<(Scores, Vec<Outcome>)> {
    let outcomes = outcomes(kb, model, examples, among)?;
    Ok((score(model.classes(), &outcomes), outcomes))
}

pub(super) fn outcomes(
    kb: &KnowledgeBase,
    model: &MultiClassModel,
    examples: &[(IndividualId, usize)],
    among: &IndividualSet,
) -> anyhow::Result<Vec<Outcome>> {
    let sig = kb.signature();
    let set = IndividualSet::from_ids(sig.individual_count(), examples.iter().map(|e| e.0));
    let truth: BTreeMap<IndividualId, usize> = examples.iter().copied().collect();
    let k = model.classes().len();
    Ok(model
        .classify(kb.oracle(), &set, among)?
        .into_iter()
        .map(|c| {
            let mut binary = vec![false; k];
            for r in c.firing.ones() {
                binary[model.table.rules[r].class] = true;
            }
            Outcome {
                truth: truth.get(&c.individual).copied().unwrap_or(0),
                predicted: c.decision.class,
                distribution: c.decision.distribution,
                binary,
                by: c.decision.by,
            }
        })
        .collect())
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
        let examples = labelled(&prep.kb, problem)?;
        let training = TrainingSet::multi_class(problem.classes.clone(), examples.clone())?;
        let (run, parameters) = learner_run(&args, &prep, problem, &training, &problem.name)?;
        let combine = args.multiclass.combine;
        let semantics = args.semantics.into();
        let model =
            MultiClassModel::new(run.table, combine, args.multiclass.combine_seed, semantics);
        let among = training.context(prep.kb.signature().individual_count());
        let (train, _) = evaluate(&prep.kb, &model, &examples, &among)?;
        let test = match &test {
            Some(t) => {
                let ex = labelled(&prep.kb, t)?;
                let set = IndividualSet::from_ids(among.universe(), ex.iter().map(|e| e.0));
                Some(evaluate(&prep.kb, &model, &ex, &among.union(&set))?.0)
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

/// The out-of-fold results of one combination method.
pub struct MethodCv {
    pub method: Combine,
    pub folds: Vec<Scores>,
    /// Every fold's test outcomes together (the pooled measures of small data sets).
    pub pooled: Vec<Outcome>,
}

/// One problem's cross-validation: per method, per fold; and each fold's rule statistics.
pub struct ProblemCv {
    pub classes: Vec<String>,
    pub class_counts: Vec<usize>,
    pub methods: Vec<MethodCv>,
    pub fold_stats: Vec<RunStats>,
    pub folds: usize,
    pub completed: usize,
}

/// Stratified `k`-fold cross-validation of `problem`, one rule table per fold combined by
/// each of `methods`.
pub fn cross_validate(
    args: &LearnArgs,
    problem: &MultiClassProblem,
    k: usize,
    seed: u64,
    methods: &[Combine],
) -> anyhow::Result<ProblemCv> {
    let prep = open(args, problem, None)?;
    let examples = labelled(&prep.kb, problem)?;
    let labels: Vec<usize> = examples.iter().map(|e| e.1).collect();
    let folds = if labels.len() < k {
        Err(FoldError::TooFewItems {
            folds: k,
            items: labels.len(),
        })
    } else {
        stratified_deal(&labels, k, seed)
    }
    .with_context(|| format!("problem {}", problem.name))?;
    let universe = prep.kb.signature().individual_count();
    let all = IndividualSet::from_ids(universe, examples.iter().map(|e| e.0));
    let mut out = ProblemCv {
        classes: problem.classes.clone(),
        class_counts: (0..problem.classes.len())
            .map(|c| labels.iter().filter(|&&l| l == c).count())
            .collect(),
        methods: methods
            .iter()
            .map(|&method| MethodCv {
                method,
                folds: Vec::new(),
                pooled: Vec::new(),
            })
            .collect(),
        fold_stats: Vec::new(),
        folds: k,
        completed: 0,
    };
    for (i, test_idx) in folds.iter().enumerate() {
        if cancelled() {
            break;
        }
        let test: Vec<(IndividualId, usize)> = test_idx.iter().map(|&j| examples[j]).collect();
        let train: Vec<(IndividualId, usize)> = (0..examples.len())
            .filter(|j| test_idx.binary_search(j).is_err())
            .map(|j| examples[j])
            .collect();
        let training =
            TrainingSet::multi_class(problem.classes.clone(), train)?.with_context(all.clone());
        let label = format!("{} fold {}/{k}", problem.name, i + 1);
        let (run, _) = learner_run(args, &prep, problem, &training, &label)?;
        for m in &mut out.methods {
            let model = MultiClassModel::new(
                run.table.clone(),
                m.method,
                args.multiclass.combine_seed,
                args.semantics.into(),
            );
            let (scores, outcomes) = evaluate(&prep.kb, &model, &test, &all)?;
            m.folds.push(scores);
            m.pooled.extend(outcomes);
        }
        out.fold_stats.push(run.stats);
        out.completed += 1;
    }
    std::mem::forget(prep);
    Ok(out)
}

/// `{mean, sd, folds}` of each measure over the folds, the summed confusion and the pooled
/// weighted AUC.
#[derive(Serialize)]
pub struct CvSummary {
    pub accuracy: Summary,
    pub multi_model_accuracy: Summary,
    pub average_recall: Summary,
    /// Over the folds where it is defined (a fold needs a class with members and
    /// non-members among its test examples).
    pub weighted_auc: Summary,
    /// Over every fold's test predictions together.
    pub pooled_weighted_auc: Option<f64>,
    /// Shares of all folds' test examples decided by the default rule, and by MRSI's
    /// majority fallback (empty intersection).
    pub default_rule_share: f64,
    pub majority_share: f64,
    pub confusion: crate::learn::multiclass::measures::ConfusionMatrix,
}

pub fn summarize(classes: &[String], m: &MethodCv) -> CvSummary {
    let of = |f: fn(&Scores) -> f64| Summary::of(m.folds.iter().map(f).collect());
    let k = classes.len();
    let mut matrix = vec![vec![0; k]; k];
    for s in &m.folds {
        for (row, r) in matrix.iter_mut().zip(&s.confusion.matrix) {
            for (x, y) in row.iter_mut().zip(r) {
                *x += y;
            }
        }
    }
    let pooled = score(classes, &m.pooled);
    CvSummary {
        default_rule_share: pooled.default_rule_share,
        majority_share: pooled.majority_share,
        accuracy: of(|s| s.accuracy),
        multi_model_accuracy: of(|s| s.multi_model_accuracy),
        average_recall: of(|s| s.average_recall),
        weighted_auc: Summary::of(m.folds.iter().filter_map(|s| s.weighted_auc).collect()),
        pooled_weighted_auc: pooled.weighted_auc,
        confusion: crate::learn::multiclass::measures::ConfusionMatrix {
            classes: classes.to_vec(),
            matrix,
        },
    }
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
        super::print_json(&results)?;
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

//! `oxilearn cv`: stratified k-fold cross-validation per problem, for any learner of the
//! registry (through [`crate::learn::experiment::cross_validate`]). Each fold's learner
//! sees only the training examples; its model is then scored on the held-out examples:
//! F1 and accuracy for every learner, AUC-PR and AUC-ROC for scored models (CELOE's score
//! is the best covering solution's training quality, TBC's the probability).
//!
//! `--algorithm a,b,c` cross-validates each learner in turn on the same folds (learner flags
//! go to the learners that take them) and ends with one side-by-side table per problem
//! (test accuracy, F1, AUC-ROC); the JSON is then one entry per problem and learner.
//!
//! Every problem is checked before any runs. Without `--folds`, a problem with fewer than
//! 10 examples in a class gets as many folds as its smaller class has (a note on stderr).
//!
//! After Ctrl-C the fold that was running is reported with `"completed": false`, later folds
//! are not run, `folds_completed` says how many ran to the end, and the summaries (mean ±
//! sd) are over the completed folds only (`null` when none completed); the text output says
//! `cancelled: N of K folds completed`.

use std::fmt::Write as _;
use std::sync::Arc;

use anyhow::{Context, bail};
use serde::Serialize;

use super::args::CvArgs;
use super::learner::{
    Prepared, SolutionJson, cancelled, checked_examples, control, max_runtime, prepare,
};
use super::learners::LearnArgs;
use super::learners::per_algorithm;
use super::print_json;
use super::problems::load_selected;
use super::progress::SearchProgress;
use crate::eval::{Confusion, Summary};
use crate::learn::experiment::{CvOutcome, cross_validate_with};
use crate::learn::{Examples, RunStats};
use crate::problem::LearningProblem;

#[derive(Serialize)]
struct Counts {
    tp: usize,
    fp: usize,
    tn: usize,
    #[serde(rename = "fn")]
    fn_: usize,
    f1: f64,
    accuracy: f64,
}

impl From<Confusion> for Counts {
    fn from(c: Confusion) -> Self {
        Counts {
            tp: c.tp,
            fp: c.fp,
            tn: c.tn,
            fn_: c.fn_,
            f1: c.f1(),
            accuracy: c.accuracy(),
        }
    }
}

#[derive(Serialize)]
struct FoldJson {
    fold: usize,
    /// `false` for a fold stopped by cancellation (left out of the summaries).
    completed: bool,
    /// The best solution on the training examples (absent when none was found).
    solution: Option<SolutionJson>,
    train: Counts,
    test: Counts,
    test_f1: f64,
    test_accuracy: f64,
    #[serde(skip_serializing_if = "Option::is_none")]
    auc_pr: Option<f64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    auc_roc: Option<f64>,
    /// The held-out examples' scores (scored models only): the points behind the AUCs.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    scores: Vec<ScoreJson>,
    stats: RunStats,
    #[serde(flatten)]
    extras: serde_json::Map<String, serde_json::Value>,
}

/// One held-out example's score.
#[derive(Serialize)]
struct ScoreJson {
    individual: String,
    positive: bool,
    score: f64,
}

/// The documented JSON shape of one problem's cross-validation.
#[derive(Serialize)]
struct CvJson {
    problem: String,
    algorithm: &'static str,
    folds: usize,
    /// Folds whose fit ran to the end (`folds` unless cancelled).
    folds_completed: usize,
    seed: u64,
    /// Over the completed folds; `null` when none completed.
    train_f1: Option<Summary>,
    test_f1: Option<Summary>,
    train_accuracy: Option<Summary>,
    test_accuracy: Option<Summary>,
    /// Scored models only (absent otherwise); `null` when no fold completed.
    #[serde(skip_serializing_if = "Option::is_none")]
    auc_pr: Option<Option<Summary>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    auc_roc: Option<Option<Summary>>,
    /// Scored models: calibration bins of the completed folds' held-out scores, pooled.
    #[serde(skip_serializing_if = "Option::is_none")]
    calibration: Option<Vec<super::report::curves::CalibrationBin>>,
    /// Version, command line, KB, backend, signature size and budget (the report's summary).
    #[serde(skip_serializing_if = "Option::is_none")]
    run: Option<super::report::run_info::RunInfo>,
    per_fold: Vec<FoldJson>,
}

impl CvJson {
    /// The summaries of `cv` (over its completed folds) around the per-fold rows.
    fn new(
        problem: &str,
        algorithm: &'static str,
        seed: u64,
        cv: &CvOutcome,
        per_fold: Vec<FoldJson>,
    ) -> Self {
        // Scored when a fold, completed or not, has the measure.
        let ranking = |f: fn(&crate::learn::experiment::FoldOutcome) -> Option<f64>| {
            cv.folds
                .iter()
                .any(|x| f(x).is_some())
                .then(|| cv.ranking_summary(f))
        };
        CvJson {
            problem: problem.to_owned(),
            algorithm,
            folds: cv.planned,
            folds_completed: cv.folds_completed(),
            seed,
            train_f1: cv.summary(|f| f.train.f1()),
            test_f1: cv.summary(|f| f.test.f1()),
            train_accuracy: cv.summary(|f| f.train.accuracy()),
            test_accuracy: cv.summary(|f| f.test.accuracy()),
            auc_pr: ranking(|f| f.auc_pr),
            auc_roc: ranking(|f| f.auc_roc),
            calibration: calibration_of(cv),
            run: None,
            per_fold,
        }
    }
}

/// Pooled calibration bins of the completed folds' held-out scores (scored models only).
fn calibration_of(cv: &CvOutcome) -> Option<Vec<super::report::curves::CalibrationBin>> {
    let scored: Vec<(f64, bool)> = cv
        .completed()
        .flat_map(|f| f.test_scores.iter().map(|&(_, s, p)| (s, p)))
        .collect();
    (!scored.is_empty()).then(|| super::report::curves::calibration(&scored))
}

/// The folds each problem gets; every problem is checked, all failures reported at once.
fn fold_counts(
    args: &CvArgs,
    problems: &[LearningProblem],
    examples: &[Examples],
) -> anyhow::Result<Vec<usize>> {
    let explicit = args.learn.explicit.iter().any(|f| f == "folds");
    if args.folds < 2 {
        bail!("--folds must be at least 2, not {}", args.folds);
    }
    let mut out = Vec::new();
    let mut errors = Vec::new();
    for (p, e) in problems.iter().zip(examples) {
        let smaller = e.positives().len().min(e.negatives().len());
        if smaller >= args.folds {
            out.push(args.folds);
        } else if smaller >= 2 && !explicit {
            eprintln!(
                "note: problem {} has {} positive and {} negative examples: {smaller}-fold \
                 cross-validation instead of {}",
                p.name,
                e.positives().len(),
                e.negatives().len(),
                args.folds
            );
            out.push(smaller);
        } else {
            errors.push(format!(
                "problem {}: {} stratified folds need at least {} positive and {} negative \
                 examples; this problem has {} and {}{}",
                p.name,
                args.folds,
                args.folds,
                args.folds,
                e.positives().len(),
                e.negatives().len(),
                if smaller >= 2 {
                    format!(" (use --folds {smaller} or fewer)")
                } else {
                    " (cross-validation needs at least 2 of each)".to_owned()
                }
            ));
        }
    }
    if !errors.is_empty() {
        bail!("{}", errors.join("\n"));
    }
    Ok(out)
}

fn cv_one(
    prep: &Prepared,
    args: &LearnArgs,
    seed: u64,
    p: &LearningProblem,
    examples: &Examples,
    folds: usize,
) -> anyhow::Result<CvJson> {
    let kb = &prep.kb;
    let learner = (prep.entry.build)(args, kb, &prep.rho)?;
    let budget = max_runtime(args)?;
    // One progress line per fold, finished when the next fold starts (and at the end); each
    // kept for its recorded progress series.
    let mut current: Option<Arc<SearchProgress>> = None;
    let mut progresses: Vec<Arc<SearchProgress>> = Vec::new();
    let outcome = cross_validate_with(
        learner.as_ref(),
        kb.oracle(),
        examples,
        folds,
        seed,
        &mut |i, k| {
            if let Some(p) = current.take() {
                p.finish();
            }
            let label = format!("{} fold {}/{k}", p.name, i + 1);
            let progress = Arc::new(SearchProgress::new(label, args.quiet));
            current = Some(progress.clone());
            progresses.push(progress.clone());
            control(args, budget, &progress)
        },
    );
    if let Some(p) = current.take() {
        p.finish();
    }
    let mut cv = outcome.with_context(|| format!("cross-validating {}", p.name))?;
    for (f, progress) in cv.folds.iter_mut().zip(&progresses) {
        f.fit.stats.load_ms = prep.load_ms;
        f.fit.stats.signature_ms = prep.signature_ms;
        if let Some(series) = progress.series_json() {
            f.fit.stats.details.insert("progress".into(), series);
        }
    }
    let per_fold = cv
        .folds
        .iter()
        .enumerate()
        .map(|(i, f)| {
            Ok(FoldJson {
                fold: i + 1,
                completed: f.completed,
                solution: f.fit.solutions.first().map(|s| SolutionJson::of(kb, s)),
                train: f.train.into(),
                test: f.test.into(),
                test_f1: f.test.f1(),
                test_accuracy: f.test.accuracy(),
                auc_pr: f.auc_pr,
                auc_roc: f.auc_roc,
                scores: f
                    .test_scores
                    .iter()
                    .map(|&(id, score, positive)| ScoreJson {
                        individual: kb
                            .signature()
                            .individual_iri(id)
                            .map_or_else(String::new, |i| i.as_str().to_owned()),
                        positive,
                        score,
                    })
                    .collect(),
                stats: f.fit.stats.clone(),
                extras: (prep.entry.extras)(kb, &f.fit, examples, true)?,
            })
        })
        .collect::<anyhow::Result<Vec<_>>>()?;
    let mut json = CvJson::new(&p.name, prep.entry.name, seed, &cv, per_fold);
    json.run = Some(super::report::run_info::RunInfo::of(&args.kb, kb, args));
    Ok(json)
}

pub fn run(args: CvArgs) -> anyhow::Result<()> {
    if args.learn.test_file.is_some() {
        anyhow::bail!("cv holds out its own folds; --test is for learn");
    }
    // Multi-class problems: folds stratified per class, multi-class measures.
    if super::multiclass_run::wanted(&args.learn) {
        return super::multiclass_run::cv(&args.learn, args.folds, args.seed);
    }
    let problems = load_selected(&args.learn.problems, &args.learn.problem)?;
    // A .conf file's learner settings apply to each learner of the list in turn.
    let mut per_algorithm = per_algorithm(&args.learn)?;
    for one in &mut per_algorithm {
        super::conf_defaults::apply(one, &problems);
    }
    let mut results = Vec::new();
    // One learner at a time over its own KB and operator (each with a fresh answer cache,
    // so none profits from another's answers); the folds are the same for all (same seed).
    for one in &per_algorithm {
        if cancelled() {
            break;
        }
        let prep = prepare(one, &problems, None)?;
        let examples = checked_examples(&prep.kb, &problems)?;
        let folds = fold_counts(&args, &problems, &examples)?;
        for ((p, ex), k) in problems.iter().zip(&examples).zip(folds) {
            if cancelled() {
                break;
            }
            let r = cv_one(&prep, one, args.seed, p, ex, k)?;
            if !args.learn.json {
                print_table(&r)?;
            }
            results.push(r);
        }
    }
    if let Some(path) = &args.learn.report {
        super::report::write(path, &results)?;
    }
    if args.learn.json {
        return print_json(&results);
    }
    if per_algorithm.len() > 1 {
        for p in &problems {
            let rows: Vec<&CvJson> = results.iter().filter(|r| r.problem == p.name).collect();
            outln!("{}", comparison_text(&rows).trim_end());
        }
    }
    Ok(())
}

/// The side-by-side table of one problem's runs (one row per algorithm): test accuracy,
/// F1 and AUC-ROC as mean ± sd over the completed folds, and the mean fit time per fold.
fn comparison_text(rows: &[&CvJson]) -> String {
    let mut out = String::new();
    let Some(first) = rows.first() else {
        return out;
    };
    let _ = writeln!(
        out,
        "problem {}: {}-fold cross-validation (seed {}), test means ± sd",
        first.problem, first.folds, first.seed
    );
    let _ = writeln!(
        out,
        "  {:<14} {:>17} {:>17} {:>17} {:>9}",
        "algorithm", "accuracy", "F1", "AUC-ROC", "ms/fold"
    );
    let pm = |s: Option<&Summary>| {
        s.map_or_else(
            || "–".to_owned(),
            |s| format!("{:.4} ± {:.4}", s.mean, s.sd),
        )
    };
    for r in rows {
        let done: Vec<&FoldJson> = r.per_fold.iter().filter(|f| f.completed).collect();
        let ms = if done.is_empty() {
            "–".to_owned()
        } else {
            let total: u64 = done.iter().map(|f| f.stats.elapsed_ms).sum();
            format!("{}", total / done.len() as u64)
        };
        let _ = writeln!(
            out,
            "  {:<14} {:>17} {:>17} {:>17} {:>9}{}",
            r.algorithm,
            pm(r.test_accuracy.as_ref()),
            pm(r.test_f1.as_ref()),
            pm(r.auc_roc.as_ref().and_then(Option::as_ref)),
            ms,
            if r.folds_completed < r.folds {
                format!("  ({} of {} folds)", r.folds_completed, r.folds)
            } else {
                String::new()
            }
        );
    }
    out
}

fn print_table(r: &CvJson) -> anyhow::Result<()> {
    outln!("{}", table_text(r).trim_end());
    Ok(())
}

/// The text output of one problem.
fn table_text(r: &CvJson) -> String {
    let mut out = String::new();
    // Writing to a String cannot fail.
    let _ = writeln!(
        out,
        "problem {}: {}-fold cross-validation of {} (seed {})",
        r.problem, r.folds, r.algorithm, r.seed
    );
    let _ = writeln!(
        out,
        "  {:>4} {:>8} {:>9} {:>8} {:>9} {:>7}  solution",
        "fold", "train F1", "train acc", "test F1", "test acc", "AUC-PR"
    );
    for f in &r.per_fold {
        let _ = writeln!(
            out,
            "  {:>4} {:>8.4} {:>9.4} {:>8.4} {:>9.4} {:>7}  {}{}",
            f.fold,
            f.train.f1,
            f.train.accuracy,
            f.test.f1,
            f.test.accuracy,
            f.auc_pr
                .map_or_else(|| "–".to_owned(), |v| format!("{v:.4}")),
            f.solution
                .as_ref()
                .map_or("(none)", |s| s.manchester.as_str()),
            if f.completed { "" } else { "  (cancelled)" }
        );
    }
    if r.folds_completed < r.folds {
        let _ = writeln!(
            out,
            "  cancelled: {} of {} folds completed",
            r.folds_completed, r.folds
        );
    }
    let pm = |s: &Option<Summary>| {
        s.as_ref().map_or_else(
            || "–".to_owned(),
            |s| format!("{:.4} ± {:.4}", s.mean, s.sd),
        )
    };
    let _ = writeln!(
        out,
        "  mean: train F1 {}, train accuracy {}, test F1 {}, test accuracy {}",
        pm(&r.train_f1),
        pm(&r.train_accuracy),
        pm(&r.test_f1),
        pm(&r.test_accuracy)
    );
    if let (Some(pr), Some(roc)) = (&r.auc_pr, &r.auc_roc) {
        let _ = writeln!(out, "  mean: AUC-PR {}, AUC-ROC {}", pm(pr), pm(roc));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::learn::experiment::FoldOutcome;
    use crate::learn::{ConceptModel, FitResult, QualityMeasure, Termination};
    use crate::oracle::Semantics;

    fn fold(test_tp: usize, termination: Termination) -> FoldOutcome {
        let counts = |tp: usize| Confusion {
            tp,
            fp: 0,
            tn: 2,
            fn_: 2 - tp,
        };
        FoldOutcome {
            train: counts(2),
            test: counts(test_tp),
            auc_pr: Some(0.5),
            auc_roc: Some(0.5),
            test_scores: Vec::new(),
            fit: FitResult {
                model: Box::new(ConceptModel {
                    quality_measure: QualityMeasure::F1,
                    semantics: Semantics::Closed,
                    solutions: Vec::new(),
                }),
                solutions: Vec::new(),
                quality: QualityMeasure::F1,
                semantics: Semantics::Closed,
                stats: RunStats {
                    concepts_tested: 1,
                    queries_sent: 0,
                    cache_hits: 0,
                    cache_misses: 0,
                    elapsed_ms: 0,
                    load_ms: 0,
                    signature_ms: 0,
                    search_ms: 0,
                    termination,
                    details: Default::default(),
                },
                report: Default::default(),
            },
            predict_queries: 0,
            completed: termination != Termination::Cancelled,
        }
    }

    fn json_of(cv: &CvOutcome) -> CvJson {
        let per_fold = cv
            .folds
            .iter()
            .enumerate()
            .map(|(i, f)| FoldJson {
                fold: i + 1,
                completed: f.completed,
                solution: None,
                train: f.train.into(),
                test: f.test.into(),
                test_f1: f.test.f1(),
                test_accuracy: f.test.accuracy(),
                auc_pr: f.auc_pr,
                auc_roc: f.auc_roc,
                scores: Vec::new(),
                stats: f.fit.stats.clone(),
                extras: Default::default(),
            })
            .collect();
        CvJson::new("p", "celoe", 1, cv, per_fold)
    }

    #[test]
    fn a_cancelled_fold_is_reported_and_left_out_of_the_summaries() {
        let cv = CvOutcome {
            folds: vec![
                fold(2, Termination::PerfectSolution),
                fold(0, Termination::Cancelled),
            ],
            planned: 5,
            elapsed_ms: 0,
        };
        let r = json_of(&cv);
        let v = serde_json::to_value(&r).unwrap();
        assert_eq!(v["folds"], 5);
        assert_eq!(v["folds_completed"], 1);
        assert_eq!(v["per_fold"][0]["completed"], true);
        assert_eq!(v["per_fold"][1]["completed"], false);
        // Only the completed fold (test F1 1.0) counts; the cancelled one (0.0) does not.
        assert_eq!(v["test_f1"]["mean"], 1.0);
        assert_eq!(v["test_f1"]["folds"].as_array().unwrap().len(), 1);
        assert_eq!(v["auc_pr"]["folds"].as_array().unwrap().len(), 1);
        let text = table_text(&r);
        assert!(text.contains("cancelled: 1 of 5 folds completed"), "{text}");
        assert!(text.contains("(cancelled)"), "{text}");
    }

    #[test]
    fn no_completed_fold_gives_null_summaries() {
        let cv = CvOutcome {
            folds: vec![fold(1, Termination::Cancelled)],
            planned: 3,
            elapsed_ms: 0,
        };
        let r = json_of(&cv);
        let v = serde_json::to_value(&r).unwrap();
        assert_eq!(v["folds_completed"], 0);
        for k in ["train_f1", "test_f1", "train_accuracy", "test_accuracy"] {
            assert!(v[k].is_null(), "{k}: {}", v[k]);
        }
        // A scored model keeps its ranking fields, null without a completed fold.
        assert!(v.get("auc_pr").is_some_and(|x| x.is_null()), "{v}");
        let text = table_text(&r);
        assert!(text.contains("cancelled: 0 of 3 folds completed"), "{text}");
        assert!(text.contains("test F1 –"), "{text}");
        // A complete run prints no cancellation line.
        let done = CvOutcome {
            folds: vec![fold(2, Termination::PerfectSolution)],
            planned: 1,
            elapsed_ms: 0,
        };
        assert!(!table_text(&json_of(&done)).contains("cancelled"));
    }
}

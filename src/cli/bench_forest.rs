//! `oxilearn bench forest`: Forest Mixing against CELOE on the same problems, one run each
//! (the paper's comparison): where each first reached its final best quality (concepts
//! tested, milliseconds; Forest Mixing also its refinements and node expansions), the final
//! training F1, and with `--clean-problems` the F1 of the learned expression against the
//! noise-free examples. Both algorithms get the same flags, operator and budgets, and each
//! run a fresh answer cache over the same store, so neither profits from the other's
//! answers. "To best" is read from the progress reports (after every scored batch).

use std::sync::{Arc, Mutex};

use anyhow::Context;
use serde::Serialize;

use super::args::BenchForestArgs;
use super::learner::{cancel_flag, cancelled, checked_examples, max_runtime, prepare};
use super::learners::REGISTRY;
use super::print_json;
use super::problems::load_selected;
use crate::learn::experiment::confusion;
use crate::learn::{Examples, Progress, RunControl, TrainingSet};
use crate::oracle::{CacheOptions, Cached};

const ALGORITHMS: [&str; 2] = ["celoe", "forest-mixing"];

#[derive(Serialize)]
struct Row {
    problem: String,
    algorithm: &'static str,
    f1: f64,
    /// F1 on the noise-free examples (with `--clean-problems`).
    clean_f1: Option<f64>,
    best_quality: f64,
    tests: u64,
    tests_to_best: u64,
    ms_to_best: u64,
    /// Forest Mixing's own count (refinements generated before the best).
    refinements_to_best: Option<u64>,
    elapsed_ms: u64,
    termination: &'static str,
    solution: String,
}

/// The first progress report at the final best quality.
#[derive(Clone, Copy, Default)]
struct ToBest {
    quality: f64,
    tests: u64,
    ms: u64,
}

pub fn run(args: BenchForestArgs) -> anyhow::Result<()> {
    let problems = load_selected(&args.learn.problems, &args.learn.problem)?;
    let mut base = args.learn.clone();
    base.algorithm = "celoe".to_owned();
    base.explicit.clear();
    let prep = prepare(&base, &problems, None)?;
    let kb = &prep.kb;
    let examples = checked_examples(kb, &problems)?;
    let clean: Option<Vec<Examples>> = match &args.clean_problems {
        None => None,
        Some(path) => {
            let all = load_selected(path, &args.learn.problem)?;
            let by_name: Vec<_> = problems
                .iter()
                .map(|p| {
                    all.iter()
                        .find(|c| c.name == p.name)
                        .cloned()
                        .with_context(|| format!("{} has no problem {}", path.display(), p.name))
                })
                .collect::<anyhow::Result<_>>()?;
            Some(checked_examples(kb, &by_name)?)
        }
    };
    let budget = max_runtime(&base)?;
    let mut rows = Vec::new();
    for (i, (p, ex)) in problems.iter().zip(&examples).enumerate() {
        for name in ALGORITHMS {
            if cancelled() {
                break;
            }
            let entry = REGISTRY
                .iter()
                .find(|e| e.name == name)
                .context("the registry lacks a compared algorithm")?;
            let mut args = base.clone();
            args.algorithm = name.to_owned();
            let learner = (entry.build)(&args, kb, &prep.rho)?;
            let best = Arc::new(Mutex::new(ToBest::default()));
            let seen = best.clone();
            let control = RunControl {
                max_runtime: budget,
                max_tests: args.search.max_tests,
                max_queries: None,
                cancel: Some(cancel_flag()),
                progress: None,
            }
            .with_progress(move |x: &Progress| {
                if let Ok(mut b) = seen.lock()
                    && let Some(q) = x.best_quality
                    && q > b.quality
                {
                    *b = ToBest {
                        quality: q,
                        tests: x.concepts_tested,
                        ms: u64::try_from(x.elapsed.as_millis()).unwrap_or(u64::MAX),
                    };
                }
            });
            let oracle = Cached::new(kb.oracle().inner(), CacheOptions::default());
            let run = learner
                .fit(&oracle, &TrainingSet::from_examples(ex.clone()), &control)
                .with_context(|| format!("{name} on {}", p.name))?;
            let c = confusion(run.model.as_ref(), &oracle, ex, ex.all())?;
            let clean_f1 = match &clean {
                Some(cl) => Some(confusion(run.model.as_ref(), &oracle, &cl[i], cl[i].all())?.f1()),
                None => None,
            };
            let to_best = best.lock().map(|b| *b).unwrap_or_default();
            let s = &run.stats;
            rows.push(Row {
                problem: p.name.clone(),
                algorithm: entry.name,
                f1: c.f1(),
                clean_f1,
                best_quality: to_best.quality,
                tests: s.concepts_tested,
                tests_to_best: to_best.tests,
                ms_to_best: to_best.ms,
                refinements_to_best: s.detail_u64("refinements_to_best"),
                elapsed_ms: s.elapsed_ms,
                termination: s.termination.name(),
                solution: run
                    .model
                    .concept()
                    .map_or_else(String::new, |c| kb.manchester(c)),
            });
        }
    }
    if args.learn.json {
        return print_json(&rows);
    }
    print_table(&rows)
}

fn print_table(rows: &[Row]) -> anyhow::Result<()> {
    outln!(
        "{:<14} {:<14} {:>6} {:>6} {:>8} {:>9} {:>8} {:>10} {:>7}  {:<16} solution",
        "problem",
        "algorithm",
        "F1",
        "cleanF1",
        "tests",
        "to best",
        "ms best",
        "refs best",
        "ms",
        "termination"
    );
    let opt = |v: Option<f64>| v.map_or_else(|| "–".to_owned(), |v| format!("{v:.4}"));
    for r in rows {
        outln!(
            "{:<14} {:<14} {:>6.4} {:>6} {:>8} {:>9} {:>8} {:>10} {:>7}  {:<16} {}",
            r.problem,
            r.algorithm,
            r.f1,
            opt(r.clean_f1),
            r.tests,
            r.tests_to_best,
            r.ms_to_best,
            r.refinements_to_best
                .map_or_else(|| "–".to_owned(), |v| v.to_string()),
            r.elapsed_ms,
            r.termination,
            r.solution
        );
    }
    for name in ALGORITHMS {
        let mine: Vec<&Row> = rows.iter().filter(|r| r.algorithm == name).collect();
        let n = mine.len().max(1) as f64;
        let mean = |f: &dyn Fn(&Row) -> f64| mine.iter().map(|r| f(r)).sum::<f64>() / n;
        outln!(
            "{name}: {} problems, mean F1 {:.4}, mean clean F1 {}, mean tests to best {:.0}, mean ms to best {:.0}",
            mine.len(),
            mean(&|r| r.f1),
            opt(mine
                .iter()
                .all(|r| r.clean_f1.is_some())
                .then(|| mean(&|r| r.clean_f1.unwrap_or(0.0)))),
            mean(&|r| r.tests_to_best as f64),
            mean(&|r| r.ms_to_best as f64)
        );
    }
    // Per problem: Forest Mixing against CELOE (F1 first, then tests to best).
    let pairs: Vec<(&Row, &Row)> = rows
        .chunks(2)
        .filter_map(|w| match w {
            [c, f] if c.problem == f.problem => Some((c, f)),
            _ => None,
        })
        .collect();
    let better = pairs.iter().filter(|(c, f)| f.f1 > c.f1 + 1e-9).count();
    let worse = pairs.iter().filter(|(c, f)| f.f1 + 1e-9 < c.f1).count();
    let ties: Vec<&(&Row, &Row)> = pairs
        .iter()
        .filter(|(c, f)| (f.f1 - c.f1).abs() <= 1e-9)
        .collect();
    let faster = ties
        .iter()
        .filter(|(c, f)| f.tests_to_best < c.tests_to_best)
        .count();
    outln!(
        "forest-mixing vs celoe: higher F1 on {better}, lower on {worse}, equal on {} \
         (of which fewer tests to best on {faster})",
        ties.len()
    );
    Ok(())
}

//! Forest Mixing against CELOE on the same problems, one run each (the paper's comparison;
//! lab code, it was `oxilearn bench forest`): where each first reached its final best quality
//! (concepts tested, milliseconds; Forest Mixing also its refinements), the final training
//! F1, and with `--clean-problems` the F1 of the learned expression against the noise-free
//! examples. Both learners run with the library's defaults, the same operator and budgets,
//! and each over a fresh answer cache on the same store, so neither profits from the other's
//! answers. "To best" is read from the progress reports (after every scored batch).
//!
//! ```sh
//! cargo run --release --example forest_vs_celoe -- --kb FILE --problems LPFILE \
//!     [--problem NAME …] [--clean-problems LPFILE] [--max-tests N] [--max-runtime SECS] [--json]
//! ```

use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use anyhow::{Context, bail};
use clap::Parser;
use serde::Serialize;

use oxilearn::KnowledgeBase;
use oxilearn::learn::celoe::{Celoe, CeloeParams};
use oxilearn::learn::experiment::confusion;
use oxilearn::learn::forest::{ForestMixing, ForestParams};
use oxilearn::learn::{Examples, Learner, Progress, RunControl, TrainingSet};
use oxilearn::oracle::{CacheOptions, Cached};
use oxilearn::problem::{self, LearningProblem};
use oxilearn::refine::rho::{Rho, RhoOptions};

#[derive(Debug, Parser)]
#[command(name = "forest_vs_celoe")]
struct Args {
    /// RDF or OWL files of the knowledge base (repeatable).
    #[arg(long, value_name = "FILE", required = true)]
    kb: Vec<PathBuf>,
    /// The learning problems.
    #[arg(long, value_name = "LPFILE")]
    problems: PathBuf,
    /// Only these problems (repeatable; default: all).
    #[arg(long = "problem", value_name = "NAME")]
    problem: Vec<String>,
    /// The same problems without noise (matched by name): the learned expressions are also
    /// scored against them (`clean_f1`).
    #[arg(long, value_name = "LPFILE")]
    clean_problems: Option<PathBuf>,
    /// Concepts each learner may test per problem.
    #[arg(long, value_name = "N")]
    max_tests: Option<u64>,
    /// Seconds each learner may run per problem.
    #[arg(long, value_name = "SECS", default_value_t = 10.0)]
    max_runtime: f64,
    /// Print the rows as JSON instead of the table.
    #[arg(long)]
    json: bool,
}

#[derive(Debug, Serialize)]
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

fn main() -> ExitCode {
    match run(Args::parse()) {
        Ok(rows) => ExitCode::from(u8::from(print(&rows).is_err()) * 2),
        Err(e) => {
            eprintln!("error: {e:#}");
            ExitCode::from(2)
        }
    }
}

fn run(args: Args) -> anyhow::Result<(Args, Vec<Row>)> {
    let problems = load(&args.problems, &args.problem)?;
    let kb = KnowledgeBase::from_files(&args.kb)?;
    let examples = examples_of(&kb, &problems)?;
    let clean = match &args.clean_problems {
        None => None,
        Some(path) => {
            let all = load(path, &args.problem)?;
            let by_name: Vec<LearningProblem> = problems
                .iter()
                .map(|p| {
                    all.iter()
                        .find(|c| c.name == p.name)
                        .cloned()
                        .with_context(|| format!("{} has no problem {}", path.display(), p.name))
                })
                .collect::<anyhow::Result<_>>()?;
            Some(examples_of(&kb, &by_name)?)
        }
    };
    let rho = kb.rho(RhoOptions::default())?;
    let mut rows = Vec::new();
    for (i, (p, ex)) in problems.iter().zip(&examples).enumerate() {
        for algorithm in ["celoe", "forest-mixing"] {
            let clean = clean.as_ref().map(|c| &c[i]);
            rows.push(one_run(&kb, &rho, &args, algorithm, &p.name, ex, clean)?);
        }
    }
    Ok((args, rows))
}

fn load(path: &Path, names: &[String]) -> anyhow::Result<Vec<LearningProblem>> {
    let all = problem::load_problems(path)
        .with_context(|| format!("reading problems from {}", path.display()))?;
    let selected = problem::select(all, names)?;
    if selected.is_empty() {
        bail!("{} holds no learning problem", path.display());
    }
    Ok(selected)
}

fn examples_of(kb: &KnowledgeBase, problems: &[LearningProblem]) -> anyhow::Result<Vec<Examples>> {
    problems
        .iter()
        .map(|p| {
            let (pos, neg) = kb.example_sets(p)?;
            Examples::new(pos, neg).with_context(|| format!("problem {}", p.name))
        })
        .collect()
}

/// One learner on one problem, with the library's defaults and a fresh answer cache.
fn one_run(
    kb: &KnowledgeBase,
    rho: &Rho,
    args: &Args,
    algorithm: &'static str,
    problem: &str,
    ex: &Examples,
    clean: Option<&Examples>,
) -> anyhow::Result<Row> {
    let learner: Box<dyn Learner + '_> = match algorithm {
        "celoe" => Box::new(Celoe::new(CeloeParams::default(), rho)?),
        _ => Box::new(ForestMixing::new(ForestParams::default(), rho)?),
    };
    let best = Arc::new(Mutex::new(ToBest::default()));
    let seen = best.clone();
    let control = RunControl {
        max_runtime: Some(
            Duration::try_from_secs_f64(args.max_runtime).with_context(|| {
                format!(
                    "--max-runtime must be a number of seconds, not {}",
                    args.max_runtime
                )
            })?,
        ),
        max_tests: args.max_tests,
        ..RunControl::default()
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
        .with_context(|| format!("{algorithm} on {problem}"))?;
    let f1 = confusion(run.model.as_ref(), &oracle, ex, ex.all())?.f1();
    let clean_f1 = match clean {
        Some(c) => Some(confusion(run.model.as_ref(), &oracle, c, c.all())?.f1()),
        None => None,
    };
    let to_best = best.lock().map(|b| *b).unwrap_or_default();
    let s = &run.stats;
    Ok(Row {
        problem: problem.to_owned(),
        algorithm,
        f1,
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
    })
}

fn print((args, rows): &(Args, Vec<Row>)) -> anyhow::Result<()> {
    if args.json {
        println!("{}", serde_json::to_string_pretty(rows)?);
        return Ok(());
    }
    let opt = |v: Option<f64>| v.map_or_else(|| "–".to_owned(), |v| format!("{v:.4}"));
    println!(
        "{:<14} {:<14} {:>6} {:>7} {:>8} {:>9} {:>8} {:>10} {:>7}  {:<16} solution",
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
    for r in rows {
        println!(
            "{:<14} {:<14} {:>6.4} {:>7} {:>8} {:>9} {:>8} {:>10} {:>7}  {:<16} {}",
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
    let pairs: Vec<(&Row, &Row)> = rows
        .chunks(2)
        .filter_map(|w| Some((w.first()?, w.get(1)?)))
        .collect();
    let better = pairs.iter().filter(|(c, f)| f.f1 > c.f1 + 1e-9).count();
    let worse = pairs.iter().filter(|(c, f)| f.f1 + 1e-9 < c.f1).count();
    let ties: Vec<_> = pairs
        .iter()
        .filter(|(c, f)| (f.f1 - c.f1).abs() <= 1e-9)
        .collect();
    let faster = ties
        .iter()
        .filter(|(c, f)| f.tests_to_best < c.tests_to_best)
        .count();
    println!(
        "forest-mixing vs celoe: higher F1 on {better}, lower on {worse}, equal on {} \
         (of which fewer tests to best on {faster})",
        ties.len()
    );
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Both learners find the family fixture's definitions under the same test budget; the
    /// rows come per problem, CELOE first, and only Forest Mixing counts refinements.
    #[test]
    fn both_learners_are_compared_under_the_same_budget() {
        let family = concat!(env!("CARGO_MANIFEST_DIR"), "/fixtures/family/");
        let args = Args::parse_from([
            "forest_vs_celoe",
            "--kb",
            &format!("{family}family.ttl"),
            "--problems",
            &format!("{family}problems.json"),
            "--problem",
            "Father",
            "--problem",
            "Uncle",
            "--clean-problems",
            &format!("{family}problems.json"),
            "--max-tests",
            "2000",
        ]);
        let (_, rows) = run(args).unwrap();
        let names: Vec<(&str, &str)> = rows
            .iter()
            .map(|r| (r.problem.as_str(), r.algorithm))
            .collect();
        assert_eq!(
            names,
            [
                ("Father", "celoe"),
                ("Father", "forest-mixing"),
                ("Uncle", "celoe"),
                ("Uncle", "forest-mixing")
            ]
        );
        for r in &rows {
            assert!(r.tests <= 2000, "{r:?}");
            assert!(r.tests_to_best <= r.tests, "{r:?}");
            assert_eq!(r.f1, 1.0, "{r:?}");
            assert_eq!(r.clean_f1, Some(r.f1), "{r:?}");
            assert_eq!(r.best_quality, 1.0, "{r:?}");
        }
        assert!(rows[1].refinements_to_best.is_some());
        assert!(rows[0].refinements_to_best.is_none());
    }
}

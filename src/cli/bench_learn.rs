//! `oxilearn bench learn`: quality and speed of the chosen learner (`--algorithm`, any of
//! the registry) per problem, embedded and over the compared endpoints, from one run (so
//! ratios share the machine's load).
//! With `--test FILE` each model is also scored on its held-out examples (as `learn
//! --test`), and the summary gives the mean held-out accuracy and F1.

use serde::Serialize;

use super::args::BenchLearnArgs;
use super::held_out::{self, TestJson};
use super::learner::{Prepared, cancelled, checked_examples, fit_problem, prepare};
use super::options::KbArgs;
use super::print_json;
use super::problems::load_selected;
use crate::concept::length;
use crate::learn::experiment::confusion;
use crate::problem::LearningProblem;

#[derive(Serialize)]
struct Row {
    backend: String,
    problem: String,
    algorithm: &'static str,
    f1: f64,
    accuracy: f64,
    length: usize,
    solution: String,
    concepts_tested: u64,
    /// `null` when the run was too short to measure.
    tests_per_second: Option<f64>,
    queries_sent: u64,
    queries_per_test: f64,
    elapsed_ms: u64,
    termination: &'static str,
    /// `--test`: the model on the held-out examples.
    #[serde(skip_serializing_if = "Option::is_none")]
    test: Option<TestJson>,
}

#[derive(Serialize)]
struct BackendSummary {
    backend: String,
    problems: usize,
    mean_f1: f64,
    mean_accuracy: f64,
    /// All tests over all elapsed time.
    tests_per_second: f64,
    queries_per_test: f64,
    /// `--test`: mean held-out accuracy and F1.
    #[serde(skip_serializing_if = "Option::is_none")]
    mean_test_accuracy: Option<f64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    mean_test_f1: Option<f64>,
}

#[derive(Serialize)]
struct LearnBench {
    rows: Vec<Row>,
    summaries: Vec<BackendSummary>,
}

fn bench_backend(
    name: &str,
    prep: &Prepared,
    args: &BenchLearnArgs,
    problems: &[LearningProblem],
    tests: &[LearningProblem],
) -> anyhow::Result<(Vec<Row>, BackendSummary)> {
    let kb = &prep.kb;
    let examples = checked_examples(kb, problems)?;
    let test_examples = checked_examples(kb, tests)?;
    let mut rows = Vec::new();
    for (i, (p, ex)) in problems.iter().zip(&examples).enumerate() {
        if cancelled() {
            break;
        }
        let run = fit_problem(prep, &args.learn, p, ex, &format!("{name} {}", p.name))?;
        // The model's own classification of the training examples (for TBC: probability
        // ≥ ½), and its first solution for the length and text.
        let c = confusion(run.model.as_ref(), kb.oracle(), ex, ex.all())?;
        let test = match test_examples.get(i) {
            Some(t) => Some(held_out::score(kb, run.model.as_ref(), t, ex)?),
            None => None,
        };
        let best = run.solutions.first();
        let s = &run.stats;
        rows.push(Row {
            backend: name.to_owned(),
            problem: p.name.clone(),
            algorithm: prep.entry.name,
            f1: c.f1(),
            accuracy: c.accuracy(),
            length: best.map_or(0, |b| length(&b.concept)),
            solution: match run.model.concept() {
                Some(concept) => kb.manchester(concept),
                None => run
                    .model
                    .describe(kb.vocabulary())
                    .lines()
                    .next()
                    .unwrap_or_default()
                    .to_owned(),
            },
            concepts_tested: s.concepts_tested,
            tests_per_second: s.tests_per_second(),
            queries_sent: s.queries_sent,
            queries_per_test: s.queries_sent as f64 / s.concepts_tested.max(1) as f64,
            elapsed_ms: s.elapsed_ms,
            termination: s.termination.name(),
            test,
        });
    }
    let n = rows.len().max(1) as f64;
    let tests: u64 = rows.iter().map(|r| r.concepts_tested).sum();
    let ms: u64 = rows.iter().map(|r| r.elapsed_ms).sum();
    let queries: u64 = rows.iter().map(|r| r.queries_sent).sum();
    let summary = BackendSummary {
        backend: name.to_owned(),
        problems: rows.len(),
        mean_f1: rows.iter().map(|r| r.f1).sum::<f64>() / n,
        mean_accuracy: rows.iter().map(|r| r.accuracy).sum::<f64>() / n,
        tests_per_second: tests as f64 * 1000.0 / ms.max(1) as f64,
        queries_per_test: queries as f64 / tests.max(1) as f64,
        mean_test_accuracy: mean_test(&rows, |t| t.accuracy),
        mean_test_f1: mean_test(&rows, |t| t.f1),
    };
    Ok((rows, summary))
}

/// The mean of `measure` over the rows scored on held-out examples (`None`: no row was).
fn mean_test(rows: &[Row], measure: fn(&TestJson) -> f64) -> Option<f64> {
    let scored: Vec<f64> = rows
        .iter()
        .filter_map(|r| r.test.as_ref().map(measure))
        .collect();
    (!scored.is_empty()).then(|| scored.iter().sum::<f64>() / scored.len() as f64)
}

pub fn run(mut args: BenchLearnArgs) -> anyhow::Result<()> {
    super::held_out::refuse_unused("bench learn", &args.learn)?;
    let problems = load_selected(&args.learn.problems, &args.learn.problem)?;
    super::conf_defaults::apply(&mut args.learn, &problems);
    let tests = match &args.learn.test_file {
        Some(path) => held_out::test_problems(path, args.learn.label_column.as_deref(), &problems)?,
        None => Vec::new(),
    };
    // The test examples are read with the training ones (one scope, one cache).
    let scope: Vec<LearningProblem> = problems.iter().chain(&tests).cloned().collect();
    let mut rows = Vec::new();
    let mut summaries = Vec::new();
    let embedded = prepare(&args.learn, &scope, None)?;
    let (r, s) = bench_backend("embedded", &embedded, &args, &problems, &tests)?;
    rows.extend(r);
    summaries.push(s);
    drop(embedded);
    for url in &args.compare {
        let kb = KbArgs {
            kb: Vec::new(),
            endpoint: Some(url.clone()),
            graph: args.compare_graph.iter().cloned().collect(),
            ..args.learn.kb.clone()
        };
        let prep = prepare(&args.learn, &scope, Some(&kb))?;
        let (r, s) = bench_backend(url, &prep, &args, &problems, &tests)?;
        rows.extend(r);
        summaries.push(s);
    }
    let bench = LearnBench { rows, summaries };
    if args.learn.json {
        return print_json(&bench);
    }
    outln!(
        "{:<12} {:<6} {:<20} {:>6} {:>6} {:>4} {:>8} {:>9} {:>8} {:>6} {:>7}  solution",
        "backend",
        "algo",
        "problem",
        "F1",
        "acc",
        "len",
        "tests",
        "tests/s",
        "queries",
        "q/test",
        "ms"
    );
    for r in &bench.rows {
        outln!(
            "{:<12} {:<6} {:<20} {:>6.4} {:>6.4} {:>4} {:>8} {:>9} {:>8} {:>6.3} {:>7}  {} [{}]",
            short(&r.backend),
            r.algorithm,
            r.problem,
            r.f1,
            r.accuracy,
            r.length,
            r.concepts_tested,
            r.tests_per_second
                .map_or_else(|| "–".to_owned(), |t| format!("{t:.0}")),
            r.queries_sent,
            r.queries_per_test,
            r.elapsed_ms,
            r.solution,
            r.termination
        );
        if let Some(t) = &r.test {
            outln!("    {}", held_out::line(t));
        }
    }
    for s in &bench.summaries {
        outln!(
            "{}: {} problems, mean F1 {:.4}, mean accuracy {:.4}, {:.0} tests/s, {:.3} queries/test",
            s.backend,
            s.problems,
            s.mean_f1,
            s.mean_accuracy,
            s.tests_per_second,
            s.queries_per_test
        );
        if let (Some(acc), Some(f1)) = (s.mean_test_accuracy, s.mean_test_f1) {
            outln!("    held-out: mean accuracy {acc:.4}, mean F1 {f1:.4}");
        }
    }
    Ok(())
}

fn short(backend: &str) -> &str {
    backend
        .strip_prefix("http://")
        .unwrap_or(backend)
        .get(..12)
        .unwrap_or(backend)
}

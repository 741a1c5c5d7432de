//! `oxilearn bench learn`: quality and speed of the chosen learner (`--algorithm`, any of
//! the registry) per problem, embedded and over the compared endpoints, from one run (so
//! ratios share the machine's load).

use serde::Serialize;

use super::args::BenchLearnArgs;
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
) -> anyhow::Result<(Vec<Row>, BackendSummary)> {
    let kb = &prep.kb;
    let examples = checked_examples(kb, problems)?;
    let mut rows = Vec::new();
    for (p, ex) in problems.iter().zip(&examples) {
        if cancelled() {
            break;
        }
        let run = fit_problem(prep, &args.learn, p, ex, &format!("{name} {}", p.name))?;
        // The model's own classification of the training examples (for TBC: probability
        // ≥ ½), and its first solution for the length and text.
        let c = confusion(run.model.as_ref(), kb.oracle(), ex, ex.all())?;
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
    };
    Ok((rows, summary))
}

pub fn run(mut args: BenchLearnArgs) -> anyhow::Result<()> {
    super::held_out::refuse_unused("bench learn", &args.learn)?;
    let problems = load_selected(&args.learn.problems, &args.learn.problem)?;
    super::conf_defaults::apply(&mut args.learn, &problems);
    let mut rows = Vec::new();
    let mut summaries = Vec::new();
    let embedded = prepare(&args.learn, &problems, None)?;
    let (r, s) = bench_backend("embedded", &embedded, &args, &problems)?;
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
        let prep = prepare(&args.learn, &problems, Some(&kb))?;
        let (r, s) = bench_backend(url, &prep, &args, &problems)?;
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

//! `oxilearn learn`: one learner run per problem; the best expressions with their counts
//! and the run's statistics, as text or as one JSON document (an array over problems).

use serde::Serialize;

use super::args::{AlgorithmArg, LearnArgs};
use super::kb_source::{self, Session};
use super::learner::{SolutionJson, build_rho, run_celoe, stats_line};
use super::print_json;
use super::problems::{examples_of, fallback_kb, load_selected};
use crate::learn::{QualityMeasure, RunStats};
use crate::oracle::Semantics;
use crate::problem::LearningProblem;
use crate::refine::rho::Rho;

/// The documented JSON shape of one problem's run (later learners add fields).
#[derive(Serialize)]
pub struct LearnJson {
    pub problem: String,
    pub algorithm: &'static str,
    pub quality: QualityMeasure,
    pub semantics: Semantics,
    pub positives: usize,
    pub negatives: usize,
    /// Best first.
    pub solutions: Vec<SolutionJson>,
    pub stats: RunStats,
}

pub fn algorithm_name(a: AlgorithmArg) -> &'static str {
    match a {
        AlgorithmArg::Celoe => "celoe",
        AlgorithmArg::Tbc => "tbc",
    }
}

fn learn_one(
    session: &Session,
    args: &LearnArgs,
    rho: &Rho,
    p: &LearningProblem,
) -> anyhow::Result<LearnJson> {
    let examples = examples_of(session, p)?;
    let run = run_celoe(session, args, rho, &examples, &p.name)?;
    Ok(LearnJson {
        problem: p.name.clone(),
        algorithm: algorithm_name(args.algorithm),
        quality: run.model.quality_measure,
        semantics: run.model.semantics,
        positives: examples.positives().len(),
        negatives: examples.negatives().len(),
        solutions: run
            .model
            .solutions
            .iter()
            .map(|s| SolutionJson::of(session, s))
            .collect(),
        stats: run.stats,
    })
}

pub fn run(args: LearnArgs) -> anyhow::Result<()> {
    if args.algorithm == AlgorithmArg::Tbc {
        return super::tbc::learn(args);
    }
    let problems = load_selected(&args.problems, &args.problem)?;
    let session = kb_source::open(&args.kb, fallback_kb(&problems))?;
    let rho = build_rho(&session, &args.rho)?;
    let mut results = Vec::new();
    for p in &problems {
        let r = learn_one(&session, &args, &rho, p)?;
        if !args.json {
            print_text(&r)?;
        }
        results.push(r);
    }
    if args.json {
        print_json(&results)?;
    }
    Ok(())
}

fn print_text(r: &LearnJson) -> anyhow::Result<()> {
    outln!(
        "problem {} ({} positives, {} negatives), {}, quality {}",
        r.problem,
        r.positives,
        r.negatives,
        r.algorithm,
        r.quality.name()
    );
    if r.solutions.is_empty() {
        outln!("  no solution (the start class misses more positives than the noise allows)");
    }
    for (i, s) in r.solutions.iter().enumerate() {
        outln!("  {:>2}. {}", i + 1, s.manchester);
        outln!(
            "      DL: {}   length {}, tp {} fp {} tn {} fn {}, F1 {:.4}, accuracy {:.4}",
            s.dl,
            s.length,
            s.tp,
            s.fp,
            s.tn,
            s.fn_,
            s.f1,
            s.accuracy
        );
    }
    outln!("  stats: {}", stats_line(&r.stats));
    Ok(())
}

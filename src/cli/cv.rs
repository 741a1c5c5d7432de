//! `oxilearn cv`: stratified k-fold cross-validation per problem. Each fold's learner sees
//! only the training examples (split points included); the best solution is then scored on
//! the held-out examples.

use serde::Serialize;

use super::args::CvArgs;
use super::kb_source::{self, Session};
use super::learn::algorithm_name;
use super::learner::{SolutionJson, build_rho, run_celoe};
use super::print_json;
use super::problems::{examples_of, fallback_kb, folds_of, load_selected};
use crate::eval::{Confusion, Summary};
use crate::learn::{Examples, RunStats};
use crate::problem::LearningProblem;
use crate::refine::rho::Rho;

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
    /// The best solution on the training examples (absent when none was found).
    solution: Option<SolutionJson>,
    train: Counts,
    test: Counts,
    stats: RunStats,
}

/// The documented JSON shape of one problem's cross-validation.
#[derive(Serialize)]
struct CvJson {
    problem: String,
    algorithm: &'static str,
    folds: usize,
    seed: u64,
    train_f1: Summary,
    test_f1: Summary,
    train_accuracy: Summary,
    test_accuracy: Summary,
    per_fold: Vec<FoldJson>,
}

fn cv_one(
    session: &Session,
    args: &CvArgs,
    rho: &Rho,
    p: &LearningProblem,
) -> anyhow::Result<CvJson> {
    let examples = examples_of(session, p)?;
    let folds = folds_of(&examples, args.folds, args.seed, &p.name)?;
    let mut per_fold = Vec::new();
    for (i, fold) in folds.iter().enumerate() {
        let train = Examples::new(fold.train_positives.clone(), fold.train_negatives.clone())?;
        let test = Examples::new(fold.test_positives.clone(), fold.test_negatives.clone())?;
        let label = format!("{} fold {}/{}", p.name, i + 1, args.folds);
        let run = run_celoe(session, &args.learn, rho, &train, &label)?;
        let train_counts = train.confusion(&run.model.predict(&session.oracle, train.all())?);
        let test_counts = run.model.confusion_on(&session.oracle, &test)?;
        per_fold.push(FoldJson {
            fold: i + 1,
            solution: run.model.best().map(|s| SolutionJson::of(session, s)),
            train: train_counts.into(),
            test: test_counts.into(),
            stats: run.stats,
        });
    }
    let summary = |f: &dyn Fn(&FoldJson) -> f64| Summary::of(per_fold.iter().map(f).collect());
    Ok(CvJson {
        problem: p.name.clone(),
        algorithm: algorithm_name(args.learn.algorithm),
        folds: args.folds,
        seed: args.seed,
        train_f1: summary(&|f| f.train.f1),
        test_f1: summary(&|f| f.test.f1),
        train_accuracy: summary(&|f| f.train.accuracy),
        test_accuracy: summary(&|f| f.test.accuracy),
        per_fold,
    })
}

pub fn run(args: CvArgs) -> anyhow::Result<()> {
    if args.learn.algorithm == super::args::AlgorithmArg::Tbc {
        return super::tbc::cv(args);
    }
    let problems = load_selected(&args.learn.problems, &args.learn.problem)?;
    let session = kb_source::open(&args.learn.kb, fallback_kb(&problems))?;
    // One operator for every problem and fold: its split points come from the KB, not the
    // examples.
    let rho = build_rho(&session, &args.learn.rho)?;
    let mut results = Vec::new();
    for p in &problems {
        let r = cv_one(&session, &args, &rho, p)?;
        if !args.learn.json {
            print_table(&r)?;
        }
        results.push(r);
    }
    if args.learn.json {
        print_json(&results)?;
    }
    Ok(())
}

fn print_table(r: &CvJson) -> anyhow::Result<()> {
    outln!(
        "problem {}: {}-fold cross-validation of {} (seed {})",
        r.problem,
        r.folds,
        r.algorithm,
        r.seed
    );
    outln!(
        "  {:>4} {:>8} {:>9} {:>8} {:>9}  solution",
        "fold",
        "train F1",
        "train acc",
        "test F1",
        "test acc"
    );
    for f in &r.per_fold {
        outln!(
            "  {:>4} {:>8.4} {:>9.4} {:>8.4} {:>9.4}  {}",
            f.fold,
            f.train.f1,
            f.train.accuracy,
            f.test.f1,
            f.test.accuracy,
            f.solution
                .as_ref()
                .map_or("(none)", |s| s.manchester.as_str())
        );
    }
    let pm = |s: &Summary| format!("{:.4} ± {:.4}", s.mean, s.sd);
    outln!(
        "  mean: train F1 {}, train accuracy {}, test F1 {}, test accuracy {}",
        pm(&r.train_f1),
        pm(&r.train_accuracy),
        pm(&r.test_f1),
        pm(&r.test_accuracy)
    );
    Ok(())
}

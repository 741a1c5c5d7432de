//! The terminological Bayesian classifier experiment grid of the paper's Table 2 on one KB's
//! targets — k-fold AUC-PR/AUC-ROC per target and configuration, summarised over targets as
//! mean ± sd, written as markdown and JSON. Lab code (it was `oxilearn bench tbc`); heavy,
//! never part of `cargo test`.
//!
//! ```sh
//! cargo run --release --example tbc_grid -- --kb FILE --problems LPFILE [--cell ACA …] \
//!     [--selection fs|ffsbe] [--proposals N] [--folds 10] [--celoe] [--out-md F] [--out-json F]
//! ```

mod grid;

use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use anyhow::{Context, bail};
use clap::Parser;
use serde::Serialize;

use grid::{GridCell, paper_grid};
use oxilearn::KnowledgeBase;
use oxilearn::eval::Summary;
use oxilearn::learn::celoe::{Celoe, CeloeParams};
use oxilearn::learn::experiment::{FoldOutcome, cross_validate};
use oxilearn::learn::tbc::{FeatureSemantics, Selection, Tbc, TbcParams};
use oxilearn::learn::{Examples, LearnError, Learner, RunControl};
use oxilearn::oracle::{
    CacheOptions, Cached, IndividualScope, MembershipOracle, OracleOptions, Semantics,
};
use oxilearn::problem;
use oxilearn::refine::rho::{Rho, RhoOptions};

/// The grid's flags, as `bench tbc` took them (`--kb` files only: no endpoint).
#[derive(Debug, Parser)]
#[command(name = "tbc_grid")]
struct Args {
    /// RDF or OWL files of the knowledge base (repeatable).
    #[arg(long, value_name = "FILE", required = true)]
    kb: Vec<PathBuf>,
    /// Target problems (e.g. from `generate-problems`).
    #[arg(long, value_name = "LPFILE")]
    problems: PathBuf,
    /// Only these problems (repeatable; default: all).
    #[arg(long = "problem", value_name = "NAME")]
    problem: Vec<String>,
    #[arg(long, default_value_t = 10)]
    folds: usize,
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Grid methods to run: ACA, EM, IM3, IM2, ROBUST, TACA, SEM, TIM3, TIM2 (repeatable;
    /// default: all).
    #[arg(long = "cell", value_name = "NAME")]
    cell: Vec<String>,
    /// Selection strategies (repeatable; default: both).
    #[arg(long = "selection", value_enum)]
    selection: Vec<Selection>,
    #[arg(long, default_value_t = 3)]
    depth: usize,
    #[arg(long, default_value_t = 3)]
    max_length: usize,
    #[arg(long, default_value_t = 5)]
    beam_width: usize,
    /// Candidate features from a short CELOE run offered to the beam (0: the paper's search).
    #[arg(long, value_name = "N", default_value_t = 10)]
    proposals: usize,
    /// Feature semantics: open (three-valued, the paper) or closed.
    #[arg(long, value_enum, default_value_t = Semantics::Open)]
    semantics: Semantics,
    /// Wall-clock limit per learner run, in seconds.
    #[arg(long, value_name = "SECS")]
    time_limit: Option<f64>,
    /// Also rank the same folds with CELOE (score: the best covering solution's training F1).
    #[arg(long)]
    celoe: bool,
    /// CELOE's budget per fold: concepts tested.
    #[arg(long, value_name = "N", default_value_t = 2000)]
    celoe_tests: u64,
    /// CELOE's budget per fold: seconds.
    #[arg(long, value_name = "SECS", default_value_t = 2.0)]
    celoe_secs: f64,
    /// Write the markdown table here.
    #[arg(long, value_name = "FILE")]
    out_md: Option<PathBuf>,
    /// Write the JSON document here.
    #[arg(long, value_name = "FILE")]
    out_json: Option<PathBuf>,
    /// Print the JSON document instead of the table.
    #[arg(long)]
    json: bool,
}

fn main() -> ExitCode {
    match run(Args::parse()) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e:#}");
            ExitCode::from(2)
        }
    }
}

/// Ctrl-C stops the runs at the next check and the grid reports what completed; a second
/// Ctrl-C quits.
fn cancel_flag() -> Arc<AtomicBool> {
    let flag = Arc::new(AtomicBool::new(false));
    let handler_flag = flag.clone();
    let _ = ctrlc::set_handler(move || {
        if handler_flag.swap(true, Ordering::SeqCst) {
            std::process::exit(130);
        }
        eprintln!("\ninterrupted: stopping and reporting what completed (Ctrl-C again to quit)");
    });
    flag
}

fn secs_flag(flag: &str, secs: f64) -> anyhow::Result<Duration> {
    Duration::try_from_secs_f64(secs).map_err(|e| {
        anyhow::anyhow!("{flag} must be a representable number of seconds, not {secs} ({e})")
    })
}

/// Cross-validated figures of one configuration on one target.
#[derive(Clone, Debug, PartialEq, Serialize)]
struct CvFigures {
    auc_pr: Summary,
    auc_roc: Summary,
    /// Feature concepts (CELOE: solutions) in each fold's model.
    features: Summary,
    /// Candidate concepts scored, summed over the folds.
    features_tested: u64,
    /// Oracle queries sent (fits and test predictions), summed over the folds.
    queries_sent: u64,
    elapsed_ms: u64,
}

/// The learner-generic cross-validation, summarised as the paper reports it.
fn figures(
    learner: &dyn Learner,
    oracle: &dyn MembershipOracle,
    examples: &Examples,
    folds: usize,
    seed: u64,
    control: &RunControl,
) -> Result<CvFigures, LearnError> {
    let cv = cross_validate(learner, oracle, examples, folds, seed, control)?;
    // A cancelled grid (Ctrl-C) reports what completed; no completed fold reads as 0.
    let summary =
        |f: &dyn Fn(&FoldOutcome) -> f64| cv.summary(f).unwrap_or_else(|| Summary::of(Vec::new()));
    Ok(CvFigures {
        auc_pr: summary(&|f| f.auc_pr.unwrap_or(f64::NAN)),
        auc_roc: summary(&|f| f.auc_roc.unwrap_or(f64::NAN)),
        features: summary(&|f| f.fit.solutions.len() as f64),
        features_tested: cv.folds.iter().map(|f| f.fit.stats.concepts_tested).sum(),
        queries_sent: cv
            .folds
            .iter()
            .map(|f| f.fit.stats.queries_sent + f.predict_queries)
            .sum(),
        elapsed_ms: cv.elapsed_ms,
    })
}

#[derive(Serialize)]
struct TargetResult {
    problem: String,
    #[serde(flatten)]
    outcome: CvFigures,
}

#[derive(Serialize)]
struct CellResult {
    name: String,
    /// FS or FFSBE (absent for the CELOE baseline).
    #[serde(skip_serializing_if = "Option::is_none")]
    selection: Option<Selection>,
    #[serde(flatten, skip_serializing_if = "Option::is_none")]
    cell: Option<GridCell>,
    /// Over targets: the per-target mean AUC-PR.
    auc_pr: Summary,
    auc_roc: Summary,
    targets: Vec<TargetResult>,
}

impl CellResult {
    /// A cell's targets with the means over them.
    fn new(name: String, cell: Option<GridCell>, targets: Vec<TargetResult>) -> Self {
        CellResult {
            name,
            selection: cell.as_ref().map(|c| c.selection),
            cell,
            auc_pr: Summary::of(targets.iter().map(|t| t.outcome.auc_pr.mean).collect()),
            auc_roc: Summary::of(targets.iter().map(|t| t.outcome.auc_roc.mean).collect()),
            targets,
        }
    }
}

#[derive(Serialize)]
struct Report {
    kb: Vec<String>,
    problems: String,
    folds: usize,
    seed: u64,
    params: TbcParams,
    cells: Vec<CellResult>,
}

fn run(args: Args) -> anyhow::Result<()> {
    let problems = problem::load_problems(&args.problems)
        .with_context(|| format!("reading problems from {}", args.problems.display()))?;
    let problems = problem::select(problems, &args.problem)?;
    if problems.is_empty() {
        bail!("{} holds no learning problem", args.problems.display());
    }
    let kb = open_kb(&args.kb)?;
    // Folds and test sets are many example sets: keep more of them cached than a command does.
    let oracle = Cached::new(
        kb.oracle().inner(),
        CacheOptions {
            max_example_sets: 64,
            ..CacheOptions::default()
        },
    );
    let control = run_control(&args)?;
    let base = TbcParams {
        depth: args.depth,
        max_length: args.max_length,
        beam_width: args.beam_width,
        proposals: args.proposals,
        semantics: match args.semantics {
            Semantics::Open => FeatureSemantics::Open,
            Semantics::Closed => FeatureSemantics::Closed,
        },
        ..TbcParams::default()
    };
    base.validate()?;
    let selections: Vec<Selection> = if args.selection.is_empty() {
        vec![Selection::Fs, Selection::Ffsbe]
    } else {
        args.selection.clone()
    };
    let grid = chosen_cells(&args.cell, &selections)?;
    let mut sets = Vec::new();
    for p in &problems {
        let (pos, neg) = kb.example_sets(p)?;
        sets.push((p.name.clone(), Examples::new(pos, neg)?));
    }
    // The paper's feature language: ρ restricted to ⊓, ⊔, ¬, ∃.
    let rho = Rho::new(kb.shared_signature(), RhoOptions::boolean_existential());
    let mut cells = Vec::new();
    for cell in &grid {
        let tbc = Tbc::new(cell.params(&base), &rho)?;
        let label = format!("{} {:?}", cell.name, cell.selection);
        let targets = targets(
            &tbc,
            &oracle,
            &sets,
            &args,
            &control,
            &label,
            &|name, outcome| {
                eprintln!(
                    "{:<7} {:<6} {name:<12} AUC-PR {:.3} ± {:.3}  ({} ms)",
                    cell.name,
                    format!("{:?}", cell.selection),
                    outcome.auc_pr.mean,
                    outcome.auc_pr.sd,
                    outcome.elapsed_ms
                );
            },
        )?;
        cells.push(CellResult::new(
            cell.name.clone(),
            Some(cell.clone()),
            targets,
        ));
    }
    if args.celoe {
        cells.push(celoe_cell(&kb, &oracle, &sets, &args, &control)?);
    }
    let report = Report {
        kb: args.kb.iter().map(|p| p.display().to_string()).collect(),
        problems: args.problems.display().to_string(),
        folds: args.folds,
        seed: args.seed,
        params: base,
        cells,
    };
    write_report(&report, &selections, &args)
}

/// The files in a fresh in-memory store, over the individuals that occur in the data.
fn open_kb(files: &[PathBuf]) -> anyhow::Result<KnowledgeBase> {
    let kb = KnowledgeBase::builder()
        .oracle_options(OracleOptions {
            scope: IndividualScope::ActiveDomain,
            ..OracleOptions::default()
        })
        .open_files(files)?;
    for w in kb.warnings() {
        eprintln!("warning: {w}");
    }
    Ok(kb)
}

/// `--time-limit` and Ctrl-C.
fn run_control(args: &Args) -> anyhow::Result<RunControl> {
    if let Some(t) = args.time_limit
        && !(t.is_finite() && t > 0.0)
    {
        bail!("--time-limit must be a positive number of seconds, not {t}");
    }
    Ok(RunControl {
        max_runtime: args
            .time_limit
            .map(|t| secs_flag("--time-limit", t))
            .transpose()?,
        cancel: Some(cancel_flag()),
        ..RunControl::default()
    })
}

/// The paper's cells named by `--cell` (all when none) with one of the selections.
fn chosen_cells(cell: &[String], selections: &[Selection]) -> anyhow::Result<Vec<GridCell>> {
    let wanted: Vec<String> = cell.iter().map(|m| m.to_ascii_uppercase()).collect();
    let grid: Vec<GridCell> = paper_grid()
        .into_iter()
        .filter(|c| wanted.is_empty() || wanted.contains(&c.name))
        .filter(|c| selections.contains(&c.selection))
        .collect();
    if grid.is_empty() {
        bail!("no grid cell matches --cell {cell:?}");
    }
    Ok(grid)
}

/// One learner cross-validated on every target, each target's figures shown as it ends.
fn targets(
    learner: &dyn Learner,
    oracle: &dyn MembershipOracle,
    sets: &[(String, Examples)],
    args: &Args,
    control: &RunControl,
    label: &str,
    show: &dyn Fn(&str, &CvFigures),
) -> anyhow::Result<Vec<TargetResult>> {
    let mut targets = Vec::new();
    for (name, examples) in sets {
        let outcome = figures(learner, oracle, examples, args.folds, args.seed, control)
            .with_context(|| format!("{label} on {name}"))?;
        show(name, &outcome);
        targets.push(TargetResult {
            problem: name.clone(),
            outcome,
        });
    }
    Ok(targets)
}

/// The CELOE baseline on the same folds, with its own budget.
fn celoe_cell(
    kb: &KnowledgeBase,
    oracle: &dyn MembershipOracle,
    sets: &[(String, Examples)],
    args: &Args,
    control: &RunControl,
) -> anyhow::Result<CellResult> {
    if !(args.celoe_secs.is_finite() && args.celoe_secs > 0.0) {
        bail!("--celoe-secs must be a positive number");
    }
    let params = CeloeParams {
        semantics: args.semantics,
        ..CeloeParams::default()
    };
    let celoe_control = RunControl {
        max_runtime: Some(secs_flag("--celoe-secs", args.celoe_secs)?),
        max_tests: Some(args.celoe_tests),
        ..control.clone()
    };
    // CELOE searches with the full operator it uses in `learn`; it ranks an individual
    // by the training quality of its best covering solution.
    let celoe_rho = Rho::new(kb.shared_signature(), RhoOptions::default());
    let celoe = Celoe::new(params, &celoe_rho)?;
    let targets = targets(
        &celoe,
        oracle,
        sets,
        args,
        &celoe_control,
        "CELOE",
        &|name, outcome| {
            eprintln!(
                "CELOE          {name:<12} AUC-PR {:.3} ± {:.3}  ({} ms)",
                outcome.auc_pr.mean, outcome.auc_pr.sd, outcome.elapsed_ms
            );
        },
    )?;
    Ok(CellResult::new("CELOE".to_owned(), None, targets))
}

/// The markdown table and the JSON document to the files asked for; one of them on stdout.
fn write_report(report: &Report, selections: &[Selection], args: &Args) -> anyhow::Result<()> {
    let md = markdown(report, selections);
    if let Some(path) = &args.out_md {
        std::fs::write(path, &md).with_context(|| format!("writing {}", path.display()))?;
    }
    if let Some(path) = &args.out_json {
        std::fs::write(path, serde_json::to_string_pretty(report)?)
            .with_context(|| format!("writing {}", path.display()))?;
    }
    if args.json {
        println!("{}", serde_json::to_string_pretty(report)?);
    } else {
        println!("{md}");
    }
    Ok(())
}

/// One row per method, one column pair (AUC-PR, AUC-ROC) per selection strategy.
fn markdown(report: &Report, selections: &[Selection]) -> String {
    let mut out = format!(
        "{} targets of {}, {}-fold CV (seed {}), mean ± sd over targets\n\n| method |",
        report.cells.first().map_or(0, |c| c.targets.len()),
        report.problems,
        report.folds,
        report.seed
    );
    for s in selections {
        out.push_str(&format!(" {s:?} AUC-PR | {s:?} AUC-ROC |"));
    }
    out.push_str("\n|---|");
    for _ in selections {
        out.push_str("---|---|");
    }
    out.push('\n');
    let mut names: Vec<&str> = Vec::new();
    for c in &report.cells {
        if !names.contains(&c.name.as_str()) {
            names.push(&c.name);
        }
    }
    for name in names {
        out.push_str(&format!("| {name} |"));
        for s in selections {
            match report
                .cells
                .iter()
                .find(|c| c.name == name && c.selection.is_none_or(|cs| cs == *s))
            {
                Some(c) => out.push_str(&format!(
                    " {:.3} ± {:.3} | {:.3} ± {:.3} |",
                    c.auc_pr.mean, c.auc_pr.sd, c.auc_roc.mean, c.auc_roc.sd
                )),
                None => out.push_str(" – | – |"),
            }
        }
        out.push('\n');
    }
    out
}

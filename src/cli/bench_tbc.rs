//! `oxilearn bench tbc`: the terminological Bayesian classifier experiment grid on one KB's
//! targets — k-fold AUC-PR/AUC-ROC per target and configuration, summarised over targets
//! as mean ± sd, written as markdown and JSON. Heavy: never part of `cargo test`.

use anyhow::{Context, bail};
use serde::Serialize;

use super::args::BenchTbcArgs;
use super::kb_source;
use super::print_json;
use crate::eval::Summary;

use super::learner::{cancel_flag, secs_flag};
use crate::learn::celoe::{Celoe, CeloeParams};
use crate::learn::experiment::{FoldOutcome, cross_validate};
use crate::learn::tbc::{FeatureSemantics, GridCell, Selection, Tbc, TbcParams, paper_grid};
use crate::learn::{Examples, LearnError, Learner, RunControl};
use crate::oracle::{CacheOptions, Cached, IndividualScope, MembershipOracle, Semantics};
use crate::problem;
use crate::refine::rho::{Rho, RhoOptions};

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

#[derive(Serialize)]
struct Report {
    kb: Vec<String>,
    problems: String,
    folds: usize,
    seed: u64,
    params: TbcParams,
    cells: Vec<CellResult>,
}

pub fn run(args: BenchTbcArgs) -> anyhow::Result<()> {
    let problems = problem::load_problems(&args.problems)
        .with_context(|| format!("reading problems from {}", args.problems.display()))?;
    let problems = problem::select(problems, &args.problem)?;
    if problems.is_empty() {
        bail!("{} holds no learning problem", args.problems.display());
    }
    let kb = kb_source::open_kb(&args.kb, None, IndividualScope::ActiveDomain)?;
    // Folds and test sets are many example sets: keep more of them cached than a command does.
    let oracle = Cached::new(
        kb.oracle().inner(),
        CacheOptions {
            max_example_sets: 64,
            ..CacheOptions::default()
        },
    );
    // The paper's feature language: ρ restricted to ⊓, ⊔, ¬, ∃.
    let rho = Rho::new(kb.shared_signature(), RhoOptions::boolean_existential());
    if let Some(t) = args.time_limit
        && !(t.is_finite() && t > 0.0)
    {
        bail!("--time-limit must be a positive number of seconds, not {t}");
    }
    let control = RunControl {
        max_runtime: args
            .time_limit
            .map(|t| secs_flag("--time-limit", t))
            .transpose()?,
        cancel: Some(cancel_flag()),
        ..RunControl::default()
    };
    let base = TbcParams {
        depth: args.depth,
        max_length: args.max_length,
        beam_width: args.beam_width,
        proposals: args.proposals,
        semantics: match Semantics::from(args.semantics) {
            Semantics::Open => FeatureSemantics::Open,
            Semantics::Closed => FeatureSemantics::Closed,
        },
        ..TbcParams::default()
    };
    base.validate()?;
    let selections: Vec<Selection> = if args.selection.is_empty() {
        vec![Selection::Fs, Selection::Ffsbe]
    } else {
        args.selection.iter().map(|&s| s.into()).collect()
    };
    let wanted: Vec<String> = args.cell.iter().map(|m| m.to_ascii_uppercase()).collect();
    let grid: Vec<GridCell> = paper_grid()
        .into_iter()
        .filter(|c| wanted.is_empty() || wanted.contains(&c.name))
        .filter(|c| selections.contains(&c.selection))
        .collect();
    if grid.is_empty() {
        bail!("no grid cell matches --cell {:?}", args.cell);
    }
    let mut sets = Vec::new();
    for p in &problems {
        let (pos, neg) = kb.example_sets(p)?;
        sets.push((p.name.clone(), Examples::new(pos, neg)?));
    }
    let mut cells = Vec::new();
    for cell in &grid {
        let tbc = Tbc::new(cell.params(&base), &rho)?;
        let mut targets = Vec::new();
        for (name, examples) in &sets {
            let outcome = figures(&tbc, &oracle, examples, args.folds, args.seed, &control)
                .with_context(|| format!("{} {:?} on {name}", cell.name, cell.selection))?;
            eprintln!(
                "{:<7} {:<6} {name:<12} AUC-PR {:.3} ± {:.3}  ({} ms)",
                cell.name,
                format!("{:?}", cell.selection),
                outcome.auc_pr.mean,
                outcome.auc_pr.sd,
                outcome.elapsed_ms
            );
            targets.push(TargetResult {
                problem: name.clone(),
                outcome,
            });
        }
        cells.push(CellResult {
            name: cell.name.clone(),
            selection: Some(cell.selection),
            cell: Some(cell.clone()),
            auc_pr: Summary::of(targets.iter().map(|t| t.outcome.auc_pr.mean).collect()),
            auc_roc: Summary::of(targets.iter().map(|t| t.outcome.auc_roc.mean).collect()),
            targets,
        });
    }
    if args.celoe {
        if !(args.celoe_secs.is_finite() && args.celoe_secs > 0.0) {
            bail!("--celoe-secs must be a positive number");
        }
        let params = CeloeParams {
            semantics: args.semantics.into(),
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
        let mut targets = Vec::new();
        for (name, examples) in &sets {
            let outcome = figures(
                &celoe,
                &oracle,
                examples,
                args.folds,
                args.seed,
                &celoe_control,
            )
            .with_context(|| format!("CELOE on {name}"))?;
            eprintln!(
                "CELOE          {name:<12} AUC-PR {:.3} ± {:.3}  ({} ms)",
                outcome.auc_pr.mean, outcome.auc_pr.sd, outcome.elapsed_ms
            );
            targets.push(TargetResult {
                problem: name.clone(),
                outcome,
            });
        }
        cells.push(CellResult {
            name: "CELOE".to_owned(),
            selection: None,
            cell: None,
            auc_pr: Summary::of(targets.iter().map(|t| t.outcome.auc_pr.mean).collect()),
            auc_roc: Summary::of(targets.iter().map(|t| t.outcome.auc_roc.mean).collect()),
            targets,
        });
    }
    let report = Report {
        kb: args.kb.kb.iter().map(|p| p.display().to_string()).collect(),
        problems: args.problems.display().to_string(),
        folds: args.folds,
        seed: args.seed,
        params: base,
        cells,
    };
    let md = markdown(&report, &selections);
    if let Some(path) = &args.out_md {
        std::fs::write(path, &md).with_context(|| format!("writing {}", path.display()))?;
    }
    if let Some(path) = &args.out_json {
        std::fs::write(path, serde_json::to_string_pretty(&report)?)
            .with_context(|| format!("writing {}", path.display()))?;
    }
    if args.json {
        print_json(&report)
    } else {
        outln!("{md}");
        Ok(())
    }
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

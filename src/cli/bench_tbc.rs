//! `oxilearn bench tbc`: the terminological Bayesian classifier experiment grid on one KB's
//! targets — k-fold AUC-PR/AUC-ROC per target and configuration, summarised over targets
//! as mean ± sd, written as markdown and JSON. Heavy: never part of `cargo test`.

use anyhow::{Context, bail};
use serde::Serialize;

use super::args::BenchTbcArgs;
use super::kb_source;
use super::print_json;
use super::problems::example_sets;
use crate::eval::Summary;
use std::time::Duration;

use crate::learn::celoe::CeloeParams;
use crate::learn::search::Budget;
use crate::learn::tbc::experiment::{
    CvOutcome, GridCell, celoe_cross_validate, cross_validate, paper_grid,
};
use crate::learn::tbc::{FeatureSemantics, Selection, TbcParams};
use crate::oracle::{CacheOptions, Cached, Semantics};
use crate::problem;
use crate::refine::rho::{Rho, RhoOptions};

#[derive(Serialize)]
struct TargetResult {
    problem: String,
    #[serde(flatten)]
    outcome: CvOutcome,
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
    let session = kb_source::open(&args.kb, None)?;
    // Folds and test sets are many example sets: keep more of them cached than a command does.
    let oracle = Cached::new(
        session.oracle.inner(),
        CacheOptions {
            max_example_sets: 64,
            ..CacheOptions::default()
        },
    );
    // The paper's feature language: ρ restricted to ⊓, ⊔, ¬, ∃.
    let rho = Rho::new(session.signature(), RhoOptions::boolean_existential());
    let base = TbcParams {
        depth: args.depth,
        max_length: args.max_length,
        beam_width: args.beam_width,
        time_limit_secs: args.time_limit,
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
        sets.push((p.name.clone(), example_sets(&session, p)?));
    }
    let mut cells = Vec::new();
    for cell in &grid {
        let params = cell.params(&base);
        let mut targets = Vec::new();
        for (name, (pos, neg)) in &sets {
            let outcome =
                cross_validate(&oracle, pos, neg, &rho, &params, args.folds, args.seed)
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
            budget: Budget {
                max_runtime: Some(Duration::from_secs_f64(args.celoe_secs)),
                max_tests: Some(args.celoe_tests),
                ..Budget::default()
            },
            ..CeloeParams::default()
        };
        // CELOE searches with the full operator it uses in `learn`.
        let celoe_rho = Rho::new(session.signature(), RhoOptions::default());
        let mut targets = Vec::new();
        for (name, (pos, neg)) in &sets {
            let outcome = celoe_cross_validate(
                &oracle, pos, neg, &celoe_rho, &params, args.folds, args.seed,
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

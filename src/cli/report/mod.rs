//! `--report FILE.html` and `oxilearn report RESULT.json …`: one self-contained HTML file
//! with plots, built from the commands' JSON output (the same document `--json` prints, so
//! a report built later from a saved file shows the same numbers).
//!
//! One module per section or plot kind: [`summary`], [`solutions`], [`scored`] (ROC,
//! precision–recall, calibration), [`folds`], [`progress`], [`multiclass`], [`cluster`],
//! [`scale`]; [`chart`] draws with plotters, [`html`] holds the page.

pub mod chart;
pub mod cluster;
pub mod curves;
pub mod folds;
pub mod html;
pub mod multiclass;
pub mod progress;
pub mod run_info;
pub mod scale;
pub mod scored;
pub mod solutions;
pub mod summary;

use std::path::{Path, PathBuf};

use anyhow::{Context, bail};
use clap::Args;
use serde_json::Value;

/// `oxilearn report`: the saved JSON outputs and where the page goes.
#[derive(Debug, Args)]
pub struct ReportArgs {
    /// JSON outputs of `learn --json`, `cv --json`, `cluster --json` or `bench scale
    /// --out-json` (one or more; each adds its sections).
    #[arg(value_name = "RESULT.json", required = true)]
    pub inputs: Vec<PathBuf>,
    /// The HTML file written (a temporary file, then a rename).
    #[arg(long, short = 'o', value_name = "FILE.html")]
    pub out: PathBuf,
}

/// Which command's JSON a document is, told by its shape.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    Learn,
    Cv,
    MultiClass,
    Cluster,
    Scale,
}

/// The kind of a JSON output, or `None` for a document no report section reads.
pub fn kind_of(v: &Value) -> Option<Kind> {
    if v.get("clusters").is_some() && v.get("tree").is_some() {
        return Some(Kind::Cluster);
    }
    let first = v.as_array()?.first()?;
    if first.get("per_fold").is_some() {
        Some(Kind::Cv)
    } else if first.get("classes").is_some()
        && (first.get("rules").is_some() || first.get("train").is_some())
    {
        // `learn` of a multi-class problem: the rule learner's, or any learner's scores.
        Some(Kind::MultiClass)
    } else if first.get("solutions").is_some() {
        Some(Kind::Learn)
    } else if first.get("triples").is_some() && first.get("backend").is_some() {
        Some(Kind::Scale)
    } else {
        None
    }
}

/// The sections of one JSON output.
pub fn sections(v: &Value) -> anyhow::Result<Vec<String>> {
    let Some(kind) = kind_of(v) else {
        bail!(
            "not a JSON output the report reads (learn, cv, cluster or bench scale): an array \
             of results or a cluster document"
        );
    };
    let items: Vec<&Value> = match v.as_array() {
        Some(a) if kind != Kind::Scale => a.iter().collect(),
        _ => vec![v],
    };
    let mut out = Vec::new();
    for item in items {
        out.push(match kind {
            Kind::Learn => learn(item)?,
            Kind::Cv => cv(item)?,
            Kind::MultiClass => format!(
                "<section><h2>Problem {}</h2>{}{}</section>",
                html::esc(item["problem"].as_str().unwrap_or("")),
                summary::problem(item),
                multiclass::section(item)?
            ),
            Kind::Cluster => format!(
                "<section><h2>Clustering</h2>{}{}</section>",
                summary::table(&summary::run_rows(&item["run"])),
                cluster::section(item)?
            ),
            Kind::Scale => format!(
                "<section>{}</section>",
                scale::section(item.as_array().map_or(&[][..], Vec::as_slice))?
            ),
        });
    }
    Ok(out)
}

fn learn(v: &Value) -> anyhow::Result<String> {
    Ok(format!(
        "<section><h2>Problem {}</h2>{}<h2>Solutions</h2>{}{}{}</section>",
        html::esc(v["problem"].as_str().unwrap_or("")),
        summary::problem(v),
        solutions::section(v),
        scored::section(v)?,
        progress::section(v)?
    ))
}

fn cv(v: &Value) -> anyhow::Result<String> {
    Ok(format!(
        "<section><h2>Cross-validation: {} ({})</h2>{}{}{}{}</section>",
        html::esc(v["problem"].as_str().unwrap_or("")),
        html::esc(v["algorithm"].as_str().unwrap_or("")),
        summary::problem(v),
        folds::section(v)?,
        scored::section(v)?,
        progress::section(v)?
    ))
}

/// Writes the report of `value` (a command's JSON output) to `path`, atomically.
pub fn write(path: &Path, value: &impl serde::Serialize) -> anyhow::Result<()> {
    let v = serde_json::to_value(value)?;
    let command = run_info::command_line();
    let name = command.split_whitespace().nth(1).unwrap_or("result");
    let mut all = vec![format!(
        "<p>Written by <code>{}</code> (oxilearn {}).</p>",
        html::esc(&command),
        env!("CARGO_PKG_VERSION")
    )];
    all.extend(sections(&v)?);
    let text = html::page(&format!("oxilearn report: {name}"), &all);
    crate::enrich::file::write_atomically(path, text.as_bytes())
        .with_context(|| format!("writing the report {}", path.display()))
}

/// `oxilearn report`.
pub fn run(args: ReportArgs) -> anyhow::Result<()> {
    let mut outputs = Vec::new();
    for p in &args.inputs {
        let text =
            std::fs::read_to_string(p).with_context(|| format!("reading {}", p.display()))?;
        let v: Value =
            serde_json::from_str(&text).with_context(|| format!("{}: not JSON", p.display()))?;
        if kind_of(&v).is_none() {
            bail!(
                "{}: not a JSON output the report reads (learn, cv, cluster or bench scale)",
                p.display()
            );
        }
        outputs.push(v);
    }
    let names: Vec<String> = args
        .inputs
        .iter()
        .map(|p| p.display().to_string())
        .collect();
    let mut all = vec![format!(
        "<p>Built by <code>oxilearn report</code> (oxilearn {}) from {}.</p>",
        env!("CARGO_PKG_VERSION"),
        names
            .iter()
            .map(|n| format!("<code>{}</code>", html::esc(n)))
            .collect::<Vec<_>>()
            .join(", ")
    )];
    for v in &outputs {
        all.extend(sections(v)?);
    }
    let text = html::page("oxilearn report", &all);
    crate::enrich::file::write_atomically(&args.out, text.as_bytes())
        .with_context(|| format!("writing the report {}", args.out.display()))
}

#[cfg(test)]
mod tests;

//! Search progress: the best training quality against the concepts tested (`stats.progress`;
//! per fold for `cv`), so the same `--max-tests` run draws the same curve.

use serde_json::Value;

use super::chart::{Chart, Mark, Series};
use super::html::figure;

fn series(stats: &Value) -> Option<Vec<(f64, f64)>> {
    let out: Option<Vec<(f64, f64)>> = stats["progress"]
        .as_array()?
        .iter()
        .map(|p| Some((p[0].as_f64()?, p[1].as_f64()?)))
        .collect();
    out.filter(|o| !o.is_empty())
}

/// The chart, `None` when no run recorded progress (TBC reports no quality).
pub fn chart(v: &Value) -> Option<Chart> {
    let series: Vec<Series> = match v["per_fold"].as_array() {
        Some(folds) => folds
            .iter()
            .filter_map(|f| {
                Some(Series {
                    name: format!("fold {}", f["fold"]),
                    points: series(&f["stats"])?,
                    mark: Mark::LineDots,
                })
            })
            .collect(),
        None => series(&v["stats"])
            .map(|points| {
                vec![Series {
                    name: String::new(),
                    points,
                    mark: Mark::LineDots,
                }]
            })
            .unwrap_or_default(),
    };
    (!series.is_empty()).then(|| Chart {
        id: "progress".into(),
        title: "Search progress".into(),
        x_label: "concepts tested".into(),
        y_label: "best training quality".into(),
        log: false,
        unit_square: false,
        series,
    })
}

pub fn section(v: &Value) -> anyhow::Result<String> {
    let Some(c) = chart(v) else {
        return Ok(String::new());
    };
    Ok(format!(
        "<h2>Search progress</h2><div class=\"plots\">{}</div>",
        figure(
            &c,
            "Best training quality each time it changed, against the concepts tested so far."
        )?
    ))
}

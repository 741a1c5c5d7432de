//! Scored models: ROC and precision–recall curves with their AUC (one curve per fold for
//! `cv`) and the calibration plot, from the per-example scores and calibration bins in the
//! JSON.

use serde_json::Value;

use super::chart::{Chart, Mark, Series};
use super::curves::{pr_points, roc_points, step_area, trapezoid_area};
use super::html::figure;

/// `(name, scored examples)` per curve: the training predictions of `learn`, the held-out
/// scores of each completed `cv` fold.
pub fn scored_sets(v: &Value) -> Vec<(String, Vec<(f64, bool)>)> {
    if let Some(folds) = v["per_fold"].as_array() {
        return folds
            .iter()
            .filter(|f| f["completed"].as_bool() != Some(false))
            .filter_map(|f| {
                let s = pairs(&f["scores"], "score")?;
                Some((format!("fold {}", f["fold"]), s))
            })
            .collect();
    }
    pairs(&v["predictions"], "probability")
        .map(|s| vec![("training".to_owned(), s)])
        .unwrap_or_default()
}

fn pairs(list: &Value, key: &str) -> Option<Vec<(f64, bool)>> {
    let out: Option<Vec<(f64, bool)>> = list
        .as_array()?
        .iter()
        .map(|p| Some((p[key].as_f64()?, p["positive"].as_bool()?)))
        .collect();
    out.filter(|o| !o.is_empty())
}

/// The ROC chart; each series named with its area.
pub fn roc_chart(sets: &[(String, Vec<(f64, bool)>)]) -> Chart {
    Chart {
        id: "roc".into(),
        title: "ROC".into(),
        x_label: "false positive rate".into(),
        y_label: "true positive rate".into(),
        log: false,
        unit_square: true,
        series: sets
            .iter()
            .map(|(name, s)| {
                let points = roc_points(s);
                Series {
                    name: format!("{name} (AUC {:.3})", trapezoid_area(&points)),
                    points,
                    mark: Mark::LineDots,
                }
            })
            .collect(),
    }
}

/// The precision–recall chart; each series named with its area (average precision).
pub fn pr_chart(sets: &[(String, Vec<(f64, bool)>)]) -> Chart {
    Chart {
        id: "pr".into(),
        title: "Precision–recall".into(),
        x_label: "recall".into(),
        y_label: "precision".into(),
        log: false,
        unit_square: false,
        series: sets
            .iter()
            .map(|(name, s)| {
                let points = pr_points(s);
                Series {
                    name: format!("{name} (AUC {:.3})", step_area(&points)),
                    points,
                    mark: Mark::LineDots,
                }
            })
            .collect(),
    }
}

/// The calibration chart from the JSON's bins: observed share of positives against the
/// mean score, one dot per non-empty bin.
pub fn calibration_chart(bins: &Value) -> Option<Chart> {
    let points: Vec<(f64, f64)> = bins
        .as_array()?
        .iter()
        .filter_map(|b| Some((b["mean_score"].as_f64()?, b["positive_rate"].as_f64()?)))
        .collect();
    (!points.is_empty()).then(|| Chart {
        id: "calibration".into(),
        title: "Calibration".into(),
        x_label: "mean score in bin".into(),
        y_label: "share of positives".into(),
        log: false,
        unit_square: true,
        series: vec![Series {
            name: "bins".into(),
            points,
            mark: Mark::LineDots,
        }],
    })
}

/// The section, empty for models that are not scored.
pub fn section(v: &Value) -> anyhow::Result<String> {
    let sets = scored_sets(v);
    if sets.is_empty() {
        return Ok(String::new());
    }
    let what = if v["per_fold"].is_array() {
        "held-out examples of each fold"
    } else {
        "training examples"
    };
    let mut out = String::from("<h2>Scored model</h2><div class=\"plots\">");
    out.push_str(&figure(&roc_chart(&sets), &format!("ROC on the {what}."))?);
    out.push_str(&figure(
        &pr_chart(&sets),
        &format!("Precision–recall on the {what}."),
    )?);
    if let Some(c) = calibration_chart(&v["calibration"]) {
        out.push_str(&figure(
            &c,
            "Calibration: ten equal score bins; the diagonal is perfect calibration.",
        )?);
    }
    out.push_str("</div>");
    Ok(out)
}

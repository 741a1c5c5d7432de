//! `cv`: per-fold training and test figures and their spread (mean ± sd from the JSON's
//! summaries).

use serde_json::Value;

use super::chart::{Chart, Mark, Series};
use super::html::{esc, figure, num};

const MEASURES: [(&str, &str, &str); 2] = [
    ("f1", "F1", "folds-f1"),
    ("accuracy", "accuracy", "folds-accuracy"),
];

/// One chart per measure: training and test value against the fold number.
pub fn fold_charts(v: &Value) -> Vec<Chart> {
    let folds = v["per_fold"].as_array().cloned().unwrap_or_default();
    MEASURES
        .iter()
        .map(|&(key, label, id)| {
            let series = |part: &str| Series {
                name: part.to_owned(),
                points: folds
                    .iter()
                    .filter_map(|f| Some((f["fold"].as_f64()?, f[part][key].as_f64()?)))
                    .collect(),
                mark: Mark::LineDots,
            };
            Chart {
                id: id.into(),
                title: format!("{label} per fold"),
                x_label: "fold".into(),
                y_label: label.into(),
                log: false,
                unit_square: false,
                series: vec![series("train"), series("test")],
            }
        })
        .collect()
}

fn spread(s: &Value) -> Option<String> {
    Some(format!(
        "{} ± {}",
        num(s["mean"].as_f64()),
        num(s["sd"].as_f64())
    ))
}

pub fn section(v: &Value) -> anyhow::Result<String> {
    let mut out = String::from(
        "<h2>Folds</h2><table><tr><th>measure</th><th class=\"num\">mean ± sd</th></tr>",
    );
    for key in [
        "train_f1",
        "test_f1",
        "train_accuracy",
        "test_accuracy",
        "auc_pr",
        "auc_roc",
    ] {
        if let Some(s) = spread(&v[key]).filter(|_| v[key].is_object()) {
            out.push_str(&format!(
                "<tr><td>{}</td><td class=\"num\">{s}</td></tr>",
                esc(key)
            ));
        }
    }
    out.push_str("</table><div class=\"plots\">");
    for c in fold_charts(v) {
        out.push_str(&figure(&c, "Training and test value of each fold.")?);
    }
    out.push_str("</div>");
    Ok(out)
}

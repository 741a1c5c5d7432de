//! Multi-class results: the rules (the rule learner's) and the confusion matrices
//! (training, and test when given) as heat maps.

use serde_json::Value;

use super::chart::HeatMap;
use super::html::{esc, heat_figure, num};

/// The heat map of `part`'s (`train`, `test`) confusion matrix, rows the true classes.
pub fn confusion_map(v: &Value, part: &str) -> Option<HeatMap> {
    let c = &v[part]["confusion"];
    let labels: Vec<String> = c["classes"]
        .as_array()?
        .iter()
        .map(|x| x.as_str().map(str::to_owned))
        .collect::<Option<_>>()?;
    let cells: Vec<Vec<u64>> = c["matrix"]
        .as_array()?
        .iter()
        .map(|row| {
            row.as_array()?
                .iter()
                .map(Value::as_u64)
                .collect::<Option<Vec<_>>>()
        })
        .collect::<Option<_>>()?;
    Some(HeatMap {
        id: format!("confusion-{part}"),
        title: format!("Confusion matrix ({part})"),
        row_label: "true class".into(),
        column_label: "predicted class".into(),
        labels,
        cells,
    })
}

pub fn section(v: &Value) -> anyhow::Result<String> {
    let mut out = String::new();
    if v.get("rules").is_some() {
        out.push_str(
            "<h2>Rules</h2><table><tr><th>class</th><th>rule (Manchester syntax)</th><th>coverage</th></tr>",
        );
    }
    for r in v["rules"].as_array().into_iter().flatten() {
        let coverage = r["coverage"]
            .as_object()
            .map(|m| {
                m.iter()
                    .map(|(k, c)| format!("{} {}", esc(k), num(c.as_f64())))
                    .collect::<Vec<_>>()
                    .join(", ")
            })
            .unwrap_or_default();
        out.push_str(&format!(
            "<tr><td>{}</td><td><code>{}</code></td><td>{coverage}</td></tr>",
            esc(r["class"].as_str().unwrap_or("")),
            esc(r["manchester"].as_str().unwrap_or(""))
        ));
    }
    if v.get("rules").is_some() {
        out.push_str("</table>");
    }
    out.push_str("<h2>Confusion</h2><table><tr><th>part</th><th class=\"num\">accuracy</th><th class=\"num\">average recall</th></tr>");
    for part in ["train", "test"] {
        if v[part].is_object() {
            out.push_str(&format!(
                "<tr><td>{part}</td><td class=\"num\">{}</td><td class=\"num\">{}</td></tr>",
                num(v[part]["accuracy"].as_f64()),
                num(v[part]["average_recall"].as_f64())
            ));
        }
    }
    out.push_str("</table><div class=\"plots\">");
    for part in ["train", "test"] {
        if let Some(m) = confusion_map(v, part) {
            out.push_str(&heat_figure(
                &m,
                "Rows: true class; columns: predicted class.",
            )?);
        }
    }
    out.push_str("</div>");
    Ok(out)
}

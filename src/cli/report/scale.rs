//! `bench scale`: time and peak RSS against the KB's size per backend, on log axes.

use std::collections::BTreeMap;

use serde_json::Value;

use super::chart::{Chart, Mark, Series};
use super::html::{esc, figure, num};

/// Per backend, `(triples, value)` of the rows that have both, in row order.
fn per_backend(rows: &[Value], key: &str) -> Vec<Series> {
    let mut by: BTreeMap<String, Vec<(f64, f64)>> = BTreeMap::new();
    for r in rows {
        if let (Some(b), Some(t), Some(y)) = (
            r["backend"].as_str(),
            r["triples"].as_f64(),
            r[key].as_f64(),
        ) {
            by.entry(b.to_owned()).or_default().push((t, y));
        }
    }
    by.into_iter()
        .map(|(name, points)| Series {
            name,
            points,
            mark: Mark::LineDots,
        })
        .collect()
}

/// The two charts: wall time and peak RSS against triples.
pub fn charts(rows: &[Value]) -> Vec<Chart> {
    [
        (
            "wall_s",
            "scale-time",
            "Time against KB size",
            "seconds (wall)",
        ),
        ("peak_rss_mb", "scale-rss", "Peak RSS against KB size", "MB"),
    ]
    .iter()
    .map(|&(key, id, title, y)| Chart {
        id: id.into(),
        title: title.into(),
        x_label: "triples".into(),
        y_label: y.into(),
        log: true,
        unit_square: false,
        series: per_backend(rows, key),
    })
    .collect()
}

pub fn section(rows: &[Value]) -> anyhow::Result<String> {
    let mut out = String::from(
        "<h2>Scaling</h2><table><tr><th class=\"num\">k</th><th>backend</th><th class=\"num\">triples</th>\
         <th class=\"num\">wall s</th><th class=\"num\">search s</th><th class=\"num\">concepts tested</th>\
         <th class=\"num\">peak RSS MB</th><th>best</th></tr>",
    );
    for r in rows {
        let best = r["best"]
            .as_array()
            .and_then(|b| b.first())
            .and_then(Value::as_str)
            .unwrap_or("");
        out.push_str(&format!(
            "<tr><td class=\"num\">{}</td><td>{}</td><td class=\"num\">{}</td><td class=\"num\">{}</td>\
             <td class=\"num\">{}</td><td class=\"num\">{}</td><td class=\"num\">{}</td><td><code>{}</code></td></tr>",
            num(r["k"].as_f64()),
            esc(r["backend"].as_str().unwrap_or("")),
            num(r["triples"].as_f64()),
            num(r["wall_s"].as_f64()),
            num(r["search_s"].as_f64()),
            num(r["concepts_tested"].as_f64()),
            num(r["peak_rss_mb"].as_f64()),
            esc(best)
        ));
    }
    out.push_str("</table><div class=\"plots\">");
    for c in charts(rows) {
        out.push_str(&figure(&c, "One line per backend; both axes logarithmic.")?);
    }
    out.push_str("</div>");
    Ok(out)
}

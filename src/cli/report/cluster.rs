//! `cluster`: the cluster tree with each node's concept and size, the clusters' sizes, and
//! the proposed disjointness and subsumption axioms.

use serde_json::Value;

use super::chart::{Chart, Mark, Series};
use super::html::{esc, figure, iri, num};

/// Nested lists, one item per node: its concept and size (and medoid for leaves).
fn tree(node: &Value) -> String {
    let concept = esc(node["concept"].as_str().unwrap_or("⊤"));
    let size = num(node["size"].as_f64());
    if node["kind"] == "leaf" {
        let medoid = node["medoid"]["iri"]
            .as_str()
            .or_else(|| node["medoid"].as_str())
            .map(|m| format!(", medoid {}", iri(m)))
            .unwrap_or_default();
        return format!(
            "<li>cluster {}: <code>{concept}</code> ({size} individuals{medoid})</li>",
            num(node["cluster"].as_f64())
        );
    }
    let children: String = ["left", "right"]
        .iter()
        .filter(|k| node[**k].is_object())
        .map(|k| tree(&node[*k]))
        .collect();
    format!(
        "<li><code>{concept}</code> ({size} individuals), split on <code>{}</code><ul class=\"tree\">{children}</ul></li>",
        esc(node["test"].as_str().unwrap_or(""))
    )
}

/// Cluster sizes against the cluster number.
pub fn sizes_chart(v: &Value) -> Option<Chart> {
    let points: Vec<(f64, f64)> = v["clusters"]
        .as_array()?
        .iter()
        .enumerate()
        .filter_map(|(i, c)| Some((i as f64, c["size"].as_f64()?)))
        .collect();
    (!points.is_empty()).then(|| Chart {
        id: "cluster-sizes".into(),
        title: "Cluster sizes".into(),
        x_label: "cluster".into(),
        y_label: "individuals".into(),
        log: false,
        unit_square: false,
        series: vec![Series {
            name: "size".into(),
            points,
            mark: Mark::Dots,
        }],
    })
}

fn axioms(v: &Value) -> String {
    let mut out = String::from("<h2>Proposed axioms</h2><ul>");
    for d in v["disjointness"].as_array().into_iter().flatten() {
        out.push_str(&format!(
            "<li><code>{}</code> DisjointWith <code>{}</code></li>",
            esc(d["left"].as_str().unwrap_or("")),
            esc(d["right"].as_str().unwrap_or(""))
        ));
    }
    for s in v["subsumptions"].as_array().into_iter().flatten() {
        out.push_str(&format!(
            "<li><code>{}</code> SubClassOf <code>{}</code></li>",
            esc(s["sub"].as_str().unwrap_or("")),
            esc(s["sup"].as_str().unwrap_or(""))
        ));
    }
    out.push_str("</ul>");
    out
}

pub fn section(v: &Value) -> anyhow::Result<String> {
    let mut out = format!(
        "<h2>Cluster tree</h2><p>{} individuals, {} clusters.</p><ul class=\"tree\">{}</ul>",
        num(v["individuals"].as_f64()),
        v["clusters"].as_array().map_or(0, Vec::len),
        tree(&v["tree"])
    );
    if let Some(c) = sizes_chart(v) {
        out.push_str(&format!(
            "<div class=\"plots\">{}</div>",
            figure(&c, "Individuals per cluster.")?
        ));
    }
    out.push_str(&axioms(v));
    Ok(out)
}

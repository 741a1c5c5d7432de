//! The solutions table (expression, length, accuracy, F1, covered positives and negatives)
//! and, for the model, the training positives it misses and the negatives it covers.

use serde_json::Value;

use super::html::{esc, iri, num};

pub fn section(v: &Value) -> String {
    let Some(solutions) = v["solutions"].as_array().filter(|s| !s.is_empty()) else {
        return "<p class=\"muted\">No solution.</p>".to_owned();
    };
    let mut out = String::from(
        "<table><tr><th>#</th><th>expression (Manchester syntax)</th><th class=\"num\">length</th>\
         <th class=\"num\">accuracy</th><th class=\"num\">F1</th><th class=\"num\">covered positives</th>\
         <th class=\"num\">covered negatives</th></tr>",
    );
    for (i, s) in solutions.iter().enumerate() {
        out.push_str(&format!(
            "<tr><td class=\"num\">{}</td><td><code>{}</code></td><td class=\"num\">{}</td>\
             <td class=\"num\">{}</td><td class=\"num\">{}</td><td class=\"num\">{} of {}</td>\
             <td class=\"num\">{} of {}</td></tr>",
            i + 1,
            esc(s["manchester"].as_str().unwrap_or("")),
            num(s["length"].as_f64()),
            num(s["accuracy"].as_f64()),
            num(s["f1"].as_f64()),
            num(s["tp"].as_f64()),
            num(add(&s["tp"], &s["fn"])),
            num(s["fp"].as_f64()),
            num(add(&s["fp"], &s["tn"])),
        ));
    }
    out.push_str("</table>");
    out.push_str(&errors(&v["errors"]));
    out
}

fn add(a: &Value, b: &Value) -> Option<f64> {
    Some(a.as_f64()? + b.as_f64()?)
}

/// The model's training errors as two lists of IRIs (links for http(s) IRIs).
pub fn errors(e: &Value) -> String {
    let list = |key: &str, label: &str| {
        let items: Vec<&str> = e[key]
            .as_array()
            .map(|a| a.iter().filter_map(|x| x.as_str()).collect())
            .unwrap_or_default();
        if items.is_empty() {
            return format!("<p>{label}: none.</p>");
        }
        let lis: String = items
            .iter()
            .map(|i| format!("<li>{}</li>", iri(i)))
            .collect();
        format!(
            "<details open><summary>{label}: {}</summary><ul>{lis}</ul></details>",
            items.len()
        )
    };
    if !e.is_object() {
        return String::new();
    }
    format!(
        "<h3>The model's errors on the training examples</h3>{}{}",
        list("missed_positives", "Missed positives"),
        list("covered_negatives", "Covered negatives")
    )
}

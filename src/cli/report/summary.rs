//! The problem summary: what was learned from what, with which learner and budget, by
//! which oxilearn and command line.

use serde_json::Value;

use super::html::{esc, num};

/// A `<table>` of the labelled values that are present.
pub fn table(rows: &[(&str, Option<String>)]) -> String {
    let mut out = String::from("<table class=\"summary\">");
    for (label, value) in rows {
        if let Some(v) = value {
            out.push_str(&format!("<tr><th>{}</th><td>{v}</td></tr>", esc(label)));
        }
    }
    out.push_str("</table>");
    out
}

fn text(v: &Value) -> Option<String> {
    match v {
        Value::String(s) => Some(esc(s)),
        Value::Number(n) => Some(num(n.as_f64())),
        Value::Bool(b) => Some(b.to_string()),
        _ => None,
    }
}

/// The run's own description (`run`, added by the learner commands), as summary rows.
pub fn run_rows(run: &Value) -> Vec<(&'static str, Option<String>)> {
    let sig = &run["signature"];
    let signature = sig.is_object().then(|| {
        format!(
            "{} classes, {} object properties, {} data properties, {} individuals",
            num(sig["classes"].as_f64()),
            num(sig["object_properties"].as_f64()),
            num(sig["data_properties"].as_f64()),
            num(sig["individuals"].as_f64())
        )
    });
    let kb = run["kb"].as_array().map(|a| {
        a.iter()
            .filter_map(|x| x.as_str())
            .map(|x| format!("<code>{}</code>", esc(x)))
            .collect::<Vec<_>>()
            .join(", ")
    });
    let budget = match (run["max_tests"].as_f64(), run["max_runtime_s"].as_f64()) {
        (None, None) => None,
        (t, s) => Some(format!(
            "{}{}",
            t.map_or_else(String::new, |t| format!("{} tests ", num(Some(t)))),
            s.map_or_else(String::new, |s| format!("{} s", num(Some(s))))
        )),
    };
    vec![
        ("KB", kb),
        ("backend", text(&run["backend"])),
        ("signature", signature),
        ("budget", budget),
        ("oxilearn", text(&run["oxilearn_version"])),
        (
            "command line",
            run["command_line"]
                .as_str()
                .map(|c| format!("<code>{}</code>", esc(c))),
        ),
    ]
}

/// The summary of one `learn` or `cv` problem.
pub fn problem(v: &Value) -> String {
    let examples = match (v["positives"].as_f64(), v["negatives"].as_f64()) {
        (Some(p), Some(n)) => Some(format!(
            "{} positive, {} negative",
            num(Some(p)),
            num(Some(n))
        )),
        _ => v["examples"].as_object().map(|m| {
            m.iter()
                .map(|(k, c)| format!("{} {}", esc(k), num(c.as_f64())))
                .collect::<Vec<_>>()
                .join(", ")
        }),
    };
    let mut rows = vec![
        ("problem", text(&v["problem"])),
        ("algorithm", text(&v["algorithm"])),
        ("semantics", text(&v["semantics"])),
        ("examples", examples),
        ("folds", text(&v["folds"])),
        ("seed", text(&v["seed"])),
        ("concepts tested", text(&v["stats"]["concepts_tested"])),
        ("termination", text(&v["stats"]["termination"])),
    ];
    rows.extend(run_rows(&v["run"]));
    table(&rows)
}

//! `--algorithm forest-mixing` through the registry, with no wiring of its own: `learn
//! --save-model` → `predict` gives the members `instances` gives for the learned
//! expression, `cv` runs it, its own flags are refused for CELOE and bad values are errors.

use crate::common;

use std::path::PathBuf;

use common::cli_run::{fails_with, json, oxilearn};

const FAMILY: &str = "fixtures/family/family.ttl";
const PROBLEMS: &str = "fixtures/family/problems.json";

fn temp(name: &str) -> PathBuf {
    common::temp_path("cli-forest", name)
}

#[test]
fn learn_save_and_predict_a_forest_mixing_model() {
    let model = temp("uncle.json");
    let path = model.to_str().unwrap();
    let learned = json(&[
        "learn",
        "--kb",
        FAMILY,
        "--problems",
        PROBLEMS,
        "--problem",
        "Uncle",
        "--algorithm",
        "forest-mixing",
        "--forest-heuristic",
        "ht1",
        "--max-nodes-per-tree",
        "5",
        "--max-tests",
        "5000",
        "--quiet",
        "--json",
        "--save-model",
        path,
    ]);
    let best = &learned[0]["solutions"][0];
    assert_eq!(best["f1"], 1.0, "{learned}");
    assert_eq!(learned[0]["stats"]["heuristic"], "ht1");
    let doc: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&model).unwrap()).unwrap();
    assert_eq!(doc["algorithm"], "forest-mixing");
    assert_eq!(doc["parameters"]["max_nodes_added_per_tree"], 5);
    let predicted = json(&["predict", "--kb", FAMILY, "--model", path, "--json"]);
    let members: Vec<&str> = predicted["predictions"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|p| p["member"] == true)
        .map(|p| p["individual"].as_str().unwrap())
        .collect();
    let instances = json(&[
        "instances",
        "--kb",
        FAMILY,
        "--concept",
        best["manchester"].as_str().unwrap(),
        "--json",
    ]);
    let expected: Vec<&str> = instances["individuals"]
        .as_array()
        .unwrap()
        .iter()
        .map(|i| i.as_str().unwrap())
        .collect();
    assert!(!members.is_empty());
    assert_eq!(members, expected);
    let _ = std::fs::remove_file(&model);
}

#[test]
fn cv_runs_forest_mixing_and_its_flags_are_its_own() {
    let out = oxilearn(&[
        "cv",
        "--kb",
        FAMILY,
        "--problems",
        PROBLEMS,
        "--problem",
        "Father",
        "--algorithm",
        "forest-mixing",
        "--folds",
        "5",
        "--max-tests",
        "500",
        "--quiet",
        "--json",
    ]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v[0]["folds"], 5);
    // A Forest Mixing flag is refused for CELOE, and a zero draw is an error.
    let e = fails_with(&[
        "learn",
        "--kb",
        FAMILY,
        "--problems",
        PROBLEMS,
        "--trees",
        "3",
    ]);
    assert!(e.contains("--trees"), "{e}");
    let e = fails_with(&[
        "learn",
        "--kb",
        FAMILY,
        "--problems",
        PROBLEMS,
        "--algorithm",
        "forest-mixing",
        "--max-nodes-per-tree",
        "0",
    ]);
    assert!(e.contains("max_nodes_added_per_tree"), "{e}");
    let e = fails_with(&[
        "learn",
        "--kb",
        FAMILY,
        "--problems",
        PROBLEMS,
        "--algorithm",
        "forest-mixing",
        "--start-classes",
        "NoSuchClass",
    ]);
    assert!(e.contains("NoSuchClass"), "{e}");
}

//! `--algorithm tdt` / `decision-tree` and `trf` / `random-forest` through the CLI: learn
//! with defaults and save the model; `predict` with the saved tree gives exactly the
//! instances of its exported expression (`instances`); the forest's predictions carry vote
//! shares, and `enrich` writes its members with their scores; on `fixtures/assays` a tree
//! splits on a boolean data value and a count.

use crate::common;

use std::collections::BTreeSet;
use std::path::PathBuf;

use common::cli_run::json;

const FAMILY: &str = "fixtures/family/family.ttl";
const PROBLEMS: &str = "fixtures/family/problems.json";

fn temp(name: &str) -> PathBuf {
    common::temp_path("cli-trees", name)
}

fn learn(algorithm: &str, problem: &str, model: &str) -> serde_json::Value {
    json(&[
        "learn",
        "--kb",
        FAMILY,
        "--problems",
        PROBLEMS,
        "--problem",
        problem,
        "--algorithm",
        algorithm,
        "--quiet",
        "--json",
        "--save-model",
        model,
    ])
}

fn members(predicted: &serde_json::Value) -> BTreeSet<String> {
    predicted["predictions"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|p| p["member"] == true)
        .map(|p| p["individual"].as_str().unwrap().to_owned())
        .collect()
}

#[test]
fn a_saved_tree_predicts_the_instances_of_its_expression() {
    let model = temp("tree.json");
    let path = model.to_str().unwrap();
    let learned = learn("decision-tree", "HasTwoChildren", path);
    assert_eq!(learned[0]["algorithm"], "tdt");
    let solution = &learned[0]["solutions"][0];
    assert_eq!(solution["accuracy"], 1.0, "{solution}");
    let doc: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&model).unwrap()).unwrap();
    assert_eq!(doc["algorithm"], "tdt");
    let predicted = json(&["predict", "--kb", FAMILY, "--model", path, "--json"]);
    let instances = json(&[
        "instances",
        "--kb",
        FAMILY,
        "--concept",
        solution["manchester"].as_str().unwrap(),
        "--json",
    ]);
    let expected: BTreeSet<String> = instances["individuals"]
        .as_array()
        .unwrap()
        .iter()
        .map(|i| i.as_str().unwrap().to_owned())
        .collect();
    assert!(!expected.is_empty());
    assert_eq!(members(&predicted), expected);
    let _ = std::fs::remove_file(&model);
}

#[test]
fn a_forest_predicts_vote_shares_and_enrich_writes_its_members() {
    let model = temp("forest.json");
    let path = model.to_str().unwrap();
    let learned = learn("random-forest", "Grandparent", path);
    assert_eq!(learned[0]["algorithm"], "trf");
    // Fifty trees' positive paths usually include one of universals or negations only,
    // which the store cannot list: the whole (small) KB is asked for.
    let predicted = json(&[
        "predict",
        "--kb",
        FAMILY,
        "--model",
        path,
        "--whole-kb",
        "--json",
    ]);
    let preds = predicted["predictions"].as_array().unwrap();
    assert!(!preds.is_empty());
    for p in preds {
        let v = p["probability"].as_f64().expect("a vote share");
        assert_eq!(p["member"], v >= 0.5, "{p}");
    }
    let out = temp("forest-enriched.nq");
    let enriched = json(&[
        "enrich",
        "--kb",
        FAMILY,
        "--model",
        path,
        "--graph",
        "http://example.org/predictions/trees",
        "--target-class",
        "http://example.org/Predicted",
        "--out",
        out.to_str().unwrap(),
        "--whole-kb",
        "--json",
    ]);
    assert_eq!(enriched["predicted_members"], members(&predicted).len());
    let written = std::fs::read_to_string(&out).unwrap();
    assert!(written.contains("http://example.org/Predicted"));
    let _ = std::fs::remove_file(&model);
    let _ = std::fs::remove_file(&out);
}

/// `fixtures/assays`: mutagenic = `assay value true` or at least two `Nitro` parts. A tree
/// reaches held-out accuracy 1.0 through the boolean-value feature and a count: with
/// defaults the count is a ρ-refinement of `hasPart some Nitro`, with `--max-counts 4` also
/// a feature.
#[test]
fn a_tree_learns_a_boolean_outcome_and_a_count_on_held_out_compounds() {
    let run = |extra: &[&str]| {
        let mut args = vec![
            "learn",
            "--kb",
            "fixtures/assays/assays.ttl",
            "--problems",
            "fixtures/assays/train.json",
            "--test",
            "fixtures/assays/test.json",
            "--algorithm",
            "tdt",
            "--quiet",
            "--json",
        ];
        args.extend_from_slice(extra);
        json(&args)
    };
    for extra in [&[][..], &["--max-counts", "4"]] {
        let learned = run(extra);
        assert_eq!(learned[0]["test"]["accuracy"], 1.0, "{extra:?}: {learned}");
        let expression = learned[0]["solutions"][0]["manchester"].as_str().unwrap();
        assert!(expression.contains("assay value true"), "{expression}");
        assert!(expression.contains("min 2"), "{expression}");
    }
}

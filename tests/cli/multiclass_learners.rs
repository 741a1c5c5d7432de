//! Multi-class problems through the one pipeline for every learner that fits them (issue
//! 29, issue 31): `learn`, `cv`, `evaluate`, `predict` of `tdt` and `trf` on the zoo, told
//! multi-class by the problems file; binary-only learners refuse such a file saying which
//! learners take it; `enrich` refuses a multi-class tree.

use crate::common;

use common::cli_run::{fails_with, json, oxilearn};
use serde_json::Value;

const ZOO: &str = "fixtures/multiclass/zoo.ttl";
const ZOO_TRAIN: &str = "fixtures/multiclass/zoo-train.tsv";
const ZOO_TEST: &str = "fixtures/multiclass/zoo-test.tsv";
/// zoo-test.tsv: two animals of each of four classes.
const MAJORITY_RATE: f64 = 0.25;

/// `COMMAND --algorithm A --kb ZOO --problems ZOO_TRAIN --label-column class --quiet REST…`.
fn on_zoo<'a>(command: &'a str, algorithm: &'a str, rest: &[&'a str]) -> Vec<&'a str> {
    let mut args = vec![
        command,
        "--algorithm",
        algorithm,
        "--kb",
        ZOO,
        "--problems",
        ZOO_TRAIN,
        "--label-column",
        "class",
        "--quiet",
    ];
    args.extend_from_slice(rest);
    args
}

fn number(v: &Value, key: &str) -> f64 {
    v[key]
        .as_f64()
        .unwrap_or_else(|| panic!("{key} is a number: {v}"))
}

/// The sum of a confusion matrix's cells.
fn total(confusion: &Value) -> u64 {
    confusion["matrix"]
        .as_array()
        .expect("matrix")
        .iter()
        .flat_map(|row| row.as_array().expect("row"))
        .map(|n| n.as_u64().expect("count"))
        .sum()
}

#[test]
fn tree_learners_learn_a_multiclass_problem_and_score_the_test_file() {
    for algorithm in ["tdt", "trf"] {
        let v = json(&on_zoo("learn", algorithm, &["--test", ZOO_TEST, "--json"]));
        let r = &v[0];
        assert_eq!(r["algorithm"], algorithm, "{r}");
        assert_eq!(
            r["classes"],
            serde_json::json!(["bird", "fish", "mammal", "reptile"])
        );
        assert_eq!(r["examples"]["mammal"], 4, "{r}");
        assert!(r.get("combine").is_none(), "{r}");
        let test = &r["test"];
        assert_eq!(total(&test["confusion"]), 8, "{test}");
        let accuracy = number(test, "accuracy");
        assert!(
            accuracy > MAJORITY_RATE,
            "{algorithm}: test accuracy {accuracy} against the majority rate: {test}"
        );
        assert!(number(&r["train"], "accuracy") >= accuracy, "{r}");
    }
    // The tree separates the four classes by feathers, fur and gills.
    let tdt = json(&on_zoo("learn", "tdt", &["--test", ZOO_TEST, "--json"]));
    assert!(number(&tdt[0]["test"], "accuracy") >= 0.75, "{tdt}");
    // --report writes the multi-class section: the confusion matrices (no rules).
    let report = common::temp_path("multiclass-learners", "tdt.html");
    json(&on_zoo(
        "learn",
        "tdt",
        &[
            "--test",
            ZOO_TEST,
            "--json",
            "--report",
            report.to_str().unwrap(),
        ],
    ));
    let html = std::fs::read_to_string(&report).expect("the report");
    assert!(
        html.contains("Confusion matrix (test)") && !html.contains("<h2>Rules</h2>"),
        "{html}"
    );
    // The text form prints the tree and the test confusion.
    let out = oxilearn(&on_zoo("learn", "tdt", &["--test", ZOO_TEST]));
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(
        text.contains("(4 classes: bird 4, fish 4, mammal 4, reptile 4), tdt")
            && text.contains("test confusion"),
        "{text}"
    );
}

#[test]
fn cv_of_a_tree_on_a_multiclass_problem_is_deterministic_for_a_seed() {
    let cv = |algorithm| {
        json(&on_zoo(
            "cv",
            algorithm,
            &["--folds", "3", "--seed", "7", "--json"],
        ))
    };
    for algorithm in ["tdt", "trf"] {
        let v = cv(algorithm);
        let r = &v[0];
        assert_eq!(r["algorithm"], algorithm);
        assert_eq!(
            (r["folds"].as_u64(), r["folds_completed"].as_u64()),
            (Some(3), Some(3))
        );
        // Every training animal is tested once.
        assert_eq!(total(&r["confusion"]), 16, "{r}");
        assert_eq!(r["accuracy"]["folds"].as_array().expect("folds").len(), 3);
        let mean = number(&r["accuracy"], "mean");
        assert!(mean > MAJORITY_RATE, "{algorithm}: {r}");
        // Same seed, same folds and trees: the same measures.
        let again = cv(algorithm);
        for key in [
            "accuracy",
            "weighted_auc",
            "pooled_weighted_auc",
            "confusion",
        ] {
            assert_eq!(again[0][key], r[key], "{algorithm} {key}");
        }
    }
}

#[test]
fn a_saved_multiclass_tree_evaluates_predicts_and_is_refused_by_enrich() {
    let model = common::temp_path("multiclass-learners", "zoo-tdt.json");
    let model = model.to_str().expect("utf-8 path");
    let learned = json(&on_zoo(
        "learn",
        "tdt",
        &["--test", ZOO_TEST, "--json", "--save-model", model],
    ));
    let evaluated = json(&[
        "evaluate",
        "--kb",
        ZOO,
        "--problems",
        ZOO_TEST,
        "--label-column",
        "class",
        "--model",
        model,
        "--json",
    ]);
    assert_eq!(evaluated["algorithm"], "tdt");
    assert!(evaluated.get("combine").is_none(), "{evaluated}");
    let test = &learned[0]["test"];
    for key in [
        "accuracy",
        "multi_model_accuracy",
        "average_recall",
        "weighted_auc",
        "confusion",
    ] {
        assert_eq!(
            evaluated[key], test[key],
            "{key}: {evaluated} against {test}"
        );
    }
    assert_eq!(evaluated["examples"]["bird"], 2);
    // predict gives each individual its label and class distribution.
    let predicted = json(&[
        "predict",
        "--kb",
        ZOO,
        "--model",
        model,
        "--whole-kb",
        "--json",
    ]);
    let predictions = predicted["predictions"].as_array().expect("predictions");
    assert!(!predictions.is_empty(), "{predicted}");
    for p in predictions {
        let label = p["label"].as_str().expect("a label");
        let distribution = p["distribution"].as_array().expect("a distribution");
        assert_eq!(distribution.len(), 4, "{p}");
        assert!(distribution.iter().any(|d| d[0] == label), "{p}");
    }
    let e = fails_with(&[
        "enrich",
        "--kb",
        ZOO,
        "--model",
        model,
        "--graph",
        "http://example.org/g",
        "--dry-run",
    ]);
    assert!(
        e.contains("is a multi-class model (algorithm tdt")
            && e.contains("enrich types the predicted members"),
        "{e}"
    );
}

#[test]
fn binary_learners_refuse_a_multiclass_file_naming_the_learners_that_take_it() {
    for algorithm in ["celoe", "tbc", "forest-mixing", "owl-boost", "wfoil-dl"] {
        for command in ["learn", "cv"] {
            let e = fails_with(&on_zoo(command, algorithm, &[]));
            assert!(
                e.contains(ZOO_TRAIN)
                    && e.contains(&format!("--algorithm {algorithm} learns binary"))
                    && e.contains("multiclass, tdt, trf"),
                "{command} {algorithm}: {e}"
            );
        }
    }
    // cv compares binary learners side by side; multi-class ones one at a time.
    let e = fails_with(&on_zoo("cv", "tdt,trf", &[]));
    assert!(e.contains("one at a time") && e.contains(ZOO_TRAIN), "{e}");
}

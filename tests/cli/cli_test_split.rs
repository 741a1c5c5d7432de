//! `learn --test FILE` for every learner (issue 31 item 5): the model fitted on the training
//! problem is scored on held-out examples under `test` (counts, accuracy, F1, and AUC for
//! scored models), from a problem file or from a labelled TSV (`--label-column`).

use std::path::Path;

use serde_json::{Value, json};

use crate::common;

use common::cli_run::{fails_with, json as run_json};

const FAMILY: &str = "fixtures/family/family.ttl";
const PROBLEMS: &str = "fixtures/family/problems.json";

/// Writes one Ontolearn-JSON problem `name` with these examples.
fn write_problem(path: &Path, name: &str, pos: &[Value], neg: &[Value]) {
    let doc = json!({"problems": {name: {"positive_examples": pos, "negative_examples": neg}}});
    std::fs::write(path, doc.to_string()).expect("writes the problem");
}

/// Father's examples split in two: every third example held out.
fn father_split() -> (String, String, usize, usize) {
    let all: Value =
        serde_json::from_str(&std::fs::read_to_string(PROBLEMS).unwrap()).expect("JSON");
    let p = &all["problems"]["Father"];
    let split = |v: &Value| -> (Vec<Value>, Vec<Value>) {
        let v = v.as_array().unwrap();
        let test = v.iter().step_by(3).cloned().collect();
        let train = v
            .iter()
            .enumerate()
            .filter(|(i, _)| i % 3 != 0)
            .map(|(_, x)| x.clone())
            .collect();
        (train, test)
    };
    let (pos_train, pos_test) = split(&p["positive_examples"]);
    let (neg_train, neg_test) = split(&p["negative_examples"]);
    let train = common::temp_path("test_split", "father-train.json");
    let test = common::temp_path("test_split", "father-test.json");
    write_problem(&train, "Father", &pos_train, &neg_train);
    write_problem(&test, "Father", &pos_test, &neg_test);
    (
        train.display().to_string(),
        test.display().to_string(),
        pos_test.len(),
        neg_test.len(),
    )
}

/// The held-out counts add up to the test examples, accuracy and F1 follow from them.
fn check_test(algorithm: &str, t: &Value, positives: usize, negatives: usize) {
    let n = |k: &str| {
        t[k].as_u64()
            .unwrap_or_else(|| panic!("{algorithm}: {k} in {t}")) as usize
    };
    assert_eq!((n("positives"), n("negatives")), (positives, negatives));
    assert_eq!(n("tp") + n("fn"), positives, "{algorithm}: {t}");
    assert_eq!(n("fp") + n("tn"), negatives, "{algorithm}: {t}");
    let accuracy = (n("tp") + n("tn")) as f64 / (positives + negatives) as f64;
    assert!((t["accuracy"].as_f64().unwrap() - accuracy).abs() < 1e-12);
    let f1 = t["f1"].as_f64().unwrap();
    assert!((0.0..=1.0).contains(&f1), "{algorithm}: {t}");
}

#[test]
fn every_learner_scores_its_model_on_held_out_examples() {
    let (train, test, positives, negatives) = father_split();
    for algorithm in ["celoe", "tbc", "forest-mixing", "owl-boost", "wfoil-dl"] {
        let v = run_json(&[
            "learn",
            "--kb",
            FAMILY,
            "--problems",
            &train,
            "--test",
            &test,
            "--algorithm",
            algorithm,
            "--max-tests",
            "300",
            "--max-runtime",
            "0",
            "--quiet",
            "--json",
        ]);
        let r = &v[0];
        assert_eq!(r["positives"].as_u64(), Some(5 - positives as u64));
        check_test(algorithm, &r["test"], positives, negatives);
        // Every one of these models ranks individuals: AUC is reported.
        for k in ["auc_pr", "auc_roc"] {
            let auc = r["test"][k].as_f64();
            assert!(
                auc.is_some_and(|a| (0.0..=1.0).contains(&a)),
                "{algorithm}: {k} in {}",
                r["test"]
            );
        }
    }
}

/// A binary problem named after a class of a labelled TSV is tested on that class's
/// one-vs-rest examples.
#[test]
fn a_binary_learner_tests_on_a_labelled_tsv() {
    let rows = std::fs::read_to_string("fixtures/multiclass/zoo-train.tsv").unwrap();
    let (mut pos, mut neg) = (Vec::new(), Vec::new());
    for line in rows.lines().skip(1) {
        let cols: Vec<&str> = line.split('\t').collect();
        let iri = Value::from(cols[0]);
        if cols[2] == "bird" {
            pos.push(iri)
        } else {
            neg.push(iri)
        }
    }
    let train = common::temp_path("test_split", "bird-train.json");
    write_problem(&train, "bird", &pos, &neg);
    let v = run_json(&[
        "learn",
        "--kb",
        "fixtures/multiclass/zoo.ttl",
        "--problems",
        &train.display().to_string(),
        "--test",
        "fixtures/multiclass/zoo-test.tsv",
        "--label-column",
        "class",
        "--max-tests",
        "500",
        "--max-runtime",
        "0",
        "--quiet",
        "--json",
    ]);
    // zoo-test.tsv: two of each of four classes.
    check_test("celoe", &v[0]["test"], 2, 6);
}

#[test]
fn test_files_are_checked_and_cv_refuses_them() {
    let err = fails_with(&[
        "learn",
        "--kb",
        FAMILY,
        "--problems",
        PROBLEMS,
        "--problem",
        "Father",
        "--test",
        "fixtures/problems/list.json",
        "--quiet",
    ]);
    assert!(err.contains("no test problem for Father"), "{err}");
    let err = fails_with(&[
        "cv",
        "--kb",
        FAMILY,
        "--problems",
        PROBLEMS,
        "--test",
        PROBLEMS,
        "--quiet",
    ]);
    assert!(err.contains("--test is for learn"), "{err}");
}

/// Multi-class cross-validation has no report yet: `--report` is refused, not ignored.
#[test]
fn multiclass_cv_refuses_a_report_it_cannot_write() {
    let report = std::env::temp_dir().join(format!("mc-cv-{}.html", std::process::id()));
    let err = fails_with(&[
        "cv",
        "--algorithm",
        "multiclass",
        "--kb",
        "fixtures/multiclass/zoo.ttl",
        "--problems",
        "fixtures/multiclass/zoo-train.tsv",
        "--report",
        report.to_str().expect("UTF-8 path"),
        "--quiet",
    ]);
    assert!(err.contains("writes no --report"), "{err}");
    assert!(!report.exists(), "nothing is written");
}

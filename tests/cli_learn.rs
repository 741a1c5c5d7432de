//! `learn` and `cv` end to end: the documented JSON shapes, the text output, exit codes.

mod common;

use common::cli_run::{fails_with, json, oxilearn};

const FAMILY: &str = "fixtures/family/family.ttl";
const PROBLEMS: &str = "fixtures/family/problems.json";

#[test]
fn learn_json_has_the_documented_fields() {
    let v = json(&[
        "learn",
        "--kb",
        FAMILY,
        "--problems",
        PROBLEMS,
        "--problem",
        "Father",
        "--problem",
        "Uncle",
        "--max-tests",
        "20000",
        "--json",
    ]);
    let runs = v.as_array().expect("an array over problems");
    assert_eq!(runs.len(), 2);
    assert_eq!(runs[0]["problem"], "Father");
    assert_eq!(runs[1]["problem"], "Uncle");
    for r in runs {
        assert_eq!(r["algorithm"], "celoe");
        let best = &r["solutions"][0];
        for field in [
            "manchester",
            "dl",
            "length",
            "tp",
            "fp",
            "tn",
            "fn",
            "f1",
            "accuracy",
        ] {
            assert!(!best[field].is_null(), "solution field {field} in {best}");
        }
        assert_eq!(best["f1"], 1.0, "{r}");
        assert_eq!(best["fn"], 0);
        let stats = &r["stats"];
        for field in [
            "concepts_tested",
            "queries_sent",
            "cache_hits",
            "cache_misses",
            "elapsed_ms",
            "termination",
        ] {
            assert!(!stats[field].is_null(), "stats field {field} in {stats}");
        }
        assert_eq!(stats["termination"], "perfect_solution");
    }
    let father = runs[0]["solutions"][0]["manchester"].as_str().unwrap();
    assert!(
        father.contains("hasChild") && father.contains("Male"),
        "{father}"
    );
}

#[test]
fn learn_text_names_the_solution_and_the_statistics() {
    let out = oxilearn(&[
        "learn",
        "--kb",
        FAMILY,
        "--problems",
        PROBLEMS,
        "--problem",
        "Father",
        "--quiet",
    ]);
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.contains("problem Father"), "{text}");
    assert!(text.contains("DL: "), "{text}");
    assert!(text.contains("concepts tested"), "{text}");
    assert!(text.contains("termination: perfect_solution"), "{text}");
}

#[test]
fn cv_reports_every_fold_and_the_means() {
    let v = json(&[
        "cv",
        "--kb",
        FAMILY,
        "--problems",
        PROBLEMS,
        "--problem",
        "Father",
        "--folds",
        "2",
        "--seed",
        "3",
        "--max-tests",
        "5000",
        "--json",
    ]);
    let r = &v[0];
    assert_eq!(r["problem"], "Father");
    assert_eq!(r["folds"], 2);
    assert_eq!(r["per_fold"].as_array().unwrap().len(), 2);
    for key in ["train_f1", "test_f1", "train_accuracy", "test_accuracy"] {
        let s = &r[key];
        assert_eq!(s["folds"].as_array().unwrap().len(), 2, "{key}");
        assert!(s["mean"].as_f64().is_some() && s["sd"].as_f64().is_some());
    }
    assert_eq!(r["train_f1"]["mean"], 1.0);
    // Same seed, same folds, same answers.
    let again = json(&[
        "cv",
        "--kb",
        FAMILY,
        "--problems",
        PROBLEMS,
        "--problem",
        "Father",
        "--folds",
        "2",
        "--seed",
        "3",
        "--max-tests",
        "5000",
        "--json",
    ]);
    assert_eq!(again[0]["test_f1"], r["test_f1"]);
}

#[test]
fn cv_text_is_a_table_with_mean_and_sd() {
    let out = oxilearn(&[
        "cv",
        "--kb",
        FAMILY,
        "--problems",
        PROBLEMS,
        "--problem",
        "Father",
        "--folds",
        "2",
        "--max-tests",
        "3000",
        "--quiet",
    ]);
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.contains("test F1") && text.contains("±"), "{text}");
}

#[test]
fn bad_learner_input_fails_clearly() {
    let e = fails_with(&[
        "cv",
        "--kb",
        FAMILY,
        "--problems",
        PROBLEMS,
        "--problem",
        "Father",
        "--folds",
        "50",
    ]);
    assert!(
        e.contains("50 stratified folds need at least 50 positive"),
        "{e}"
    );
    let e = fails_with(&[
        "learn",
        "--kb",
        FAMILY,
        "--problems",
        PROBLEMS,
        "--noise",
        "150",
    ]);
    assert!(e.contains("noise_percentage"), "{e}");
    let e = fails_with(&[
        "learn",
        "--kb",
        FAMILY,
        "--problems",
        PROBLEMS,
        "--expansion-penalty",
        "NaN",
    ]);
    assert!(e.contains("expansion_penalty_factor"), "{e}");
    let e = fails_with(&[
        "learn",
        "--kb",
        FAMILY,
        "--problems",
        PROBLEMS,
        "--start-class",
        "Nonsense",
    ]);
    assert!(e.contains("Nonsense"), "{e}");
    let e = fails_with(&[
        "learn",
        "--kb",
        FAMILY,
        "--problems",
        PROBLEMS,
        "--problem",
        "Nope",
    ]);
    assert!(e.contains("Nope"), "{e}");
    // Huge budgets are refused with the flag's name (Duration::from_secs_f64 would panic).
    let e = fails_with(&[
        "learn",
        "--kb",
        FAMILY,
        "--problems",
        PROBLEMS,
        "--max-runtime",
        "1e20",
    ]);
    assert!(e.contains("--max-runtime"), "{e}");
    assert!(!e.contains("panicked"), "{e}");
}

/// `cv --algorithm a,b`: each learner on the same folds, one JSON entry per learner in the
/// order given, flags handed to the learners that take them, and a side-by-side table.
#[test]
fn cv_compares_several_learners_side_by_side() {
    let base = [
        "cv",
        "--kb",
        FAMILY,
        "--problems",
        PROBLEMS,
        "--problem",
        "Father",
        "--folds",
        "2",
        "--max-tests",
        "3000",
        "--algorithm",
        "celoe,owl-boost",
        // CELOE's flag and owl-boost's: each goes to its learner only.
        "--noise",
        "5",
        "--rounds",
        "3",
    ];
    let mut args = base.to_vec();
    args.push("--json");
    let v = json(&args);
    let runs = v.as_array().expect("an array over learners");
    assert_eq!(runs.len(), 2, "{v}");
    assert_eq!(runs[0]["algorithm"], "celoe");
    assert_eq!(runs[1]["algorithm"], "owl-boost");
    for r in runs {
        assert_eq!(r["problem"], "Father");
        assert_eq!(r["folds_completed"], 2, "{r}");
    }
    // Father is learnable exactly by both on its training folds.
    assert_eq!(runs[0]["train_f1"]["mean"], 1.0, "{}", runs[0]);
    for f in runs[1]["per_fold"].as_array().unwrap() {
        let rounds = f["alphas"]
            .as_array()
            .expect("owl-boost's α per round")
            .len();
        assert!((1..=3).contains(&rounds), "{f}");
    }
    let mut args = base.to_vec();
    args.push("--quiet");
    let out = oxilearn(&args);
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    let table = text
        .split("test means ± sd")
        .nth(1)
        .unwrap_or_else(|| panic!("no side-by-side table in {text}"));
    assert!(table.contains("AUC-ROC"), "{text}");
    let celoe_row = table.lines().find(|l| l.trim_start().starts_with("celoe"));
    let boost_row = table
        .lines()
        .find(|l| l.trim_start().starts_with("owl-boost"));
    assert!(celoe_row.is_some() && boost_row.is_some(), "{table}");
    // A learner flag none of the learners takes is refused, naming it.
    let e = fails_with(&[
        "cv",
        "--kb",
        FAMILY,
        "--problems",
        PROBLEMS,
        "--algorithm",
        "celoe,wfoil-dl",
        "--rounds",
        "3",
    ]);
    assert!(e.contains("--rounds"), "{e}");
    // A list outside `cv`, an unknown name and a repeated one are refused.
    let e = fails_with(&[
        "learn",
        "--kb",
        FAMILY,
        "--problems",
        PROBLEMS,
        "--algorithm",
        "celoe,tbc",
    ]);
    assert!(e.contains("`cv` compares several"), "{e}");
    let e = fails_with(&[
        "cv",
        "--kb",
        FAMILY,
        "--problems",
        PROBLEMS,
        "--algorithm",
        "celoe,nope",
    ]);
    assert!(e.contains("nope"), "{e}");
    let e = fails_with(&[
        "cv",
        "--kb",
        FAMILY,
        "--problems",
        PROBLEMS,
        "--algorithm",
        "celoe,celoe",
    ]);
    assert!(e.contains("twice"), "{e}");
}

/// owl-boost refuses the open world, saying why (its degrees would not be sound).
#[test]
fn owl_boost_refuses_the_open_world_with_the_reason() {
    let e = fails_with(&[
        "learn",
        "--kb",
        FAMILY,
        "--problems",
        PROBLEMS,
        "--algorithm",
        "owl-boost",
        "--semantics",
        "open",
    ]);
    assert!(e.contains("closed-world semantics only"), "{e}");
    assert!(e.contains("unknown rather than degree 0"), "{e}");
}

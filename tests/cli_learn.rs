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

/// `.conf` learner settings are defaults: flags given win, what is not understood or not
/// used by the learner is reported with its file and line.
#[test]
fn conf_learner_settings_are_defaults_that_flags_override() {
    let dir = std::env::temp_dir().join(format!("oxilearn-conf-defaults-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let kb = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join(FAMILY);
    let fixture = std::fs::read_to_string("fixtures/family/family.conf").unwrap();
    let conf = fixture
        .replace("\"family.ttl\"", &format!("{:?}", kb.display().to_string()))
        .replace(
            "alg.maxExecutionTimeInSeconds = 10\n",
            "alg.maxExecutionTimeInSeconds = 10\nalg.noisePercentage = 10\n\
             alg.maxNrOfResults = 2\nalg.writeSearchTree = false\n\
             h.expansionPenaltyFactor = 0.05\nop.useNegation = false\n",
        );
    let conf_path = dir.join("father.conf");
    std::fs::write(&conf_path, &conf).unwrap();
    let line_of = |key: &str| conf.lines().position(|l| l.starts_with(key)).unwrap() + 1;
    let model = dir.join("model.json");
    let out = oxilearn(&[
        "learn",
        "--problems",
        conf_path.to_str().unwrap(),
        "--noise",
        "20",
        "--max-tests",
        "3000",
        "--quiet",
        "--json",
        "--save-model",
        model.to_str().unwrap(),
    ]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stderr}");
    let expected = format!(
        "{}:{}: alg.writeSearchTree: not understood, ignored",
        conf_path.display(),
        line_of("alg.writeSearchTree")
    );
    assert!(stderr.contains(&expected), "{stderr}");
    let doc: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&model).unwrap()).unwrap();
    let p = &doc["parameters"];
    // The flag wins over alg.noisePercentage; the others come from the file.
    assert_eq!(p["noise_percentage"], 20.0, "{p}");
    assert_eq!(p["max_results"], 2, "{p}");
    assert_eq!(p["heuristic"]["expansion_penalty_factor"], 0.05, "{p}");
    let learned: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    for s in learned[0]["solutions"].as_array().unwrap() {
        assert!(!s["manchester"].as_str().unwrap().contains("not "), "{s}");
    }
    // A setting the learner does not use is named with its line.
    let tbc = oxilearn(&[
        "learn",
        "--problems",
        conf_path.to_str().unwrap(),
        "--algorithm",
        "tbc",
        "--max-tests",
        "200",
        "--quiet",
        "--json",
    ]);
    let stderr = String::from_utf8_lossy(&tbc.stderr);
    let expected = format!(
        "{}:{}: alg.noisePercentage: not used by --algorithm tbc, ignored",
        conf_path.display(),
        line_of("alg.noisePercentage")
    );
    assert!(stderr.contains(&expected), "{stderr}");
    std::fs::remove_dir_all(&dir).ok();
}

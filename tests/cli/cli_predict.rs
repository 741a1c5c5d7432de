//! The model commands and the registry pipeline end to end: `learn --save-model` →
//! `predict` gives the members `instances` gives for the learned expression, `evaluate
//! --model` scores it; `bench learn --algorithm tbc` runs TBC; budgets of 0 s plus a test
//! budget work for every learner; flags a learner cannot use are refused; `cv` with the
//! default folds runs on a small problem and checks every problem first.

use crate::common;

use std::path::PathBuf;

use common::cli_run::{fails_with, json, learn_family_model, oxilearn};

const FAMILY: &str = "fixtures/family/family.ttl";
const PROBLEMS: &str = "fixtures/family/problems.json";
const SHAPES: &str = "fixtures/tbc/shapes.ttl";
const SHAPES_PROBLEMS: &str = "fixtures/tbc/problems.json";

fn temp(name: &str) -> PathBuf {
    common::temp_path("cli-predict", name)
}

/// `learn` CELOE on family Uncle (5,000 tests), saving the model to `path`; the JSON.
fn learn_uncle_saving_to(path: &str) -> serde_json::Value {
    learn_family_model("Uncle", std::path::Path::new(path))
}

#[test]
fn saved_model_predicts_the_instances_of_the_learned_expression() {
    let model = temp("uncle.json");
    let path = model.to_str().unwrap();
    let learned = learn_uncle_saving_to(path);
    let manchester = learned[0]["solutions"][0]["manchester"].as_str().unwrap();
    let doc: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&model).unwrap()).unwrap();
    assert_eq!(doc["format"], "oxilearn-model");
    assert_eq!(doc["algorithm"], "celoe");
    assert_eq!(doc["problem"], "Uncle");
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
        manchester,
        "--json",
    ]);
    let expected: Vec<&str> = instances["individuals"]
        .as_array()
        .unwrap()
        .iter()
        .map(|i| i.as_str().unwrap())
        .collect();
    assert!(!members.is_empty());
    assert_eq!(members, expected, "predict and instances disagree");
    assert!(
        members.iter().all(|m| m.starts_with("http://")),
        "{members:?}"
    );
    // Text mode streams one line per individual.
    let out = oxilearn(&[
        "predict", "--kb", FAMILY, "--model", path, "--class", "Male",
    ]);
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.lines().all(|l| l.contains("member")), "{text}");
    // Evaluated on its own problem file: the training counts, a ranking.
    let e = json(&[
        "evaluate",
        "--kb",
        FAMILY,
        "--problems",
        PROBLEMS,
        "--problem",
        "Uncle",
        "--model",
        path,
        "--json",
    ]);
    assert_eq!(e["f1"], learned[0]["solutions"][0]["f1"]);
    assert!(e["auc_pr"].is_number() && e["auc_roc"].is_number(), "{e}");
    let _ = std::fs::remove_file(&model);
}

#[test]
fn tbc_models_save_and_predict_probabilities() {
    let model = temp("shapes.json");
    let path = model.to_str().unwrap();
    let learned = json(&[
        "learn",
        "--algorithm",
        "tbc",
        "--kb",
        SHAPES,
        "--problems",
        SHAPES_PROBLEMS,
        "--semantics",
        "open",
        "--missing",
        "im3",
        "--quiet",
        "--json",
        "--save-model",
        path,
    ]);
    // The common fields are there for TBC too.
    for key in [
        "problem",
        "quality",
        "semantics",
        "positives",
        "negatives",
        "solutions",
        "stats",
    ] {
        assert!(!learned[0][key].is_null(), "{key}: {}", learned[0]);
    }
    let p = json(&[
        "predict",
        "--kb",
        SHAPES,
        "--model",
        path,
        "--individuals",
        SHAPES_PROBLEMS,
        "--json",
    ]);
    let preds = p["predictions"].as_array().unwrap();
    assert_eq!(preds.len(), 40);
    let from_learn = learned[0]["predictions"].as_array().unwrap();
    for q in preds {
        let same = from_learn
            .iter()
            .find(|l| l["individual"] == q["individual"])
            .expect("same individuals");
        assert_eq!(same["probability"], q["probability"], "{q}");
        assert_eq!(q["member"], q["probability"].as_f64().unwrap() >= 0.5);
    }
    let _ = std::fs::remove_file(&model);
}

/// `bench learn` parses the learner flags but neither writes a report nor saves a model:
/// it says so rather than ignoring them.
#[test]
fn bench_learn_refuses_the_options_it_has_no_use_for() {
    let base = [
        "bench",
        "learn",
        "--kb",
        FAMILY,
        "--problems",
        PROBLEMS,
        "--quiet",
    ];
    for extra in [&["--report", "x.html"][..], &["--save-model", "m.json"]] {
        let e = fails_with(&[&base[..], extra].concat());
        assert!(
            e.contains(&format!("bench learn does not take {}", extra[0])),
            "{e}"
        );
    }
}

/// `bench learn --test` scores every row on the held-out examples, as `learn --test` does,
/// and the summary gives their mean (issue 31: learners compared on unseen individuals).
#[test]
fn bench_learn_scores_each_row_on_the_test_file() {
    let run = [
        "--kb",
        FAMILY,
        "--problems",
        PROBLEMS,
        "--problem",
        "Father",
        "--test",
        PROBLEMS,
        "--max-tests",
        "500",
        "--quiet",
        "--json",
    ];
    let bench = json(&[&["bench", "learn"][..], &run].concat());
    let learned = json(&[&["learn"][..], &run].concat());
    let row = &bench["rows"][0];
    assert_eq!(row["test"], learned[0]["test"], "{bench}");
    assert_eq!(row["test"]["accuracy"], 1.0, "{bench}");
    assert_eq!(bench["summaries"][0]["mean_test_accuracy"], 1.0, "{bench}");
}

#[test]
fn bench_learn_runs_the_chosen_learner() {
    let v = json(&[
        "bench",
        "learn",
        "--algorithm",
        "tbc",
        "--kb",
        SHAPES,
        "--problems",
        SHAPES_PROBLEMS,
        "--semantics",
        "open",
        "--quiet",
        "--json",
    ]);
    assert_eq!(v["rows"][0]["algorithm"], "tbc", "{v}");
    let celoe = json(&[
        "bench",
        "learn",
        "--kb",
        FAMILY,
        "--problems",
        PROBLEMS,
        "--problem",
        "Father",
        "--quiet",
        "--json",
    ]);
    assert_eq!(celoe["rows"][0]["algorithm"], "celoe");
}

#[test]
fn no_time_limit_with_a_test_budget_works_for_every_learner() {
    for (algorithm, kb, problems) in [
        ("celoe", FAMILY, PROBLEMS),
        ("tbc", SHAPES, SHAPES_PROBLEMS),
    ] {
        let v = json(&[
            "learn",
            "--algorithm",
            algorithm,
            "--kb",
            kb,
            "--problems",
            problems,
            "--max-runtime",
            "0",
            "--max-tests",
            "7",
            "--quiet",
            "--json",
        ]);
        let stats = &v[0]["stats"];
        assert!(
            stats["concepts_tested"].as_u64().unwrap() <= 7,
            "{algorithm}: {stats}"
        );
        for key in ["elapsed_ms", "load_ms", "signature_ms", "search_ms"] {
            assert!(stats[key].is_u64(), "{algorithm}: {key} in {stats}");
        }
    }
}

#[test]
fn flags_a_learner_cannot_use_are_refused_all_at_once() {
    let e = fails_with(&[
        "learn",
        "--algorithm",
        "tbc",
        "--kb",
        SHAPES,
        "--problems",
        SHAPES_PROBLEMS,
        "--quality",
        "accuracy",
        "--noise",
        "5",
        "--no-cardinality",
    ]);
    assert!(
        e.contains("--quality") && e.contains("--noise") && e.contains("--no-cardinality"),
        "{e}"
    );
    let e = fails_with(&[
        "learn",
        "--kb",
        FAMILY,
        "--problems",
        PROBLEMS,
        "--beam-width",
        "3",
    ]);
    assert!(e.contains("--beam-width") && e.contains("tbc"), "{e}");
    let e = fails_with(&[
        "learn",
        "--kb",
        FAMILY,
        "--problems",
        PROBLEMS,
        "--save-model",
        "x.json",
    ]);
    assert!(e.contains("--problem"), "{e}");
}

#[test]
fn cv_defaults_work_on_small_problems_and_every_problem_is_checked_first() {
    // Father has 5 positives: 10 folds cannot be stratified, 5 can (a note on stderr).
    let out = oxilearn(&[
        "cv",
        "--kb",
        FAMILY,
        "--problems",
        PROBLEMS,
        "--problem",
        "Father",
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
    assert!(String::from_utf8_lossy(&out.stderr).contains("5-fold"));
    // A wrong problem among good ones: nothing runs, every bad one is named.
    let dir = temp("bad-problems");
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("p.json");
    std::fs::write(
        &file,
        r#"{"problems": {
            "Good": {"positive_examples": ["http://example.org/family#carlos"],
                     "negative_examples": ["http://example.org/family#anna"]},
            "BadA": {"positive_examples": ["http://example.org/family#nobody"],
                     "negative_examples": ["http://example.org/family#anna"]},
            "BadB": {"positive_examples": ["http://example.org/family#ghost"],
                     "negative_examples": []}}}"#,
    )
    .unwrap();
    let e = fails_with(&[
        "cv",
        "--kb",
        FAMILY,
        "--problems",
        file.to_str().unwrap(),
        "--json",
    ]);
    assert!(e.contains("BadA") && e.contains("BadB"), "{e}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// Ctrl-C (SIGINT) stops an unbounded run and the command still reports the best so far.
#[cfg(unix)]
#[test]
fn ctrl_c_stops_the_run_and_reports_the_best_so_far() {
    use std::process::{Command, Stdio};
    let child = Command::new(env!("CARGO_BIN_EXE_oxilearn"))
        .args([
            "learn",
            "--kb",
            FAMILY,
            "--problems",
            PROBLEMS,
            "--problem",
            "Uncle",
            "--max-runtime",
            "0",
            "--keep-searching",
            "--quiet",
            "--json",
        ])
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("starts");
    std::thread::sleep(std::time::Duration::from_millis(1500));
    let status = Command::new("kill")
        .args(["-INT", &child.id().to_string()])
        .status()
        .expect("kill runs");
    assert!(status.success());
    let out = child.wait_with_output().expect("ends");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).expect("one document");
    assert_eq!(v[0]["stats"]["termination"], "cancelled");
    assert!(!v[0]["solutions"].as_array().unwrap().is_empty());
}

#[test]
fn tbc_takes_the_operator_flags() {
    let run = |extra: &[&str]| {
        let mut args = vec![
            "learn",
            "--algorithm",
            "tbc",
            "--kb",
            SHAPES,
            "--problems",
            SHAPES_PROBLEMS,
            "--semantics",
            "open",
            "--missing",
            "im3",
            "--max-length",
            "5",
            "--quiet",
            "--json",
        ];
        args.extend_from_slice(extra);
        let v = json(&args);
        v[0]["features"]
            .as_array()
            .unwrap()
            .iter()
            .map(|f| f.as_str().unwrap().to_owned())
            .collect::<Vec<_>>()
    };
    let with = run(&[]);
    assert!(with.iter().any(|f| f.contains("not ")), "{with:?}");
    let without = run(&["--no-negation"]);
    assert!(without.iter().all(|f| !f.contains("not ")), "{without:?}");
}

#[test]
fn evaluate_model_honours_the_semantics_asked_for() {
    let model = temp("uncle-semantics.json");
    let path = model.to_str().unwrap();
    let learned = learn_uncle_saving_to(path);
    let best = learned[0]["solutions"][0]["manchester"].as_str().unwrap();
    let evaluate = |extra: &[&str]| {
        let mut args = vec![
            "evaluate",
            "--kb",
            FAMILY,
            "--problems",
            PROBLEMS,
            "--problem",
            "Uncle",
            "--json",
        ];
        args.extend_from_slice(extra);
        json(&args)
    };
    // Without --semantics: the model's own (closed), no unknown count.
    let own = evaluate(&["--model", path]);
    assert_eq!(own["semantics"], "closed");
    assert!(own.get("unknown").is_none(), "{own}");
    assert_eq!(own, evaluate(&["--model", path, "--semantics", "closed"]));
    // Open world: the best solution's provable members, and the unknowns counted, exactly
    // as evaluating its concept under open world gives them.
    let open = evaluate(&["--model", path, "--semantics", "open"]);
    let concept = evaluate(&["--concept", best, "--semantics", "open"]);
    assert_eq!(open["semantics"], "open");
    assert!(open["unknown"].is_u64(), "{open}");
    for key in ["tp", "fp", "tn", "fn", "unknown"] {
        assert_eq!(open[key], concept[key], "{key}: {open} vs {concept}");
    }
    // The fields evaluate --model had before are all still there.
    for key in [
        "problem",
        "algorithm",
        "model",
        "accuracy",
        "precision",
        "recall",
        "f1",
        "positives",
        "negatives",
    ] {
        assert!(open.get(key).is_some(), "{key}: {open}");
    }
    let _ = std::fs::remove_file(&model);
}

#[test]
fn evaluate_refuses_a_tbc_model_under_another_semantics() {
    let model = temp("shapes-semantics.json");
    let path = model.to_str().unwrap();
    json(&[
        "learn",
        "--algorithm",
        "tbc",
        "--kb",
        SHAPES,
        "--problems",
        SHAPES_PROBLEMS,
        "--semantics",
        "open",
        "--quiet",
        "--json",
        "--save-model",
        path,
    ]);
    let base = [
        "evaluate",
        "--kb",
        SHAPES,
        "--problems",
        SHAPES_PROBLEMS,
        "--model",
        path,
        "--json",
    ];
    let own = json(&base);
    assert_eq!(own["semantics"], "open");
    let mut open = base.to_vec();
    open.extend(["--semantics", "open"]);
    assert_eq!(json(&open), own);
    let mut closed = base.to_vec();
    closed.extend(["--semantics", "closed"]);
    let err = fails_with(&closed);
    assert!(
        err.contains("open-world semantics it was trained with") && err.contains("closed"),
        "{err}"
    );
    let _ = std::fs::remove_file(&model);
}

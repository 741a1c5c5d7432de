//! The command line end to end: JSON shapes (a documented interface), exit codes and error
//! messages, and the real family benchmark check (ERRATA: 11 named classes give F1 = 1.0, the
//! other 7 problems name no class and must fail with exit code 2 naming it).

use crate::common;

use std::process::Command;

use common::cli_run::{fails_with, json};

const FAMILY: &str = "fixtures/family/family.ttl";
const PROBLEMS: &str = "fixtures/family/problems.json";
const FATHER: &str = "Male and (hasChild some Thing)";

#[test]
fn instances_json_has_the_documented_fields() {
    let v = json(&["instances", "--kb", FAMILY, "--concept", FATHER, "--json"]);
    assert_eq!(v["count"], 5);
    assert_eq!(v["semantics"], "closed");
    let individuals: Vec<&str> = v["individuals"]
        .as_array()
        .unwrap()
        .iter()
        .map(|i| i.as_str().unwrap())
        .collect();
    let mut sorted = individuals.clone();
    sorted.sort();
    assert_eq!(individuals, sorted, "sorted");
    assert!(individuals.contains(&"http://example.org/family#george"));
    assert!(v["concept"].as_str().unwrap().contains("hasChild"));
}

#[test]
fn open_world_instances_report_non_instances_and_unknowns() {
    let v = json(&[
        "instances",
        "--kb",
        FAMILY,
        "--concept",
        "Male",
        "--semantics",
        "open",
        "--json",
    ]);
    assert_eq!(v["semantics"], "open");
    // Male and Female are declared disjoint: females are provably not male.
    let non: Vec<&str> = v["non_instances"]
        .as_array()
        .unwrap()
        .iter()
        .map(|i| i.as_str().unwrap())
        .collect();
    assert!(!non.is_empty());
    assert!(v["unknown_count"].as_u64().unwrap() > 0);
}

#[test]
fn evaluate_gives_one_object_per_problem_and_an_array_for_several() {
    let one = json(&[
        "evaluate",
        "--kb",
        FAMILY,
        "--problems",
        PROBLEMS,
        "--problem",
        "Father",
        "--concept",
        FATHER,
        "--json",
    ]);
    for field in [
        "concept",
        "tp",
        "fp",
        "tn",
        "fn",
        "accuracy",
        "precision",
        "recall",
        "f1",
    ] {
        assert!(one.get(field).is_some(), "missing {field}");
    }
    assert_eq!(one["problem"], "Father");
    assert_eq!(one["f1"], 1.0);
    assert_eq!(one["tp"], 5);
    assert_eq!(one["fn"], 0);
    let all = json(&[
        "evaluate",
        "--kb",
        FAMILY,
        "--problems",
        PROBLEMS,
        "--concept",
        FATHER,
        "--json",
    ]);
    assert_eq!(all.as_array().unwrap().len(), 6);
}

#[test]
fn dl_syntax_and_manchester_agree() {
    let a = json(&["instances", "--kb", FAMILY, "--concept", FATHER, "--json"]);
    let b = json(&[
        "instances",
        "--kb",
        FAMILY,
        "--concept",
        "Male ⊓ ∃hasChild.⊤",
        "--json",
    ]);
    assert_eq!(a["individuals"], b["individuals"]);
}

#[test]
fn conf_file_names_its_own_knowledge_base() {
    let v = json(&[
        "evaluate",
        "--problems",
        "fixtures/family/family.conf",
        "--concept",
        FATHER,
        "--json",
    ]);
    assert_eq!(v["f1"], 1.0);
}

#[test]
fn signature_json_has_counts_and_lists() {
    let v = json(&["signature", "--kb", FAMILY, "--json"]);
    assert_eq!(v["counts"]["individuals"], 29);
    assert!(v["counts"]["hierarchy_depth"].as_u64().unwrap() >= 2);
    assert!(v["classes"].as_array().unwrap().len() >= 10);
    let has_child = &v["object_properties"]["http://example.org/family#hasAncestor"];
    assert_eq!(has_child["transitive"], true);
    let age = &v["data_properties"]["http://example.org/family#hasAge"]["numeric"];
    assert!(age["min"].as_f64().unwrap() <= age["max"].as_f64().unwrap());
}

#[test]
fn unknown_class_is_an_error_with_exit_code_2() {
    let err = fails_with(&["instances", "--kb", FAMILY, "--concept", "Fathr"]);
    assert!(err.contains("Fathr"), "{err}");
    assert!(err.contains("Father"), "suggests the close name: {err}");
}

#[test]
fn missing_or_broken_files_are_named_in_the_error() {
    let err = fails_with(&[
        "instances",
        "--kb",
        "fixtures/nope.ttl",
        "--concept",
        "Thing",
    ]);
    assert!(err.contains("nope.ttl"), "{err}");
    let err = fails_with(&[
        "instances",
        "--kb",
        "fixtures/loading/broken.ttl",
        "--concept",
        "Thing",
    ]);
    assert!(err.contains("broken.ttl"), "{err}");
    assert!(err.contains("line"), "names the line: {err}");
}

#[test]
fn examples_that_are_not_individuals_are_all_listed() {
    let dir = std::env::temp_dir().join(format!("oxilearn-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let lp = dir.join("bad.json");
    std::fs::write(
        &lp,
        r#"{"problems": {"P": {"positive_examples": ["http://example.org/family#george", "http://example.org/family#nobody1"], "negative_examples": ["http://example.org/family#nobody2"]}}}"#,
    )
    .unwrap();
    let err = fails_with(&[
        "evaluate",
        "--kb",
        FAMILY,
        "--problems",
        lp.to_str().unwrap(),
        "--concept",
        "Thing",
    ]);
    assert!(err.contains("nobody1") && err.contains("nobody2"), "{err}");
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn unknown_problem_lists_the_available_ones() {
    let err = fails_with(&[
        "evaluate",
        "--kb",
        FAMILY,
        "--problems",
        PROBLEMS,
        "--problem",
        "Nope",
        "--concept",
        "Thing",
    ]);
    assert!(err.contains("Nope") && err.contains("Father"), "{err}");
}

/// ERRATA to issue #2 §7.
#[test]
fn family_benchmark_named_classes_solve_their_problems() {
    let (Some(kb), Some(lps)) = (
        common::shared_dataset("family/family-benchmark_rich_background.owl"),
        common::shared_dataset("family/lps.json"),
    ) else {
        return;
    };
    let (kb, lps) = (kb.to_str().unwrap(), lps.to_str().unwrap());
    for name in [
        "Brother",
        "Daughter",
        "Father",
        "Granddaughter",
        "Grandfather",
        "Grandmother",
        "Grandson",
        "Mother",
        "PersonWithASibling",
        "Sister",
        "Son",
    ] {
        let v = json(&[
            "evaluate",
            "--kb",
            kb,
            "--problems",
            lps,
            "--problem",
            name,
            "--concept",
            name,
            "--json",
        ]);
        assert_eq!(v["f1"], 1.0, "{name}: {v}");
    }
    for name in [
        "Aunt",
        "Cousin",
        "Grandgranddaughter",
        "Grandgrandfather",
        "Grandgrandmother",
        "Grandgrandson",
        "Uncle",
    ] {
        let err = fails_with(&[
            "evaluate",
            "--kb",
            kb,
            "--problems",
            lps,
            "--problem",
            name,
            "--concept",
            name,
        ]);
        assert!(err.contains(name), "{name}: {err}");
        if name == "Grandgrandfather" {
            assert!(err.contains("did you mean Grandfather"), "{err}");
        }
    }
}

#[test]
fn namespaces_give_prefixes_and_closed_pipes_do_not_panic() {
    let v = json(&[
        "instances",
        "--kb",
        FAMILY,
        "--concept",
        "family:Father",
        "--json",
    ]);
    assert!(v["count"].as_u64().unwrap() > 0);
    // A reader that stops early must not make the command panic.
    let mut child = Command::new(env!("CARGO_BIN_EXE_oxilearn"))
        .args(["instances", "--kb", FAMILY, "--concept", "Thing"])
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    drop(child.stdout.take());
    let out = child.wait_with_output().unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(!err.contains("panicked"), "{err}");
}

/// `--log-queries FILE`: every SELECT as a JSON line, over files and over an endpoint, where
/// the log starts before the capability probe (the probe's requests are logged too).
#[test]
fn log_queries_writes_every_query_the_probe_included() {
    let dir = std::env::temp_dir();
    let log = dir.join(format!("oxilearn-cli-log-{}.jsonl", std::process::id()));
    let log_path = log.to_str().unwrap();
    json(&[
        "signature",
        "--kb",
        FAMILY,
        "--json",
        "--log-queries",
        log_path,
    ]);
    let lines = |path: &std::path::Path| -> Vec<serde_json::Value> {
        std::fs::read_to_string(path)
            .expect("the log was written")
            .lines()
            .map(|l| serde_json::from_str(l).expect("one JSON object per line"))
            .collect()
    };
    let embedded = lines(&log);
    assert!(!embedded.is_empty());
    assert!(
        embedded
            .iter()
            .all(|l| l["query"].is_string() && l["rows"].is_u64())
    );
    // An endpoint answering no rows: whatever the command concludes, each request it got is
    // a line of the log, from the probe's first on.
    let mock = common::mock_endpoint::MockEndpoint::start(|_| {
        common::mock_endpoint::Response::json(r#"{"head":{"vars":[]},"results":{"bindings":[]}}"#)
            .into()
    });
    let _ = common::cli_run::oxilearn(&[
        "signature",
        "--endpoint",
        &mock.url(),
        "--json",
        "--log-queries",
        log_path,
    ]);
    let remote = lines(&log);
    assert!(!remote.is_empty());
    assert_eq!(
        remote.len(),
        mock.request_count(),
        "every request is logged"
    );
    let _ = std::fs::remove_file(&log);
}

//! Generated node-classification problems (issue 31 items 4 and 7): the generator is
//! deterministic, trees and rule learners recover a noise-free target on held-out examples,
//! and multi-class rules name individuals (hasValue, on by default).

use crate::common::cli_run::json;
use crate::common::temp_path;

/// The committed instance: `worksOn value project9 or worksOn value project8`, no noise.
const DIR: &str = "fixtures/generated/two-projects";

fn file(name: &str) -> String {
    format!("{DIR}/{name}")
}

#[test]
fn the_generator_writes_the_committed_instance_again() {
    let out = temp_path("generated", "two-projects");
    let o = out.to_str().unwrap();
    let args = [
        "--rule",
        "0",
        "--entities",
        "120",
        "--noise",
        "0",
        "--seed",
        "1",
    ];
    let mut line = vec!["generate-node-problems", "--out", o];
    line.extend(args);
    let run = crate::common::cli_run::oxilearn(&line);
    assert!(
        run.status.success(),
        "{}",
        String::from_utf8_lossy(&run.stderr)
    );
    for f in ["kb.nt", "train.json", "test.json", "train.tsv", "test.tsv"] {
        let again = std::fs::read_to_string(out.join(f)).unwrap();
        let committed = std::fs::read_to_string(file(f)).unwrap();
        assert_eq!(again, committed, "{f} differs");
    }
}

#[test]
fn a_tree_reaches_held_out_accuracy_one_and_exports_the_target() {
    let (kb, train, test) = (file("kb.nt"), file("train.json"), file("test.json"));
    let a = ["learn", "--kb", &kb, "--problems", &train, "--test", &test];
    let mut line = a.to_vec();
    // No time budget: the test is about what the tree learns, not how fast (debug, loaded CI).
    line.extend([
        "--algorithm",
        "tdt",
        "--json",
        "--quiet",
        "--max-runtime",
        "0",
    ]);
    let v = json(&line);
    let run = &v[0];
    assert_eq!(run["test"]["accuracy"], 1.0, "{}", run["test"]);
    // The exported concept has the target's instances: on every example of both files.
    let concept = run["solutions"][0]["manchester"]
        .as_str()
        .unwrap()
        .to_owned();
    let target = "worksOn value project9 or worksOn value project8";
    for problems in [&train, &test] {
        for c in [concept.as_str(), target] {
            let e = json(&[
                "evaluate",
                "--kb",
                &kb,
                "--problems",
                problems,
                "--concept",
                c,
                "--json",
            ]);
            let e = if e.is_array() { &e[0] } else { &e };
            assert_eq!(e["accuracy"], 1.0, "{c} on {problems}: {e}");
        }
    }
}

#[test]
fn multi_class_rules_name_an_individual_by_default_and_with_has_value() {
    let (kb, train, test) = (file("kb.nt"), file("train.json"), file("test.json"));
    for extra in [&[][..], &["--has-value"][..]] {
        let mut line = vec!["learn", "--kb", &kb, "--problems", &train, "--test", &test];
        line.extend([
            "--algorithm",
            "multiclass",
            "--rule-tests",
            "3000",
            "--json",
        ]);
        line.extend(["--quiet", "--max-runtime", "0"]);
        line.extend(extra);
        let v = json(&line);
        let run = if v.is_array() { &v[0] } else { &v };
        let rules: Vec<&str> = run["rules"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|r| r["class"] == "positive")
            .filter_map(|r| r["manchester"].as_str())
            .collect();
        assert!(
            rules.iter().any(|r| r.contains("value project")),
            "{extra:?}: no positive rule names a project: {rules:?}"
        );
        assert_eq!(run["test"]["accuracy"], 1.0, "{extra:?}: {}", run["test"]);
    }
}

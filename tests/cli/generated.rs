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

/// CELOE's defaults name the projects (∃r.{a} is on where values are frequent among the
/// examples) and generalise to the held-out split; `--no-has-value` takes ∃r.{a} away, and a
/// DL-Learner `.conf` file's `useHasValue = false` does too.
#[test]
fn celoe_names_the_projects_by_default_and_not_without_has_value() {
    let (kb, train, test) = (file("kb.nt"), file("train.json"), file("test.json"));
    let run = |extra: &[&str], problems: &str| {
        let mut line = vec!["learn", "--kb", &kb, "--problems", problems, "--json"];
        line.extend(["--quiet", "--max-tests", "3000", "--max-runtime", "0"]);
        line.extend(extra);
        let v = json(&line);
        if v.is_array() { v[0].clone() } else { v }
    };
    let names = |run: &serde_json::Value| {
        run["solutions"][0]["manchester"]
            .as_str()
            .unwrap()
            .to_owned()
    };
    let default = run(&["--test", &test], &train);
    let best = names(&default);
    assert!(
        best.contains("worksOn value project8") && best.contains("worksOn value project9"),
        "{best}"
    );
    assert_eq!(default["test"]["accuracy"], 1.0, "{}", default["test"]);

    let without = run(&["--test", &test, "--no-has-value"], &train);
    for s in without["solutions"].as_array().unwrap() {
        let m = s["manchester"].as_str().unwrap();
        assert!(!m.contains(" value "), "--no-has-value: {m}");
    }
    assert!(
        without["test"]["accuracy"].as_f64().unwrap() < 1.0,
        "{}",
        without["test"]
    );

    // The same problem as a DL-Learner .conf with useHasValue = false: off again.
    let dir = temp_path("generated", "celoe-conf");
    std::fs::create_dir_all(&dir).unwrap();
    let p: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&train).unwrap()).unwrap();
    let list = |key: &str| {
        p[0][key]
            .as_array()
            .unwrap()
            .iter()
            .map(|i| format!("\"{}\"", i.as_str().unwrap()))
            .collect::<Vec<_>>()
            .join(", ")
    };
    for use_has_value in [true, false] {
        let conf = dir.join(format!("nodes-{use_has_value}.conf"));
        let text = format!(
            "lp.type = \"posNegStandard\"\nlp.positiveExamples = {{ {} }}\n\
             lp.negativeExamples = {{ {} }}\nalg.type = \"celoe\"\n\
             op.useHasValue = {use_has_value}\n",
            list("positives"),
            list("negatives")
        );
        std::fs::write(&conf, text).unwrap();
        let from_conf = run(&[], conf.to_str().unwrap());
        let named = from_conf["solutions"]
            .as_array()
            .unwrap()
            .iter()
            .any(|s| s["manchester"].as_str().unwrap().contains(" value "));
        assert_eq!(
            named, use_has_value,
            "useHasValue = {use_has_value}: {from_conf}"
        );
    }
}

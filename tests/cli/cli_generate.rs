//! `oxilearn generate-problems --max-individuals N`: the targets' examples come from a
//! deterministic sample of at most N individuals, the same for the same seed.

use crate::common;

use std::collections::BTreeSet;

use common::cli_run::{fails_with, json};

const FAMILY: &str = "fixtures/family/family.ttl";

fn generate(max: &str, seed: &str) -> serde_json::Value {
    generate_with(max, seed, &[])
}

fn generate_with(max: &str, seed: &str, extra: &[&str]) -> serde_json::Value {
    let mut args = vec![
        "generate-problems",
        "--kb",
        FAMILY,
        "--count",
        "3",
        "--seed",
        seed,
        "--semantics",
        "closed",
        "--min-size",
        "2",
        "--max-individuals",
        max,
    ];
    args.extend_from_slice(extra);
    json(&args)
}

fn examples(v: &serde_json::Value) -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    for p in v.as_array().expect("a list of problems") {
        for key in ["positives", "negatives"] {
            for e in p[key].as_array().expect("an example list") {
                out.insert(e.as_str().expect("an IRI").to_owned());
            }
        }
    }
    out
}

#[test]
fn examples_come_from_the_sample_and_are_deterministic() {
    let a = generate("8", "5");
    let problems = a.as_array().expect("a list");
    assert!(!problems.is_empty(), "{a}");
    let all = examples(&a);
    assert!(all.len() <= 8, "{} examples from a sample of 8", all.len());
    for p in problems {
        let n = p["positives"].as_array().unwrap().len() + p["negatives"].as_array().unwrap().len();
        assert!(n <= 8);
    }
    assert_eq!(a, generate("8", "5"), "same seed, same problems");
    // The sorted sample is the smallest IRIs: also deterministic, and within the sample.
    let sorted = generate_with("8", "5", &["--sorted-sample"]);
    assert_eq!(sorted, generate_with("8", "5", &["--sorted-sample"]));
    assert!(examples(&sorted).len() <= 8);
    // A bigger sample reaches more individuals.
    assert!(examples(&generate("10000", "5")).len() > all.len());
}

#[test]
fn zero_max_individuals_is_a_clear_error() {
    let err = fails_with(&[
        "generate-problems",
        "--kb",
        FAMILY,
        "--max-individuals",
        "0",
    ]);
    assert!(err.contains("--max-individuals"), "{err}");
}

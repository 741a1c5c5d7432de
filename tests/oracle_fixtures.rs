//! The oracle against hand-computed answers (fixtures/*/expected.json): the embedded SPARQL
//! oracle, the cached oracle and the reference evaluator must each give exactly the
//! expected instances of every check.

mod common;

use oxilearn::concept;
use oxilearn::oracle::{CacheOptions, Cached, MembershipOracle};
use serde::Deserialize;

#[derive(Deserialize)]
struct Check {
    concept: String,
    instances: Vec<String>,
    why: String,
}

fn run_checks(kb: &str, expected: &str) {
    let p = common::pair(&[common::repo_path(kb)]);
    let sig = p.signature();
    let vocab = sig.vocabulary();
    let checks: Vec<Check> = serde_json::from_str(
        &std::fs::read_to_string(common::repo_path(expected)).expect("expected.json"),
    )
    .expect("expected.json parses");
    assert!(checks.len() >= 15, "too few checks in {expected}");
    let cached = Cached::new(&p.sparql, CacheOptions::default());
    let all = sig.all_individuals();
    let mut failures = Vec::new();
    for check in &checks {
        let c = concept::parse(&check.concept, &vocab)
            .unwrap_or_else(|e| panic!("{}: {e}", check.concept));
        let mut want = check.instances.clone();
        want.sort();
        for (name, oracle) in [
            ("sparql", &p.sparql as &dyn MembershipOracle),
            ("cached", &cached),
            ("reference", &p.reference),
        ] {
            let got: Vec<String> = sig
                .iris_of(&oracle.covered(&c, &all).expect("evaluates"))
                .map(|i| i.as_str().to_string())
                .collect();
            if got != want {
                failures.push(format!(
                    "{name}: {} ({})\n  want {want:?}\n  got  {got:?}",
                    check.concept, check.why
                ));
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn family_fixture_matches_hand_computed_answers() {
    run_checks(
        "fixtures/family/family.ttl",
        "fixtures/family/expected.json",
    );
}

#[test]
fn trains_fixture_matches_hand_computed_answers() {
    run_checks(
        "fixtures/trains/trains.ttl",
        "fixtures/trains/expected.json",
    );
}

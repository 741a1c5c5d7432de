//! The oracle against hand-computed answers (fixtures/*/expected.json): the embedded SPARQL
//! oracle, the cached oracle and the reference evaluator must each give exactly the
//! expected instances of every check.

use crate::common;

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

/// Data values by value space: integer subtypes by range (whether or not the store rewrites
/// `xsd:int` to `xsd:integer`), numeric and boolean `value` by value equality.
#[test]
fn data_ranges_follow_value_spaces() {
    use oxigraph::io::RdfFormat;
    let ttl = r#"
        @prefix : <http://ex.org/#> .
        @prefix owl: <http://www.w3.org/2002/07/owl#> .
        @prefix xsd: <http://www.w3.org/2001/XMLSchema#> .
        :v a owl:DatatypeProperty . :b a owl:DatatypeProperty .
        :a a owl:NamedIndividual ; :v "5"^^xsd:int ; :b "1"^^xsd:boolean .
        :c a owl:NamedIndividual ; :v "300"^^xsd:integer ; :b false .
        :d a owl:NamedIndividual ; :v "67.0"^^xsd:double .
        :e a owl:NamedIndividual ; :v "-3"^^xsd:integer .
    "#;
    let common::Pair {
        sparql, reference, ..
    } = common::pair_of_text(RdfFormat::Turtle, ttl);
    let sig = sparql.shared_signature();
    let vocab = sig.vocabulary();
    let all = sig.all_individuals();
    for (text, want) in [
        ("v some xsd:int", "a c e"),
        ("v some xsd:byte", "a e"),
        ("v some xsd:nonNegativeInteger", "a c"),
        ("v some xsd:integer", "a c e"),
        ("v some xsd:decimal", "a c e"),
        ("v some xsd:double", "d"),
        ("v value 5", "a"),
        ("v value 67", "d"),
        ("b value true", "a"),
        ("b value false", "c"),
    ] {
        let c = concept::parse(text, &vocab).unwrap_or_else(|e| panic!("{text}: {e}"));
        let want: Vec<String> = want
            .split_whitespace()
            .map(|x| format!("http://ex.org/#{x}"))
            .collect();
        for (name, oracle) in [
            ("sparql", &sparql as &dyn MembershipOracle),
            ("reference", &reference),
        ] {
            let got: Vec<String> = sig
                .iris_of(&oracle.covered(&c, &all).unwrap())
                .map(|i| i.to_string())
                .collect();
            assert_eq!(got, want, "{name}: {text}");
        }
    }
}

/// More example sets than the cache keeps: the oldest are dropped, answers stay right.
#[test]
fn cache_drops_old_example_sets_and_stays_correct() {
    use oxilearn::oracle::IndividualSet;
    let p = common::pair(&[common::repo_path("fixtures/family/family.ttl")]);
    let sig = p.signature();
    let cached = Cached::new(
        &p.sparql,
        CacheOptions {
            max_example_sets: 3,
            ..CacheOptions::default()
        },
    );
    let c = concept::parse(FATHER_LIKE, &sig.vocabulary()).unwrap();
    for round in 0..2 {
        for id in sig.all_individuals().iter() {
            let among = IndividualSet::from_ids(sig.individual_count(), [id]);
            assert_eq!(
                cached.covered(&c, &among).unwrap(),
                p.reference.covered(&c, &among).unwrap(),
                "round {round}, individual {id:?}"
            );
        }
    }
}

const FATHER_LIKE: &str = "Male and (hasChild some Thing)";

//! The three-valued (open-world) rules, one check per rule, on a tiny KB whose answers are
//! computed by hand. Every oracle (SPARQL, cached, reference) must give exactly these sets.

use crate::common;

use oxigraph::io::RdfFormat;
use oxilearn::concept;
use oxilearn::oracle::{CacheOptions, Cached, MembershipOracle};

const KB: &str = r#"
@prefix : <http://ex.org/#> .
@prefix owl: <http://www.w3.org/2002/07/owl#> .
@prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .
@prefix xsd: <http://www.w3.org/2001/XMLSchema#> .
:Person a owl:Class ; owl:disjointWith :Animal .
:Man rdfs:subClassOf :Person .
:Dog rdfs:subClassOf :Animal .
:Inanimate owl:complementOf :Animal .
:hasPet a owl:ObjectProperty ; rdfs:domain :Person ; rdfs:range :Animal .
:hasMother a owl:ObjectProperty , owl:FunctionalProperty .
:age a owl:DatatypeProperty , owl:FunctionalProperty .
:ann a :Person ; :hasPet :rex ; :hasMother :beth ; :age 30 .
:beth a :Person .
:bob a :Man ; :hasMother :carol .
:carol a :Person .
:rex a :Dog .
:felix a :Animal .
:tom :hasPet :felix .
:zoe :hasPet :rex , :felix .
:rock a :Inanimate .
"#;

const ALL: &[&str] = &[
    "ann", "beth", "bob", "carol", "felix", "rex", "rock", "tom", "zoe",
];

/// (concept, T(C), F(C)); `*` stands for every individual, `-x` for all but x.
const CHECKS: &[(&str, &str, &str)] = &[
    // atoms: T via hierarchy, F via disjointness of the class or a superclass
    ("Person", "ann beth bob carol", "felix rex"),
    ("Man", "bob", "felix rex"),
    ("Animal", "felix rex", "ann beth bob carol rock"),
    ("Inanimate", "rock", "felix rex"),
    ("Thing", "*", ""),
    ("Nothing", "", "*"),
    // ¬, ⊓, ⊔ (Kleene)
    ("not Person", "felix rex", "ann beth bob carol"),
    ("Person and Man", "bob", "felix rex"),
    ("Person or Animal", "ann beth bob carol felix rex", ""),
    // ∃: T by a successor in T(C); F outside the domain, or functional with a successor in F(C)
    ("hasPet some Dog", "ann zoe", "felix rex"),
    ("hasPet some Thing", "ann tom zoe", "felix rex"),
    ("hasMother some Dog", "", "ann bob"),
    // ∀: T outside the domain, or functional with the successor in T(C); F a successor in F(C)
    ("hasPet only Dog", "felix rex", ""),
    ("hasMother only Person", "ann bob", ""),
    ("hasPet only Person", "felix rex", "ann tom zoe"),
    // cardinalities (unique names)
    ("hasPet min 2 Animal", "zoe", "felix rex"),
    ("hasMother min 2 Thing", "", "*"),
    ("hasPet max 1 Animal", "felix rex", "zoe"),
    ("hasMother max 1 Thing", "*", ""),
    ("hasPet max 0 Thing", "felix rex", "ann tom zoe"),
    ("hasMother exactly 1 Person", "ann bob", ""),
    // hasValue, nominals, Self
    ("hasMother value beth", "ann", "bob"),
    ("{ann}", "ann", "-ann"),
    ("hasPet Self", "", "felix rex"),
    // data: T has a value in range; F functional with values none of which is in range
    ("age some xsd:integer[>= 18]", "ann", ""),
    ("age some xsd:integer[>= 40]", "", "ann"),
];

fn names(spec: &str) -> Vec<String> {
    let list: Vec<&str> = match spec {
        "*" => ALL.to_vec(),
        s if s.starts_with('-') => ALL.iter().copied().filter(|x| *x != &s[1..]).collect(),
        s => s.split_whitespace().collect(),
    };
    let mut v: Vec<String> = list.iter().map(|x| format!("http://ex.org/#{x}")).collect();
    v.sort();
    v
}

#[test]
fn every_three_valued_rule_gives_the_hand_computed_sets() {
    let common::Pair {
        sparql, reference, ..
    } = common::pair_of_text(RdfFormat::Turtle, KB);
    let sig = sparql.shared_signature();
    assert_eq!(
        sig.individuals.len(),
        ALL.len(),
        "active domain: {:?}",
        sig.individuals
    );
    let cached = Cached::new(&sparql, CacheOptions::default());
    let vocab = sig.vocabulary();
    let all = sig.all_individuals();
    let mut failures = Vec::new();
    for (text, t, f) in CHECKS {
        let c = concept::parse(text, &vocab).unwrap_or_else(|e| panic!("{text}: {e}"));
        for (name, oracle) in [
            ("sparql", &sparql as &dyn MembershipOracle),
            ("cached", &cached),
            ("reference", &reference),
        ] {
            let truth = oracle.truth(&c, &all).unwrap();
            let got_t: Vec<String> = sig
                .iris_of(&truth.true_set)
                .map(|i| i.to_string())
                .collect();
            let got_f: Vec<String> = sig
                .iris_of(&truth.false_set)
                .map(|i| i.to_string())
                .collect();
            if got_t != names(t) || got_f != names(f) {
                failures.push(format!(
                    "{name}: {text}\n  T want {:?} got {got_t:?}\n  F want {:?} got {got_f:?}",
                    names(t),
                    names(f)
                ));
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn unknown_is_what_is_neither_provable() {
    let common::Pair { sparql, .. } = common::pair_of_text(RdfFormat::Turtle, KB);
    let sig = sparql.shared_signature();
    let c = concept::parse("Person", &sig.vocabulary()).unwrap();
    let all = sig.all_individuals();
    let truth = sparql.truth(&c, &all).unwrap();
    let unknown: Vec<String> = sig
        .iris_of(&truth.unknown(&all))
        .map(|i| i.to_string())
        .collect();
    assert_eq!(unknown, names("rock tom zoe"));
}

/// Data in named graphs (a TriG file) is part of the KB, for SPARQL and the reference alike.
#[test]
fn named_graphs_are_part_of_the_knowledge_base() {
    let trig = r#"
        @prefix : <http://ex.org/#> .
        @prefix owl: <http://www.w3.org/2002/07/owl#> .
        :g1 { :Person a owl:Class . :ann a :Person . }
        :g2 { :bob a :Person ; :knows :ann . :knows a owl:ObjectProperty . }
    "#;
    let common::Pair {
        sparql, reference, ..
    } = common::pair_of_text(RdfFormat::TriG, trig);
    let sig = sparql.shared_signature();
    assert_eq!(sig.individuals.len(), 2, "{:?}", sig.individuals);
    let all = sig.all_individuals();
    for text in ["Person", "knows some Person", "not (knows some Thing)"] {
        let c = concept::parse(text, &sig.vocabulary()).unwrap();
        let a = sparql.covered(&c, &all).unwrap();
        assert_eq!(a, reference.covered(&c, &all).unwrap(), "{text}");
        assert!(!a.is_empty(), "{text}");
    }
}

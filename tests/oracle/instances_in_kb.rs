//! `instances` over the whole KB without interning it (issue 9 §1): the store lists the
//! candidates of a concept from a seed pattern of the concept itself, under a signature that
//! holds no individuals, their membership is asked page by page, and the answer equals
//! `covered` over the whole active domain — for every constructor, negation, `∀` and `≤n`
//! (which need the whole domain) included, whatever the page size.

use crate::common;

use std::collections::BTreeSet;
use std::path::Path;

use oxilearn::concept::{Concept, DataRange, Iri, Literal, Role};
use oxilearn::oracle::backend::EmbeddedBackend;
use oxilearn::oracle::{IndividualScope, MembershipOracle, OracleOptions, ScopeKind, SparqlOracle};
use oxilearn::refine::random::{RandomConcepts, RandomOptions};

use common::{repo_path, shared_dataset, store_of};

fn oracle(store: &oxigraph::store::Store, scope: IndividualScope) -> SparqlOracle<EmbeddedBackend> {
    let options = OracleOptions {
        scope,
        ..OracleOptions::default()
    };
    SparqlOracle::new(EmbeddedBackend::new(store.clone()), options).expect("signature")
}

/// The members of `c` both ways; returns how many there were.
fn same_instances(
    whole: &SparqlOracle<EmbeddedBackend>,
    schema: &SparqlOracle<EmbeddedBackend>,
    c: &Concept,
    page: usize,
) -> usize {
    let all = whole.signature_ref().all_individuals();
    let expected: BTreeSet<String> = whole
        .signature_ref()
        .iris_of(&whole.covered(c, &all).expect("covered"))
        .map(|i| i.as_str().to_owned())
        .collect();
    let listed = schema
        .instances_in_kb(c, None, page)
        .expect("instances_in_kb");
    let got: BTreeSet<String> = listed.iter().map(|i| i.as_str().to_owned()).collect();
    assert_eq!(got.len(), listed.len(), "no duplicates: {c:?}");
    assert_eq!(got, expected, "{c:?}");
    expected.len()
}

fn random_concepts_list_the_same_instances(kb: &Path, concepts: usize, page: usize) {
    let store = store_of(&[kb.to_path_buf()]);
    let whole = oracle(&store, IndividualScope::ActiveDomain);
    let schema = oracle(&store, IndividualScope::Schema);
    assert_eq!(schema.signature_ref().scope.kind, ScopeKind::Schema);
    assert_eq!(schema.signature_ref().individual_count(), 0);
    let mut generator = RandomConcepts::new(whole.signature_ref(), 11, RandomOptions::default());
    let mut non_empty = 0;
    for _ in 0..concepts {
        let c = generator.concept();
        if same_instances(&whole, &schema, &c, page) > 0 {
            non_empty += 1;
        }
    }
    assert!(
        non_empty * 4 >= concepts,
        "only {non_empty} of {concepts} concepts had instances: the check says little"
    );
}

#[test]
fn family_fixture_lists_the_same_instances_as_the_active_domain() {
    random_concepts_list_the_same_instances(&repo_path("fixtures/family/family.ttl"), 300, 7);
}

#[test]
fn trains_fixture_lists_the_same_instances_as_the_active_domain() {
    random_concepts_list_the_same_instances(&repo_path("fixtures/trains/trains.ttl"), 300, 7);
}

#[test]
fn carcinogenesis_lists_the_same_instances_as_the_active_domain() {
    let Some(dir) = shared_dataset("carcinogenesis") else {
        return;
    };
    random_concepts_list_the_same_instances(&dir.join("carcinogenesis.nt.gz"), 20, 5000);
}

/// A store holding the Turtle `text`.
fn turtle_store(text: &str) -> oxigraph::store::Store {
    let store = oxigraph::store::Store::new().unwrap();
    store
        .load_from_reader(oxigraph::io::RdfFormat::Turtle, text.as_bytes())
        .unwrap();
    store
}

/// An IRI of the hand-written KBs below.
fn e(local: &str) -> Iri {
    Iri::new(format!("http://e.org/{local}"))
}

/// Each seed kind, and the constructors without one, on a KB small enough to read.
#[test]
fn every_seed_kind_and_the_whole_domain_cases() {
    let store = turtle_store(
        r#"@prefix : <http://e.org/> .
               @prefix owl: <http://www.w3.org/2002/07/owl#> .
               @prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .
               :Person a owl:Class . :Parent rdfs:subClassOf :Person .
               :hasChild a owl:ObjectProperty . :age a owl:DatatypeProperty .
               :ann a :Parent ; :hasChild :bob ; :age 40 .
               :bob a :Person .
               :carl :hasChild :dora .
               :eve :age 30 .
               :fay a owl:NamedIndividual ."#,
    );
    let whole = oracle(&store, IndividualScope::ActiveDomain);
    let schema = oracle(&store, IndividualScope::Schema);
    let class = |s: &str| Concept::Class(e(s));
    let has_child = Role::new(e("hasChild"));
    let names = |c: &Concept| -> Vec<String> {
        schema
            .instances_in_kb(c, None, 3)
            .unwrap()
            .iter()
            .map(|i| i.as_str().trim_start_matches("http://e.org/").to_owned())
            .collect()
    };
    // A class seeds from the typings of its implying types.
    assert_eq!(names(&class("Person")), ["ann", "bob"]);
    // ∃r.⊤ seeds from the role's subjects; ⊤ and ¬C need the active domain (eve has only a
    // data value: not in the active domain, as `covered` over the interned universe says).
    let some_child = Concept::Some {
        role: has_child.clone(),
        filler: Box::new(Concept::Top),
    };
    assert_eq!(names(&some_child), ["ann", "carl"]);
    assert_eq!(names(&Concept::Top), ["ann", "bob", "carl", "dora", "fay"]);
    assert_eq!(
        names(&Concept::Not(Box::new(class("Person")))),
        ["carl", "dora", "fay"]
    );
    // A data restriction's subjects are checked against the active domain.
    let aged = |years: i64| Concept::Data {
        property: e("age"),
        range: DataRange::Value(Literal::integer(years)),
    };
    assert_eq!(names(&aged(40)), ["ann"]);
    assert!(
        names(&aged(30)).is_empty(),
        "eve is outside the active domain"
    );
    // Nominals too: an IRI outside the active domain is not listed.
    let one_of = Concept::OneOf(vec![e("bob"), e("eve"), e("nobody")]);
    assert_eq!(names(&one_of), ["bob"]);
    // ∀ holds vacuously for every individual without successors.
    let only = Concept::Only {
        role: has_child,
        filler: Box::new(class("Person")),
    };
    assert_eq!(names(&only), ["ann", "bob", "dora", "fay"]);
    for c in [
        class("Person"),
        some_child,
        Concept::Top,
        aged(40),
        aged(30),
        one_of,
        only,
    ] {
        same_instances(&whole, &schema, &c, 2);
    }
    // A limit bounds the rows the store returns.
    assert_eq!(
        schema
            .instances_in_kb(&Concept::Top, Some(2), 1)
            .unwrap()
            .len(),
        2
    );
}

/// The listing signature reads the schema only: a property the data uses but the schema
/// never declares is still a role where a concept names it (its ends count as individuals),
/// but individuals known only through such properties are not in the domain of `⊤` or `¬C`.
#[test]
fn undeclared_properties_count_where_a_concept_names_them() {
    let store = turtle_store(
        r#"@prefix : <http://e.org/> .
               @prefix owl: <http://www.w3.org/2002/07/owl#> .
               :Person a owl:Class .
               :ann a :Person .
               :gus :likes :hal ."#,
    );
    let schema = oracle(&store, IndividualScope::Schema);
    let whole = oracle(&store, IndividualScope::ActiveDomain);
    let likes = |filler: Concept| Concept::Some {
        role: Role::new(e("likes")),
        filler: Box::new(filler),
    };
    let inverse_likes = Concept::Some {
        role: Role::inverse_of(e("likes")),
        filler: Box::new(Concept::Top),
    };
    for c in [
        likes(Concept::Top),
        inverse_likes,
        likes(Concept::Not(Box::new(Concept::Class(e("Person"))))),
    ] {
        same_instances(&whole, &schema, &c, 1);
    }
    let top: Vec<_> = schema
        .instances_in_kb(&Concept::Top, None, 10)
        .unwrap()
        .iter()
        .map(|i| i.as_str().to_owned())
        .collect();
    assert_eq!(top, ["http://e.org/ann"]);
}

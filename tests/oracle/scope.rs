//! The examples' neighbourhood (issue 9 §1): a learning run's signature reads the examples
//! and what they reach, and no answer about an example changes. Checked against the
//! whole-KB signature on the bundled fixtures and, when present, carcinogenesis (numbers).

use crate::common;

use std::collections::BTreeSet;
use std::path::Path;

use oxilearn::concept::{Concept, Iri};
use oxilearn::learn::splits;
use oxilearn::oracle::backend::EmbeddedBackend;
use oxilearn::oracle::sparql::ClassAtoms;
use oxilearn::oracle::{
    IndividualScope, IndividualSet, MembershipOracle, Neighbourhood, OracleOptions, ScopeKind,
    SparqlOracle,
};
use oxilearn::problem::load_problems;
use oxilearn::refine::random::{RandomConcepts, RandomOptions};

use common::{repo_path, shared_dataset, store_of};

fn seeds(problems: &Path) -> Vec<Iri> {
    load_problems(problems)
        .expect("problems")
        .iter()
        .flat_map(|p| p.positives.iter().chain(&p.negatives))
        .map(|s| Iri::new(s.as_str()))
        .collect()
}

fn oracle(store: &oxigraph::store::Store, scope: IndividualScope) -> SparqlOracle<EmbeddedBackend> {
    let options = OracleOptions {
        scope,
        ..OracleOptions::default()
    };
    SparqlOracle::new(EmbeddedBackend::new(store.clone()), options).expect("signature")
}

fn iris(o: &SparqlOracle<EmbeddedBackend>, set: &IndividualSet) -> BTreeSet<String> {
    o.signature_ref()
        .iris_of(set)
        .map(|i| i.as_str().to_owned())
        .collect()
}

fn set_of(o: &SparqlOracle<EmbeddedBackend>, seeds: &[Iri]) -> IndividualSet {
    o.signature_ref()
        .set_of(seeds.iter().map(|i| i.as_str()))
        .expect("every seed is an individual")
}

/// Random concepts (every constructor, nominals and data restrictions included) have the
/// same members among the examples, closed and three-valued, under both signatures.
fn same_answers_on_the_examples(kb: &Path, problems: &Path, concepts: usize) {
    let store = store_of(&[kb.to_path_buf()]);
    let seeds = seeds(problems);
    let whole = oracle(&store, IndividualScope::ActiveDomain);
    let scoped = oracle(
        &store,
        IndividualScope::Neighbourhood(Neighbourhood::of(seeds.clone())),
    );
    let (whole_ex, scoped_ex) = (set_of(&whole, &seeds), set_of(&scoped, &seeds));
    let scope = &scoped.signature_ref().scope;
    assert_eq!(scope.kind, ScopeKind::Neighbourhood);
    assert!(!scope.truncated);
    // The neighbourhood is part of the active domain.
    let whole_universe = iris(&whole, &whole.signature_ref().all_individuals());
    let scoped_universe = iris(&scoped, &scoped.signature_ref().all_individuals());
    assert!(scoped_universe.is_subset(&whole_universe));
    let mut generator = RandomConcepts::new(scoped.signature_ref(), 7, RandomOptions::default());
    for _ in 0..concepts {
        let c = generator.concept();
        let a = whole.covered(&c, &whole_ex).expect("whole");
        let b = scoped.covered(&c, &scoped_ex).expect("scoped");
        assert_eq!(iris(&whole, &a), iris(&scoped, &b), "{c:?}");
        let ta = whole.truth(&c, &whole_ex).expect("whole truth");
        let tb = scoped.truth(&c, &scoped_ex).expect("scoped truth");
        assert_eq!(
            iris(&whole, &ta.false_set),
            iris(&scoped, &tb.false_set),
            "F({c:?})"
        );
        assert_eq!(
            iris(&whole, &ta.true_set),
            iris(&scoped, &tb.true_set),
            "T({c:?})"
        );
    }
}

/// Class atoms over the neighbourhood come from the typings read with the signature: no
/// query, and the members the path-form query gives, for every class over the whole scope.
fn class_atoms_from_typings_match_queries(kb: &Path, problems: &Path) {
    let store = store_of(&[kb.to_path_buf()]);
    let scope = IndividualScope::Neighbourhood(Neighbourhood::of(seeds(problems)));
    let local = oracle(&store, scope.clone());
    let asked = SparqlOracle::new(
        EmbeddedBackend::new(store.clone()),
        OracleOptions {
            scope,
            class_atoms: ClassAtoms::Path,
            ..OracleOptions::default()
        },
    )
    .expect("signature");
    let sig = local.signature_ref();
    assert!(sig.asserted_types.as_ref().is_some_and(|t| !t.is_empty()));
    let all = sig.all_individuals();
    let before = local.stats().queries_sent;
    let mut nonempty = 0;
    for class in &sig.classes {
        let c = Concept::Class(class.clone());
        let from_typings = local.covered(&c, &all).expect("typings");
        let from_query = asked.covered(&c, &all).expect("query");
        assert_eq!(from_typings, from_query, "{class:?}");
        nonempty += usize::from(!from_typings.is_empty());
    }
    assert_eq!(
        local.stats().queries_sent,
        before,
        "class atoms sent queries"
    );
    assert!(
        nonempty > 3,
        "only {nonempty} classes have members in the scope"
    );
}

#[test]
fn class_atoms_over_the_neighbourhood_need_no_query() {
    class_atoms_from_typings_match_queries(
        &repo_path("fixtures/family/family.ttl"),
        &repo_path("fixtures/family/problems.json"),
    );
    class_atoms_from_typings_match_queries(
        &repo_path("fixtures/trains/trains.ttl"),
        &repo_path("fixtures/trains/problems.json"),
    );
}

#[test]
fn family_fixture_answers_the_same_over_the_neighbourhood() {
    same_answers_on_the_examples(
        &repo_path("fixtures/family/family.ttl"),
        &repo_path("fixtures/family/problems.json"),
        300,
    );
}

#[test]
fn trains_fixture_answers_the_same_over_the_neighbourhood() {
    let problems = repo_path("fixtures/trains/problems.json");
    if !problems.exists() {
        panic!("{} is missing", problems.display());
    }
    same_answers_on_the_examples(&repo_path("fixtures/trains/trains.ttl"), &problems, 300);
}

#[test]
fn carcinogenesis_split_points_and_answers_over_the_neighbourhood() {
    let Some(dir) = shared_dataset("carcinogenesis") else {
        return;
    };
    let (kb, lp) = (dir.join("carcinogenesis.nt.gz"), dir.join("lp.json"));
    same_answers_on_the_examples(&kb, &lp, 60);
    // Split points are read from the values the examples reach (atoms' charges through
    // hasAtom): every numeric property of the whole KB reachable in two steps keeps splits.
    let store = store_of(&[kb]);
    let scoped = oracle(
        &store,
        IndividualScope::Neighbourhood(Neighbourhood::of(seeds(&lp))),
    );
    let all = scoped.signature_ref().all_individuals();
    let values = splits::numeric_values(&scoped, &all).expect("values");
    let charge = Iri::new("http://dl-learner.org/carcinogenesis#charge");
    let n = values.get(&charge).map_or(0, |v| v.len());
    assert!(n > 1000, "{n} charge values reached from the examples");
}

#[test]
fn the_walk_keeps_to_its_depth_and_limit_and_skips_absent_seeds() {
    let store = store_of(&[repo_path("fixtures/family/family.ttl")]);
    let mut seeds = seeds(&repo_path("fixtures/family/problems.json"));
    seeds.truncate(3);
    let absent = Iri::new("http://example.org/not-in-the-kb");
    let mut n = Neighbourhood::of(seeds.iter().cloned().chain([absent.clone()]));
    n.depth = 0;
    let zero = oracle(&store, IndividualScope::Neighbourhood(n.clone()));
    let universe = iris(&zero, &zero.signature_ref().all_individuals());
    let expected: BTreeSet<String> = seeds.iter().map(|s| s.as_str().to_owned()).collect();
    assert_eq!(universe, expected, "depth 0 is the seeds that occur");
    assert_eq!(zero.signature_ref().scope.seeds, 4);
    assert_eq!(zero.signature_ref().scope.seeds_found, 3);
    assert!(
        zero.signature_ref()
            .individual_id(absent.as_str())
            .is_none()
    );

    n.depth = 2;
    let two = oracle(&store, IndividualScope::Neighbourhood(n.clone()));
    let wider = two.signature_ref().individual_count();
    assert!(wider > 3, "the walk reached nothing: {wider}");
    n.max_individuals = 4;
    let capped = oracle(&store, IndividualScope::Neighbourhood(n));
    assert!(capped.signature_ref().scope.truncated);
    assert!(capped.signature_ref().individual_count() <= 4);
}

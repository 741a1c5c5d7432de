//! Forest Mixing end to end over the embedded store: mixing joins what two trees found
//! (a hand-made university KB), the shared pool caps what a tree takes per turn and lets
//! trees adopt each other's refinements, family definitions are found exactly, a test
//! budget makes runs deterministic, and saved models load back and predict the same. CELOE's
//! mixing of partial solutions and its validation split work in the forest as well.

use crate::common;

use std::sync::Arc;

use common::{repo_path, shared_dataset, store_of};
use oxilearn::concept::{Concept, Vocabulary, length, normalize, parse};
use oxilearn::learn::document::{from_json, to_json};
use oxilearn::learn::forest::{ForestMixing, ForestParams, ForestRun};
use oxilearn::learn::{Examples, Learner, RunControl, Termination, TrainingSet, splits};
use oxilearn::oracle::backend::EmbeddedBackend;
use oxilearn::oracle::{
    CacheOptions, Cached, MembershipOracle, OracleOptions, Signature, SparqlOracle,
};
use oxilearn::problem::{LearningProblem, load_problems};
use oxilearn::refine::rho::{Rho, RhoOptions};

type Oracle = Cached<SparqlOracle<EmbeddedBackend>>;

struct Kb {
    oracle: Oracle,
    signature: Arc<Signature>,
    vocabulary: Vocabulary,
    rho: Rho,
}

fn kb_of(store: oxigraph::store::Store) -> Kb {
    let sparql = SparqlOracle::new(EmbeddedBackend::new(store), OracleOptions::default())
        .expect("signature loads");
    let signature = sparql.shared_signature();
    let vocabulary = signature.vocabulary();
    let oracle = Cached::new(sparql, CacheOptions::default());
    let rho = splits::rho_over_kb(&oracle, signature.clone(), RhoOptions::default()).unwrap();
    Kb {
        oracle,
        signature,
        vocabulary,
        rho,
    }
}

fn kb(files: &[std::path::PathBuf]) -> Kb {
    kb_of(store_of(files))
}

fn examples(kb: &Kb, p: &LearningProblem) -> Examples {
    let s = &kb.signature;
    Examples::new(
        s.set_of(p.positives.iter().map(String::as_str)).unwrap(),
        s.set_of(p.negatives.iter().map(String::as_str)).unwrap(),
    )
    .unwrap()
}

fn problem(path: &std::path::Path, name: &str) -> LearningProblem {
    load_problems(path)
        .unwrap()
        .into_iter()
        .find(|p| p.name == name)
        .unwrap_or_else(|| panic!("no problem {name} in {}", path.display()))
}

fn learn(kb: &Kb, ex: &Examples, params: ForestParams, tests: u64) -> ForestRun {
    ForestMixing::new(params, &kb.rho)
        .unwrap()
        .run(&kb.oracle, ex, &RunControl::default().with_max_tests(tests))
        .unwrap()
}

fn detail(run: &ForestRun, name: &str) -> u64 {
    run.stats.details[name]
        .as_u64()
        .unwrap_or_else(|| panic!("no {name} in {:?}", run.stats.details))
}

fn family_fixture() -> (Kb, std::path::PathBuf) {
    (
        kb(&[repo_path("fixtures/family/family.ttl")]),
        repo_path("fixtures/family/problems.json"),
    )
}

/// Students, employees and people who are both; the positives are those who are both.
const UNIVERSITY: &str = r#"
@prefix : <http://example.org/uni#> .
@prefix owl: <http://www.w3.org/2002/07/owl#> .
@prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .
:Person a owl:Class .
:Student a owl:Class ; rdfs:subClassOf :Person .
:Employee a owl:Class ; rdfs:subClassOf :Person .
:s1 a :Student . :s2 a :Student . :s3 a :Student .
:e1 a :Employee . :e2 a :Employee . :e3 a :Employee .
:b1 a :Student , :Employee . :b2 a :Student , :Employee . :b3 a :Student , :Employee .
"#;

fn university() -> (Kb, Examples) {
    let store = oxigraph::store::Store::new().unwrap();
    store
        .load_from_reader(oxigraph::io::RdfFormat::Turtle, UNIVERSITY.as_bytes())
        .unwrap();
    let kb = kb_of(store);
    let set = |names: &[&str]| {
        let iris: Vec<String> = names
            .iter()
            .map(|n| format!("http://example.org/uni#{n}"))
            .collect();
        kb.signature
            .set_of(iris.iter().map(String::as_str))
            .unwrap()
    };
    let ex = Examples::new(
        set(&["b1", "b2", "b3"]),
        set(&["s1", "s2", "s3", "e1", "e2", "e3"]),
    )
    .unwrap();
    (kb, ex)
}

#[test]
fn mixing_conjoins_the_best_of_an_earlier_tree_and_finds_the_target_at_once() {
    let (kb, ex) = university();
    let start = |name: &str| parse(name, &kb.vocabulary).unwrap();
    let params = ForestParams {
        start_classes: vec![start("Student"), start("Employee")],
        ..ForestParams::default()
    };
    let run = learn(&kb, &ex, params.clone(), 1_000);
    let best = run.model.0.best().expect("a solution");
    let target = normalize(&parse("Student and Employee", &kb.vocabulary).unwrap());
    assert_eq!(best.concept, target);
    assert_eq!(best.confusion.f1(), 1.0);
    assert_eq!(run.stats.termination, Termination::PerfectSolution);
    // Tree 0 expands Student (nothing new at length 1), tree 1 expands Employee and mixes
    // it with tree 0's best, Student: the third test is the target.
    assert_eq!(detail(&run, "trees"), 2);
    assert_eq!(detail(&run, "mixed_tested"), 1);
    assert_eq!(detail(&run, "expansions_to_best"), 2);
    assert_eq!(detail(&run, "tests_to_best"), 3);
    // Without mixing (conjunctions longer than 2 refused), refinement alone takes more
    // expansions.
    let unmixed = learn(
        &kb,
        &ex,
        ForestParams {
            max_mix_length: 2,
            ..params
        },
        1_000,
    );
    assert_eq!(detail(&unmixed, "mixed_tested"), 0);
    assert_eq!(unmixed.model.0.best().unwrap().confusion.f1(), 1.0);
    // (Student's refinements reach Student ⊓ Employee at length 3, on its third expansion.)
    assert_eq!(
        detail(&unmixed, "expansions_to_best"),
        5,
        "{:?}",
        unmixed.stats
    );
}

#[test]
fn computed_start_classes_are_the_most_specific_covering_ones() {
    let (kb, ex) = university();
    let run = learn(&kb, &ex, ForestParams::default(), 1_000);
    // Student and Employee both cover every positive; Person covers them too but is an
    // ancestor, so it starts no tree.
    let starts: Vec<&str> = run.stats.details["start_classes"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_str().unwrap())
        .collect();
    assert_eq!(
        starts,
        [
            "<http://example.org/uni#Employee>",
            "<http://example.org/uni#Student>"
        ]
    );
    assert_eq!(run.model.0.best().unwrap().confusion.f1(), 1.0);
}

#[test]
fn the_shared_pool_caps_each_draw_and_trees_adopt_each_others_refinements() {
    let (kb, problems) = family_fixture();
    let ex = examples(&kb, &problem(&problems, "Uncle"));
    let params = ForestParams {
        start_classes: vec![Concept::Top, parse("Male", &kb.vocabulary).unwrap()],
        max_nodes_added_per_tree: 1,
        stop_on_perfect: false,
        ..ForestParams::default()
    };
    let run = learn(&kb, &ex, params, 400);
    let (nodes, turns) = (detail(&run, "nodes"), detail(&run, "turns"));
    // Two roots, then at most one expression per turn.
    assert!(nodes <= 2 + turns, "{nodes} nodes in {turns} turns");
    assert!(nodes > 2);
    // Refinements wait in the pool; some are taken by the tree that did not produce them.
    assert!(detail(&run, "pool_left") > 0);
    assert!(detail(&run, "adopted_from_other_trees") > 0);
    // A draw as large as the pool takes everything: nothing waits after a turn.
    let wide = learn(
        &kb,
        &ex,
        ForestParams {
            start_classes: vec![Concept::Top],
            max_nodes_added_per_tree: usize::MAX,
            stop_on_perfect: false,
            ..ForestParams::default()
        },
        400,
    );
    assert_eq!(detail(&wide, "pool_left"), 0);
}

#[test]
fn every_fixture_problem_gets_a_perfect_definition() {
    let (kb, problems) = family_fixture();
    for p in load_problems(&problems).unwrap() {
        let ex = examples(&kb, &p);
        let run = learn(&kb, &ex, ForestParams::default(), 20_000);
        let best = run.model.0.best().expect("a solution");
        assert_eq!(best.confusion.f1(), 1.0, "{}: {:?}", p.name, run.stats);
        let covered = kb.oracle.covered(&best.concept, ex.all()).unwrap();
        assert_eq!(ex.confusion(&covered), best.confusion, "{}", p.name);
    }
}

#[test]
fn family_grandfather_is_found_exactly() {
    let Some(dir) = shared_dataset("family") else {
        return;
    };
    let kb = kb(&[dir.join("family-benchmark_rich_background.owl")]);
    let ex = examples(&kb, &problem(&dir.join("lps.json"), "Grandfather"));
    let run = learn(&kb, &ex, ForestParams::default(), 5_000);
    let best = run.model.0.best().expect("a solution");
    assert_eq!(best.concept, parse("Grandfather", &kb.vocabulary).unwrap());
    assert_eq!(best.confusion.f1(), 1.0);
    assert_eq!(run.stats.termination, Termination::PerfectSolution);
}

#[test]
fn a_test_budget_makes_runs_deterministic_and_is_honoured() {
    let (kb, problems) = family_fixture();
    let ex = examples(&kb, &problem(&problems, "Uncle"));
    for heuristic in [
        oxilearn::learn::forest::ForestHeuristic::default(),
        oxilearn::learn::forest::ForestHeuristic::ht1(),
        oxilearn::learn::forest::ForestHeuristic::fh(),
    ] {
        let params = ForestParams {
            start_classes: vec![Concept::Top, parse("Male", &kb.vocabulary).unwrap()],
            stop_on_perfect: false,
            heuristic,
            ..ForestParams::default()
        };
        let first = learn(&kb, &ex, params.clone(), 300);
        assert_eq!(first.stats.concepts_tested, 300);
        assert_eq!(first.stats.termination, Termination::TestBudget);
        let (cold, _) = family_fixture();
        let second = learn(&cold, &ex, params.clone(), 300);
        assert_eq!(first.model, second.model, "{}", heuristic.name());
        // Everything but the clock is the same.
        let untimed = |run: &ForestRun| {
            let mut d = run.stats.details.clone();
            d.remove("ms_to_best");
            d
        };
        assert_eq!(untimed(&first), untimed(&second));
        assert!(first.model.0.solutions.len() > 1);
    }
}

#[test]
fn a_saved_model_loads_back_and_predicts_the_same() {
    let (kb, problems) = family_fixture();
    let ex = examples(&kb, &problem(&problems, "Uncle"));
    let learner = ForestMixing::new(ForestParams::default(), &kb.rho).unwrap();
    let training = TrainingSet::from_examples(ex);
    let run = learner
        .fit(
            &kb.oracle,
            &training,
            &RunControl::default().with_max_tests(5_000),
        )
        .unwrap();
    assert_eq!(run.model.algorithm(), "forest-mixing");
    let sig = &kb.signature;
    let text = to_json(run.model.as_ref(), learner.parameters(), Some("Uncle"), sig).unwrap();
    let loaded = from_json(&text, sig).expect("loads back");
    assert_eq!(loaded.header.algorithm, "forest-mixing");
    assert_eq!(loaded.header.parameters["trees"], 2);
    assert_eq!(loaded.model.algorithm(), "forest-mixing");
    assert_eq!(loaded.model.concept(), run.model.concept());
    let all = sig.all_individuals();
    assert_eq!(
        run.model.predict(&kb.oracle, &all).unwrap(),
        loaded.model.predict(&kb.oracle, &all).unwrap()
    );
}

/// CELOE's mixing of partial solutions runs in every tree: the positives are those who are
/// a student or an employee but not both, the negatives those who are both or neither. The
/// pool's mixes of short concepts (`Student ⊔ Employee` and `¬Student ⊔ ¬Employee`),
/// scored from their parts' members without a query, define them long before ρ's
/// refinements do: in a budget in which the search without the pool (the paper's mixing
/// only) finds no definition.
#[test]
fn partial_solutions_are_mixed_into_a_definition_no_tree_reached() {
    let store = oxigraph::store::Store::new().unwrap();
    let neither = ":p1 a :Person . :p2 a :Person . :p3 a :Person .";
    store
        .load_from_reader(
            oxigraph::io::RdfFormat::Turtle,
            format!("{UNIVERSITY}{neither}").as_bytes(),
        )
        .unwrap();
    let kb = kb_of(store);
    let set = |names: &[&str]| {
        let iris: Vec<String> = names
            .iter()
            .map(|n| format!("http://example.org/uni#{n}"))
            .collect();
        kb.signature
            .set_of(iris.iter().map(String::as_str))
            .unwrap()
    };
    let ex = Examples::new(
        set(&["s1", "s2", "s3", "e1", "e2", "e3"]),
        set(&["b1", "b2", "b3", "p1", "p2", "p3"]),
    )
    .unwrap();
    // ρ alone needs 61 tests (length 11); the mixes are there after 7.
    let budget = 40;
    let run = learn(&kb, &ex, ForestParams::default(), budget);
    let best = run.model.0.best().expect("a solution");
    let target = parse(
        "(Student or Employee) and (not Student or not Employee)",
        &kb.vocabulary,
    )
    .unwrap();
    assert_eq!(best.concept, normalize(&target));
    assert_eq!(best.confusion.f1(), 1.0);
    assert!(detail(&run, "mixes_kept") > 0);
    assert!(detail(&run, "tests_to_best") <= 10, "{:?}", run.stats);
    let unmixed = learn(
        &kb,
        &ex,
        ForestParams {
            mix_pool: 0,
            ..ForestParams::default()
        },
        budget,
    );
    assert!(unmixed.stats.details.get("mixes_kept").is_none());
    let unmixed_best = unmixed.model.0.best().unwrap();
    assert!(unmixed_best.quality < 1.0, "{unmixed_best:?}");
}

/// Without a perfect solution the validation split chooses the returned expression's
/// length, as CELOE's does (family Father with three labels swapped each way): the first
/// solution is no longer than the validated length and the best of the training solutions
/// that short; without the split, the best training quality is at least as high.
#[test]
fn an_imperfect_forest_returns_the_best_expression_of_the_validated_length() {
    let Some(dir) = shared_dataset("family") else {
        return;
    };
    let kb = kb(&[dir.join("family-benchmark_rich_background.owl")]);
    let mut p = problem(&dir.join("lps.json"), "Father");
    let (to_neg, to_pos): (Vec<String>, Vec<String>) = (
        p.positives.drain(..3).collect(),
        p.negatives.drain(..3).collect(),
    );
    p.positives.extend(to_pos);
    p.negatives.extend(to_neg);
    let ex = examples(&kb, &p);
    let run = learn(&kb, &ex, ForestParams::default(), 20_000);
    let v = &run.stats.details["validation"];
    let validated = v["length"].as_u64().expect("a validated length") as usize;
    let best = run.model.0.best().unwrap();
    assert!(best.quality < 1.0);
    assert!(length(&best.concept) <= validated, "{best:?} {v}");
    for s in &run.model.0.solutions[1..] {
        if length(&s.concept) <= length(&best.concept) {
            assert!(s.quality <= best.quality + 1e-12, "{s:?} beats {best:?}");
        }
    }
    assert_eq!(run.stats.concepts_tested, 20_000);
    let plain = learn(
        &kb,
        &ex,
        ForestParams {
            validation: None,
            ..ForestParams::default()
        },
        20_000,
    );
    assert!(plain.stats.details.get("validation").is_none());
    let top = plain.model.0.best().unwrap().quality;
    assert!(top >= best.quality, "{top} < {}", best.quality);
}

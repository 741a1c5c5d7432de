//! Fuzzy OWL-Boost end to end over a small KB written here: degrees through the cached
//! oracle agree with the first-principles reference (fuzzy and crisp concepts, both
//! t-norms), crisp concepts give the crisp oracle's answers, a fit is deterministic, keeps
//! queries per evaluated concept under 1, a saved model predicts the same after loading,
//! and the inner validation keeps a prefix of the rounds and picks a partition.

use crate::common;

use oxigraph::io::RdfFormat;
use oxilearn::concept::{Concept, DataRange, Iri, Literal, Role};
use oxilearn::learn::boost::reference::reference_degree;
use oxilearn::learn::boost::{
    BoostParams, DegreeEvaluator, FuzzyConcept, FuzzySet, OwlBoost, Shape, TNorm,
};
use oxilearn::learn::{Learner, RunControl, TrainingSet, document};
use oxilearn::oracle::{CacheOptions, Cached, IndividualSet, MembershipOracle};

const KB: &str = r#"
@prefix : <http://e/> .
@prefix owl: <http://www.w3.org/2002/07/owl#> .
@prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .
@prefix xsd: <http://www.w3.org/2001/XMLSchema#> .
:Person a owl:Class . :Male a owl:Class ; rdfs:subClassOf :Person .
:hasChild a owl:ObjectProperty . :hasAge a owl:DatatypeProperty . :smokes a owl:DatatypeProperty .
:a a :Male ; :hasAge 70 ; :smokes true ; :hasChild :b , :c .
:b a :Person ; :hasAge 40 ; :smokes false ; :hasChild :d .
:c a :Male ; :hasAge 45.5 ; :smokes true .
:d a :Person ; :hasAge "12"^^xsd:int ; :smokes false .
:e a :Male ; :hasAge 80 ; :smokes true ; :hasChild :f .
:f a :Person ; :hasAge 50 ; :smokes false ; :hasChild :g .
:g a :Male ; :hasAge 20 ; :smokes true .
:h a :Person ; :hasAge 65 ; :smokes false .
:i a :Male ; :hasAge 30 ; :smokes false ; :hasChild :h .
:j a :Person ; :smokes true .
"#;

fn iri(local: &str) -> Iri {
    Iri::new(format!("http://e/{local}"))
}

fn age(name: &str, shape: Shape) -> FuzzyConcept {
    FuzzyConcept::Fuzzy {
        property: iri("hasAge"),
        set: FuzzySet {
            name: name.to_owned(),
            shape,
        },
    }
}

fn old() -> FuzzyConcept {
    age("high", Shape::RightShoulder { a: 40.0, b: 70.0 })
}

fn middle() -> FuzzyConcept {
    age(
        "medium",
        Shape::Triangle {
            a: 20.0,
            b: 45.0,
            c: 70.0,
        },
    )
}

fn class(local: &str) -> FuzzyConcept {
    FuzzyConcept::Crisp(Concept::Class(iri(local)))
}

fn child() -> Role {
    Role::new(iri("hasChild"))
}

fn smokes(b: bool) -> FuzzyConcept {
    FuzzyConcept::Crisp(Concept::Data {
        property: iri("smokes"),
        range: DataRange::Value(Literal::boolean(b)),
    })
}

type Oracle = Cached<oxilearn::oracle::SparqlOracle<oxilearn::oracle::backend::EmbeddedBackend>>;

fn setup() -> (Oracle, common::Pair) {
    let pair = common::pair_of_text(RdfFormat::Turtle, KB);
    let again = common::pair_of_text(RdfFormat::Turtle, KB);
    (Cached::new(again.sparql, CacheOptions::default()), pair)
}

#[test]
fn degrees_through_the_cached_oracle_match_the_reference() {
    let (oracle, pair) = setup();
    let all = oracle.signature().all_individuals();
    let fuzzy_child = FuzzyConcept::Some {
        role: child(),
        filler: Box::new(old()),
    };
    let concepts = [
        old(),
        middle(),
        class("Male").and(&old()),
        middle().and(&smokes(true)),
        old().and(&middle()),
        fuzzy_child.clone(),
        FuzzyConcept::Some {
            role: child(),
            filler: Box::new(middle().and(&class("Male"))),
        },
        class("Person").and(&fuzzy_child),
    ];
    for t in [TNorm::Goedel, TNorm::Lukasiewicz] {
        let eval = DegreeEvaluator::new(&oracle, t);
        for c in &concepts {
            let got = eval.degrees(c, &all).expect("evaluates");
            for (id, d) in all.iter().zip(got.iter()) {
                let want = reference_degree(&pair.reference, t, c, id).expect("reference");
                assert!(
                    (d - want).abs() < 1e-12,
                    "{t:?} {} at {id:?}: {d} vs {want}",
                    c.key()
                );
            }
        }
    }
    // Hand values: c is 45.5, so old 5.5/30 and medium 24.5/25 = 0.98; a's children are b (40,
    // old 0) and c: ∃hasChild.old at a is c's degree.
    let eval = DegreeEvaluator::new(&oracle, TNorm::Goedel);
    let d = eval.degrees(&fuzzy_child, &all).unwrap();
    let a = oracle
        .signature()
        .individual_id("http://e/a")
        .unwrap()
        .index();
    assert!((d[a] - 5.5 / 30.0).abs() < 1e-12, "{}", d[a]);
    // Łukasiewicz: old ⊓ medium at c = max(0, 5.5/30 + 0.98 − 1).
    let luk = DegreeEvaluator::new(&oracle, TNorm::Lukasiewicz);
    let c = oracle
        .signature()
        .individual_id("http://e/c")
        .unwrap()
        .index();
    let both = luk.degrees(&old().and(&middle()), &all).unwrap();
    assert!((both[c] - (5.5 / 30.0 - 0.02)).abs() < 1e-12, "{}", both[c]);
    // j has no age: degree 0, not an error.
    let j = oracle
        .signature()
        .individual_id("http://e/j")
        .unwrap()
        .index();
    assert_eq!(eval.degrees(&old(), &all).unwrap()[j], 0.0);
}

#[test]
fn crisp_concepts_give_the_crisp_oracles_answers() {
    let (oracle, pair) = setup();
    let all = oracle.signature().all_individuals();
    let some_male = FuzzyConcept::Some {
        role: child(),
        filler: Box::new(class("Male")),
    };
    let concepts = [
        class("Male"),
        class("Person").and(&smokes(false)),
        some_male.clone(),
        FuzzyConcept::some(child(), class("Male")),
        FuzzyConcept::Some {
            role: child(),
            filler: Box::new(some_male.clone()),
        },
        class("Male").and(&FuzzyConcept::Crisp(Concept::HasValue {
            role: child(),
            individual: iri("f"),
        })),
    ];
    for t in [TNorm::Goedel, TNorm::Lukasiewicz] {
        let eval = DegreeEvaluator::new(&oracle, t);
        for c in &concepts {
            let crisp = c.to_crisp().expect("crisp");
            let got = eval.degrees(c, &all).unwrap();
            assert!(got.iter().all(|d| *d == 0.0 || *d == 1.0), "{}", c.key());
            let members = IndividualSet::from_ids(
                all.universe(),
                all.iter()
                    .zip(got.iter())
                    .filter(|(_, d)| **d == 1.0)
                    .map(|p| p.0),
            );
            assert_eq!(
                members,
                oracle.covered(&crisp, &all).unwrap(),
                "{}",
                c.key()
            );
            assert_eq!(members, pair.reference.covered(&crisp, &all).unwrap());
        }
    }
    // A non-trivial answer: a, e, i have a Male child... a (c), f has g: a, f.
    let eval = DegreeEvaluator::new(&oracle, TNorm::Goedel);
    let d = eval.degrees(&some_male, &all).unwrap();
    let names: Vec<&str> = all
        .iter()
        .zip(d.iter())
        .filter(|(_, d)| **d == 1.0)
        .map(|(id, _)| oracle.signature().individual_iri(id).unwrap().local_name())
        .collect();
    assert_eq!(names, ["a", "f"]);
}

fn problem(oracle: &Oracle) -> (IndividualSet, IndividualSet) {
    let sig = oracle.signature();
    let pos = sig
        .set_of(["http://e/a", "http://e/e", "http://e/h", "http://e/f"])
        .unwrap();
    let neg = sig
        .set_of([
            "http://e/b",
            "http://e/d",
            "http://e/g",
            "http://e/i",
            "http://e/j",
        ])
        .unwrap();
    (pos, neg)
}

#[test]
fn a_fit_is_deterministic_cheap_in_queries_and_survives_saving() {
    let params = BoostParams::default();
    let fit = || {
        let (oracle, _) = setup();
        let (pos, neg) = problem(&oracle);
        let training = TrainingSet::binary(pos.clone(), neg.clone()).unwrap();
        let learner = OwlBoost::new(params.clone()).unwrap();
        let run = learner
            .fit(&oracle, &training, &RunControl::default())
            .expect("fits");
        (oracle, pos.union(&neg), run)
    };
    let (oracle, examples, first) = fit();
    let (_, _, second) = fit();
    assert_eq!(first.model.body().unwrap(), second.model.body().unwrap());
    let s = &first.stats;
    assert!(s.concepts_tested > 0);
    assert!(
        (s.queries_sent as f64) < s.concepts_tested as f64,
        "{} queries for {} concepts",
        s.queries_sent,
        s.concepts_tested
    );
    // Old people are the positives here: the model separates the training examples.
    let preds = first.model.predict(&oracle, &examples).unwrap();
    let (pos, _) = problem(&oracle);
    for p in &preds {
        assert_eq!(p.member, pos.contains(p.individual), "{:?}", p);
        assert_eq!(p.member, p.degree.unwrap() > 0.0);
    }
    let text = document::to_json(
        first.model.as_ref(),
        OwlBoost::new(params).unwrap().parameters(),
        Some("old"),
        oracle.signature(),
    )
    .unwrap();
    let loaded = document::from_json(&text, oracle.signature()).unwrap();
    assert_eq!(loaded.header.algorithm, "owl-boost");
    assert_eq!(loaded.model.predict(&oracle, &examples).unwrap(), preds);
}

/// The inner validation (on a noisy problem, so boosting runs several rounds): the model
/// kept is the one of boosting's first T rounds, T the fewest rounds with the most held-out
/// examples right over the inner folds; with `fuzzy_sets: 0` the partition is the first of
/// 3, 5, 7 whose best count is the highest.
#[test]
fn inner_validation_keeps_a_prefix_of_the_rounds_and_picks_a_partition() {
    use oxilearn::learn::boost::validation::REPEATS;
    let (oracle, _) = setup();
    let sig = oracle.signature();
    let pos = sig
        .set_of([
            "http://e/a",
            "http://e/e",
            "http://e/h",
            "http://e/f",
            "http://e/i",
        ])
        .unwrap();
    let neg = sig
        .set_of([
            "http://e/b",
            "http://e/d",
            "http://e/g",
            "http://e/j",
            "http://e/c",
        ])
        .unwrap();
    let training = TrainingSet::binary(pos, neg).unwrap();
    let fit = |params: BoostParams| {
        OwlBoost::new(params)
            .unwrap()
            .run(&oracle, &training, &RunControl::default())
            .expect("fits")
    };
    let params = |fuzzy_sets, validation_folds| BoostParams {
        fuzzy_sets,
        validation_folds,
        ..BoostParams::default()
    };
    let (full, _) = fit(params(3, 0));
    let (cut, stats) = fit(params(3, 2));
    assert!(full.model.rounds.len() > 1, "{:?}", full.model.rounds);
    let curve: Vec<u64> = stats.details["validation_correct"]["3"]
        .as_array()
        .expect("a held-out count per number of rounds")
        .iter()
        .map(|v| v.as_u64().unwrap())
        .collect();
    assert_eq!(curve.len(), BoostParams::default().rounds);
    // Each example is held out once per dealing of the folds.
    assert!(curve.iter().all(|c| *c <= 10 * REPEATS), "{curve:?}");
    let max = *curve.iter().max().unwrap();
    let keep = curve.iter().position(|c| *c == max).unwrap() + 1;
    // Boosting is deterministic: the cut model is what `keep` rounds at most give (repeated
    // weak hypotheses merged in both).
    let (first_rounds, _) = fit(BoostParams {
        rounds: keep,
        ..params(3, 0)
    });
    assert_eq!(cut.model, first_rounds.model);
    assert!(cut.model.rounds.len() <= full.model.rounds.len());
    // The partition among 3, 5, 7 sets.
    let (chosen, stats) = fit(params(0, 2));
    let curves = stats.details["validation_correct"].as_object().unwrap();
    let best = |k: &str| {
        curves[k]
            .as_array()
            .unwrap()
            .iter()
            .map(|v| v.as_u64().unwrap())
            .max()
            .unwrap()
    };
    let top = ["3", "5", "7"].map(best).into_iter().max().unwrap();
    let first = ["3", "5", "7"]
        .into_iter()
        .find(|k| best(k) == top)
        .unwrap();
    assert_eq!(stats.details["fuzzy_sets"].to_string(), first);
    assert_eq!(fit(params(0, 2)).0.model, chosen.model, "deterministic");
    // Bad values are refused.
    assert!(OwlBoost::new(params(3, 1)).is_err());
    assert!(OwlBoost::new(params(4, 2)).is_err());
}

/// Sequential covering for a confidence-rated round: atom A covers positives 0 and 1, atom
/// B the third positive and both negatives (uniform weights). The paper's rule keeps B (it
/// covers a pending positive); the Z rule refuses it: Z = 2√(0.2·0.4) ≈ 0.57 with A alone,
/// 2√(0.6·0.4) ≈ 0.98 with A and B.
#[test]
fn sequential_covering_keeps_an_axiom_only_if_it_lowers_z() {
    use oxilearn::learn::boost::adaboost::Blocks;
    use oxilearn::learn::boost::wfoil::{AtomTable, Objective, WeakLimits, WeightedView, wfoil};
    let (oracle, _) = setup();
    let table = AtomTable {
        atoms: vec![class("Male"), class("Person")],
        degrees: vec![vec![1.0, 1.0, 0.0, 0.0, 0.0], vec![0.0, 0.0, 1.0, 1.0, 1.0]],
    };
    let target = [1.0, 1.0, 1.0, 0.0, 0.0];
    let weights = [0.2; 5];
    let view = WeightedView {
        target: &target,
        weights: &weights,
    };
    let limits = |objective| WeakLimits {
        theta: 0.7,
        max_negative_share: 0.0,
        max_axioms: 5,
        max_conjuncts: 3,
        cover_degree: 0.0,
        objective,
    };
    let clock = RunControl::default().start(&oracle);
    let mut tested = 0;
    let paper = wfoil(
        &table,
        view,
        TNorm::Goedel,
        limits(None),
        &clock,
        &mut tested,
    );
    assert_eq!(paper.hypothesis.axioms, [class("Male"), class("Person")]);
    let z = wfoil(
        &table,
        view,
        TNorm::Goedel,
        limits(Some(Objective::Z)),
        &clock,
        &mut tested,
    );
    assert_eq!(z.hypothesis.axioms, [class("Male")]);
    let labels = [1.0, 1.0, 1.0, -1.0, -1.0];
    let with_a = Blocks::of(&z.hypothesis.bed(5), &labels, &weights).z();
    assert!((with_a - 2.0 * 0.08f64.sqrt()).abs() < 1e-12, "{with_a}");
    let with_both = Blocks::of(&paper.hypothesis.bed(5), &labels, &weights).z();
    assert!(
        (with_both - 2.0 * 0.24f64.sqrt()).abs() < 1e-12,
        "{with_both}"
    );
    assert!((Objective::Z.of(&paper.hypothesis.bed(5), view, 0.0) - with_both).abs() < 1e-12);
}

/// A training set without negatives (or graded examples all above degree 0) is refused
/// with a clear error: every example would already be right and no round could be learned.
#[test]
fn training_without_negatives_is_refused() {
    let (oracle, _) = setup();
    let (pos, _) = problem(&oracle);
    let training = TrainingSet::binary(pos.clone(), IndividualSet::empty(pos.universe())).unwrap();
    let err = OwlBoost::new(BoostParams::default())
        .unwrap()
        .fit(&oracle, &training, &RunControl::default())
        .map(|_| ())
        .expect_err("refused");
    assert_eq!(
        err.to_string(),
        "the learning problem needs positive and negative examples (4 positive, 0 negative)"
    );
}

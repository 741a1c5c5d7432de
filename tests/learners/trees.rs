//! Terminological decision trees and random forests on a generated noise-free problem: the
//! class is decided by a link to one specific individual (a project) or an age threshold.
//! A tree reaches held-out accuracy 1.0 and its exported class expression has exactly the
//! target's instances; under closed-world semantics the export always agrees with the
//! tree's decisions, also with `∀r⁻.C` tests (true for every individual without
//! predecessors); fits are deterministic for a seed; models save, load and predict alike.

use oxilearn::concept::{Concept, Iri, Role, parse_manchester};
use oxilearn::learn::document::{from_json, to_json};
use oxilearn::learn::tdt::{Node, POSITIVE, Tdt, TdtParams, Tree, TreeModel};
use oxilearn::learn::trf::{Trf, TrfParams};
use oxilearn::learn::{Learner, Model, RunControl, TrainingSet};
use oxilearn::oracle::backend::EmbeddedBackend;
use oxilearn::oracle::{
    CacheOptions, Cached, IndividualSet, MembershipOracle, OracleOptions, Semantics, SparqlOracle,
};
use oxilearn::refine::rho::{Rho, RhoOptions};

const EX: &str = "http://example.org/trees#";
const PEOPLE: usize = 200;

/// People working on one or two of five projects, each with an age; some are `Senior`
/// (unrelated to the target), projects are led by people.
fn kb() -> String {
    let mut out = format!(
        "@prefix : <{EX}> . @prefix owl: <http://www.w3.org/2002/07/owl#> .\n\
         @prefix xsd: <http://www.w3.org/2001/XMLSchema#> .\n\
         :Person a owl:Class . :Project a owl:Class . :Senior a owl:Class .\n\
         :worksOn a owl:ObjectProperty . :leads a owl:ObjectProperty .\n\
         :age a owl:DatatypeProperty .\n"
    );
    for j in 0..5 {
        out.push_str(&format!(":proj{j} a :Project .\n"));
    }
    for i in 0..PEOPLE {
        let age = 20 + (i * 7) % 51;
        out.push_str(&format!(
            ":p{i} a :Person ; :age \"{age}\"^^xsd:integer ; :worksOn :proj{} .\n",
            (i * 3) % 5
        ));
        if i % 4 == 0 {
            out.push_str(&format!(":p{i} :worksOn :proj{} .\n", (i / 4) % 5));
        }
        if i % 3 == 0 {
            out.push_str(&format!(":p{i} a :Senior .\n"));
        }
        if i < 5 {
            out.push_str(&format!(":p{i} :leads :proj{i} .\n"));
        }
    }
    out
}

/// The target: works on proj2, or is at least 50.
fn target() -> String {
    format!("(<{EX}worksOn> value <{EX}proj2>) or (<{EX}age> some xsd:integer[>= 50])")
}

type Oracle = Cached<SparqlOracle<EmbeddedBackend>>;

fn oracle() -> Oracle {
    let store = oxigraph::store::Store::new().unwrap();
    store
        .load_from_reader(oxigraph::io::RdfFormat::Turtle, kb().as_bytes())
        .unwrap();
    let sparql = SparqlOracle::new(EmbeddedBackend::new(store), OracleOptions::default()).unwrap();
    Cached::new(sparql, CacheOptions::default())
}

fn person(o: &Oracle, i: usize) -> oxilearn::oracle::IndividualId {
    o.signature()
        .individual_id(&format!("{EX}p{i}"))
        .expect("a person")
}

/// Training: people with an even index below 160 and every odd one below 100; test: the rest.
fn split() -> (Vec<usize>, Vec<usize>) {
    (0..PEOPLE).partition(|i| (i % 2 == 0 && *i < 160) || (i % 2 == 1 && *i < 100))
}

fn set(o: &Oracle, people: &[usize]) -> IndividualSet {
    let n = o.signature().individual_count();
    IndividualSet::from_ids(n, people.iter().map(|&i| person(o, i)))
}

fn target_concept(o: &Oracle) -> Concept {
    parse_manchester(&target(), &o.signature().vocabulary()).expect("the target parses")
}

/// The binary training set of `people` labelled by the target.
fn binary(o: &Oracle, people: &[usize]) -> TrainingSet {
    let all = set(o, people);
    let pos = o.covered(&target_concept(o), &all).unwrap();
    TrainingSet::binary(pos.clone(), all.difference(&pos)).unwrap()
}

fn accuracy(o: &Oracle, model: &dyn Model, people: &[usize]) -> f64 {
    let all = set(o, people);
    let truth = o.covered(&target_concept(o), &all).unwrap();
    let p = model.predict(o, &all).unwrap();
    p.iter()
        .filter(|p| p.member == truth.contains(p.individual))
        .count() as f64
        / p.len() as f64
}

fn rho(o: &Oracle) -> Rho {
    Rho::new(
        std::sync::Arc::new(o.signature().clone()),
        RhoOptions::default(),
    )
}

#[test]
fn a_tree_learns_the_target_and_exports_exactly_its_instances() {
    let o = oracle();
    let (train, test) = split();
    let rho = rho(&o);
    let tdt = Tdt::new(TdtParams::default(), Some(&rho)).unwrap();
    let run = tdt
        .fit(&o, &binary(&o, &train), &RunControl::default())
        .expect("fits");
    assert_eq!(accuracy(&o, run.model.as_ref(), &test), 1.0);
    let exported = run
        .model
        .concept()
        .expect("a binary tree is a concept")
        .clone();
    let everyone = o.signature().all_individuals();
    assert_eq!(
        o.covered(&exported, &everyone).unwrap(),
        o.covered(&target_concept(&o), &everyone).unwrap(),
        "{exported:?}"
    );
    // The reported solution is the export, with its training counts.
    assert_eq!(run.solutions[0].concept, exported);
    assert_eq!(run.solutions[0].quality, 1.0);
}

#[test]
fn a_forest_learns_the_target_and_scores_by_votes() {
    let o = oracle();
    let (train, test) = split();
    let rho = rho(&o);
    let params = TrfParams {
        trees: 30,
        ..TrfParams::default()
    };
    let trf = Trf::new(params, Some(&rho)).unwrap();
    let run = trf
        .fit(&o, &binary(&o, &train), &RunControl::default())
        .unwrap();
    assert!(run.model.concept().is_none());
    let acc = accuracy(&o, run.model.as_ref(), &test);
    assert!(acc >= 0.95, "{acc}");
    let p = run.model.predict(&o, &set(&o, &test)).unwrap();
    for x in &p {
        let v = x.probability.expect("a vote share");
        assert!((0.0..=1.0).contains(&v));
        assert_eq!(x.member, v >= 0.5);
        // 30 trees: shares are multiples of 1/30.
        assert!(((v * 30.0) - (v * 30.0).round()).abs() < 1e-9, "{v}");
    }
    // Every predicted member lies in the support the model names.
    let support = run
        .model
        .support(None)
        .expect("a binary forest has a support");
    let within = o.covered(&support, &set(&o, &test)).unwrap();
    assert!(
        p.iter()
            .filter(|x| x.member)
            .all(|x| within.contains(x.individual))
    );
}

/// A hand-made tree over `∀worksOn⁻.Senior` (true for every person: nobody works on a
/// person) and `∀leads⁻.Senior`: the export's instances are the tree's positive decisions
/// over every individual of the KB, people and projects alike.
#[test]
fn the_export_equals_the_decisions_with_universal_inverse_tests() {
    let o = oracle();
    let v = o.signature().vocabulary();
    let inv =
        |p: &str, f: Concept| Concept::only(Role::inverse_of(Iri::new(format!("{EX}{p}"))), f);
    let tests = vec![
        inv("worksOn", Concept::class(Iri::new(format!("{EX}Senior")))),
        inv("leads", Concept::class(Iri::new(format!("{EX}Senior")))),
        inv("worksOn", Concept::Top),
        parse_manchester(&format!("<{EX}age> some xsd:integer[>= 40]"), &v).unwrap(),
    ];
    let leaf = |p: f64, n: f64| Node::Leaf {
        counts: if POSITIVE == 0 {
            vec![p, n]
        } else {
            vec![n, p]
        },
    };
    let split = |test, yes, no| Node::Split {
        test,
        yes,
        no,
        counts: vec![1.0, 1.0],
    };
    let tree = Tree {
        nodes: vec![
            split(0, 1, 6),
            split(1, 2, 5),
            split(3, 3, 4),
            leaf(3.0, 1.0),
            leaf(0.0, 2.0),
            leaf(2.0, 0.0),
            split(2, 7, 8),
            leaf(0.0, 1.0),
            leaf(1.0, 0.0),
        ],
    };
    let model = TreeModel::new(
        "tdt",
        vec!["positive".into(), "negative".into()],
        true,
        &tests,
        vec![tree],
        Semantics::Closed,
    );
    let everyone = o.signature().all_individuals();
    let decided: IndividualSet = IndividualSet::from_ids(
        everyone.universe(),
        model
            .predict(&o, &everyone)
            .unwrap()
            .into_iter()
            .filter(|p| p.member)
            .map(|p| p.individual),
    );
    let exported = model.concept().unwrap();
    assert_eq!(o.covered(exported, &everyone).unwrap(), decided);
    // Both sides of the root hold someone (people pass it; projects with a non-Senior
    // worker do not), so the check is not vacuous.
    assert!(!decided.is_empty() && decided.len() < everyone.len());
}

#[test]
fn fits_are_deterministic_for_a_seed_and_round_trip_through_the_document() {
    let o = oracle();
    let (train, _) = split();
    let training = binary(&o, &train);
    let rho = rho(&o);
    let sig = o.signature().clone();
    let everyone = sig.all_individuals();
    let learners: Vec<Box<dyn Learner + '_>> = vec![
        Box::new(Tdt::new(TdtParams::default(), Some(&rho)).unwrap()),
        Box::new(
            Trf::new(
                TrfParams {
                    trees: 20,
                    ..TrfParams::default()
                },
                Some(&rho),
            )
            .unwrap(),
        ),
    ];
    for l in &learners {
        let a = l.fit(&o, &training, &RunControl::default()).unwrap();
        let b = l.fit(&o, &training, &RunControl::default()).unwrap();
        assert_eq!(
            a.model.body().unwrap(),
            b.model.body().unwrap(),
            "{}",
            l.name()
        );
        let text = to_json(a.model.as_ref(), l.parameters(), Some("t"), &sig).unwrap();
        let loaded = from_json(&text, &sig).expect("loads back");
        assert_eq!(loaded.header.algorithm, l.name());
        assert_eq!(
            loaded.model.predict(&o, &everyone).unwrap(),
            a.model.predict(&o, &everyone).unwrap()
        );
        assert_eq!(loaded.model.concept(), a.model.concept());
    }
}

#[test]
fn a_tree_classifies_several_classes_natively() {
    let o = oracle();
    let (train, test) = split();
    let sig = o.signature();
    let v = sig.vocabulary();
    let young = parse_manchester(&format!("<{EX}age> some xsd:integer[< 35]"), &v).unwrap();
    let proj1 = parse_manchester(&format!("<{EX}worksOn> value <{EX}proj1>"), &v).unwrap();
    let label = |i: usize| {
        let one = set(&o, &[i]);
        if !o.covered(&young, &one).unwrap().is_empty() {
            0
        } else if !o.covered(&proj1, &one).unwrap().is_empty() {
            1
        } else {
            2
        }
    };
    let classes: Vec<String> = vec!["young".into(), "proj1".into(), "other".into()];
    let labels = train.iter().map(|&i| (person(&o, i), label(i))).collect();
    let training = TrainingSet::multi_class(classes.clone(), labels).unwrap();
    let rho = rho(&o);
    let run = Tdt::new(TdtParams::default(), Some(&rho))
        .unwrap()
        .fit(&o, &training, &RunControl::default())
        .unwrap();
    assert!(run.model.concept().is_none());
    let p = run.model.predict(&o, &set(&o, &test)).unwrap();
    for (x, &i) in p.iter().zip(&test) {
        assert_eq!(x.individual, person(&o, i));
        assert_eq!(x.label.as_deref(), Some(classes[label(i)].as_str()), "p{i}");
        let d = x.distribution.as_ref().unwrap();
        assert!((d.iter().map(|(_, p)| p).sum::<f64>() - 1.0).abs() < 1e-9);
    }
}

/// `--max-runtime` is a promise for trees too: a spent budget leaves every node a leaf (the
/// tree so far is the model, still usable) and the run says why it stopped.
#[test]
fn a_spent_time_budget_stops_growth_and_is_reported() {
    use oxilearn::learn::Termination;
    let o = oracle();
    let (train, test) = split();
    let rho = rho(&o);
    let spent = RunControl::default().with_max_runtime(std::time::Duration::ZERO);
    let tdt = Tdt::new(TdtParams::default(), Some(&rho)).unwrap();
    let run = tdt.fit(&o, &binary(&o, &train), &spent).expect("fits");
    assert_eq!(run.stats.termination, Termination::TimeBudget);
    assert!(
        accuracy(&o, run.model.as_ref(), &test) < 1.0,
        "a root leaf only"
    );
    let trf = Trf::new(TrfParams::default(), Some(&rho)).unwrap();
    let run = trf.fit(&o, &binary(&o, &train), &spent).expect("fits");
    assert_eq!(run.stats.termination, Termination::TimeBudget);
    // Unlimited, the same learner grows to the end.
    let run = tdt
        .fit(&o, &binary(&o, &train), &RunControl::default())
        .expect("fits");
    assert_eq!(run.stats.termination, Termination::Exhausted);
}

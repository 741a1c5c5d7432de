//! CELOE on a generated large-signature problem (1,000 classes, a hierarchy six levels deep)
//! whose target is `A ⊓ ∃r.∃s.(B ⊔ C)` (issue 31 item 6): with the defaults, which propose
//! concepts built from the examples' neighbourhood, it finds a definition with F1 1.0 on the
//! held-out examples within a small test budget, the same one on every run; DL-Learner's
//! CELOE (ρ's refinements only) does not within that budget.

use std::sync::Arc;

use oxilearn::concept::Concept;
use oxilearn::eval::Confusion;
use oxilearn::learn::celoe::{Celoe, CeloeParams};
use oxilearn::learn::{Examples, RunControl, splits};
use oxilearn::oracle::backend::EmbeddedBackend;
use oxilearn::oracle::{
    CacheOptions, Cached, IndividualSet, MembershipOracle, OracleOptions, Signature, SparqlOracle,
};
use oxilearn::problem::generate::deep::{self, DeepProblem, DeepSpec, Shape};
use oxilearn::refine::rho::RhoOptions;

type Oracle = Cached<SparqlOracle<EmbeddedBackend>>;

/// Tests each run may score (the proposals come in after 1,000 tests without progress).
const TESTS: u64 = 5_000;

fn spec() -> DeepSpec {
    DeepSpec {
        seed: 3,
        classes: 1_000,
        individuals: 2_500,
        problems: 1,
        examples: 24,
        ..DeepSpec::default()
    }
}

fn setup() -> (Oracle, Arc<Signature>, DeepProblem) {
    let kb = deep::generate(&spec()).expect("the spec is valid");
    let store = oxigraph::store::Store::new().unwrap();
    store
        .load_from_reader(oxigraph::io::RdfFormat::NTriples, kb.ntriples.as_bytes())
        .unwrap();
    let sparql = SparqlOracle::new(EmbeddedBackend::new(store), OracleOptions::default()).unwrap();
    let signature = sparql.shared_signature();
    let problem = kb.problems.into_iter().next().unwrap();
    (
        Cached::new(sparql, CacheOptions::default()),
        signature,
        problem,
    )
}

fn set(sig: &Signature, xs: &[usize]) -> IndividualSet {
    let iris: Vec<String> = xs.iter().map(|x| deep::individual_iri(*x)).collect();
    sig.set_of(iris.iter().map(String::as_str)).unwrap()
}

/// The best solution of a run with `params` on the training examples.
fn learn(o: &Oracle, sig: &Arc<Signature>, p: &DeepProblem, params: CeloeParams) -> (Concept, f64) {
    let rho = splits::rho_over_kb(o, sig.clone(), RhoOptions::default()).unwrap();
    let examples = Examples::new(set(sig, &p.train.0), set(sig, &p.train.1)).unwrap();
    let run = Celoe::new(params, &rho)
        .unwrap()
        .run(o, &examples, &RunControl::default().with_max_tests(TESTS))
        .unwrap();
    let best = run.model.solutions.first().expect("a solution");
    (best.concept.clone(), best.quality)
}

/// `c` has an existential inside an existential whose filler is a union.
fn nested_union(c: &Concept) -> bool {
    let union_below = |f: &Concept| match f {
        Concept::Some { filler, .. } => matches!(**filler, Concept::Or(_)),
        _ => false,
    };
    match c {
        Concept::Some { filler, .. } if union_below(filler) => true,
        _ => c.children().into_iter().any(nested_union),
    }
}

#[test]
fn a_deep_union_target_is_found_and_holds_on_held_out_examples() {
    let (o, sig, p) = setup();
    assert_eq!(p.shape, Shape::ClassPathUnion2);
    assert!(sig.classes.len() >= 1_000);
    let (found, quality) = learn(&o, &sig, &p, CeloeParams::default());
    assert_eq!(quality, 1.0, "{found:?}");
    assert!(
        nested_union(&found),
        "{found:?} (target {})",
        p.target.manchester()
    );
    let (pos, neg) = (set(&sig, &p.test.0), set(&sig, &p.test.1));
    let covered = o.covered(&found, &pos.union(&neg)).unwrap();
    let tp = covered.intersection_count(&pos);
    let fp = covered.intersection_count(&neg);
    let held_out = Confusion {
        tp,
        fp,
        tn: neg.len() - fp,
        fn_: pos.len() - tp,
    };
    assert_eq!(
        held_out.f1(),
        1.0,
        "{found:?} on the test examples: {held_out:?}"
    );
    // Deterministic: a second run (over a fresh cache) returns the same definition.
    let (o2, sig2, p2) = setup();
    assert_eq!(learn(&o2, &sig2, &p2, CeloeParams::default()).0, found);
}

#[test]
fn without_the_neighbourhood_the_same_budget_falls_short() {
    let (o, sig, p) = setup();
    let dl_learner = CeloeParams {
        neighbourhood: None,
        ..CeloeParams::default()
    };
    let (found, quality) = learn(&o, &sig, &p, dl_learner);
    assert!(quality < 1.0, "{found:?} reached F1 {quality}");
}

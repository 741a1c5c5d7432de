//! Saved models: a model written with `document::to_json`, read back with
//! `document::from_json` and applied gives exactly the in-memory model's predictions
//! (CELOE on family Uncle, TBC on family-poor and on the shapes fixture), names
//! individuals and entities by IRI only, and warns on another KB's signature.

use crate::common;

use std::sync::Arc;

use common::{repo_path, shared_dataset, store_of};
use oxilearn::learn::celoe::{Celoe, CeloeParams};
use oxilearn::learn::document::{from_json, signature_fingerprint, to_json};
use oxilearn::learn::tbc::{FeatureSemantics, Missing, Tbc, TbcParams};
use oxilearn::learn::{LearnError, Learner, RunControl, TrainingSet, splits};
use oxilearn::oracle::backend::EmbeddedBackend;
use oxilearn::oracle::{CacheOptions, Cached, OracleOptions, Signature, SparqlOracle};
use oxilearn::problem::load_problems;
use oxilearn::refine::rho::{Rho, RhoOptions};

type Oracle = Cached<SparqlOracle<EmbeddedBackend>>;

fn oracle(files: &[std::path::PathBuf]) -> (Oracle, Arc<Signature>) {
    let sparql = SparqlOracle::new(
        EmbeddedBackend::new(store_of(files)),
        OracleOptions::default(),
    )
    .expect("signature loads");
    let sig = sparql.shared_signature();
    (Cached::new(sparql, CacheOptions::default()), sig)
}

fn training(sig: &Signature, problems: &std::path::Path, name: &str) -> TrainingSet {
    let p = load_problems(problems)
        .unwrap()
        .into_iter()
        .find(|p| p.name == name)
        .unwrap_or_else(|| panic!("no problem {name}"));
    TrainingSet::binary(
        sig.set_of(p.positives.iter().map(String::as_str)).unwrap(),
        sig.set_of(p.negatives.iter().map(String::as_str)).unwrap(),
    )
    .unwrap()
}

/// Fits, saves, loads and checks that both models predict the same for every individual.
fn round_trip(
    learner: &dyn Learner,
    oracle: &Oracle,
    sig: &Signature,
    training: &TrainingSet,
    problem: &str,
    control: &RunControl,
) -> String {
    let run = learner.fit(oracle, training, control).expect("fits");
    let text = to_json(run.model.as_ref(), learner.parameters(), Some(problem), sig).unwrap();
    let loaded = from_json(&text, sig).expect("loads back");
    assert!(loaded.warnings.is_empty(), "{:?}", loaded.warnings);
    assert_eq!(loaded.header.algorithm, learner.name());
    assert_eq!(loaded.header.problem.as_deref(), Some(problem));
    assert_eq!(
        loaded.header.signature_fingerprint,
        signature_fingerprint(sig)
    );
    let all = sig.all_individuals();
    let before = run.model.predict(oracle, &all).expect("predicts");
    let after = loaded.model.predict(oracle, &all).expect("predicts");
    assert_eq!(before.len(), sig.individual_count());
    assert_eq!(
        before,
        after,
        "{}: loaded model predicts differently",
        learner.name()
    );
    // Saved once more, the loaded model gives the same document.
    assert_eq!(
        to_json(
            loaded.model.as_ref(),
            learner.parameters(),
            Some(problem),
            sig
        )
        .unwrap(),
        text
    );
    text
}

/// No internal id leaks: every individual or entity in the document is a full IRI, and
/// the document is the same whatever order the store numbered individuals in.
fn names_entities_by_iri(text: &str) {
    let v: serde_json::Value = serde_json::from_str(text).unwrap();
    assert_eq!(v["format"], "oxilearn-model");
    assert_eq!(v["version"], 1);
    assert!(
        !text.contains("\"individual\""),
        "individuals are not stored"
    );
}

#[test]
fn celoe_models_round_trip_on_the_fixture() {
    let (oracle, sig) = oracle(&[repo_path("fixtures/family/family.ttl")]);
    let rho = splits::rho_over_kb(&oracle, sig.clone(), RhoOptions::default()).unwrap();
    let celoe = Celoe::new(CeloeParams::default(), &rho).unwrap();
    let t = training(&sig, &repo_path("fixtures/family/problems.json"), "Uncle");
    let control = RunControl::default().with_max_tests(5_000);
    let text = round_trip(&celoe, &oracle, &sig, &t, "Uncle", &control);
    names_entities_by_iri(&text);
    assert!(text.contains("http://example.org/family#"), "{text}");
}

#[test]
fn celoe_uncle_round_trips_on_the_family_benchmark() {
    let Some(dir) = shared_dataset("family") else {
        return;
    };
    let (oracle, sig) = oracle(&[dir.join("family-benchmark_rich_background.owl")]);
    let rho = splits::rho_over_kb(&oracle, sig.clone(), RhoOptions::default()).unwrap();
    let celoe = Celoe::new(CeloeParams::default(), &rho).unwrap();
    let t = training(&sig, &dir.join("lps.json"), "Uncle");
    let control = RunControl::default().with_max_tests(3_000);
    round_trip(&celoe, &oracle, &sig, &t, "Uncle", &control);
}

#[test]
fn tbc_models_round_trip_on_the_shapes_fixture() {
    let (oracle, sig) = oracle(&[repo_path("fixtures/tbc/shapes.ttl")]);
    let rho = Rho::new(sig.clone(), RhoOptions::boolean_existential());
    for missing in [Missing::Im3, Missing::Robust] {
        let params = TbcParams {
            missing,
            ..TbcParams::default()
        };
        let tbc = Tbc::new(params, &rho).unwrap();
        let problems = load_problems(&repo_path("fixtures/tbc/problems.json")).unwrap();
        let t = training(
            &sig,
            &repo_path("fixtures/tbc/problems.json"),
            &problems[0].name,
        );
        let control = RunControl::default().with_max_tests(5_000);
        let text = round_trip(&tbc, &oracle, &sig, &t, &problems[0].name, &control);
        names_entities_by_iri(&text);
        if missing == Missing::Im3 {
            let doc: serde_json::Value = serde_json::from_str(&text).unwrap();
            assert_eq!(doc["model"]["features"].as_array().unwrap().len(), 1);
            corrupted_networks_are_refused(&doc, &sig, false);
            // The same feature as a hand-written ROBUST network with interval CPTs.
            let mut robust = doc.clone();
            robust["model"]["missing"] = "robust".into();
            robust["model"]["fitted"] = serde_json::json!({
                "network": {
                    "cpt": [[0.5, 0.5, 0.25, 0.75]],
                    "prior": [0.5, 0.5],
                    "shape": {"arity": [2], "parent": [null]}
                },
                "intervals": {"lower": [[0.4, 0.4, 0.2, 0.7]], "upper": [[0.6, 0.6, 0.3, 0.8]]}
            });
            corrupted_networks_are_refused(&robust, &sig, true);
        }
    }
}

/// Hand-corrupted TBC documents fail with a model-format error naming what is wrong (the
/// predictor would otherwise index out of bounds or return non-probabilities).
fn corrupted_networks_are_refused(doc: &serde_json::Value, sig: &Signature, robust: bool) {
    from_json(&doc.to_string(), sig).expect("the uncorrupted document loads");
    type Corruption = fn(&mut serde_json::Value);
    let mut cases: Vec<(&str, Corruption, &str)> = vec![
        (
            "a parent missing",
            |n| {
                n["shape"]["parent"].as_array_mut().unwrap().pop();
            },
            "parents",
        ),
        (
            "an arity the missing-value handling does not have",
            |n| n["shape"]["arity"][0] = 7.into(),
            "arity 7",
        ),
        (
            "a parent that is not a feature",
            |n| n["shape"]["parent"][0] = 99.into(),
            "parent 99",
        ),
        (
            "a CPT cell missing",
            |n| {
                n["cpt"][0].as_array_mut().unwrap().pop();
            },
            "cells",
        ),
        (
            "a CPT value above 1",
            |n| n["cpt"][0][0] = 1.5.into(),
            "not a probability",
        ),
        (
            "a negative prior",
            |n| n["prior"][0] = (-0.25).into(),
            "prior",
        ),
    ];
    if robust {
        cases.push((
            "an interval CPT cell missing",
            |n| {
                n["intervals"]["lower"][0].as_array_mut().unwrap().pop();
            },
            "interval CPT",
        ));
        cases.push((
            "a lower bound above its upper bound",
            |n| {
                n["intervals"]["lower"][0][0] = 1.0.into();
                n["intervals"]["upper"][0][0] = 0.5.into();
            },
            "lower bound above",
        ));
    }
    for (what, corrupt, expected) in cases {
        let mut bad = doc.clone();
        // The network lives in `fitted`, the intervals next to it.
        let fitted = &mut bad["model"]["fitted"];
        if expected.contains("interval") || expected.contains("lower bound") {
            corrupt(fitted);
        } else {
            corrupt(&mut fitted["network"]);
        }
        match from_json(&bad.to_string(), sig) {
            Err(e @ LearnError::ModelFormat(_)) => {
                let e = e.to_string();
                assert!(e.contains(expected), "{what}: {e}");
            }
            Err(e) => panic!("{what}: not a model-format error: {e}"),
            Ok(_) => panic!("{what}: a corrupted network was accepted"),
        }
    }
}

#[test]
fn tbc_round_trips_on_family_poor() {
    let (Some(dir), Some(poor)) = (shared_dataset("family"), shared_dataset("family-poor")) else {
        return;
    };
    let (oracle, sig) = oracle(&[poor.join("family-benchmark.owl")]);
    let rho = Rho::new(sig.clone(), RhoOptions::boolean_existential());
    let params = TbcParams {
        semantics: FeatureSemantics::Closed,
        ..TbcParams::default()
    };
    let tbc = Tbc::new(params, &rho).unwrap();
    let t = training(&sig, &dir.join("lps.json"), "Father");
    let control = RunControl::default().with_max_tests(3_000);
    round_trip(&tbc, &oracle, &sig, &t, "Father", &control);
}

#[test]
fn another_signature_warns_and_foreign_names_fail_clearly() {
    let (oracle, sig) = oracle(&[repo_path("fixtures/family/family.ttl")]);
    let rho = Rho::new(sig.clone(), RhoOptions::default());
    let celoe = Celoe::new(CeloeParams::default(), &rho).unwrap();
    let t = training(&sig, &repo_path("fixtures/family/problems.json"), "Father");
    let run = celoe
        .fit(&oracle, &t, &RunControl::default().with_max_tests(2_000))
        .unwrap();
    let text = to_json(run.model.as_ref(), celoe.parameters(), Some("Father"), &sig).unwrap();
    // The same schema plus one declared class: loads, with a warning naming both
    // fingerprints.
    let mut wider = (*sig).clone();
    wider
        .schema_classes
        .insert(oxilearn::concept::Iri::new("http://example.org/other#X"));
    let loaded = from_json(&text, &wider).expect("loads");
    assert_eq!(loaded.warnings.len(), 1, "{:?}", loaded.warnings);
    assert!(loaded.warnings[0].contains(&signature_fingerprint(&sig)));
    // A KB without the model's names: full IRIs still parse, so it loads with a warning and
    // predicts no member there.
    let (shapes_oracle, shapes) = self::oracle(&[repo_path("fixtures/tbc/shapes.ttl")]);
    let elsewhere = from_json(&text, &shapes).expect("loads with a warning");
    assert_eq!(elsewhere.warnings.len(), 1);
    let p = elsewhere
        .model
        .predict(&shapes_oracle, &shapes.all_individuals())
        .unwrap();
    assert!(p.iter().all(|p| !p.member));
    // A malformed body is a clear error, not a panic.
    let broken = text.replacen("\"concept\": \"", "\"concept\": \"((", 1);
    let e = from_json(&broken, &sig).unwrap_err().to_string();
    assert!(e.contains("celoe model"), "{e}");
}

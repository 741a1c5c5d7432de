//! `oxilearn cluster` end to end on hand-written KBs: two obviously separated groups give
//! two clusters named by the separating class (with the KB's disjointness and without it);
//! a seed fixes the tree, sampled medoids included; the JSON's concepts read back through
//! `--concept`; the OWL output reads back through the loader; a saved model assigns every
//! individual to the cluster it was trained in; the disjointness evaluation scores tree and
//! baseline by the same rules; bad parameters are refused clearly.

use crate::common;

use std::path::PathBuf;

use common::cli_run::{fails_with, json, oxilearn};
use serde_json::Value;

const GROUPS: &str = "fixtures/cluster/groups.ttl";
const FAMILY: &str = "fixtures/family/family.ttl";
const EX: &str = "http://example.org/groups#";

fn temp(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("oxilearn-cluster-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir.join(name)
}

fn cluster(extra: &[&str]) -> Value {
    let mut args = vec!["cluster", "--json"];
    args.extend_from_slice(extra);
    json(&args)
}

/// The clusters' `(concept, members)` from `predict` over the saved model, and the JSON.
fn clusters(out: &Value) -> Vec<(String, u64, String)> {
    out["clusters"]
        .as_array()
        .expect("clusters")
        .iter()
        .map(|c| {
            (
                c["concept"].as_str().unwrap().to_owned(),
                c["size"].as_u64().unwrap(),
                c["medoid"].as_str().unwrap().to_owned(),
            )
        })
        .collect()
}

#[test]
fn two_separated_groups_give_two_clusters_named_by_the_separating_class() {
    for extra in [&[][..], &["--exclude-disjointness"][..]] {
        let mut args = vec!["--kb", GROUPS, "--individuals", "Dog or Granite"];
        args.extend_from_slice(extra);
        let out = cluster(&args);
        assert_eq!(out["individuals"], 12, "{extra:?}");
        let cs = clusters(&out);
        assert_eq!(cs.len(), 2, "{extra:?}: {cs:?}");
        // Each cluster is one group: its medoid is a dog or a stone, and it holds six.
        let kinds: Vec<&str> = cs
            .iter()
            .map(|(_, _, m)| if m.contains("#dog") { "dog" } else { "stone" })
            .collect();
        assert_eq!(kinds.len(), 2);
        assert_ne!(kinds[0], kinds[1], "{cs:?}");
        assert!(cs.iter().all(|(_, size, _)| *size == 6), "{cs:?}");
        // Both concepts name a separating class (one of the groups' classes), in full.
        for (concept, _, _) in &cs {
            assert!(
                ["Animal", "Mineral", "Dog", "Granite"]
                    .iter()
                    .any(|c| concept.contains(&format!("<{EX}{c}>"))),
                "{concept}"
            );
        }
        // The leaves are complementary on the test: one is the other's negation inside.
        assert!(
            cs.iter().any(|(c, _, _)| c.contains("not ")),
            "one side is the negated test: {cs:?}"
        );
        // One disjointness axiom between the two leaves, in the documented shape.
        let d = out["disjointness"].as_array().unwrap();
        assert_eq!(d.len(), 1);
        assert_eq!(d[0]["left"].as_str().unwrap(), cs[0].0);
        assert_eq!(d[0]["right"].as_str().unwrap(), cs[1].0);
    }
}

#[test]
fn cluster_concepts_read_back_through_concept() {
    let out = cluster(&["--kb", GROUPS, "--individuals", "Dog or Granite"]);
    for (concept, _, medoid) in clusters(&out) {
        let members = json(&["instances", "--kb", GROUPS, "--concept", &concept, "--json"]);
        let listed: Vec<&str> = members["individuals"]
            .as_array()
            .unwrap()
            .iter()
            .map(|v| v.as_str().unwrap())
            .collect();
        // Closed world, the medoid of a cluster is an instance of its concept here.
        assert!(listed.contains(&medoid.as_str()), "{concept}: {listed:?}");
    }
}

/// The output without timings (which vary between runs).
fn without_timings(mut v: Value) -> Value {
    v.as_object_mut().unwrap().remove("stats");
    v.as_object_mut().unwrap().remove("load_ms");
    v
}

#[test]
fn a_seed_fixes_the_tree_even_with_sampled_medoids() {
    // --exact-medoid-limit 1 makes every medoid of two or more patterns a sampled one.
    let run = |seed: &str| {
        without_timings(cluster(&[
            "--kb",
            FAMILY,
            "--exact-medoid-limit",
            "1",
            "--seed",
            seed,
        ]))
    };
    let a = run("7");
    assert_eq!(a, run("7"));
    assert!(clusters(&a).len() >= 2, "{a}");
    // Exact medoids are deterministic without any seed.
    let exact = || without_timings(cluster(&["--kb", FAMILY]));
    assert_eq!(exact(), exact());
}

#[test]
fn the_owl_output_reads_back_through_the_loader() {
    let path = temp("axioms.ofn");
    let out = cluster(&["--kb", FAMILY, "--owl", path.to_str().unwrap()]);
    let disjoint = out["disjointness"].as_array().unwrap().len();
    let subsumed = out["subsumptions"].as_array().unwrap().len();
    assert!(disjoint >= 1 && subsumed >= 1, "{out}");
    let store = oxilearn::oxigraph::store::Store::new().unwrap();
    let report = oxilearn::files::load_file(&store, &path, None).expect("the loader reads it");
    assert!(report.warnings.is_empty(), "{:?}", report.warnings);
    let count = |predicate: &str| {
        store
            .quads_for_pattern(
                None,
                Some(oxilearn::oxigraph::model::NamedNodeRef::new(predicate).unwrap()),
                None,
                None,
            )
            .count()
    };
    assert_eq!(
        count("http://www.w3.org/2002/07/owl#disjointWith"),
        disjoint
    );
    assert_eq!(
        count("http://www.w3.org/2000/01/rdf-schema#subClassOf"),
        subsumed
    );
}

#[test]
fn a_saved_model_puts_every_individual_in_its_training_cluster() {
    let path = temp("model.json");
    let out = cluster(&["--kb", FAMILY, "--save-model", path.to_str().unwrap()]);
    let predicted = json(&[
        "predict",
        "--kb",
        FAMILY,
        "--model",
        path.to_str().unwrap(),
        // Every individual falls in some cluster: no support, the whole KB by name.
        "--whole-kb",
        "--json",
    ]);
    assert_eq!(predicted["model"]["algorithm"], "cluster");
    let preds = predicted["predictions"].as_array().unwrap();
    assert_eq!(preds.len() as u64, out["individuals"].as_u64().unwrap());
    // Every cluster's size is the number of individuals predicted into it, and its
    // medoid is predicted into it.
    for (i, (_, size, medoid)) in clusters(&out).into_iter().enumerate() {
        let label = format!("cluster{i}");
        let n = preds
            .iter()
            .filter(|p| p["label"] == label.as_str())
            .count() as u64;
        assert_eq!(n, size, "{label}");
        let m = preds
            .iter()
            .find(|p| p["individual"] == medoid.as_str())
            .unwrap();
        assert_eq!(m["label"], label.as_str());
    }
}

#[test]
fn disjointness_proposals_follow_the_clusters_and_the_hierarchy() {
    let out = cluster(&[
        "--kb",
        GROUPS,
        "--individuals",
        "Dog or Granite",
        "--exclude-disjointness",
        "--evaluate-disjointness",
    ]);
    let e = &out["evaluation"];
    let pairs: Vec<(String, String, f64, String)> = e["class_disjointness"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| {
            let name = |k: &str| {
                p[k].as_str()
                    .unwrap()
                    .trim_matches(['<', '>'])
                    .replace(EX, "")
            };
            (
                name("left"),
                name("right"),
                p["confidence"].as_f64().unwrap(),
                p["basis"].as_str().unwrap().to_owned(),
            )
        })
        .collect();
    // Animal, Dog vs Mineral, Granite, Pebble (Pebble through Granite and Mineral, its
    // generalisations with instances); never Pebble–Granite or Pebble–Mineral.
    let named: Vec<(&str, &str)> = pairs
        .iter()
        .map(|(a, b, c, basis)| {
            assert_eq!((*c, basis.as_str()), (1.0, "clusters"), "{a}–{b}");
            (a.as_str(), b.as_str())
        })
        .collect();
    assert_eq!(
        named,
        [
            ("Animal", "Granite"),
            ("Animal", "Mineral"),
            ("Animal", "Pebble"),
            ("Dog", "Granite"),
            ("Dog", "Mineral"),
            ("Dog", "Pebble"),
        ]
    );
    // All six are entailed by the asserted Animal–Mineral, which they recall.
    let tct = &e["tct"];
    assert_eq!(
        (
            &tct["proposed"],
            &tct["correct"],
            &tct["recall"],
            &tct["contradicting"]
        ),
        (&6.into(), &6.into(), &1.0.into(), &0.into())
    );
    // The baseline adds the two pairs that make Pebble unsatisfiable, counted the same way.
    let base = &e["baseline"];
    assert_eq!(
        (&base["proposed"], &base["correct"], &base["unsatisfiable"]),
        (&8.into(), &6.into(), &2.into())
    );
    assert_eq!(e["baseline_consistent"]["proposed"], 6);
    // The curve: one point per threshold, falling confidence, never fewer proposals.
    let curve = e["curve"].as_array().unwrap();
    let counts: Vec<u64> = curve
        .iter()
        .map(|c| c["proposed"].as_u64().unwrap())
        .collect();
    assert!(counts.windows(2).all(|w| w[0] <= w[1]), "{counts:?}");
    let e = fails_with(&["cluster", "--kb", GROUPS, "--min-confidence", "2"]);
    assert!(e.contains("--min-confidence"), "{e}");
}

#[test]
fn bad_input_is_refused_with_a_clear_message() {
    let e = fails_with(&["cluster", "--kb", GROUPS, "--p", "0.5"]);
    assert!(e.contains("p") && e.contains("0.5"), "{e}");
    let e = fails_with(&["cluster", "--kb", GROUPS, "--individuals", "NoSuchClass"]);
    assert!(e.contains("NoSuchClass"), "{e}");
    let e = fails_with(&[
        "cluster",
        "--kb",
        GROUPS,
        "--individuals",
        "Dog and Granite",
    ]);
    assert!(e.contains("no instances"), "{e}");
    // An endpoint needs a scope: refused before any request is sent.
    let e = fails_with(&["cluster", "--endpoint", "http://127.0.0.1:9/sparql"]);
    assert!(
        e.contains("--scope EXPR") && e.contains("--scope-query") && e.contains("--whole-kb"),
        "{e}"
    );
    let out = oxilearn(&["cluster", "--kb", GROUPS, "--max-runtime", "0"]);
    assert_eq!(out.status.code(), Some(2));
}

#[test]
fn the_learner_interface_fits_unlabelled_individuals_and_its_model_round_trips() {
    use oxilearn::KnowledgeBase;
    use oxilearn::learn::cluster::{ClusterParams, ClusterTrees};
    use oxilearn::learn::{Learner, RunControl, TrainingSet, document};
    use oxilearn::refine::rho::{Rho, RhoOptions};

    let kb = KnowledgeBase::from_files(&[GROUPS]).expect("the fixture loads");
    let rho = Rho::new(kb.shared_signature(), RhoOptions::default());
    let learner = ClusterTrees::new(ClusterParams::default(), &rho).expect("valid defaults");
    let all = kb.individuals();
    let run = learner
        .fit(
            kb.oracle(),
            &TrainingSet::unlabelled(all.clone()),
            &RunControl::default(),
        )
        .expect("fits");
    assert_eq!(run.model.algorithm(), "cluster");
    let clusters = &run
        .report
        .get::<oxilearn::learn::cluster::ClusterReport>()
        .expect("a cluster report")
        .clusters;
    assert!(clusters.len() >= 2, "{clusters:?}");
    let sizes: usize = clusters.iter().map(|c| c.size).sum();
    assert_eq!(sizes, all.len());
    // Saved and loaded, the model predicts the same clusters.
    let text = document::to_json(
        run.model.as_ref(),
        learner.parameters(),
        None,
        kb.signature(),
    )
    .expect("saves");
    let loaded = document::from_json(&text, kb.signature()).expect("loads");
    assert!(loaded.warnings.is_empty());
    let before = run.model.predict(kb.oracle(), &all).unwrap();
    let after = loaded.model.predict(kb.oracle(), &all).unwrap();
    assert_eq!(before, after);
    // Labelled training data is refused, naming what it needs.
    let universe = all.universe();
    let half = |odd: bool| {
        oxilearn::oracle::IndividualSet::from_ids(
            universe,
            all.iter().filter(|id| (id.0 % 2 == 1) == odd),
        )
    };
    let binary = TrainingSet::binary(half(true), half(false));
    let e = learner
        .fit(kb.oracle(), &binary.unwrap(), &RunControl::default())
        .unwrap_err()
        .to_string();
    assert!(e.contains("unlabelled"), "{e}");
}

#[test]
fn a_scope_query_names_the_individuals_to_cluster() {
    let by_class = cluster(&["--kb", GROUPS, "--scope", "Dog or Granite"]);
    let by_query = cluster(&[
        "--kb",
        GROUPS,
        "--scope-query",
        "SELECT ?i WHERE { { ?i a <http://example.org/groups#Dog> } UNION { ?i a <http://example.org/groups#Granite> } }",
    ]);
    assert_eq!(by_class["individuals"], by_query["individuals"]);
    assert!(by_class["individuals"].as_u64().unwrap() > 0);
    let e = fails_with(&[
        "cluster",
        "--kb",
        GROUPS,
        "--scope-query",
        "SELECT ?a ?b WHERE { ?a ?p ?b }",
    ]);
    assert!(e.contains("one projected variable"), "{e}");
}

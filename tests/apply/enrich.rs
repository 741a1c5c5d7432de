//! `enrich` and `export` end to end: predictions written into a graph of their own (a dataset
//! file, an embedded store, an endpoint served from a store), reruns that change nothing,
//! dry runs that write nothing, refusal of someone else's graph, a failure half-way that
//! leaves the target as it was, learning that never reads its own predictions back, and
//! OWL axioms that our loader reads back.

use crate::common;

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use common::cli_run::{fails_with, json, learn_family_model, oxilearn};
use common::social::{CRISP, Lcg, SCORED, SOCIAL, change_randomly, social_kb, social_model};
use oxigraph::model::vocab::rdf;
use oxigraph::model::{GraphNameRef, NamedNode, NamedNodeRef, Term};
use oxigraph::store::Store;

const FAMILY: &str = "fixtures/family/family.ttl";
const PROBLEMS: &str = "fixtures/family/problems.json";
const GRAPH: &str = "http://example.org/predictions";
const UNCLE: &str = "http://example.org/Uncle";

fn temp(name: &str) -> PathBuf {
    common::temp_path("enrich", name)
}

/// The family Uncle CELOE model, learned once per test binary run.
fn uncle_model() -> PathBuf {
    static MODEL: std::sync::OnceLock<PathBuf> = std::sync::OnceLock::new();
    MODEL
        .get_or_init(|| {
            let path = temp("uncle.json");
            learn_family_model("Uncle", &path);
            path
        })
        .clone()
}

/// The members `predict` gives for the model, as IRIs.
fn predicted_members(kb: &str, model: &Path) -> BTreeSet<String> {
    let out = json(&[
        "predict",
        "--kb",
        kb,
        "--model",
        model.to_str().unwrap(),
        "--json",
    ]);
    out["predictions"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|p| p["member"] == true)
        .map(|p| p["individual"].as_str().unwrap().to_owned())
        .collect()
}

fn enrich_file(kb: &str, out: &Path, extra: &[&str]) -> serde_json::Value {
    let model = uncle_model();
    let mut args = vec![
        "enrich",
        "--kb",
        kb,
        "--model",
        model.to_str().unwrap(),
        "--graph",
        GRAPH,
        "--target-class",
        UNCLE,
        "--out",
        out.to_str().unwrap(),
        "--json",
    ];
    args.extend_from_slice(extra);
    json(&args)
}

fn load(path: &Path) -> Store {
    let store = Store::new().unwrap();
    oxilearn::files::load_file(&store, path, None).unwrap();
    store
}

/// The subjects typed `class` in `graph`.
fn typed_in(store: &Store, graph: &str, class: &str) -> BTreeSet<String> {
    let g = NamedNodeRef::new(graph).unwrap();
    store
        .quads_for_pattern(
            None,
            Some(rdf::TYPE),
            Some(NamedNodeRef::new(class).unwrap().into()),
            Some(GraphNameRef::NamedNode(g)),
        )
        .map(|q| match q.unwrap().subject {
            oxigraph::model::NamedOrBlankNode::NamedNode(n) => n.into_string(),
            other => panic!("unexpected subject {other}"),
        })
        .collect()
}

#[test]
fn the_graph_holds_exactly_the_predicted_members_and_reruns_are_identical() {
    let model = uncle_model();
    let members = predicted_members(FAMILY, &model);
    assert!(!members.is_empty());
    let out = temp("family-enriched.nq");
    let first = enrich_file(FAMILY, &out, &[]);
    assert_eq!(first["predicted_members"], members.len());
    assert_eq!(first["written"]["removed"], 0);
    let store = load(&out);
    assert_eq!(typed_in(&store, GRAPH, UNCLE), members);
    // Nothing typed Uncle outside the predictions graph; the KB's own triples are all there.
    let kb = load(Path::new(FAMILY));
    assert_eq!(
        store.len().unwrap(),
        kb.len().unwrap() + first["triples"].as_u64().unwrap() as usize
    );
    // The run's triples and provenance are in the graph, and nowhere else.
    let marker = oxigraph::model::QuadRef::new(
        NamedNodeRef::new(GRAPH).unwrap(),
        rdf::TYPE,
        NamedNodeRef::new(oxilearn::oxl::PREDICTION_GRAPH).unwrap(),
        NamedNodeRef::new(GRAPH).unwrap(),
    );
    assert!(store.contains(marker).unwrap());
    let bytes = std::fs::read(&out).unwrap();
    // A second replace run from the same KB writes the very same bytes.
    enrich_file(FAMILY, &out, &[]);
    assert_eq!(std::fs::read(&out).unwrap(), bytes);
    // Enriching the enriched file in place replaces the graph by itself: no change.
    let again = enrich_file(out.to_str().unwrap(), &out, &[]);
    assert_eq!(again["written"]["added"], 0);
    assert_eq!(again["written"]["removed"], 0);
    assert_eq!(std::fs::read(&out).unwrap(), bytes);
    // Append twice: nothing is missing, nothing is added.
    for _ in 0..2 {
        let appended = enrich_file(out.to_str().unwrap(), &out, &["--mode", "append"]);
        assert_eq!(appended["written"]["added"], 0);
    }
    assert_eq!(std::fs::read(&out).unwrap(), bytes);
}

#[test]
fn dry_run_writes_nothing() {
    let model = uncle_model();
    let out = temp("dry-run.nq");
    let _ = std::fs::remove_file(&out);
    let summary = json(&[
        "enrich",
        "--kb",
        FAMILY,
        "--model",
        model.to_str().unwrap(),
        "--graph",
        GRAPH,
        "--target-class",
        UNCLE,
        "--out",
        out.to_str().unwrap(),
        "--dry-run",
        "--json",
    ]);
    assert!(!out.exists(), "a dry run must not create the file");
    assert_eq!(summary["dry_run"], true);
    assert!(summary.get("written").is_none());
    assert!(summary["triples"].as_u64().unwrap() > 0);
    let sample = summary["sample"].as_array().unwrap();
    assert!(!sample.is_empty() && sample.iter().all(|l| l.as_str().unwrap().contains(GRAPH)));
}

#[test]
fn learning_after_enrichment_finds_the_same_solutions() {
    let out = temp("learn-after.nq");
    enrich_file(FAMILY, &out, &[]);
    let learn = |kb: &str, extra: &[&str]| {
        let mut args = vec![
            "learn",
            "--kb",
            kb,
            "--problems",
            PROBLEMS,
            "--problem",
            "Uncle",
            "--max-tests",
            "5000",
            "--quiet",
            "--json",
        ];
        args.extend_from_slice(extra);
        let v = json(&args);
        v[0]["solutions"]
            .as_array()
            .unwrap()
            .iter()
            .map(|s| s["manchester"].as_str().unwrap().to_owned())
            .collect::<Vec<_>>()
    };
    let before = learn(FAMILY, &[]);
    assert_eq!(learn(out.to_str().unwrap(), &[]), before);
    // Read on purpose, the predictions are a perfect (and circular) answer.
    let with = learn(out.to_str().unwrap(), &["--include-predictions"]);
    assert_ne!(with, before);
    assert!(with[0].contains("Uncle"), "{with:?}");
}

#[test]
fn a_graph_of_someone_elses_data_is_refused_unless_forced() {
    let model = uncle_model();
    let foreign = temp("foreign.trig");
    std::fs::write(
        &foreign,
        format!("<{GRAPH}> {{ <urn:a> <urn:b> <urn:c> . }}\n"),
    )
    .unwrap();
    let out = temp("foreign-out.nq");
    let _ = std::fs::remove_file(&out);
    let args = [
        "enrich",
        "--kb",
        FAMILY,
        "--kb",
        foreign.to_str().unwrap(),
        "--model",
        model.to_str().unwrap(),
        "--graph",
        GRAPH,
        "--target-class",
        UNCLE,
        "--out",
        out.to_str().unwrap(),
    ];
    let err = fails_with(&args);
    assert!(err.contains(GRAPH) && err.contains("--force"), "{err}");
    assert!(!out.exists());
    let mut forced = args.to_vec();
    forced.push("--force");
    assert!(oxilearn(&forced).status.success());
    // Replace mode: the foreign triple is gone, the graph holds this run's triples.
    let store = load(&out);
    assert!(
        store
            .quads_for_pattern(
                Some(NamedNodeRef::new("urn:a").unwrap().into()),
                None,
                None,
                None
            )
            .next()
            .is_none()
    );
}

#[test]
fn bad_destinations_and_classes_are_clear_errors() {
    let model = uncle_model();
    let m = model.to_str().unwrap();
    let err = fails_with(&[
        "enrich", "--kb", FAMILY, "--model", m, "--graph", GRAPH, "--out", "x.nq",
    ]);
    assert!(err.contains("--target-class"), "{err}");
    let err = fails_with(&[
        "enrich",
        "--kb",
        FAMILY,
        "--model",
        m,
        "--graph",
        "not an iri",
        "--target-class",
        UNCLE,
        "--dry-run",
    ]);
    assert!(err.contains("--graph not an iri"), "{err}");
    let err = fails_with(&[
        "enrich",
        "--kb",
        FAMILY,
        "--model",
        m,
        "--graph",
        GRAPH,
        "--target-class",
        UNCLE,
        "--out",
        temp("x.ttl").to_str().unwrap(),
    ]);
    assert!(err.contains(".nq") && err.contains("x.ttl"), "{err}");
    let err = fails_with(&[
        "enrich",
        "--kb",
        FAMILY,
        "--model",
        m,
        "--graph",
        GRAPH,
        "--target-class",
        UNCLE,
    ]);
    assert!(err.contains("--dry-run"), "{err}");
}

/// The library path: one transaction into a caller's store, then the KB over that store
/// learns as before.
#[test]
fn enrichment_into_an_embedded_store_is_one_transaction_and_ignored_by_learning() {
    use oxilearn::enrich::{Enrichment, Mode, ModelIdentity, enrichment_quads, store};
    use oxilearn::learn::Prediction;

    let kb_store = load(Path::new(FAMILY));
    let kb = oxilearn::KnowledgeBase::from_store(kb_store.clone()).unwrap();
    let text = std::fs::read_to_string(uncle_model()).unwrap();
    let loaded = oxilearn::learn::document::from_json(&text, kb.signature()).unwrap();
    let identity = ModelIdentity::of(&text, &loaded);
    let predictions = loaded
        .model
        .predict(kb.oracle(), &kb.individuals())
        .unwrap();
    let members: Vec<(NamedNode, Prediction)> = predictions
        .into_iter()
        .filter(|p| p.member)
        .map(|p| {
            let iri = kb
                .signature()
                .individual_iri(p.individual)
                .unwrap()
                .as_str()
                .to_owned();
            (NamedNode::new(iri).unwrap(), p)
        })
        .collect();
    let run = Enrichment {
        model: &identity,
        class: NamedNode::new(UNCLE).unwrap(),
        graph: NamedNode::new(GRAPH).unwrap(),
        threshold: None,
        ended_at: None,
    };
    let quads = enrichment_quads(&run, &members, loaded.model.is_scored());
    let report =
        store::write_to_store(&kb_store, &run.graph, &quads, Mode::Replace, false).unwrap();
    assert_eq!(
        (report.added, report.removed, report.in_graph),
        (quads.len(), 0, quads.len())
    );
    let expected: BTreeSet<String> = members.iter().map(|(n, _)| n.as_str().to_owned()).collect();
    assert_eq!(typed_in(&kb_store, GRAPH, UNCLE), expected);
    let again = store::write_to_store(&kb_store, &run.graph, &quads, Mode::Append, false).unwrap();
    assert_eq!(again.added, 0);
    // A new KB over the enriched store does not see the typings.
    let after = oxilearn::KnowledgeBase::from_store(kb_store.clone()).unwrap();
    let uncle = oxilearn::concept::Concept::class(oxilearn::concept::Iri::new(UNCLE));
    assert!(after.instances(&uncle).unwrap().is_empty());
    let with = oxilearn::KnowledgeBase::builder()
        .include_predictions(true)
        .open_store(kb_store)
        .unwrap();
    assert_eq!(with.instances(&uncle).unwrap().len(), expected.len());
}

/// An endpoint that fails from the second INSERT DATA chunk on: the target graph is left exactly
/// as it was (the graph of an earlier run), the staging graph is dropped, and the error
/// names the step, with exit code 2.
#[test]
fn a_failure_half_way_leaves_the_target_graph_unchanged() {
    let model = uncle_model();
    let kb_store = load(Path::new(FAMILY));
    // An earlier run's graph, for another class.
    let earlier = temp("earlier.nq");
    json(&[
        "enrich",
        "--kb",
        FAMILY,
        "--model",
        model.to_str().unwrap(),
        "--graph",
        GRAPH,
        "--target-class",
        "http://example.org/Earlier",
        "--out",
        earlier.to_str().unwrap(),
        "--json",
    ]);
    let earlier_store = load(&earlier);
    for q in earlier_store.iter() {
        let q = q.unwrap();
        if !q.graph_name.is_default_graph() {
            kb_store.insert(&q).unwrap();
        }
    }
    let graph = GraphNameRef::NamedNode(NamedNodeRef::new(GRAPH).unwrap());
    let snapshot = |s: &Store| -> BTreeSet<String> {
        s.quads_for_pattern(None, None, None, Some(graph))
            .map(|q| q.unwrap().to_string())
            .collect()
    };
    let before = snapshot(&kb_store);
    assert!(!before.is_empty());
    let inserts = std::sync::Arc::new(std::sync::atomic::AtomicUsize::new(0));
    let counter = inserts.clone();
    // Every INSERT after the first fails, retries included.
    let endpoint = common::store_endpoint::store_endpoint(kb_store.clone(), move |_, update| {
        update.starts_with("INSERT DATA")
            && counter.fetch_add(1, std::sync::atomic::Ordering::SeqCst) >= 1
    });
    let url = endpoint.url();
    let err = fails_with(&[
        "enrich",
        "--endpoint",
        &url,
        "--update-endpoint",
        &url,
        "--model",
        model.to_str().unwrap(),
        "--graph",
        GRAPH,
        "--target-class",
        UNCLE,
        "--chunk-size",
        "5",
        "--timeout",
        "10",
    ]);
    assert!(
        err.contains("inserting chunk 2 of")
            && err.contains("injected failure")
            && err.contains("was not changed"),
        "{err}"
    );
    assert_eq!(
        snapshot(&kb_store),
        before,
        "the target graph must be as it was"
    );
    let staging = kb_store
        .named_graphs()
        .map(|g| g.unwrap().to_string())
        .filter(|g| g.contains("urn:oxilearn:staging"))
        .count();
    assert_eq!(staging, 0, "the staging graph must be dropped");
    // The same endpoint without the fault: the graph now holds this run's typings.
    let ok = common::store_endpoint::store_endpoint(kb_store.clone(), |_, _| false);
    let url = ok.url();
    let summary = json(&[
        "enrich",
        "--endpoint",
        &url,
        "--update-endpoint",
        &url,
        "--model",
        model.to_str().unwrap(),
        "--graph",
        GRAPH,
        "--target-class",
        UNCLE,
        "--chunk-size",
        "5",
        "--timeout",
        "10",
        "--json",
    ]);
    assert!(summary["written"]["removed"].as_u64().unwrap() > 0);
    assert_eq!(
        typed_in(&kb_store, GRAPH, UNCLE),
        predicted_members(FAMILY, &model)
    );
    assert!(typed_in(&kb_store, GRAPH, "http://example.org/Earlier").is_empty());
}

#[test]
fn exported_axioms_read_back_with_our_loader() {
    let model = uncle_model();
    let m = model.to_str().unwrap();
    for (format, file) in [("ofn", "uncle.ofn"), ("owx", "uncle.owx")] {
        let out = temp(file);
        let run = oxilearn(&[
            "export",
            "--kb",
            FAMILY,
            "--model",
            m,
            "--target-class",
            UNCLE,
            "--format",
            format,
            "--out",
            out.to_str().unwrap(),
        ]);
        assert!(
            run.status.success(),
            "{}",
            String::from_utf8_lossy(&run.stderr)
        );
        let store = load(&out);
        let equivalent =
            NamedNodeRef::new("http://www.w3.org/2002/07/owl#equivalentClass").unwrap();
        let axioms: Vec<_> = store
            .quads_for_pattern(
                Some(NamedNodeRef::new(UNCLE).unwrap().into()),
                Some(equivalent),
                None,
                None,
            )
            .collect::<Result<_, _>>()
            .unwrap();
        assert_eq!(axioms.len(), 1, "{format}: one equivalence axiom");
        assert!(
            matches!(axioms[0].object, Term::BlankNode(_)),
            "{format}: a class expression"
        );
        // The expression reads back as the model's, class by class.
        let learned = json(&["predict", "--kb", FAMILY, "--model", m, "--json"]);
        let description = learned["model"]["description"].as_str().unwrap();
        assert!(description.contains("hasSibling"), "{description}");
        let has_sibling = NamedNodeRef::new("http://example.org/family#hasSibling").unwrap();
        assert!(
            store
                .quads_for_pattern(None, None, Some(has_sibling.into()), None)
                .next()
                .is_some(),
            "{format}: the restriction names hasSibling"
        );
    }
    let sub = oxilearn(&[
        "export",
        "--kb",
        FAMILY,
        "--model",
        m,
        "--target-class",
        UNCLE,
        "--subclass",
    ]);
    let text = String::from_utf8_lossy(&sub.stdout);
    assert!(text.contains("SubClassOf(ObjectIntersectionOf("), "{text}");
    let manchester = oxilearn(&[
        "export",
        "--kb",
        FAMILY,
        "--model",
        m,
        "--target-class",
        UNCLE,
        "--format",
        "manchester",
    ]);
    let text = String::from_utf8_lossy(&manchester.stdout);
    assert!(
        text.starts_with(&format!("Class: <{UNCLE}>\n    EquivalentTo: ")),
        "{text}"
    );
    let err = fails_with(&["export", "--kb", FAMILY, "--model", m]);
    assert!(err.contains("--target-class"), "{err}");
}

/// A probabilistic model (TBC): each member's prediction carries its probability, a
/// threshold decides membership, and `--scope` limits the individuals asked about.
#[test]
fn scored_models_write_probabilities_and_thresholds_decide() {
    let shapes = "fixtures/tbc/shapes.ttl";
    let model = temp("shapes-tbc.json");
    json(&[
        "learn",
        "--algorithm",
        "tbc",
        "--kb",
        shapes,
        "--problems",
        "fixtures/tbc/problems.json",
        "--semantics",
        "open",
        "--missing",
        "im3",
        "--quiet",
        "--json",
        "--save-model",
        model.to_str().unwrap(),
    ]);
    let m = model.to_str().unwrap();
    // Open-world features: an individual outside every feature is unknown, not a
    // non-member, so the model has no support and the whole KB is asked for by name.
    let predictions = json(&[
        "predict",
        "--kb",
        shapes,
        "--model",
        m,
        "--whole-kb",
        "--json",
    ]);
    let probability: std::collections::BTreeMap<String, f64> = predictions["predictions"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| {
            let iri = p["individual"].as_str().unwrap().to_owned();
            (iri, p["probability"].as_f64().unwrap())
        })
        .collect();
    let class = "http://example.org/Predicted";
    for threshold in ["0.5", "0.9"] {
        let t: f64 = threshold.parse().unwrap();
        let out = temp(&format!("shapes-{threshold}.nq"));
        let summary = json(&[
            "enrich",
            "--kb",
            shapes,
            "--model",
            m,
            "--graph",
            GRAPH,
            "--target-class",
            class,
            "--threshold",
            threshold,
            "--whole-kb",
            "--out",
            out.to_str().unwrap(),
            "--json",
        ]);
        let expected: BTreeSet<String> = probability
            .iter()
            .filter(|(_, p)| **p >= t)
            .map(|(i, _)| i.clone())
            .collect();
        assert_eq!(
            summary["predicted_members"],
            expected.len(),
            "threshold {threshold}"
        );
        let store = load(&out);
        assert_eq!(
            typed_in(&store, GRAPH, class),
            expected,
            "threshold {threshold}"
        );
        // One prediction resource per member, with the probability predict gave.
        let query = format!(
            "SELECT ?x ?p WHERE {{ GRAPH <{GRAPH}> {{ ?r <{}> ?x ; <{}> ?p }} }}",
            oxilearn::oxl::INDIVIDUAL,
            oxilearn::oxl::PROBABILITY
        );
        let oxigraph::sparql::QueryResults::Solutions(rows) =
            oxigraph::sparql::SparqlEvaluator::new()
                .parse_query(&query)
                .unwrap()
                .on_store(&store)
                .execute()
                .unwrap()
        else {
            panic!("solutions expected")
        };
        let mut seen = 0;
        for row in rows {
            let row = row.unwrap();
            let Some(Term::NamedNode(x)) = row.get("x") else {
                panic!()
            };
            let Some(Term::Literal(p)) = row.get("p") else {
                panic!()
            };
            let p: f64 = p.value().parse().unwrap();
            assert!((p - probability[x.as_str()]).abs() < 1e-9);
            seen += 1;
        }
        assert_eq!(seen, expected.len());
    }
    // --scope: only the instances of a class expression are asked about.
    let scoped = json(&[
        "enrich",
        "--kb",
        shapes,
        "--model",
        m,
        "--graph",
        GRAPH,
        "--target-class",
        class,
        "--scope",
        "<http://example.org/shapes#Marked>",
        "--dry-run",
        "--json",
    ]);
    let marked = json(&[
        "instances",
        "--kb",
        shapes,
        "--concept",
        "<http://example.org/shapes#Marked>",
        "--json",
    ])["count"]
        .as_u64()
        .unwrap();
    assert!(marked > 0 && marked < probability.len() as u64);
    assert_eq!(scoped["individuals_in_scope"], marked, "{scoped}");
}

/// A KB of 350 items, two in three linked to a part (with a weight each): more candidates
/// and members than a row cap of 100, and a problem "linked items" over all of them.
fn generated_items() -> (PathBuf, PathBuf) {
    let kb = temp("items.ttl");
    let problems = temp("items-problems.json");
    if !kb.exists() {
        let mut ttl = String::from(
            "@prefix ex: <http://example.org/gen#> .\n\
             @prefix owl: <http://www.w3.org/2002/07/owl#> .\n\
             ex:Item a owl:Class . ex:Part a owl:Class .\n\
             ex:linked a owl:ObjectProperty . ex:weight a owl:DatatypeProperty .\n",
        );
        let (mut pos, mut neg) = (Vec::new(), Vec::new());
        for i in 0..350 {
            let item = format!("http://example.org/gen#item{i:03}");
            ttl.push_str(&format!("<{item}> a ex:Item ; ex:weight {i} .\n"));
            if i % 3 != 0 {
                ttl.push_str(&format!(
                    "<{item}> ex:linked ex:part{i:03} . ex:part{i:03} a ex:Part .\n"
                ));
                pos.push(item);
            } else {
                neg.push(item);
            }
        }
        std::fs::write(&kb, ttl).unwrap();
        let doc = serde_json::json!({"problems": {"Linked": {
            "positive_examples": pos, "negative_examples": neg}}});
        std::fs::write(&problems, doc.to_string()).unwrap();
    }
    (kb, problems)
}

/// The model `learn` saves for the generated problem with `algorithm`; `written` is a
/// concept model written by hand, `Item and (linked some Part)`: its seed (a typing) and
/// its condition each have a variable of their own, which must not clash.
fn generated_model(algorithm: &str) -> PathBuf {
    let (kb, problems) = generated_items();
    if algorithm == "written" {
        let model = temp("items-written.json");
        let g = "http://example.org/gen#";
        let doc = serde_json::json!({
            "format": "oxilearn-model", "version": 1, "algorithm": "celoe",
            "parameters": {}, "problem": "Linked", "signature_fingerprint": "fnv1a64:0",
            "model": {"quality": "f1", "semantics": "closed", "solutions": [{
                "concept": format!("<{g}Item> and <{g}linked> some <{g}Part>"),
                "tp": 233, "fp": 0, "tn": 117, "fn": 0, "quality": 1.0}]}
        });
        std::fs::write(&model, doc.to_string()).unwrap();
        return model;
    }
    let model = temp(&format!("items-{algorithm}.json"));
    json(&[
        "learn",
        "--algorithm",
        algorithm,
        "--kb",
        kb.to_str().unwrap(),
        "--problems",
        problems.to_str().unwrap(),
        "--max-tests",
        "3000",
        "--quiet",
        "--json",
        "--save-model",
        model.to_str().unwrap(),
    ]);
    model
}

/// `predict --json` as (individual, member, probability) rows.
fn prediction_rows(args: &[&str]) -> BTreeSet<(String, bool, Option<String>)> {
    json(args)["predictions"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| {
            (
                p["individual"].as_str().unwrap().to_owned(),
                p["member"] == true,
                p["probability"].as_f64().map(|v| format!("{v:.6}")),
            )
        })
        .collect()
}

#[test]
fn row_caps_do_not_truncate_paged_predictions_or_members() {
    let (kb, _) = generated_items();
    let kb = kb.to_str().unwrap();
    for algorithm in ["celoe", "written", "tbc"] {
        let model = generated_model(algorithm);
        let m = model.to_str().unwrap();
        // The reference: every individual of the file, asked at once.
        let all = prediction_rows(&["predict", "--kb", kb, "--model", m, "--whole-kb", "--json"]);
        let members: BTreeSet<String> = all
            .iter()
            .filter(|(_, member, _)| *member)
            .map(|(i, _, _)| i.clone())
            .collect();
        assert!(
            members.len() > 200,
            "{algorithm}: {} members",
            members.len()
        );
        let store = load(Path::new(kb));
        let endpoint =
            common::store_endpoint::capped_store_endpoint(store.clone(), Some(100), |_, _| false);
        let url = endpoint.url();
        // Through an endpoint that answers at most 100 rows: the model's support, paged.
        let paged = prediction_rows(&[
            "predict",
            "--endpoint",
            &url,
            "--max-rows",
            "100",
            "--model",
            m,
            "--json",
        ]);
        let paged_members: BTreeSet<String> = paged
            .iter()
            .filter(|(_, member, _)| *member)
            .map(|(i, _, _)| i.clone())
            .collect();
        assert_eq!(
            paged_members, members,
            "{algorithm}: predict through the cap"
        );
        assert!(paged.is_subset(&all), "{algorithm}: the same predictions");
        let summary = json(&[
            "enrich",
            "--endpoint",
            &url,
            "--update-endpoint",
            &url,
            "--max-rows",
            "100",
            "--page-size",
            "40",
            "--store-page-size",
            "40",
            "--model",
            m,
            "--graph",
            GRAPH,
            "--target-class",
            UNCLE,
            "--json",
        ]);
        assert_eq!(
            summary["predicted_members"],
            members.len(),
            "{algorithm}: {summary}"
        );
        assert_eq!(
            summary["evaluated_in_store"],
            algorithm != "tbc",
            "{algorithm}: a crisp model is evaluated by the store"
        );
        assert_eq!(
            typed_in(&store, GRAPH, UNCLE),
            members,
            "{algorithm}: the graph"
        );
        let staging = store
            .named_graphs()
            .filter(|g| {
                g.as_ref()
                    .unwrap()
                    .to_string()
                    .contains("urn:oxilearn:staging")
            })
            .count();
        assert_eq!(staging, 0, "{algorithm}: no staging graph is left");
    }
}

#[test]
fn a_store_side_failure_half_way_and_a_killed_run_leave_the_target_unchanged() {
    let (kb, _) = generated_items();
    let model = generated_model("celoe");
    let m = model.to_str().unwrap();
    let store = load(&kb);
    let args = |url: &str| -> Vec<String> {
        [
            "enrich",
            "--endpoint",
            url,
            "--update-endpoint",
            url,
            "--page-size",
            "50",
            "--store-page-size",
            "50",
            "--model",
            m,
            "--graph",
            GRAPH,
            "--target-class",
            UNCLE,
            "--timeout",
            "10",
            "--json",
        ]
        .iter()
        .map(|s| s.to_string())
        .collect()
    };
    let snapshot =
        |s: &Store| -> BTreeSet<String> { s.iter().map(|q| q.unwrap().to_string()).collect() };
    let before = snapshot(&store);
    // The third page the store evaluates fails (every retry too).
    let pages = std::sync::Arc::new(std::sync::atomic::AtomicUsize::new(0));
    let seen = pages.clone();
    let failing = common::store_endpoint::store_endpoint(store.clone(), move |_, update| {
        update.starts_with("INSERT {")
            && seen.fetch_add(1, std::sync::atomic::Ordering::SeqCst) >= 2
    });
    let url = failing.url();
    let a: Vec<String> = args(&url);
    let err = fails_with(&a.iter().map(String::as_str).collect::<Vec<_>>());
    assert!(
        err.contains("injected failure") && err.contains("was not changed"),
        "{err}"
    );
    assert_eq!(
        snapshot(&store),
        before,
        "nothing changed, no staging graph left"
    );
    // A run killed while its third page is evaluated: the staging graph stays behind...
    let evaluated = std::sync::Arc::new(std::sync::atomic::AtomicUsize::new(0));
    let seen = evaluated.clone();
    let slow = common::store_endpoint::store_endpoint(store.clone(), move |_, update| {
        if update.starts_with("INSERT {")
            && seen.fetch_add(1, std::sync::atomic::Ordering::SeqCst) == 2
        {
            std::thread::sleep(std::time::Duration::from_secs(30));
        }
        false
    });
    let url = slow.url();
    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_oxilearn"))
        .args(args(&url))
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    let staging = |s: &Store| {
        s.named_graphs()
            .filter(|g| {
                g.as_ref()
                    .unwrap()
                    .to_string()
                    .contains("urn:oxilearn:staging")
            })
            .count()
    };
    let started = std::time::Instant::now();
    while staging(&store) == 0 && started.elapsed() < std::time::Duration::from_secs(20) {
        std::thread::sleep(std::time::Duration::from_millis(50));
    }
    child.kill().unwrap();
    child.wait().unwrap();
    assert_eq!(staging(&store), 1, "the killed run had started staging");
    assert!(
        typed_in(&store, GRAPH, UNCLE).is_empty(),
        "the target is untouched"
    );
    // ...and the next run drops it and ends as an uninterrupted run does.
    let ok = common::store_endpoint::store_endpoint(store.clone(), |_, _| false);
    let url = ok.url();
    let a: Vec<String> = args(&url);
    let summary = json(&a.iter().map(String::as_str).collect::<Vec<_>>());
    assert_eq!(staging(&store), 0, "{summary}");
    let fresh = load(&kb);
    let reference = common::store_endpoint::store_endpoint(fresh.clone(), |_, _| false);
    let url = reference.url();
    let a: Vec<String> = args(&url);
    json(&a.iter().map(String::as_str).collect::<Vec<_>>());
    let graph_of = |s: &Store| -> BTreeSet<String> {
        s.quads_for_pattern(
            None,
            None,
            None,
            Some(GraphNameRef::NamedNode(NamedNodeRef::new(GRAPH).unwrap())),
        )
        .map(|q| q.unwrap().to_string())
        .collect()
    };
    assert_eq!(graph_of(&store), graph_of(&fresh));
    assert!(!graph_of(&store).is_empty());
}

#[test]
fn applying_a_model_without_support_asks_for_individuals() {
    let (kb, _) = generated_items();
    let kb = kb.to_str().unwrap();
    let model = generated_model("owl-boost");
    let m = model.to_str().unwrap();
    for command in ["predict", "enrich"] {
        let mut args = vec![command, "--kb", kb, "--model", m];
        if command == "enrich" {
            args.extend(["--graph", GRAPH, "--target-class", UNCLE, "--dry-run"]);
        }
        let err = fails_with(&args);
        assert!(
            err.contains("--scope EXPR")
                && err.contains("--scope-query")
                && err.contains("--whole-kb"),
            "{command}: {err}"
        );
        args.extend(["--scope", "<http://example.org/gen#Item>"]);
        oxilearn(&args)
            .status
            .success()
            .then_some(())
            .expect("a scope is enough");
    }
    let celoe = generated_model("celoe");
    let err = fails_with(&[
        "predict",
        "--kb",
        kb,
        "--model",
        celoe.to_str().unwrap(),
        "--scope",
        "not <http://example.org/gen#Part>",
    ]);
    assert!(
        err.contains("--whole-kb") && err.contains("--scope-query"),
        "{err}"
    );
    let err = fails_with(&[
        "predict",
        "--kb",
        kb,
        "--model",
        celoe.to_str().unwrap(),
        "--scope-query",
        "SELECT ?a ?b WHERE { ?a ?p ?b }",
    ]);
    assert!(err.contains("one projected variable"), "{err}");
}

fn write_nquads(store: &Store, path: &Path) {
    let text: String = store
        .iter()
        .map(|q| format!("{} .\n", q.unwrap()))
        .collect();
    std::fs::write(path, text).unwrap();
}

/// The triples of `graph` in the dataset file `path`, as N-Triples lines.
fn graph_triples(path: &Path, graph: &str) -> BTreeSet<String> {
    let store = load(path);
    store
        .quads_for_pattern(
            None,
            None,
            None,
            Some(GraphNameRef::NamedNode(NamedNodeRef::new(graph).unwrap())),
        )
        .map(|q| {
            let q = q.unwrap();
            format!("{} {} {}", q.subject, q.predicate, q.object)
        })
        .collect()
}

#[test]
fn refreshing_after_random_changes_equals_a_full_rerun() {
    let class = format!("{SOCIAL}Target");
    let (crisp, scored) = (temp("social-crisp.json"), temp("social-scored.json"));
    social_model(&crisp, CRISP);
    social_model(&scored, SCORED);
    let mut moved = 0;
    for (name, model, depth, extra) in [
        ("crisp", &crisp, 2, &[][..]),
        ("scored", &scored, 1, &["--threshold", "0.5"][..]),
    ] {
        let mut rng = Lcg(7);
        let start = temp(&format!("social-{name}-0.nq"));
        std::fs::write(&start, social_kb(&mut rng)).unwrap();
        let run = |kb: &Path, out: &Path, more: &[&str]| {
            let mut args = vec![
                "enrich",
                "--kb",
                kb.to_str().unwrap(),
                "--model",
                model.to_str().unwrap(),
                "--graph",
                GRAPH,
                "--target-class",
                &class,
                "--out",
                out.to_str().unwrap(),
                "--json",
            ];
            args.extend_from_slice(extra);
            args.extend_from_slice(more);
            json(&args)
        };
        let mut current = temp(&format!("social-{name}-full-0.nq"));
        run(&start, &current, &[]);
        for round in 1..=3 {
            let store = load(&current);
            let changed = change_randomly(&store, &mut rng, 4);
            let mutated = temp(&format!("social-{name}-mutated-{round}.nq"));
            write_nquads(&store, &mutated);
            let query = temp(&format!("social-{name}-changed-{round}.rq"));
            let values: Vec<String> = changed.iter().map(|i| format!("<{i}>")).collect();
            std::fs::write(
                &query,
                format!("SELECT ?x WHERE {{ VALUES ?x {{ {} }} }}", values.join(" ")),
            )
            .unwrap();
            let refreshed = temp(&format!("social-{name}-refreshed-{round}.nq"));
            let at_query = format!("@{}", query.display());
            let report = run(&mutated, &refreshed, &["--changed-query", &at_query]);
            let full = temp(&format!("social-{name}-full-{round}.nq"));
            run(&mutated, &full, &[]);
            assert_eq!(
                graph_triples(&refreshed, GRAPH),
                graph_triples(&full, GRAPH),
                "{name}, round {round}: the patched graph differs from a full rerun ({report})"
            );
            assert_eq!(report["depth"], depth, "{report}");
            assert!(
                report["affected"].as_u64().unwrap() < 150,
                "a refresh asks about the neighbourhood of the changes only: {report}"
            );
            moved += report["gained"].as_u64().unwrap() + report["lost"].as_u64().unwrap();
            current = refreshed;
        }
    }
    assert!(moved > 0, "the random changes changed some predictions");
}

#[test]
fn a_refresh_refuses_a_graph_another_run_wrote() {
    let class = format!("{SOCIAL}Target");
    let (crisp, other) = (temp("refuse-crisp.json"), temp("refuse-other.json"));
    social_model(&crisp, &[("<ex:knows> some <ex:B>", 1.0)]);
    social_model(&other, &[("<ex:knows> some <ex:A>", 1.0)]);
    let kb = temp("social-refuse.nq");
    std::fs::write(&kb, social_kb(&mut Lcg(3))).unwrap();
    let out = temp("social-refuse-out.nq");
    let enrich = |model: &Path, kb: &Path, more: &[&str]| {
        let mut args = vec![
            "enrich".to_owned(),
            "--kb".into(),
            kb.to_str().unwrap().into(),
            "--model".into(),
            model.to_str().unwrap().into(),
            "--graph".into(),
            GRAPH.into(),
            "--target-class".into(),
            class.clone(),
            "--out".into(),
            out.to_str().unwrap().into(),
        ];
        args.extend(more.iter().map(|s| s.to_string()));
        args
    };
    let args = enrich(&crisp, &kb, &[]);
    let refs: Vec<&str> = args.iter().map(String::as_str).collect();
    assert!(oxilearn(&refs).status.success());
    let query = format!("--changed-query=SELECT ?x WHERE {{ VALUES ?x {{ <{SOCIAL}p001> }} }}");
    for (model, more, expected) in [
        (&other, vec![query.as_str()], "no predictions of this model"),
        (
            &crisp,
            vec![query.as_str(), "--threshold", "0.5"],
            "give the same --threshold",
        ),
    ] {
        let args = enrich(model, &out, &more);
        let refs: Vec<&str> = args.iter().map(String::as_str).collect();
        let err = fails_with(&refs);
        assert!(err.contains(expected), "{err}");
    }
}

//! `enrich` through the update endpoints of the CI servers (Oxigraph server, Virtuoso 7):
//! the graph holds exactly the predicted members, reruns change nothing, and a query
//! without a named graph does not see the predictions unless asked to. Skipped visibly
//! without the servers, a failure in CI.

use crate::common;

use std::collections::BTreeSet;

use common::cli_run::{json, learn_family_model_with};
use common::endpoint_from_env as endpoint;
use oxilearn::enrich::endpoint::UpdateEndpoint;
use oxilearn::oracle::backend::HttpOptions;

const FAMILY: &str = "fixtures/family/family.ttl";
const DATA_GRAPH: &str = "http://oxilearn.test/fixtures/family";
const UNCLE: &str = "http://example.org/Uncle";

fn temp(name: &str) -> std::path::PathBuf {
    common::temp_path("remote-enrich", name)
}

/// CELOE's Uncle model, keeping its best solution only: a CELOE model scores with every
/// solution it keeps, and lower ones may use family's transitive `hasAncestor`, which
/// Virtuoso answers wrongly and oxilearn therefore refuses there (a clear error, tested in
/// the capability tests); the best, `not Child and hasSibling some Female`, it evaluates.
fn uncle_model() -> std::path::PathBuf {
    let path = temp("uncle.json");
    if !path.exists() {
        learn_family_model_with("Uncle", &path, &["--max-results", "1"]);
    }
    path
}

/// The instances of Uncle at the endpoint, over these graphs (none: its default graph).
fn members_in(query_url: &str, graphs: &[&str], extra: &[&str]) -> BTreeSet<String> {
    let concept = format!("<{UNCLE}>");
    let mut args = vec![
        "instances",
        "--endpoint",
        query_url,
        "--concept",
        &concept,
        "--json",
    ];
    for g in graphs {
        args.extend(["--graph", g]);
    }
    args.extend_from_slice(extra);
    let out = json(&args);
    out["individuals"]
        .as_array()
        .unwrap_or_else(|| panic!("instances JSON: {out}"))
        .iter()
        .map(|v| v.as_str().unwrap().to_owned())
        .collect()
}

fn enriches(query_url: &str, update_url: &str) {
    let model = uncle_model();
    let m = model.to_str().unwrap();
    let graph = format!("http://example.org/predictions/{}", std::process::id());
    let predicted = json(&["predict", "--kb", FAMILY, "--model", m, "--json"]);
    let expected: BTreeSet<String> = predicted["predictions"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|p| p["member"] == true)
        .map(|p| p["individual"].as_str().unwrap().to_owned())
        .collect();
    let run = |mode: &str| {
        json(&[
            "enrich",
            "--endpoint",
            query_url,
            "--read-graph",
            DATA_GRAPH,
            "--update-endpoint",
            update_url,
            "--model",
            m,
            "--graph",
            &graph,
            "--target-class",
            UNCLE,
            "--mode",
            mode,
            "--chunk-size",
            "7",
            "--timeout",
            "30",
            "--json",
        ])
    };
    let first = run("replace");
    assert_eq!(first["predicted_members"], expected.len());
    assert_eq!(first["written"]["added"], first["triples"]);
    // Individuals are those of the data graph: read both.
    assert_eq!(members_in(query_url, &[DATA_GRAPH, &graph], &[]), expected);
    for mode in ["replace", "append", "append"] {
        let again = run(mode);
        assert_eq!(again["written"]["added"], 0, "{mode}: {again}");
        assert_eq!(again["written"]["removed"], 0, "{mode}: {again}");
        assert_eq!(again["written"]["in_graph"], first["triples"], "{mode}");
    }
    // The predictions are not facts of the data graph.
    assert!(members_in(query_url, &[DATA_GRAPH], &[]).is_empty());
    check_default_graph(query_url, &expected);
    let cleanup = UpdateEndpoint::new(HttpOptions::local(query_url), update_url).unwrap();
    cleanup
        .drop_graph(&oxigraph::model::NamedNode::new(graph.as_str()).unwrap())
        .unwrap();
    assert!(members_in(query_url, &[DATA_GRAPH, &graph], &[]).is_empty());
}

/// Without `--graph`, an endpoint whose default graph is the union of all graphs (Virtuoso)
/// shows the predictions: they are left out unless `--include-predictions`. (An Oxigraph
/// server's default graph holds neither the data nor the predictions: nothing to see.)
fn check_default_graph(query_url: &str, expected: &BTreeSet<String>) {
    let default = members_in(query_url, &[], &[]);
    assert!(default.is_empty(), "{default:?}");
    let union_default = json(&[
        "instances",
        "--endpoint",
        query_url,
        "--concept",
        "<http://example.org/family#Female>",
        "--json",
    ])["count"]
        .as_u64()
        .unwrap()
        > 0;
    let included = members_in(query_url, &[], &["--include-predictions"]);
    if union_default {
        assert!(included.is_superset(expected), "{included:?}");
    } else {
        assert!(included.is_empty(), "{included:?}");
    }
}

#[test]
fn enrich_through_the_oxigraph_server() {
    let Some(query) = endpoint("OXILEARN_TEST_OXIGRAPH") else {
        return;
    };
    let update = query.replace("/query", "/update");
    enriches(&query, &update);
}

#[test]
fn enrich_through_virtuoso() {
    let Some(url) = endpoint("OXILEARN_TEST_VIRTUOSO") else {
        return;
    };
    enriches(&url, &url);
}

const TRAINS: &str = "fixtures/trains/trains.ttl";
const TRAINS_GRAPH: &str = "http://oxilearn.test/fixtures/trains";

/// The trains TBC model for Eastbound (closed-world features: it has a support to list; no
/// transitive role, which Virtuoso cannot be asked about).
fn trains_tbc_model() -> std::path::PathBuf {
    let path = temp("eastbound-tbc.json");
    if !path.exists() {
        json(&[
            "learn",
            "--algorithm",
            "tbc",
            "--kb",
            TRAINS,
            "--problems",
            "fixtures/trains/problems.json",
            "--semantics",
            "closed",
            "--max-tests",
            "3000",
            "--quiet",
            "--json",
            "--save-model",
            path.to_str().unwrap(),
        ]);
    }
    path
}

/// A concept model written by hand: every `Person` (many candidates, no top-level boolean).
fn person_model() -> std::path::PathBuf {
    let path = temp("person.json");
    let doc = serde_json::json!({
        "format": "oxilearn-model", "version": 1, "algorithm": "celoe", "parameters": {},
        "problem": "Person", "signature_fingerprint": "fnv1a64:0",
        "model": {"quality": "f1", "semantics": "closed", "solutions": [{
            "concept": "<http://example.org/family#Person>",
            "tp": 1, "fp": 0, "tn": 0, "fn": 0, "quality": 1.0}]}
    });
    std::fs::write(&path, doc.to_string()).unwrap();
    path
}

/// The triples of `graph` at an endpoint, compared by value (Virtuoso's lexical forms).
fn graph_at(query_url: &str, graph: &str) -> BTreeSet<String> {
    use oxilearn::oracle::backend::{HttpBackend, SparqlBackend};
    let backend = HttpBackend::new(HttpOptions::local(query_url)).unwrap();
    let query = spargebra::SparqlParser::new()
        .parse_query(&format!(
            "SELECT ?s ?p ?o WHERE {{ GRAPH <{graph}> {{ ?s ?p ?o }} }}"
        ))
        .unwrap();
    let g = oxigraph::model::NamedNode::new(graph).unwrap();
    backend
        .select(&query)
        .unwrap()
        .rows
        .into_iter()
        .map(|row| {
            let [Some(s), Some(oxigraph::model::Term::NamedNode(p)), Some(o)] =
                <[Option<oxigraph::model::Term>; 3]>::try_from(row).unwrap()
            else {
                panic!("an unexpected row")
            };
            let s = match s {
                oxigraph::model::Term::NamedNode(n) => oxigraph::model::NamedOrBlankNode::from(n),
                other => panic!("unexpected subject {other}"),
            };
            oxilearn::enrich::compare::quad_key(&oxigraph::model::Quad::new(s, p, o, g.clone()))
        })
        .collect()
}

/// The triples of `graph` the embedded run writes into its dataset file.
fn graph_in_file(kb: &str, model: &str, graph: &str) -> BTreeSet<String> {
    let out = temp(&format!("{}.nq", oxilearn::oxl::fnv1a64(&[model, graph])));
    json(&[
        "enrich",
        "--kb",
        kb,
        "--model",
        model,
        "--graph",
        graph,
        "--target-class",
        UNCLE,
        "--out",
        out.to_str().unwrap(),
        "--json",
    ]);
    graph_in_dataset(&out, graph)
}

/// The triples of `graph` in the dataset file `path`, compared by value.
fn graph_in_dataset(path: &std::path::Path, graph: &str) -> BTreeSet<String> {
    let store = oxigraph::store::Store::new().unwrap();
    oxilearn::files::load_file(&store, path, None).unwrap();
    let g = oxigraph::model::NamedNodeRef::new(graph).unwrap();
    store
        .quads_for_pattern(
            None,
            None,
            None,
            Some(oxigraph::model::GraphNameRef::NamedNode(g)),
        )
        .map(|q| oxilearn::enrich::compare::quad_key(&q.unwrap()))
        .collect()
}

/// The same graph from the embedded store and from the endpoint, for a crisp model (the
/// store evaluates it where its query shapes allow) and a scored one (paged).
fn same_graph_as_embedded(query_url: &str, update_url: &str) {
    let runs = [
        (FAMILY, DATA_GRAPH, uncle_model(), "4"),
        (TRAINS, TRAINS_GRAPH, trains_tbc_model(), "4"),
        // No top-level boolean: the store evaluates it even on Virtuoso, in 16 buckets
        // (the page size is also the store's here).
        (FAMILY, DATA_GRAPH, person_model(), "1"),
    ];
    for (kb, data, model, page) in runs {
        let m = model.to_str().unwrap();
        let graph = format!(
            "http://example.org/differential/{}/{}",
            std::process::id(),
            oxilearn::oxl::fnv1a64(&[m])
        );
        let expected = graph_in_file(kb, m, &graph);
        assert!(expected.len() > 10, "{m}: {expected:?}");
        let summary = json(&[
            "enrich",
            "--endpoint",
            query_url,
            "--read-graph",
            data,
            "--update-endpoint",
            update_url,
            "--model",
            m,
            "--graph",
            &graph,
            "--target-class",
            UNCLE,
            "--page-size",
            page,
            "--store-page-size",
            page,
            "--timeout",
            "30",
            "--json",
        ]);
        assert_eq!(graph_at(query_url, &graph), expected, "{m}: {summary}");
        if page == "1" {
            assert_eq!(summary["evaluated_in_store"], true, "{summary}");
        }
        let cleanup = UpdateEndpoint::new(HttpOptions::local(query_url), update_url).unwrap();
        cleanup
            .drop_graph(&oxigraph::model::NamedNode::new(graph.as_str()).unwrap())
            .unwrap();
    }
}

#[test]
fn enrich_writes_the_embedded_graph_at_the_oxigraph_server() {
    let Some(query) = endpoint("OXILEARN_TEST_OXIGRAPH") else {
        return;
    };
    let update = query.replace("/query", "/update");
    same_graph_as_embedded(&query, &update);
}

#[test]
fn enrich_writes_the_embedded_graph_at_virtuoso() {
    let Some(url) = endpoint("OXILEARN_TEST_VIRTUOSO") else {
        return;
    };
    same_graph_as_embedded(&url, &url);
}

/// Refreshing at an endpoint after its data changed writes the graph an embedded full run
/// over the changed data writes, for a crisp and a scored model.
fn refreshes_like_a_full_run(query_url: &str, update_url: &str) {
    use common::social::{CRISP, Lcg, SCORED, SOCIAL, change_randomly, social_kb, social_model};
    use oxilearn::enrich::staged::UpdateTarget;
    let pid = std::process::id();
    let data = format!("http://example.org/refresh-data/{pid}");
    let endpoint = UpdateEndpoint::new(HttpOptions::local(query_url), update_url).unwrap();
    let mut rng = Lcg(11);
    let store = oxigraph::store::Store::new().unwrap();
    store
        .update(&format!("INSERT DATA {{ {} }}", social_kb(&mut rng)))
        .unwrap();
    let triples = |store: &oxigraph::store::Store| -> BTreeSet<String> {
        store
            .iter()
            .map(|q| {
                let q = q.unwrap();
                format!("{} {} {} .", q.subject, q.predicate, q.object)
            })
            .collect()
    };
    let load = format!(
        "INSERT DATA {{ GRAPH <{data}> {{ {} }} }}",
        triples(&store).into_iter().collect::<Vec<_>>().join("\n")
    );
    endpoint
        .update("loading the social KB", &load, false)
        .unwrap();
    let class = format!("{SOCIAL}Target");
    for (name, solutions, extra) in [
        ("crisp", CRISP, &[][..]),
        ("scored", SCORED, &["--threshold", "0.5"][..]),
    ] {
        let model = temp(&format!("social-{name}.json"));
        social_model(&model, solutions);
        let graph = format!("http://example.org/refreshed/{pid}/{name}");
        let enrich = |more: &[&str]| {
            let mut args = vec![
                "enrich",
                "--endpoint",
                query_url,
                "--read-graph",
                &data,
                "--update-endpoint",
                update_url,
                "--model",
                model.to_str().unwrap(),
                "--graph",
                &graph,
                "--target-class",
                &class,
                "--timeout",
                "30",
                "--json",
            ];
            args.extend_from_slice(extra);
            args.extend_from_slice(more);
            json(&args)
        };
        enrich(&[]);
        let before = triples(&store);
        let changed = change_randomly(&store, &mut rng, 4);
        let after = triples(&store);
        let lines = |a: &BTreeSet<String>, b: &BTreeSet<String>| {
            a.difference(b).cloned().collect::<Vec<_>>().join("\n")
        };
        let change = format!(
            "DELETE DATA {{ GRAPH <{data}> {{ {} }} }} ;\nINSERT DATA {{ GRAPH <{data}> {{ {} }} }}",
            lines(&before, &after),
            lines(&after, &before)
        );
        endpoint
            .update("changing the social KB", &change, false)
            .unwrap();
        let values: Vec<String> = changed.iter().map(|i| format!("<{i}>")).collect();
        let query = format!("SELECT ?x WHERE {{ VALUES ?x {{ {} }} }}", values.join(" "));
        let report = enrich(&["--changed-query", &query]);
        // The reference: a full run over the changed data, embedded.
        let kb = temp(&format!("social-{name}-changed.nt"));
        std::fs::write(&kb, after.into_iter().collect::<Vec<_>>().join("\n")).unwrap();
        let out = temp(&format!("social-{name}-full.nq"));
        let mut args = vec![
            "enrich",
            "--kb",
            kb.to_str().unwrap(),
            "--model",
            model.to_str().unwrap(),
            "--graph",
            &graph,
            "--target-class",
            &class,
            "--out",
            out.to_str().unwrap(),
            "--json",
        ];
        args.extend_from_slice(extra);
        json(&args);
        let expected = graph_in_dataset(&out, &graph);
        assert_eq!(graph_at(query_url, &graph), expected, "{name}: {report}");
        endpoint
            .drop_graph(&oxigraph::model::NamedNode::new(graph.as_str()).unwrap())
            .unwrap();
    }
    endpoint
        .drop_graph(&oxigraph::model::NamedNode::new(data.as_str()).unwrap())
        .unwrap();
}

#[test]
fn refresh_at_the_oxigraph_server_equals_a_full_embedded_run() {
    let Some(query) = endpoint("OXILEARN_TEST_OXIGRAPH") else {
        return;
    };
    let update = query.replace("/query", "/update");
    refreshes_like_a_full_run(&query, &update);
}

#[test]
fn refresh_at_virtuoso_equals_a_full_embedded_run() {
    let Some(url) = endpoint("OXILEARN_TEST_VIRTUOSO") else {
        return;
    };
    refreshes_like_a_full_run(&url, &url);
}

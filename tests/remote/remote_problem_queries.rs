//! Problems whose examples come from the KB, at the CI servers: a problem defined only by
//! `--positives-query`/`--negatives-query` learns, at the endpoint, what the listed problem
//! learns embedded; `--describe-class` draws the same examples there as embedded. Skipped
//! visibly without the servers, a failure in CI.

use crate::common;

use common::cli_run::json;
use common::endpoint_from_env as endpoint;
use serde_json::Value;

const FAMILY: &str = "fixtures/family/family.ttl";
const GRAPH: &str = "http://oxilearn.test/fixtures/family";
const POSITIVES_QUERY: &str = "PREFIX fam: <http://example.org/family#> \
     SELECT DISTINCT ?p WHERE { ?p a fam:Male ; fam:hasChild ?c }";
const NEGATIVES_QUERY: &str =
    "PREFIX fam: <http://example.org/family#> SELECT ?n WHERE { ?n a fam:Female }";

/// The IRIs `query` binds over the family fixture, by Oxigraph embedded (not oxilearn).
fn answers(query: &str) -> Vec<String> {
    use oxigraph::sparql::{QueryResults, SparqlEvaluator};
    let store = common::store_of(&[std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join(FAMILY)]);
    let QueryResults::Solutions(rows) = SparqlEvaluator::new()
        .parse_query(query)
        .unwrap()
        .on_store(&store)
        .execute()
        .unwrap()
    else {
        panic!("a SELECT")
    };
    let mut out: Vec<String> = rows
        .filter_map(|r| match r.unwrap().values()[0].clone() {
            Some(oxigraph::model::Term::NamedNode(n)) => Some(n.into_string()),
            _ => None,
        })
        .collect();
    out.sort();
    out.dedup();
    out
}

fn best(run: &Value) -> (String, Value, Value, Value, Value) {
    let s = &run["solutions"][0];
    let text = s["manchester"].as_str().unwrap().to_owned();
    (
        text,
        s["tp"].clone(),
        s["fp"].clone(),
        s["tn"].clone(),
        s["fn"].clone(),
    )
}

fn learn(kb: &[&str], rest: &[&str]) -> Value {
    let mut args = vec!["learn", "--max-tests", "2000", "--quiet", "--json"];
    args.extend_from_slice(kb);
    args.extend_from_slice(rest);
    json(&args)[0].clone()
}

fn queries_learn_as_the_listed_problem(url: &str) {
    let listed = common::temp_path("remote-problem-queries", "listed.json");
    let problem = serde_json::json!({
        "positive_examples": answers(POSITIVES_QUERY),
        "negative_examples": answers(NEGATIVES_QUERY),
    });
    std::fs::write(&listed, problem.to_string()).unwrap();
    let embedded = learn(&["--kb", FAMILY], &["--problems", listed.to_str().unwrap()]);
    let remote = learn(
        &["--endpoint", url, "--graph", GRAPH],
        &[
            "--positives-query",
            POSITIVES_QUERY,
            "--negatives-query",
            NEGATIVES_QUERY,
        ],
    );
    assert_eq!(remote["positives"], embedded["positives"]);
    assert_eq!(remote["negatives"], embedded["negatives"]);
    assert_eq!(best(&remote), best(&embedded));
    // Class learning draws the same sample at the endpoint as embedded.
    let father = "http://example.org/family#Father";
    let embedded = learn(&["--kb", FAMILY], &["--describe-class", father]);
    let remote = learn(
        &["--endpoint", url, "--graph", GRAPH],
        &["--describe-class", father],
    );
    assert_eq!(remote["positives"], embedded["positives"]);
    assert_eq!(remote["negatives"], embedded["negatives"]);
    assert_eq!(best(&remote), best(&embedded));
    assert_eq!(remote["solutions"][0]["f1"].as_f64(), Some(1.0), "{remote}");
}

#[test]
fn queries_at_the_oxigraph_server_learn_as_the_listed_problem_embedded() {
    let Some(url) = endpoint("OXILEARN_TEST_OXIGRAPH") else {
        return;
    };
    queries_learn_as_the_listed_problem(&url);
}

#[test]
fn queries_at_virtuoso_learn_as_the_listed_problem_embedded() {
    let Some(url) = endpoint("OXILEARN_TEST_VIRTUOSO") else {
        return;
    };
    queries_learn_as_the_listed_problem(&url);
}

//! Comunica (`comunica-sparql-file-http`) as an endpoint: its answer shapes reproduced on the
//! mock endpoint, the rewrite it needs, and the probe against a real Comunica server when
//! `OXILEARN_TEST_COMUNICA` is set (by `.ci/servers/up.sh`; skipped with a message otherwise,
//! a failure in CI).

use crate::common;

use std::time::Duration;

use common::mock_endpoint::{MockEndpoint, Request, Response};
use oxilearn::oracle::backend::{Capabilities, HttpBackend, HttpOptions, SparqlBackend, probe};

/// Comunica 4's JSON results: the rows, then a top-level `metadata` member; `"head": {}`
/// without `vars` when no row matched.
fn comunica_body(var: &str, iris: &[&str]) -> String {
    let rows: Vec<String> = iris
        .iter()
        .map(|i| format!("{{\"{var}\":{{\"value\":\"{i}\",\"type\":\"uri\"}}}}"))
        .collect();
    let head = if iris.is_empty() {
        "{}".to_string()
    } else {
        format!("{{\"vars\":[\"{var}\"]}}")
    };
    format!(
        "{{\"head\": {head},\n\"results\": {{ \"bindings\": [\n{}\n]}},\n\"metadata\": {{ \"httpRequests\": 0 }}}}\n",
        rows.join(",\n")
    )
}

fn backend(url: String) -> HttpBackend {
    HttpBackend::new(HttpOptions {
        timeout: Duration::from_secs(5),
        retries: 0,
        ..HttpOptions::local(url)
    })
    .unwrap()
}

fn parse(text: &str) -> spargebra::Query {
    spargebra::SparqlParser::new().parse_query(text).unwrap()
}

#[test]
fn comunica_answer_shapes_are_read() {
    let mock = MockEndpoint::start(|r: &Request| {
        let q = r.query_text().unwrap_or_default();
        let iris: &[&str] = if q.contains("urn:none") {
            &[]
        } else {
            &["urn:a", "urn:b"]
        };
        Response::json(comunica_body("x", iris)).into()
    });
    let b = backend(mock.url());
    let t = b
        .select(&parse("SELECT ?x WHERE { ?x ?p ?o }"))
        .expect("Comunica's JSON results with `metadata` parse");
    assert_eq!(t.rows.len(), 2);
    let t = b
        .select(&parse("SELECT ?x WHERE { ?x <urn:none> ?o }"))
        .expect("an empty answer without head.vars parses");
    assert!(t.rows.is_empty());
    assert_eq!(t.column("x"), Some(0), "the query's column: {t:?}");
    assert_eq!(mock.request_count(), 2, "no retries: the answers were read");
}

#[test]
fn nested_existence_tests_are_rewritten_where_the_probe_says_so() {
    let mock = MockEndpoint::start(|_: &Request| Response::json(comunica_body("x", &[])).into());
    let b = backend(mock.url());
    let nested = parse(
        "SELECT ?x WHERE { VALUES ?x { <urn:a> } FILTER EXISTS { ?x <urn:r> ?y \
         FILTER NOT EXISTS { ?y a <urn:C> } } }",
    );
    b.select(&nested).unwrap();
    b.remember_probe(&Capabilities {
        nested_exists: false,
        ..Capabilities::default()
    });
    b.select(&nested).unwrap();
    let sent: Vec<String> = mock
        .requests()
        .iter()
        .map(|r| r.query_text().unwrap_or_default())
        .collect();
    assert_eq!(
        sent[0].matches("EXISTS").count(),
        2,
        "as written: {}",
        sent[0]
    );
    assert_eq!(
        sent[1].matches("EXISTS").count(),
        1,
        "rewritten: {}",
        sent[1]
    );
    assert!(sent[1].contains("MINUS"), "{}", sent[1]);
}

#[test]
fn real_comunica_is_probed_right() {
    let url = match std::env::var("OXILEARN_TEST_COMUNICA") {
        Ok(url) if !url.is_empty() => url,
        _ if std::env::var_os("CI").is_some() => {
            panic!("OXILEARN_TEST_COMUNICA is not set: CI must start the servers")
        }
        _ => {
            eprintln!("skipping: OXILEARN_TEST_COMUNICA not set (run .ci/servers/up.sh)");
            return;
        }
    };
    let b = HttpBackend::new(HttpOptions::local(url)).unwrap();
    let caps = probe(&b).expect("probe");
    assert!(caps.missing().is_empty(), "{caps:?}");
    assert!(
        !caps.nested_exists,
        "Comunica 4 loses nested bindings: {caps:?}"
    );
    assert_eq!(b.probed(), Some(caps));
}

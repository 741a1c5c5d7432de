//! Differential tests against real servers on 127.0.0.1 (started by `.ci/servers/up.sh`, see
//! `.ci/run`): the Oxigraph server and Virtuoso must give the same signature and the same
//! covered sets as the embedded store and the reference evaluator, on thousands of random
//! concepts (every constructor, depth ≤ 3). Without the servers the tests skip with a message,
//! except in CI (`CI` set), where a missing server is a failure.

mod common;

use std::path::PathBuf;

use oxilearn::concept::to_manchester_full;
use oxilearn::oracle::backend::{HttpBackend, HttpOptions, require_capabilities};
use oxilearn::oracle::{CacheOptions, Cached, MembershipOracle, OracleOptions, SparqlOracle};
use oxilearn::refine::random::{RandomConcepts, RandomOptions};

/// The endpoint URL from the environment, or `None` (skip) outside CI.
fn endpoint(var: &str) -> Option<String> {
    match std::env::var(var) {
        Ok(url) if !url.is_empty() => Some(url),
        _ if std::env::var_os("CI").is_some() => {
            panic!("{var} is not set: CI must start the servers (.ci/servers/up.sh)")
        }
        _ => {
            eprintln!(
                "skipping: {var} not set (run .ci/servers/up.sh and source target/servers/env.sh)"
            );
            None
        }
    }
}

use common::sample;

fn remote_agrees(
    var: &str,
    graph: &str,
    file: PathBuf,
    concepts: usize,
    examples: usize,
    seed: u64,
) {
    let Some(url) = endpoint(var) else {
        return;
    };
    let local = common::pair(std::slice::from_ref(&file));
    let sig = local.signature();
    let backend =
        HttpBackend::new(HttpOptions::local(&url).with_default_graph(graph)).expect("backend");
    let caps = require_capabilities(&backend).expect("the server answers the required constructs");
    let options = OracleOptions {
        counting: caps.counting(),
        three_valued: caps.counting(),
        ..OracleOptions::default()
    };
    let remote = SparqlOracle::new(backend, options).expect("remote signature");
    let rsig = remote.shared_signature();
    assert_eq!(
        rsig.individuals, sig.individuals,
        "{var}: active domain of {graph}"
    );
    assert_eq!(rsig.classes, sig.classes, "{var}: classes of {graph}");
    assert_eq!(
        rsig.object_properties.keys().collect::<Vec<_>>(),
        sig.object_properties.keys().collect::<Vec<_>>(),
        "{var}: object properties of {graph}"
    );
    let cached = Cached::new(&remote, CacheOptions::default());
    let among = sample(sig.individual_count(), examples);
    // Without counting, cardinality restrictions must be refused clearly, never answered.
    if !caps.counting() {
        eprintln!("{var}: no counting restrictions on this endpoint (probe); checking the refusal");
        let role = sig.object_properties.keys().next().expect("a role").clone();
        let c = oxilearn::concept::Concept::min(
            2,
            oxilearn::concept::Role::new(role),
            oxilearn::concept::Concept::Top,
        );
        let err = remote.covered(&c, &among).expect_err("refused");
        assert!(err.to_string().contains("cardinality"), "{err}");
    }
    let random_options = RandomOptions {
        cardinalities: caps.counting(),
        ..RandomOptions::default()
    };
    let mut generator = RandomConcepts::new(&sig, seed, random_options);
    let mut mismatches = Vec::new();
    let mut errors = Vec::new();
    for i in 0..concepts {
        let c = generator.concept();
        let want = local.reference.covered(&c, &among).expect("reference");
        let embedded = local.sparql.covered(&c, &among).expect("embedded");
        // A clear error from the endpoint (e.g. Virtuoso's "Stack Overflow in cost model" on
        // deep nestings) is acceptable now and then; a wrong answer never is.
        let got = match remote.covered(&c, &among) {
            Ok(s) => s,
            Err(e) => {
                let message = e.to_string();
                assert!(message.contains("query"), "unclear error: {message}");
                errors.push(format!(
                    "{}: {}",
                    to_manchester_full(&c),
                    message.lines().next().unwrap_or("")
                ));
                continue;
            }
        };
        if got != want || embedded != want {
            mismatches.push(format!(
                "{var} covered differs for {}\nquery: {}\nreference {want:?}\nembedded  {embedded:?}\nremote    {got:?}",
                to_manchester_full(&c),
                remote.covered_query(&c, &among).map(|q| q.to_string()).unwrap_or_default(),
            ));
        }
        // Every 4th concept: three-valued truth (where the endpoint offers it) and the cached
        // path too.
        if i % 4 == 0 && caps.counting() {
            let t_want = local.reference.truth(&c, &among).expect("reference truth");
            match remote.truth(&c, &among) {
                Ok(t) if t == t_want => {}
                Ok(t) => mismatches.push(format!(
                    "{var} truth differs for {}\nreference {t_want:?}\nremote    {t:?}",
                    to_manchester_full(&c)
                )),
                Err(e) => mismatches.push(format!(
                    "{var}: truth of {} failed: {e}",
                    to_manchester_full(&c)
                )),
            }
            if cached.covered(&c, &among).ok().as_ref() != Some(&want) {
                mismatches.push(format!(
                    "{var} cached differs for {}",
                    to_manchester_full(&c)
                ));
            }
        }
        if mismatches.len() >= 5 {
            break;
        }
    }
    assert!(mismatches.is_empty(), "{}", mismatches.join("\n\n"));
    if !errors.is_empty() {
        eprintln!(
            "{var}: {} of {concepts} concepts got an endpoint error:\n{}",
            errors.len(),
            errors.join("\n")
        );
    }
    assert!(
        errors.len() * 20 <= concepts,
        "{var}: too many endpoint errors ({} of {concepts})",
        errors.len()
    );
    if !caps.counting() {
        let c = generator.concept();
        assert!(
            remote.truth(&c, &among).is_err(),
            "truth must be refused on {var}"
        );
    }
}

const OXIGRAPH: &str = "OXILEARN_TEST_OXIGRAPH";
const VIRTUOSO: &str = "OXILEARN_TEST_VIRTUOSO";

fn fixture(rel: &str) -> PathBuf {
    common::repo_path(rel)
}

#[test]
fn oxigraph_server_fixtures() {
    remote_agrees(
        OXIGRAPH,
        "http://oxilearn.test/fixtures/family",
        fixture("fixtures/family/family.ttl"),
        1000,
        1000,
        21,
    );
    remote_agrees(
        OXIGRAPH,
        "http://oxilearn.test/fixtures/trains",
        fixture("fixtures/trains/trains.ttl"),
        500,
        1000,
        22,
    );
}

/// Known failure, kept visible: on the family fixture (transitive `hasAncestor` under inverse
/// roles, symmetric roles nested in `only`) Virtuoso 7.2 answers "transitive start not given"
/// and "Stack Overflow in cost model", and then stops answering at all. The query shapes for
/// transitive roles need a Virtuoso-specific form (issue #3, open).
#[test]
#[ignore = "Virtuoso 7.2 fails and then crashes on transitive roles under inverses (issue #3)"]
fn virtuoso_fixtures() {
    remote_agrees(
        VIRTUOSO,
        "http://oxilearn.test/fixtures/family",
        fixture("fixtures/family/family.ttl"),
        1000,
        1000,
        21,
    );
    remote_agrees(
        VIRTUOSO,
        "http://oxilearn.test/fixtures/trains",
        fixture("fixtures/trains/trains.ttl"),
        500,
        1000,
        22,
    );
}

#[test]
fn oxigraph_server_family_benchmark() {
    if let Some(f) = common::shared_dataset("family/family-benchmark_rich_background.owl") {
        remote_agrees(OXIGRAPH, "http://oxilearn.test/family", f, 1000, 1000, 23);
    }
}

#[test]
fn virtuoso_family_benchmark() {
    if let Some(f) = common::shared_dataset("family/family-benchmark_rich_background.owl") {
        remote_agrees(VIRTUOSO, "http://oxilearn.test/family", f, 1000, 1000, 23);
    }
}

#[test]
fn oxigraph_server_carcinogenesis_sample() {
    if let Some(f) = common::shared_dataset("carcinogenesis/carcinogenesis.nt.gz") {
        remote_agrees(
            OXIGRAPH,
            "http://oxilearn.test/carcinogenesis",
            f,
            150,
            300,
            24,
        );
    }
}

#[test]
fn virtuoso_carcinogenesis_sample() {
    if let Some(f) = common::shared_dataset("carcinogenesis/carcinogenesis.nt.gz") {
        remote_agrees(
            VIRTUOSO,
            "http://oxilearn.test/carcinogenesis",
            f,
            150,
            300,
            24,
        );
    }
}

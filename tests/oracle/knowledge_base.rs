//! The front door over an endpoint: `KnowledgeBase::from_endpoint` against the Oxigraph
//! server of `.ci/servers/up.sh` (the family fixture in its own graph) sees the same KB as
//! `from_files`, and CELOE learns the same model with the same predictions through it.
//! Without the server the test skips visibly; in CI (`CI` set) it fails.

use crate::common::{datasets, mock_endpoint};

use std::io::Write as _;
use std::path::Path;

use oxilearn::learn::celoe::{Celoe, CeloeParams};
use oxilearn::learn::{RunControl, Termination};
use oxilearn::oracle::backend::HttpOptions;
use oxilearn::refine::rho::RhoOptions;
use oxilearn::{KnowledgeBase, KnowledgeBaseError};

const SERVER: &str = "OXILEARN_TEST_OXIGRAPH";
const FAMILY_GRAPH: &str = "http://oxilearn.test/fixtures/family";

fn server() -> Option<String> {
    match std::env::var(SERVER) {
        Ok(url) if !url.is_empty() => Some(url),
        _ if datasets::in_ci() => panic!("{SERVER} is not set: CI must start the servers"),
        _ => {
            // Past libtest's capture, as for missing datasets (tests/common/datasets.rs).
            let _ = writeln!(
                std::io::stderr().lock(),
                "skipped {}: {SERVER} not set (bash .ci/servers/up.sh && source target/servers/env.sh)",
                std::thread::current().name().unwrap_or("a test")
            );
            None
        }
    }
}

/// The members CELOE's model predicts among all individuals, by IRI, and its best concept.
fn learn_uncle(kb: &KnowledgeBase) -> (String, Vec<String>) {
    let problems = KnowledgeBase::load_problems(
        &Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/family/problems.json"),
        &["Uncle".to_owned()],
    )
    .expect("problems load");
    let examples = kb.examples(&problems[0]).expect("examples are individuals");
    let rho = kb.rho(RhoOptions::default()).expect("rho");
    let celoe = Celoe::new(CeloeParams::default(), &rho).expect("valid params");
    let run = celoe
        .run(
            kb.oracle(),
            &examples,
            &RunControl::unlimited().with_max_tests(5_000),
        )
        .expect("learns");
    assert_ne!(run.stats.termination, Termination::Cancelled);
    let best = run.model.best().expect("a solution");
    let members = run
        .model
        .members(kb.oracle(), &kb.individuals())
        .expect("predicts");
    let iris = kb.iris(&members).map(|i| i.as_str().to_owned()).collect();
    (kb.manchester(&best.concept), iris)
}

#[test]
fn endpoint_and_files_give_the_same_kb_model_and_predictions() {
    let Some(url) = server() else { return };
    let files = KnowledgeBase::from_files(&[
        Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/family/family.ttl")
    ])
    .expect("fixture loads");
    let remote =
        KnowledgeBase::from_endpoint(HttpOptions::local(&url).with_default_graph(FAMILY_GRAPH))
            .expect("the server is probed and its signature read");
    assert!(remote.store().is_none());
    assert_eq!(
        remote.signature().individuals,
        files.signature().individuals
    );
    assert_eq!(remote.signature().classes, files.signature().classes);
    assert_eq!(learn_uncle(&remote), learn_uncle(&files));
}

/// An endpoint answering every query with no rows.
fn empty_endpoint() -> mock_endpoint::MockEndpoint {
    mock_endpoint::MockEndpoint::start(|_| {
        mock_endpoint::Response::json(r#"{"head":{"vars":[]},"results":{"bindings":[]}}"#).into()
    })
}

#[test]
fn the_query_log_starts_before_the_capability_probe() {
    let mock = empty_endpoint();
    let log = std::env::temp_dir().join(format!("oxilearn-kb-log-{}.jsonl", std::process::id()));
    // Whether or not the probe accepts an endpoint that never answers rows, every request
    // it received is in the log, the probe's first.
    let _ = KnowledgeBase::builder()
        .log_queries(&log)
        .open_endpoint(HttpOptions {
            retries: 0,
            ..HttpOptions::local(mock.url())
        });
    let lines: Vec<serde_json::Value> = std::fs::read_to_string(&log)
        .expect("the log was written")
        .lines()
        .map(|l| serde_json::from_str(l).expect("one JSON object per line"))
        .collect();
    let requests = mock.requests();
    assert!(!requests.is_empty());
    assert_eq!(lines.len(), requests.len(), "every request is logged");
    assert_eq!(
        lines[0]["query"]
            .as_str()
            .map(|q| q.split_whitespace().collect::<String>()),
        requests[0]
            .query_text()
            .map(|q| q.split_whitespace().collect::<String>()),
        "the first request, the probe's, is the first line"
    );
    let _ = std::fs::remove_file(&log);
}

#[test]
fn an_endpoint_that_cannot_be_set_up_is_an_endpoint_error() {
    let err = KnowledgeBase::from_endpoint(HttpOptions::local("ftp://example.org/sparql"))
        .expect_err("not http");
    assert!(
        matches!(err, KnowledgeBaseError::Endpoint { .. }),
        "{err:?}"
    );
    assert!(
        err.to_string().contains("ftp://example.org/sparql"),
        "{err}"
    );
}

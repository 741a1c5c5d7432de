//! The front door over an endpoint: `KnowledgeBase::from_endpoint` against the Oxigraph
//! server of `.ci/servers/up.sh` (the family fixture in its own graph) sees the same KB as
//! `from_files`, and CELOE learns the same model with the same predictions through it.
//! Without the server the test skips visibly; in CI (`CI` set) it fails.

#[path = "common/datasets.rs"]
mod datasets;

use std::io::Write as _;
use std::path::Path;

use oxilearn::KnowledgeBase;
use oxilearn::learn::celoe::{Celoe, CeloeParams};
use oxilearn::learn::{RunControl, Termination};
use oxilearn::oracle::backend::HttpOptions;
use oxilearn::refine::rho::RhoOptions;

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

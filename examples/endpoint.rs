//! The same as `embed_store`, against a SPARQL 1.1 endpoint that holds the KB: the capability
//! probe runs first, then CELOE learns one problem over the endpoint and every individual is
//! classified. Needs the `http` feature (on by default).
//!
//! ```sh
//! # e.g. an Oxigraph server holding fixtures/family/family.ttl in its default graph
//! cargo run --release --example endpoint -- http://127.0.0.1:7878/query
//! cargo run --release --example endpoint -- URL [--graph IRI] [PROBLEMS_FILE PROBLEM]
//! ```
//!
//! Credentials, if the endpoint needs them, come from `OXILEARN_ENDPOINT_TOKEN` or
//! `OXILEARN_ENDPOINT_USER`/`OXILEARN_ENDPOINT_PASSWORD`.

use std::error::Error;
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Duration;

use oxilearn::KnowledgeBase;
use oxilearn::learn::RunControl;
use oxilearn::oracle::backend::{Auth, HttpOptions};

#[path = "shared/learn_save_predict.rs"]
mod learn_save_predict;

fn main() -> ExitCode {
    match run() {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {}", chain(e.as_ref()));
            ExitCode::from(2)
        }
    }
}

struct Arguments {
    url: String,
    graph: Option<String>,
    problems: PathBuf,
    problem: String,
}

fn run() -> Result<(), Box<dyn Error>> {
    let args = arguments()?;

    // 1. The endpoint, probed: the oracle then writes only query shapes it answers correctly.
    let mut options = HttpOptions::new(args.url.as_str());
    options.timeout = Duration::from_secs(30);
    options.auth = Auth::from_env();
    if let Some(graph) = &args.graph {
        options = options.with_default_graph(graph.as_str());
    }
    let kb = KnowledgeBase::from_endpoint(options)?;
    for warning in kb.warnings() {
        eprintln!("warning: {warning}");
    }
    println!(
        "{}: {} individuals, probed and signature read in {:.0?}",
        args.url,
        kb.individuals().len(),
        kb.load_time()
    );

    // 2. The learning problem's examples, which must be individuals of the endpoint's data.
    let problems =
        KnowledgeBase::load_problems(&args.problems, std::slice::from_ref(&args.problem))?;
    let examples = kb.examples(&problems[0])?;

    // 3.–5. CELOE over the endpoint (the cache composes most answers locally), save and
    //       reload the model, predict with the loaded one.
    let control = RunControl::unlimited()
        .with_max_tests(20_000)
        .with_max_runtime(Duration::from_secs(60));
    learn_save_predict::run(&kb, &args.problem, examples, control)
}

/// `URL [--graph IRI] [PROBLEMS_FILE PROBLEM]`; the problem defaults to the bundled family
/// fixture's Uncle.
fn arguments() -> Result<Arguments, Box<dyn Error>> {
    const USAGE: &str = "usage: endpoint URL [--graph IRI] [PROBLEMS_FILE PROBLEM]";
    let mut rest: Vec<String> = std::env::args().skip(1).collect();
    let mut graph = None;
    if let Some(i) = rest.iter().position(|a| a == "--graph") {
        if i + 1 >= rest.len() {
            return Err(format!("--graph needs an IRI; {USAGE}").into());
        }
        graph = Some(rest.remove(i + 1));
        rest.remove(i);
    }
    let fixtures = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("fixtures/family");
    match rest.as_slice() {
        [url] => Ok(Arguments {
            url: url.clone(),
            graph,
            problems: fixtures.join("problems.json"),
            problem: "Uncle".to_owned(),
        }),
        [url, problems, problem] => Ok(Arguments {
            url: url.clone(),
            graph,
            problems: problems.into(),
            problem: problem.clone(),
        }),
        _ => Err(USAGE.into()),
    }
}

/// An error with its causes, `outer: inner: …`.
fn chain(e: &dyn Error) -> String {
    let mut text = e.to_string();
    let mut cause = e.source();
    while let Some(c) = cause {
        text.push_str(&format!(": {c}"));
        cause = c.source();
    }
    text
}

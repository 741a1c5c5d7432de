//! Embedding oxilearn in a platform that already has an Oxigraph store: learn a class
//! expression for one learning problem with CELOE, save the model, load it back and classify
//! every individual with the loaded model.
//!
//! ```sh
//! cargo run --release --example embed_store                       # bundled family fixture, Uncle
//! cargo run --release --example embed_store -- KB_FILE PROBLEMS_FILE PROBLEM
//! ```

use std::error::Error;
use std::path::PathBuf;
use std::process::ExitCode;

use oxilearn::KnowledgeBase;
use oxilearn::learn::RunControl;
use oxilearn::oxigraph::store::Store;

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

fn run() -> Result<(), Box<dyn Error>> {
    let (kb_file, problems_file, problem) = arguments()?;

    // 1. The platform's own store. oxilearn only reads it; here it is filled with a file,
    //    but any store the platform maintains will do (in memory or on disk).
    let store = Store::new()?;
    let report = oxilearn::files::load_file(&store, &kb_file, None)?;
    for warning in &report.warnings {
        eprintln!("warning: {}: {warning}", report.path.display());
    }
    let kb = KnowledgeBase::from_store(store)?;
    println!(
        "{}: {} triples, {} individuals, opened in {:.0?}",
        kb_file.display(),
        kb.triples(),
        kb.individuals().len(),
        kb.load_time()
    );

    // 2. The learning problem's examples as sets over this KB.
    let problems = KnowledgeBase::load_problems(&problems_file, std::slice::from_ref(&problem))?;
    let examples = kb.examples(&problems[0])?;
    println!(
        "problem {problem}: {} positive, {} negative examples",
        examples.positives().len(),
        examples.negatives().len()
    );

    // 3.–5. CELOE on the problem, save and reload the model, predict with the loaded one.
    learn_save_predict::run(
        &kb,
        &problem,
        examples,
        RunControl::unlimited().with_max_tests(20_000),
    )
}

/// `KB_FILE PROBLEMS_FILE PROBLEM`, or the bundled family fixture's Uncle problem.
fn arguments() -> Result<(PathBuf, PathBuf, String), Box<dyn Error>> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match args.as_slice() {
        [] => {
            let fixtures = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("fixtures/family");
            Ok((
                fixtures.join("family.ttl"),
                fixtures.join("problems.json"),
                "Uncle".to_owned(),
            ))
        }
        [kb, problems, problem] => Ok((kb.into(), problems.into(), problem.clone())),
        _ => Err("usage: embed_store [KB_FILE PROBLEMS_FILE PROBLEM]".into()),
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

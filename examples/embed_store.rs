//! Embedding oxilearn in a platform that already has an Oxigraph store: learn a class
//! expression for one learning problem with CELOE and classify every individual with it.
//!
//! ```sh
//! cargo run --release --example embed_store                       # bundled family fixture, Uncle
//! cargo run --release --example embed_store -- KB_FILE PROBLEMS_FILE PROBLEM
//! ```

use std::error::Error;
use std::path::PathBuf;
use std::process::ExitCode;

use oxilearn::KnowledgeBase;
use oxilearn::learn::celoe::{Celoe, CeloeParams};
use oxilearn::learn::search::Budget;
use oxilearn::oxigraph::store::Store;
use oxilearn::refine::rho::RhoOptions;

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
    let report = oxilearn::kb::load_file(&store, &kb_file, None)?;
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

    // 3. CELOE with the ρ operator over the KB; a test budget makes the run deterministic.
    let rho = kb.rho(RhoOptions::default())?;
    let params = CeloeParams {
        budget: Budget {
            max_tests: Some(20_000),
            ..Budget::default()
        },
        ..CeloeParams::default()
    };
    let run = Celoe::new(params, &rho)?.fit(kb.oracle(), &examples)?;
    let model = run.model;
    let best = model.best().ok_or("CELOE found no solution")?;
    println!(
        "learned: {}  (DL: {}; F1 {:.3}, {} concepts tested in {} ms, {:?})",
        kb.manchester(&best.concept),
        kb.dl(&best.concept),
        best.quality,
        run.stats.concepts_tested,
        run.stats.elapsed_ms,
        run.stats.termination
    );

    // 4. Save the model and load it back: added once the `Model` trait with its versioned
    //    JSON document lands (issue 10 §1); the prediction below then uses the loaded model.

    // 5. Predict: every individual of the KB, member or not.
    let all = kb.individuals();
    let members = model.predict(kb.oracle(), &all)?;
    for id in all.iter() {
        let iri = kb
            .signature()
            .individual_iri(id)
            .ok_or("an id outside the KB")?;
        let member = if members.contains(id) { "member" } else { "-" };
        println!("{member:>6}  {iri}");
    }
    println!("{} of {} individuals are members", members.len(), all.len());
    Ok(())
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

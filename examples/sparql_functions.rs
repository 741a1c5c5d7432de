//! A learned model inside SPARQL: learn a class expression for one problem with CELOE over
//! the platform's own Oxigraph store, register oxilearn's functions on a `SparqlEvaluator`
//! with the model under the problem's name, and filter every individual of the store by
//! `<urn:oxilearn:member>`; then the same with `<urn:oxilearn:covers>` and the model's
//! expression.
//! Prints how many oracle queries the filters cost (one computation per model or
//! expression, whatever the number of rows) and their time.
//!
//! ```sh
//! cargo run --release --example sparql_functions                   # family fixture, Uncle
//! cargo run --release --example sparql_functions -- KB_FILE PROBLEMS_FILE PROBLEM
//! ```

use std::error::Error;
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Instant;

use oxilearn::KnowledgeBase;
use oxilearn::learn::celoe::{Celoe, CeloeParams};
use oxilearn::learn::{Learner, RunControl, TrainingSet};
use oxilearn::oxigraph::model::Term;
use oxilearn::oxigraph::sparql::{QueryResults, SparqlEvaluator};
use oxilearn::oxigraph::store::Store;
use oxilearn::refine::rho::RhoOptions;
use oxilearn::sparql_functions::SparqlFunctions;

fn main() -> ExitCode {
    match run() {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::from(2)
        }
    }
}

fn run() -> Result<(), Box<dyn Error>> {
    let (kb_file, problems_file, problem) = arguments()?;

    // The platform's store; oxilearn opens a KnowledgeBase over it (sharing, not copying).
    let store = Store::new()?;
    oxilearn::files::load_file(&store, &kb_file, None)?;
    let kb = KnowledgeBase::from_store(store.clone())?;

    // A model to put inside SPARQL: CELOE on the problem, a bounded deterministic run.
    let problems = KnowledgeBase::load_problems(&problems_file, std::slice::from_ref(&problem))?;
    let examples = kb.examples(&problems[0])?;
    let rho = kb.rho(RhoOptions::default())?;
    let fit = Celoe::new(CeloeParams::default(), &rho)?.fit(
        kb.oracle(),
        &TrainingSet::from_examples(examples),
        &RunControl::unlimited().with_max_tests(2_000),
    )?;
    println!("model {problem}: {}", fit.model.describe(kb.vocabulary()));
    // `covers` with the model's expression must find the same members.
    let expression = fit
        .model
        .concept()
        .map(|c| kb.manchester(c))
        .ok_or("the model has no class expression")?;

    // The functions over a KB of their own (a cold cache, as in a separate classification
    // job: the learner's cache already knows the model's expressions), with the model.
    drop(kb);
    let functions = SparqlFunctions::new(KnowledgeBase::from_store(store.clone())?);
    functions.add_model(&problem, fit.model);
    let individuals = functions.knowledge_base().individuals().len();

    let member = format!(
        r#"SELECT (COUNT(*) AS ?rows) (COUNT(DISTINCT ?x) AS ?members) WHERE {{
             ?x a ?t FILTER(<urn:oxilearn:member>(?x, "{problem}")) }}"#
    );
    let covers = format!(
        r#"SELECT (COUNT(*) AS ?rows) (COUNT(DISTINCT ?x) AS ?members) WHERE {{
             ?x a ?t FILTER(<urn:oxilearn:covers>(?x, "{}")) }}"#,
        expression.replace('\\', "\\\\").replace('"', "\\\"")
    );
    for (label, query) in [
        ("member, first use", member.as_str()),
        ("member, memoised", member.as_str()),
        ("covers, first use", covers.as_str()),
    ] {
        let before = functions.oracle_stats().queries_sent;
        let start = Instant::now();
        let prepared = functions.prepare(SparqlEvaluator::new(), query)?;
        let QueryResults::Solutions(mut rows) = prepared.on_store(&store).execute()? else {
            return Err("not a SELECT".into());
        };
        let row = rows.next().ok_or("no row")??;
        let value = |v: &str| {
            row.get(v)
                .map(|t| match t {
                    Term::Literal(l) => l.value().to_owned(),
                    other => other.to_string(),
                })
                .unwrap_or_else(|| "?".to_owned())
        };
        println!(
            "{label}: {} rows pass the filter, {} distinct members, {} oracle queries, {:.1} ms \
             ({individuals} individuals)",
            value("rows"),
            value("members"),
            functions.oracle_stats().queries_sent - before,
            start.elapsed().as_secs_f64() * 1e3
        );
        let errors = prepared.errors().messages();
        if !errors.is_empty() {
            return Err(errors.join("; ").into());
        }
    }
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
        _ => Err("usage: sparql_functions [KB_FILE PROBLEMS_FILE PROBLEM]".into()),
    }
}

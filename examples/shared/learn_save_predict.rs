//! The part both examples share: CELOE on one problem, the model saved as its versioned JSON
//! document and loaded back (as a platform would between a training and a classification
//! job), then every individual classified with the loaded model.

use std::error::Error;

use oxilearn::KnowledgeBase;
use oxilearn::learn::celoe::{Celoe, CeloeParams};
use oxilearn::learn::{Examples, Learner, RunControl, TrainingSet, document};
use oxilearn::refine::rho::RhoOptions;

pub fn run(
    kb: &KnowledgeBase,
    problem: &str,
    examples: Examples,
    control: RunControl,
) -> Result<(), Box<dyn Error>> {
    // CELOE with the ρ operator over the KB (a test budget makes the run deterministic).
    let rho = kb.rho(RhoOptions::default())?;
    let celoe = Celoe::new(CeloeParams::default(), &rho)?;
    let fit = celoe.fit(kb.oracle(), &TrainingSet::from_examples(examples), &control)?;
    let best = fit.solutions.first().ok_or("CELOE found no solution")?;
    println!(
        "learned: {}  (DL: {}; F1 {:.3}; {} concepts tested, {} queries sent, {} ms, {})",
        kb.manchester(&best.concept),
        kb.dl(&best.concept),
        best.quality,
        fit.stats.concepts_tested,
        fit.stats.queries_sent,
        fit.stats.elapsed_ms,
        fit.stats.termination.name()
    );

    // Save the model (everything named by IRI) and load it back.
    let saved = document::to_json(
        fit.model.as_ref(),
        celoe.parameters(),
        Some(problem),
        kb.signature(),
    )?;
    let path = std::env::temp_dir().join(format!("oxilearn-{problem}-{}.json", std::process::id()));
    std::fs::write(&path, &saved)?;
    let loaded = document::from_json(&std::fs::read_to_string(&path)?, kb.signature());
    std::fs::remove_file(&path)?;
    let loaded = loaded?;
    for warning in &loaded.warnings {
        eprintln!("warning: {warning}");
    }
    println!(
        "saved and reloaded: {}",
        loaded.model.describe(kb.vocabulary())
    );

    // Predict with the loaded model: every individual of the KB, member or not.
    let all = kb.individuals();
    let predictions = loaded.model.predict(kb.oracle(), &all)?;
    let mut members = 0;
    for p in &predictions {
        let iri = kb
            .signature()
            .individual_iri(p.individual)
            .ok_or("an id outside the KB")?;
        members += usize::from(p.member);
        let mark = if p.member { "member" } else { "-" };
        println!("{mark:>6}  {iri}");
    }
    println!("{members} of {} individuals are members", all.len());
    Ok(())
}

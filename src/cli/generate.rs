//! `oxilearn generate-problems`: seeded random targets as a list-JSON problem file.

use anyhow::{Context, bail};

use super::args::GenerateArgs;
use super::kb_source;
use super::sample::sample_individuals;
use crate::KnowledgeBase;
use crate::learn::targets::{TargetOptions, generate_targets, targets_json};
use crate::oracle::{IndividualScope, Neighbourhood};

pub fn run(args: GenerateArgs) -> anyhow::Result<()> {
    if !(args.max_ratio.is_finite() && args.max_ratio >= 1.0) {
        bail!("--max-ratio must be a number ≥ 1, not {}", args.max_ratio);
    }
    if args.count == 0 {
        bail!("--count must be at least 1");
    }
    if args.max_individuals == 0 {
        bail!("--max-individuals must be at least 1");
    }
    let kb = open_sampled(&args)?;
    let mut options = TargetOptions::new(args.count, args.seed, args.semantics);
    options.min_size = args.min_size;
    options.max_ratio = args.max_ratio;
    options.max_depth = args.max_depth;
    if let Some(a) = args.attempts {
        options.max_attempts = a;
    }
    let targets = generate_targets(kb.oracle(), &options).context("evaluating random concepts")?;
    if targets.len() < args.count {
        eprintln!(
            "warning: only {} of {} targets found in {} attempts",
            targets.len(),
            args.count,
            options.max_attempts
        );
    }
    let json = targets_json(kb.oracle(), kb.vocabulary(), &targets);
    let text = serde_json::to_string_pretty(&json)?;
    match &args.out {
        Some(path) => std::fs::write(path, format!("{text}\n"))
            .with_context(|| format!("writing {}", path.display()))?,
        None => outln!("{text}"),
    }
    Ok(())
}

/// Opens the KB over a sample of at most `--max-individuals` individuals: the schema first
/// (an empty neighbourhood), then the sample's neighbourhood at depth 0, so the targets'
/// example sets come from the sample and the active domain is never enumerated.
fn open_sampled(args: &GenerateArgs) -> anyhow::Result<KnowledgeBase> {
    let schema = kb_source::open_kb(
        &args.kb,
        None,
        IndividualScope::Neighbourhood(Neighbourhood::of([])),
    )?;
    let seeds = sample_individuals(
        schema.oracle().inner().backend(),
        args.max_individuals,
        args.sorted_sample,
    )?;
    let mut n = Neighbourhood::of(seeds);
    n.depth = 0;
    n.max_individuals = args.max_individuals;
    let scope = IndividualScope::Neighbourhood(n);
    match schema.store() {
        // Reuse the loaded files instead of parsing them again (their warnings were
        // printed when they were loaded).
        Some(store) => kb_source::open_loaded(store.clone(), Vec::new(), &args.kb, scope),
        None => kb_source::open_kb(&args.kb, None, scope),
    }
}

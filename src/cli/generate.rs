//! `oxilearn generate-problems`: seeded random targets as a list-JSON problem file.

use anyhow::{Context, bail};

use super::args::GenerateArgs;
use super::kb_source;
use crate::learn::targets::{TargetOptions, generate_targets, targets_json};

pub fn run(args: GenerateArgs) -> anyhow::Result<()> {
    if !(args.max_ratio.is_finite() && args.max_ratio >= 1.0) {
        bail!("--max-ratio must be a number ≥ 1, not {}", args.max_ratio);
    }
    if args.count == 0 {
        bail!("--count must be at least 1");
    }
    let session = kb_source::open(&args.kb, None)?;
    let mut options = TargetOptions::new(args.count, args.seed, args.semantics.into());
    options.min_size = args.min_size;
    options.max_ratio = args.max_ratio;
    options.max_depth = args.max_depth;
    if let Some(a) = args.attempts {
        options.max_attempts = a;
    }
    let targets =
        generate_targets(&session.oracle, &options).context("evaluating random concepts")?;
    if targets.len() < args.count {
        eprintln!(
            "warning: only {} of {} targets found in {} attempts",
            targets.len(),
            args.count,
            options.max_attempts
        );
    }
    let json = targets_json(&session.oracle, &session.vocabulary, &targets);
    let text = serde_json::to_string_pretty(&json)?;
    match &args.out {
        Some(path) => std::fs::write(path, format!("{text}\n"))
            .with_context(|| format!("writing {}", path.display()))?,
        None => outln!("{text}"),
    }
    Ok(())
}

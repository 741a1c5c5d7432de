//! Reading the learning problems a command works on, and their examples as sets.

use std::path::{Path, PathBuf};

use anyhow::{Context, bail};

use super::kb_source::Session;
use crate::learn::Examples;
use crate::oracle::IndividualSet;
use crate::problem::{self, LearningProblem};

/// The problems of `path`, only those named (all when `names` is empty); an empty file is
/// an error.
pub fn load_selected(path: &Path, names: &[String]) -> anyhow::Result<Vec<LearningProblem>> {
    let problems = problem::load_problems(path)
        .with_context(|| format!("reading problems from {}", path.display()))?;
    let problems = if names.is_empty() {
        problems
    } else {
        problem::select(problems, names)?
    };
    if problems.is_empty() {
        bail!("{} holds no learning problem", path.display());
    }
    Ok(problems)
}

/// The KB a `.conf` file names, used when `--kb` is absent.
pub fn fallback_kb(problems: &[LearningProblem]) -> Option<PathBuf> {
    problems.iter().find_map(|p| p.kb_file.clone())
}

/// The example sets of a problem; every example that is not an individual is reported.
pub fn example_sets(
    session: &Session,
    p: &LearningProblem,
) -> anyhow::Result<(IndividualSet, IndividualSet)> {
    let sig = session.signature();
    problem::check_examples(p, |iri| sig.individual_id(iri).is_some())
        .with_context(|| format!("problem {}", p.name))?;
    let pos = sig.set_of(p.positives.iter().map(String::as_str));
    let neg = sig.set_of(p.negatives.iter().map(String::as_str));
    match (pos, neg) {
        (Ok(pos), Ok(neg)) => Ok((pos, neg)),
        (Err(u), _) | (_, Err(u)) => bail!("problem {}: unknown examples {u:?}", p.name),
    }
}

/// The examples of a problem, checked for a learner (positives present, no overlap).
pub fn examples_of(session: &Session, p: &LearningProblem) -> anyhow::Result<Examples> {
    let (pos, neg) = example_sets(session, p)?;
    Examples::new(pos, neg).with_context(|| format!("problem {}", p.name))
}

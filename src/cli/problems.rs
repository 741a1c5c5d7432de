//! Reading the learning problems a command works on. Their examples become sets through
//! the front door ([`crate::KnowledgeBase::examples`] for learners,
//! [`crate::KnowledgeBase::example_sets`] for scoring).

use std::path::{Path, PathBuf};

use anyhow::{Context, bail};

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

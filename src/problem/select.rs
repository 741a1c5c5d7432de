//! Picking problems by name and checking their examples against a KB.

use super::{LearningProblem, ProblemError};

/// The named problems, in the order asked; an empty `names` selects all of them.
pub fn select(
    problems: Vec<LearningProblem>,
    names: &[String],
) -> Result<Vec<LearningProblem>, ProblemError> {
    if names.is_empty() {
        return Ok(problems);
    }
    let unknown: Vec<String> = names
        .iter()
        .filter(|n| !problems.iter().any(|p| &p.name == *n))
        .cloned()
        .collect();
    if !unknown.is_empty() {
        return Err(ProblemError::UnknownProblems {
            unknown,
            available: problems.into_iter().map(|p| p.name).collect(),
        });
    }
    Ok(names
        .iter()
        .filter_map(|n| problems.iter().find(|p| &p.name == n).cloned())
        .collect())
}

/// Fails with every example `is_individual` rejects, positives and negatives listed apart.
pub fn check_examples(
    problem: &LearningProblem,
    is_individual: impl Fn(&str) -> bool,
) -> Result<(), ProblemError> {
    let missing = |list: &[String]| -> Vec<String> {
        list.iter().filter(|i| !is_individual(i)).cloned().collect()
    };
    let positives = missing(&problem.positives);
    let negatives = missing(&problem.negatives);
    if positives.is_empty() && negatives.is_empty() {
        Ok(())
    } else {
        Err(ProblemError::NotInKb {
            problem: problem.name.clone(),
            positives,
            negatives,
        })
    }
}

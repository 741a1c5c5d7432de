//! Turning raw example strings into a clean [`LearningProblem`]: one normal form whatever
//! the file format, so the learners can compare IRIs as plain strings.

use std::collections::HashSet;
use std::path::{Path, PathBuf};

use super::{LearningProblem, ProblemError};

/// Strips `<…>` and surrounding space and checks the result is an absolute IRI.
pub(crate) fn normalize_iri(raw: &str) -> Result<String, String> {
    let s = raw.trim();
    let s = s
        .strip_prefix('<')
        .and_then(|s| s.strip_suffix('>'))
        .unwrap_or(s)
        .trim();
    oxigraph::model::NamedNode::new(s)
        .map(oxigraph::model::NamedNode::into_string)
        .map_err(|e| format!("{raw:?} is not an absolute IRI ({e})"))
}

/// Builds the problem: duplicates dropped (first occurrence kept), and an example on both
/// sides is an error naming all such examples.
pub(crate) fn build(
    path: &Path,
    name: String,
    positives: Vec<String>,
    negatives: Vec<String>,
    target: Option<String>,
    kb_file: Option<PathBuf>,
) -> Result<LearningProblem, ProblemError> {
    let positives = dedup(positives);
    let negatives = dedup(negatives);
    let pos_set: HashSet<&str> = positives.iter().map(String::as_str).collect();
    let both: Vec<String> = negatives
        .iter()
        .filter(|n| pos_set.contains(n.as_str()))
        .cloned()
        .collect();
    if !both.is_empty() {
        return Err(ProblemError::Conflict {
            path: path.to_owned(),
            problem: name,
            iris: both,
        });
    }
    Ok(LearningProblem {
        name,
        positives,
        negatives,
        target,
        kb_file,
        kb_format: None,
        endpoint: None,
        degrees: Vec::new(),
        settings: None,
        describe_class: None,
        positives_query: None,
        negatives_query: None,
    })
}

/// Checks graded examples: every degree a number in [0, 1], no IRI twice.
pub(crate) fn check_degrees(degrees: &[(String, f64)]) -> Result<(), String> {
    let mut seen = HashSet::new();
    for (iri, d) in degrees {
        if !(d.is_finite() && (0.0..=1.0).contains(d)) {
            return Err(format!("{iri} has degree {d}; degrees lie in [0, 1]"));
        }
        if !seen.insert(iri.as_str()) {
            return Err(format!("{iri} has two degrees"));
        }
    }
    Ok(())
}

fn dedup(list: Vec<String>) -> Vec<String> {
    let mut seen = HashSet::new();
    list.into_iter()
        .filter(|s| seen.insert(s.clone()))
        .collect()
}

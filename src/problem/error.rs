//! The one error type of learning-problem handling; every variant says which file (and line,
//! where the format has lines) and what was expected there.

use std::fmt::Write as _;
use std::path::PathBuf;

/// Why learning problems could not be read, selected or checked.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum ProblemError {
    #[error("cannot read {path}: {cause}")]
    Io {
        path: PathBuf,
        cause: std::io::Error,
    },
    /// Bad syntax or an unexpected value; `line` and `column` (in characters) are 1-based.
    #[error("{}: {message}", located(.path, *.line, *.column))]
    Syntax {
        path: PathBuf,
        line: Option<usize>,
        column: Option<usize>,
        message: String,
    },
    /// The file is readable but is no learning-problem format we know.
    #[error("{}: {reason}", .path.display())]
    Unsupported { path: PathBuf, reason: String },
    /// Examples that are both positive and negative.
    #[error("{}: problem {problem:?} has {} examples that are both positive and negative: {}",
        .path.display(), .iris.len(), .iris.join(", "))]
    Conflict {
        path: PathBuf,
        problem: String,
        iris: Vec<String>,
    },
    /// `select` was asked for names the file does not define.
    #[error("unknown learning problem(s) {}; available: {}", .unknown.join(", "), .available.join(", "))]
    UnknownProblems {
        unknown: Vec<String>,
        available: Vec<String>,
    },
    /// Examples that are not individuals of the knowledge base.
    #[error("{}", missing_message(.problem, .positives, .negatives))]
    NotInKb {
        problem: String,
        positives: Vec<String>,
        negatives: Vec<String>,
    },
}

fn located(path: &std::path::Path, line: Option<usize>, column: Option<usize>) -> String {
    match (line, column) {
        (Some(l), Some(c)) => format!("{}:{l}:{c}", path.display()),
        (Some(l), None) => format!("{}:{l}", path.display()),
        _ => path.display().to_string(),
    }
}

fn missing_message(problem: &str, positives: &[String], negatives: &[String]) -> String {
    let mut s = format!(
        "problem {problem:?}: {} examples are not individuals of the knowledge base",
        positives.len() + negatives.len()
    );
    for (kind, list) in [("positive", positives), ("negative", negatives)] {
        if !list.is_empty() {
            let _ = write!(s, "; {} {kind}: {}", list.len(), list.join(", "));
        }
    }
    s
}

/// A syntax error at `line` of a line-based file (`.conf`), without a column.
pub(crate) fn syntax_error(path: &std::path::Path, line: usize, message: String) -> ProblemError {
    ProblemError::Syntax {
        path: path.to_owned(),
        line: Some(line),
        column: None,
        message,
    }
}

//! Errors of the learners.

use crate::oracle::OracleError;

#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum LearnError {
    #[error("invalid parameter {name}: {message}")]
    InvalidParameter { name: &'static str, message: String },
    #[error("the learning problem has no positive examples")]
    NoPositives,
    #[error("{count} individuals are both positive and negative examples")]
    OverlappingExamples { count: usize },
    #[error(transparent)]
    Oracle(#[from] OracleError),
}

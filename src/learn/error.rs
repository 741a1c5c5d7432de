//! Errors of the learners (one type for every learner).

use crate::eval::FoldError;
use crate::oracle::OracleError;

#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum LearnError {
    #[error("invalid parameter {name}: {message}")]
    InvalidParameter { name: &'static str, message: String },
    #[error("the learning problem has no positive examples")]
    NoPositives,
    #[error(
        "the learning problem needs positive and negative examples ({positives} positive, 0 negative)"
    )]
    NoNegatives { positives: usize },
    #[error("{count} individuals are both positive and negative examples")]
    OverlappingExamples { count: usize },
    #[error("invalid training data: {0}")]
    InvalidTraining(String),
    #[error("{learner} learns from {needs} examples, not {given} ones")]
    UnsupportedTraining {
        learner: &'static str,
        needs: &'static str,
        given: &'static str,
    },
    #[error("cannot read the model: {0}")]
    ModelFormat(String),
    #[error("cannot save the model: {0}")]
    ModelWrite(String),
    /// A model asked to predict under a semantics it cannot use (TBC's network is fitted
    /// on features read under one semantics).
    #[error(
        "a {algorithm} model predicts under the {trained}-world semantics it was trained \
         with, not {requested}-world"
    )]
    SemanticsMismatch {
        algorithm: &'static str,
        trained: &'static str,
        requested: &'static str,
    },
    #[error("cross-validation")]
    Folds(#[from] FoldError),
    #[error("the oracle failed")]
    Oracle(#[from] OracleError),
}

impl LearnError {
    pub(crate) fn invalid(name: &'static str, message: impl Into<String>) -> Self {
        LearnError::InvalidParameter {
            name,
            message: message.into(),
        }
    }
}

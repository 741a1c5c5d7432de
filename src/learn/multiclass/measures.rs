//! The multi-class measures of the rule learner's models: the crate's
//! ([`crate::eval::multiclass`]), which score any multi-class model.

pub use crate::eval::multiclass::{ConfusionMatrix, Outcome, Scores, score};

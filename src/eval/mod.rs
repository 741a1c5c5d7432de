//! Quality measures, written once as pure functions of confusion counts; stratified folds
//! and their summaries for cross-validation.

mod folds;
mod metrics;

pub use folds::{Fold, FoldError, Summary, stratified_folds};
pub use metrics::Confusion;

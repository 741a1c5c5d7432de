//! Quality measures, written once as pure functions of confusion counts or of scores;
//! stratified folds and their summaries for cross-validation.

mod folds;
mod metrics;
pub mod multiclass;
mod ranking;

pub use folds::{Fold, FoldError, Summary, stratified_deal, stratified_folds};
pub use metrics::{Confusion, ConfusionMatrix};
pub use ranking::{auc_pr, auc_roc};

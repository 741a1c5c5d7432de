//! Quality measures, written once as pure functions of confusion counts or of scores.

mod metrics;
mod ranking;

pub use metrics::Confusion;
pub use ranking::{auc_pr, auc_roc, mean_sd};

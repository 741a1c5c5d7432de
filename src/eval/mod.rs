//! Quality measures, written once as pure functions of confusion counts.

mod metrics;

pub use metrics::Confusion;

//! What a run reports besides its model (the `stats` object of `learn --json`).

use serde::Serialize;

use super::search::Termination;
use crate::oracle::OracleStats;

#[derive(Clone, Debug, Serialize)]
pub struct RunStats {
    /// Candidate concepts scored against the examples.
    pub concepts_tested: u64,
    pub queries_sent: u64,
    pub cache_hits: u64,
    pub cache_misses: u64,
    pub elapsed_ms: u64,
    pub termination: Termination,
    /// Nodes in the search tree at the end.
    pub nodes: usize,
    /// Refinements the operator produced, before the redundancy check.
    pub refinements: u64,
    pub max_horizontal_expansion: usize,
}

impl RunStats {
    /// The oracle counters of this run: `after − before`.
    pub fn oracle_delta(before: OracleStats, after: OracleStats) -> OracleStats {
        OracleStats {
            queries_sent: after.queries_sent - before.queries_sent,
            rows_received: after.rows_received - before.rows_received,
            backend_time_ns: after.backend_time_ns - before.backend_time_ns,
            cache_hits: after.cache_hits - before.cache_hits,
            cache_misses: after.cache_misses - before.cache_misses,
            composed: after.composed - before.composed,
            evaluations: after.evaluations - before.evaluations,
            politeness_wait_ns: after.politeness_wait_ns - before.politeness_wait_ns,
            politeness_delay_ms: after.politeness_delay_ms,
        }
    }

    /// Concepts tested per second of wall time.
    pub fn tests_per_second(&self) -> f64 {
        if self.elapsed_ms == 0 {
            self.concepts_tested as f64 * 1000.0
        } else {
            self.concepts_tested as f64 * 1000.0 / self.elapsed_ms as f64
        }
    }
}

//! Oracle statistics: what learners report after a run (queries sent, cache behaviour, time
//! spent in the store).

use std::sync::atomic::{AtomicU64, Ordering::Relaxed};
use std::time::Duration;

use serde::Serialize;

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
pub struct OracleStats {
    /// Queries sent to the backend.
    pub queries_sent: u64,
    /// Rows received from the backend.
    pub rows_received: u64,
    /// Time spent waiting for the backend.
    pub backend_time_ns: u64,
    /// Cache lookups answered from the cache.
    pub cache_hits: u64,
    /// Cache lookups that had to ask the wrapped oracle.
    pub cache_misses: u64,
    /// `⊓`/`⊔`/`¬` nodes answered by local set algebra instead of a query.
    pub composed: u64,
    /// Top-level evaluations asked of the oracle.
    pub evaluations: u64,
    /// Time requests spent waiting for the endpoint's politeness delay (part of
    /// `backend_time_ns`; summed over concurrent requests, like it).
    pub politeness_wait_ns: u64,
    /// The politeness delay in force when the stats were taken (it adapts to throttling).
    pub politeness_delay_ms: u64,
}

impl OracleStats {
    pub fn backend_time(&self) -> Duration {
        Duration::from_nanos(self.backend_time_ns)
    }

    /// The share of backend time spent waiting for the politeness delay, from 0 (never
    /// waited, or no backend time) to 1 (the run was paced by politeness alone). Above about
    /// a half, politeness is what limits the run: a smaller `--politeness-ms` (where the
    /// endpoint allows it) would make it faster.
    pub fn politeness_share(&self) -> f64 {
        if self.backend_time_ns == 0 {
            0.0
        } else {
            (self.politeness_wait_ns as f64 / self.backend_time_ns as f64).min(1.0)
        }
    }

    /// Takes the backend's politeness figures (see [`crate::oracle::backend::SparqlBackend::politeness`]).
    pub fn with_politeness(mut self, report: crate::oracle::backend::PolitenessReport) -> Self {
        self.politeness_wait_ns = u64::try_from(report.waited.as_nanos()).unwrap_or(u64::MAX);
        self.politeness_delay_ms = u64::try_from(report.delay.as_millis()).unwrap_or(u64::MAX);
        self
    }

    /// Hits over lookups (0 when there were none).
    pub fn hit_rate(&self) -> f64 {
        let lookups = self.cache_hits + self.cache_misses;
        if lookups == 0 {
            0.0
        } else {
            self.cache_hits as f64 / lookups as f64
        }
    }

    /// Adds another oracle's counters (a wrapper reports its own plus its inner oracle's).
    pub fn merged(mut self, other: OracleStats) -> OracleStats {
        self.queries_sent += other.queries_sent;
        self.rows_received += other.rows_received;
        self.backend_time_ns += other.backend_time_ns;
        self.cache_hits += other.cache_hits;
        self.cache_misses += other.cache_misses;
        self.composed += other.composed;
        self.evaluations += other.evaluations;
        self.politeness_wait_ns += other.politeness_wait_ns;
        self.politeness_delay_ms = self.politeness_delay_ms.max(other.politeness_delay_ms);
        self
    }
}

/// Thread-safe counters behind [`OracleStats`].
#[derive(Debug, Default)]
pub struct StatsCounter {
    pub queries_sent: AtomicU64,
    pub rows_received: AtomicU64,
    pub backend_time_ns: AtomicU64,
    pub cache_hits: AtomicU64,
    pub cache_misses: AtomicU64,
    pub composed: AtomicU64,
    pub evaluations: AtomicU64,
}

impl StatsCounter {
    pub fn add(counter: &AtomicU64, n: u64) {
        counter.fetch_add(n, Relaxed);
    }

    pub fn snapshot(&self) -> OracleStats {
        OracleStats {
            queries_sent: self.queries_sent.load(Relaxed),
            rows_received: self.rows_received.load(Relaxed),
            backend_time_ns: self.backend_time_ns.load(Relaxed),
            cache_hits: self.cache_hits.load(Relaxed),
            cache_misses: self.cache_misses.load(Relaxed),
            composed: self.composed.load(Relaxed),
            evaluations: self.evaluations.load(Relaxed),
            politeness_wait_ns: 0,
            politeness_delay_ms: 0,
        }
    }
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use super::*;
    use crate::oracle::backend::PolitenessReport;

    #[test]
    fn politeness_share_is_wait_over_backend_time() {
        let none = OracleStats::default();
        assert_eq!(none.politeness_share(), 0.0);
        let stats = OracleStats {
            backend_time_ns: 4_000,
            ..OracleStats::default()
        }
        .with_politeness(PolitenessReport {
            waited: Duration::from_nanos(1_000),
            delay: Duration::from_millis(50),
        });
        assert_eq!(stats.politeness_share(), 0.25);
        assert_eq!(stats.politeness_delay_ms, 50);
        let merged = stats.merged(stats);
        assert_eq!(merged.politeness_wait_ns, 2_000);
        assert_eq!(merged.politeness_delay_ms, 50);
    }
}

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
}

impl OracleStats {
    pub fn backend_time(&self) -> Duration {
        Duration::from_nanos(self.backend_time_ns)
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
        }
    }
}

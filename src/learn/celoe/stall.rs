//! Relaxing the expansion penalty when the search stalls.
//!
//! The expansion penalty decides how long a solution the search can reach: a node refined
//! up to length n has lost `(n − 1)·penalty`, so with DL-Learner's 0.1 a definition of
//! length 12 (family Aunt, Uncle, Cousin) is out of reach, while 0.02 (DL-Learner's own
//! family configurations) finds it in a second but spends the search on long refinements
//! of easy problems. Instead of asking the user to guess, the penalty is halved (down to a
//! floor) whenever the search has spent as many tests without improving its best quality
//! as it had spent up to the last improvement (or the last halving), with at least
//! `MIN_WINDOW` tests: a doubling schedule, counted in tests so that a run with a test
//! budget stays deterministic.

/// Fewest tests between two halvings.
const MIN_WINDOW: u64 = 2_000;

/// The schedule's state.
#[derive(Clone, Debug)]
pub struct StallRelaxer {
    floor: f64,
    best: f64,
    /// Tests at the last improvement or halving.
    since: u64,
    halvings: u32,
}

impl StallRelaxer {
    pub fn new(floor: f64) -> Self {
        StallRelaxer {
            floor,
            best: f64::NEG_INFINITY,
            since: 0,
            halvings: 0,
        }
    }

    /// Called after a batch: the best quality so far after `tests` tests, and the current
    /// penalty. Returns the lower penalty to use when the search has stalled.
    pub fn after_batch(&mut self, tests: u64, best: f64, penalty: f64) -> Option<f64> {
        if best > self.best + 1e-12 {
            self.best = best;
            self.since = tests;
            return None;
        }
        let window = self.since.max(MIN_WINDOW);
        if tests - self.since < window || penalty <= self.floor {
            return None;
        }
        self.since = tests;
        self.halvings += 1;
        Some((penalty / 2.0).max(self.floor))
    }

    pub fn halvings(&self) -> u32 {
        self.halvings
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn halves_after_a_stall_as_long_as_the_way_to_the_best_down_to_the_floor() {
        let mut r = StallRelaxer::new(0.02);
        assert_eq!(r.after_batch(100, 0.5, 0.1), None);
        assert_eq!(r.after_batch(5_000, 0.8, 0.1), None);
        // Improved at 5,000: no halving before 10,000.
        assert_eq!(r.after_batch(9_999, 0.8, 0.1), None);
        assert_eq!(r.after_batch(10_000, 0.8, 0.1), Some(0.05));
        // The next window is as long as the tests up to the halving.
        assert_eq!(r.after_batch(19_999, 0.8, 0.05), None);
        assert_eq!(r.after_batch(20_000, 0.8, 0.05), Some(0.025));
        assert_eq!(r.after_batch(40_000, 0.8, 0.025), Some(0.02));
        assert_eq!(r.after_batch(80_000, 0.8, 0.02), None);
        assert_eq!(r.halvings(), 3);
        // Early stalls wait at least the minimum window.
        let mut early = StallRelaxer::new(0.0);
        assert_eq!(early.after_batch(10, 0.5, 0.1), None);
        assert_eq!(early.after_batch(MIN_WINDOW, 0.5, 0.1), None);
        assert_eq!(early.after_batch(MIN_WINDOW + 10, 0.5, 0.1), Some(0.05));
    }
}

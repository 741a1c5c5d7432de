//! When CELOE consults the examples' neighbourhood (see
//! [`crate::learn::search::neighbourhood`]): once, when the top-down search first stalls,
//! that is after `STALL_TESTS` tests without a better solution (or when it runs out of
//! nodes). Short definitions that ρ reaches top-down are found first, as without the
//! proposals (a proposal that is perfect on three positives would otherwise end the search
//! before `∃hasBirthPlace.{london}` is tested); the bottom-up view comes in where top-down
//! refinement stops paying. Counted in tests, so a run with a test budget stays
//! deterministic.

/// Tests without a better solution that count as a stall.
pub(super) const STALL_TESTS: u64 = 1_000;

/// Whether the proposals are still due, and the best quality seen and when.
#[derive(Clone, Debug)]
pub(super) struct SeedTrigger {
    best: f64,
    since: u64,
}

impl SeedTrigger {
    pub(super) fn new() -> Self {
        SeedTrigger {
            best: f64::NEG_INFINITY,
            since: 0,
        }
    }

    /// After `tests` tests with `best` the best quality so far: the search has stalled.
    pub(super) fn stalled(&mut self, tests: u64, best: f64) -> bool {
        if best > self.best + 1e-12 {
            self.best = best;
            self.since = tests;
            return false;
        }
        tests - self.since >= STALL_TESTS
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_stall_is_counted_from_the_last_improvement() {
        let mut t = SeedTrigger::new();
        assert!(!t.stalled(0, 0.5));
        assert!(!t.stalled(900, 0.5));
        assert!(!t.stalled(950, 0.6));
        assert!(!t.stalled(1_900, 0.6));
        assert!(t.stalled(1_950, 0.6));
    }
}

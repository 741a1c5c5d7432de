//! Budgets (time, number of tests, a cancellation flag) and why a search stopped.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use serde::Serialize;

/// Limits of one run. `None` means unlimited; a search without any limit stops only when
/// it finds a perfect solution (if asked to) or runs out of candidates.
#[derive(Clone, Debug, Default)]
pub struct Budget {
    pub max_runtime: Option<Duration>,
    /// Most candidate concepts to evaluate.
    pub max_tests: Option<u64>,
    /// Set from another thread to stop the search at its next check.
    pub cancel: Option<Arc<AtomicBool>>,
}

/// Why a search ended (stable names in JSON output).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Termination {
    TimeBudget,
    TestBudget,
    PerfectSolution,
    Exhausted,
    Cancelled,
}

impl Termination {
    pub fn name(self) -> &'static str {
        match self {
            Termination::TimeBudget => "time_budget",
            Termination::TestBudget => "test_budget",
            Termination::PerfectSolution => "perfect_solution",
            Termination::Exhausted => "exhausted",
            Termination::Cancelled => "cancelled",
        }
    }
}

/// A budget with its start time.
#[derive(Clone, Debug)]
pub struct BudgetClock {
    budget: Budget,
    start: Instant,
}

impl BudgetClock {
    pub fn start(budget: Budget) -> Self {
        BudgetClock {
            budget,
            start: Instant::now(),
        }
    }

    pub fn elapsed(&self) -> Duration {
        self.start.elapsed()
    }

    /// The reason to stop after `tests` evaluations, if any.
    pub fn exhausted(&self, tests: u64) -> Option<Termination> {
        if let Some(flag) = &self.budget.cancel
            && flag.load(Ordering::Relaxed)
        {
            return Some(Termination::Cancelled);
        }
        if self.budget.max_tests.is_some_and(|max| tests >= max) {
            return Some(Termination::TestBudget);
        }
        if self
            .budget
            .max_runtime
            .is_some_and(|max| self.start.elapsed() >= max)
        {
            return Some(Termination::TimeBudget);
        }
        None
    }

    /// How many more tests the budget allows (`u64::MAX` without a test limit).
    pub fn tests_left(&self, tests: u64) -> u64 {
        self.budget
            .max_tests
            .map_or(u64::MAX, |max| max.saturating_sub(tests))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn test_budget_counts_tests_exactly() {
        let clock = BudgetClock::start(Budget {
            max_tests: Some(3),
            ..Budget::default()
        });
        assert_eq!(clock.exhausted(2), None);
        assert_eq!(clock.tests_left(2), 1);
        assert_eq!(clock.exhausted(3), Some(Termination::TestBudget));
    }

    #[test]
    fn cancellation_wins() {
        let flag = Arc::new(AtomicBool::new(false));
        let clock = BudgetClock::start(Budget {
            cancel: Some(flag.clone()),
            max_runtime: Some(Duration::ZERO),
            ..Budget::default()
        });
        assert_eq!(clock.exhausted(0), Some(Termination::TimeBudget));
        flag.store(true, Ordering::Relaxed);
        assert_eq!(clock.exhausted(0), Some(Termination::Cancelled));
    }
}

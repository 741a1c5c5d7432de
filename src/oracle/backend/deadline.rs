//! The run's deadline as a backend keeps it: set from any thread, read before every request.

use std::sync::RwLock;
use std::time::{Duration, Instant};

use crate::oracle::{BudgetExhausted, OracleError};

/// An optional deadline behind a lock. Cloning copies the current value (a cloned backend
/// starts with the same deadline but keeps its own from then on).
#[derive(Debug, Default)]
pub(crate) struct DeadlineCell(RwLock<Option<Instant>>);

impl Clone for DeadlineCell {
    fn clone(&self) -> Self {
        DeadlineCell(RwLock::new(self.get()))
    }
}

impl DeadlineCell {
    pub(crate) fn set(&self, deadline: Option<Instant>) {
        // A poisoned lock only means a panic elsewhere while writing an `Option<Instant>`.
        match self.0.write() {
            Ok(mut d) => *d = deadline,
            Err(poisoned) => *poisoned.into_inner() = deadline,
        }
    }

    pub(crate) fn get(&self) -> Option<Instant> {
        match self.0.read() {
            Ok(d) => *d,
            Err(poisoned) => *poisoned.into_inner(),
        }
    }

    /// Time left before the deadline: `None` without one, `Err` once it has passed.
    pub(crate) fn remaining(&self) -> Result<Option<Duration>, OracleError> {
        match self.get() {
            None => Ok(None),
            Some(d) => match d.checked_duration_since(Instant::now()) {
                Some(left) if !left.is_zero() => Ok(Some(left)),
                _ => Err(exhausted()),
            },
        }
    }
}

/// The error of a request that the deadline stopped.
pub(crate) fn exhausted() -> OracleError {
    OracleError::BudgetExhausted(BudgetExhausted::Deadline)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn no_deadline_leaves_time_unbounded() {
        let cell = DeadlineCell::default();
        assert_eq!(cell.remaining().unwrap(), None);
    }

    #[test]
    fn a_past_deadline_is_exhausted_and_a_future_one_bounds_the_time_left() {
        let cell = DeadlineCell::default();
        cell.set(Some(Instant::now()));
        assert_eq!(
            cell.remaining().unwrap_err().budget_exhausted(),
            Some(BudgetExhausted::Deadline)
        );
        cell.set(Some(Instant::now() + Duration::from_secs(60)));
        let left = cell.remaining().unwrap().unwrap();
        assert!(left <= Duration::from_secs(60) && left > Duration::from_secs(50));
        // Clones copy the value, then go their own way.
        let copy = cell.clone();
        cell.set(None);
        assert!(copy.get().is_some());
    }
}

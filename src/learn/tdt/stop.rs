//! When growth stops early. Trees are not anytime searches, but `--max-runtime` is a promise
//! and Ctrl-C must be heard: once the budget's growth share is spent (or the run is
//! cancelled) every node still to grow becomes a leaf, so the tree so far is the model.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use crate::learn::{RunControl, Termination};

/// The share of the time budget trees may grow in: the rest is for pruning's refits (which
/// stop at the same instant), exporting the tree and scoring it.
const GROWTH_SHARE: f64 = 0.8;

/// The run's deadline for growing and its cancellation flag.
#[derive(Clone, Debug, Default)]
pub struct Stop {
    deadline: Option<Instant>,
    cancel: Option<Arc<AtomicBool>>,
}

impl Stop {
    /// The growth deadline of a run that started at `start` under `control`.
    pub fn of(control: &RunControl, start: Instant) -> Self {
        let deadline = control.max_runtime.and_then(|d| {
            start.checked_add(Duration::from_secs_f64(d.as_secs_f64() * GROWTH_SHARE))
        });
        Stop {
            deadline,
            cancel: control.cancel.clone(),
        }
    }

    /// Why growth must stop now, if it must.
    pub fn now(&self) -> Option<Termination> {
        if self
            .cancel
            .as_ref()
            .is_some_and(|c| c.load(Ordering::Relaxed))
        {
            return Some(Termination::Cancelled);
        }
        self.deadline
            .is_some_and(|d| Instant::now() >= d)
            .then_some(Termination::TimeBudget)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_spent_budget_or_a_cancellation_stops_growth() {
        let start = Instant::now();
        assert_eq!(Stop::of(&RunControl::unlimited(), start).now(), None);
        let spent = RunControl::unlimited().with_max_runtime(Duration::ZERO);
        assert_eq!(Stop::of(&spent, start).now(), Some(Termination::TimeBudget));
        let flag = Arc::new(AtomicBool::new(true));
        let cancelled = RunControl::unlimited().with_cancel(flag);
        assert_eq!(
            Stop::of(&cancelled, start).now(),
            Some(Termination::Cancelled)
        );
    }
}

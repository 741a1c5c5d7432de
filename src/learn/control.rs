//! How a caller steers a run: time, test and query budgets, a progress callback and a
//! cancellation flag ([`RunControl`]), shared by every learner; and the running clock a
//! learner checks ([`RunClock`]).
//!
//! On start the clock hands the run's deadline to the oracle
//! ([`MembershipOracle::set_deadline`]), so a query still running when time is up fails with
//! [`OracleError::BudgetExhausted`] instead of overrunning, and clears it when the run ends.
//! Learners treat `BudgetExhausted` as a clean stop and return their best so far.

use std::fmt;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use super::Termination;
use crate::concept::{Iri, Literal, Role};
use crate::oracle::{
    BudgetExhausted, IndividualId, IndividualSet, MembershipOracle, OracleError, OracleStats,
    Signature, Successors, TruthSets,
};

/// A snapshot for progress displays.
#[derive(Clone, Copy, Debug)]
pub struct Progress {
    pub concepts_tested: u64,
    /// The best training quality so far; `None` for learners whose score is not a quality
    /// in [0, 1] (TBC's network score).
    pub best_quality: Option<f64>,
    pub elapsed: Duration,
}

/// The budget's share kept for reporting: the search stops at `1 − 1/REPORTING_SHARE` of it.
const REPORTING_SHARE: u32 = 20;

/// Called after every scored batch (from the learner's thread).
pub type ProgressFn = Arc<dyn Fn(&Progress) + Send + Sync>;

/// Limits and hooks of one run. `None` means unlimited; a run without any limit stops only
/// when the learner's own rule says so (a perfect solution, nothing left to try).
#[derive(Clone, Default)]
pub struct RunControl {
    pub max_runtime: Option<Duration>,
    /// Most candidate concepts to score (a test budget makes runs deterministic).
    pub max_tests: Option<u64>,
    /// Most queries the oracle may send to its store during the run (checked before each
    /// oracle call, so one batch may overshoot by its own queries).
    pub max_queries: Option<u64>,
    /// Set from another thread (a Ctrl-C handler) to stop at the next check.
    pub cancel: Option<Arc<AtomicBool>>,
    pub progress: Option<ProgressFn>,
}

impl fmt::Debug for RunControl {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("RunControl")
            .field("max_runtime", &self.max_runtime)
            .field("max_tests", &self.max_tests)
            .field("max_queries", &self.max_queries)
            .field("cancel", &self.cancel.is_some())
            .field("progress", &self.progress.is_some())
            .finish()
    }
}

impl RunControl {
    /// No limits at all.
    pub fn unlimited() -> Self {
        RunControl::default()
    }

    pub fn with_max_runtime(mut self, d: Duration) -> Self {
        self.max_runtime = Some(d);
        self
    }

    pub fn with_max_tests(mut self, n: u64) -> Self {
        self.max_tests = Some(n);
        self
    }

    pub fn with_max_queries(mut self, n: u64) -> Self {
        self.max_queries = Some(n);
        self
    }

    pub fn with_cancel(mut self, flag: Arc<AtomicBool>) -> Self {
        self.cancel = Some(flag);
        self
    }

    pub fn with_progress(mut self, f: impl Fn(&Progress) + Send + Sync + 'static) -> Self {
        self.progress = Some(Arc::new(f));
        self
    }

    /// Starts the clock and gives the oracle the run's deadline (cleared when the clock is
    /// dropped).
    pub fn start<'o, O: MembershipOracle + ?Sized>(&self, oracle: &'o O) -> RunClock<'o, O> {
        let start = Instant::now();
        // The search stops a twentieth before the budget's end: the rest is the reporting
        // allowance (see `extend_deadline_for_reporting`). A budget too large to add to the
        // clock is no deadline at all.
        let deadline = self
            .max_runtime
            .and_then(|d| start.checked_add(d - d / REPORTING_SHARE));
        oracle.set_deadline(deadline);
        RunClock {
            control: self.clone(),
            oracle,
            start,
            deadline,
        }
    }
}

/// A started run: checks the budgets and reports progress. Dropping it clears the oracle's
/// deadline.
pub struct RunClock<'o, O: MembershipOracle + ?Sized> {
    control: RunControl,
    oracle: &'o O,
    start: Instant,
    deadline: Option<Instant>,
}

impl<O: MembershipOracle + ?Sized> RunClock<'_, O> {
    pub fn elapsed(&self) -> Duration {
        self.start.elapsed()
    }

    pub fn elapsed_ms(&self) -> u64 {
        u64::try_from(self.start.elapsed().as_millis()).unwrap_or(u64::MAX)
    }

    /// Cancelled or out of time (the checks that do not depend on the test count).
    pub fn stopped(&self) -> Option<Termination> {
        if let Some(flag) = &self.control.cancel
            && flag.load(Ordering::Relaxed)
        {
            return Some(Termination::Cancelled);
        }
        if self.deadline.is_some_and(|d| Instant::now() >= d) {
            return Some(Termination::TimeBudget);
        }
        None
    }

    /// The reason to stop after `tests` evaluations, if any (cancellation first).
    pub fn exhausted(&self, tests: u64) -> Option<Termination> {
        if let Some(Termination::Cancelled) = self.stopped() {
            return Some(Termination::Cancelled);
        }
        if self.control.max_tests.is_some_and(|max| tests >= max) {
            return Some(Termination::TestBudget);
        }
        self.stopped()
    }

    /// How many more tests the budget allows (`u64::MAX` without a test limit).
    pub fn tests_left(&self, tests: u64) -> u64 {
        self.control
            .max_tests
            .map_or(u64::MAX, |max| max.saturating_sub(tests))
    }

    pub fn report(&self, p: &Progress) {
        if let Some(f) = &self.control.progress {
            f(p);
        }
    }

    /// Moves the oracle's deadline to the end of the reporting allowance, the budget's last
    /// twentieth, so that a run of 20 s ends by 20 s with its reporting work (minimising the
    /// solutions found) instead of overrunning on a large neighbourhood.
    /// Work the allowance cuts falls back to what the search found (callers handle
    /// [`crate::oracle::OracleError::BudgetExhausted`]). No time budget: no deadline.
    pub fn extend_deadline_for_reporting(&self) {
        let end = self
            .deadline
            .and(self.control.max_runtime)
            .and_then(|b| self.start.checked_add(b));
        self.oracle.set_deadline(end);
    }

    pub fn max_queries(&self) -> Option<u64> {
        self.control.max_queries
    }
}

impl<O: MembershipOracle + ?Sized> Drop for RunClock<'_, O> {
    fn drop(&mut self) {
        self.oracle.set_deadline(None);
    }
}

/// An oracle that fails with [`BudgetExhausted::Queries`] once `limit` queries were sent
/// through it (counted from the inner oracle's statistics, checked before each call).
pub struct QueryBudgeted<'o, O: MembershipOracle + ?Sized> {
    inner: &'o O,
    start: u64,
    limit: u64,
}

impl<'o, O: MembershipOracle + ?Sized> QueryBudgeted<'o, O> {
    pub fn new(inner: &'o O, limit: u64) -> Self {
        QueryBudgeted {
            inner,
            start: inner.stats().queries_sent,
            limit,
        }
    }

    fn exhausted(&self) -> OracleError {
        OracleError::BudgetExhausted(BudgetExhausted::Queries { limit: self.limit })
    }

    fn check(&self) -> Result<(), OracleError> {
        let sent = self.inner.stats().queries_sent.saturating_sub(self.start);
        if sent >= self.limit {
            return Err(self.exhausted());
        }
        Ok(())
    }
}

impl<O: MembershipOracle + ?Sized> MembershipOracle for QueryBudgeted<'_, O> {
    fn signature(&self) -> &Signature {
        self.inner.signature()
    }

    fn covered(
        &self,
        c: &crate::concept::Concept,
        among: &IndividualSet,
    ) -> Result<IndividualSet, OracleError> {
        self.check()?;
        self.inner.covered(c, among)
    }

    fn truth(
        &self,
        c: &crate::concept::Concept,
        among: &IndividualSet,
    ) -> Result<TruthSets, OracleError> {
        self.check()?;
        self.inner.truth(c, among)
    }

    fn data_values(
        &self,
        property: &Iri,
        among: &IndividualSet,
    ) -> Result<Vec<(IndividualId, Literal)>, OracleError> {
        self.check()?;
        self.inner.data_values(property, among)
    }

    fn stats(&self) -> OracleStats {
        self.inner.stats()
    }

    fn set_deadline(&self, deadline: Option<Instant>) {
        self.inner.set_deadline(deadline)
    }

    fn successors(
        &self,
        role: &Role,
        among: &IndividualSet,
    ) -> Result<Option<Successors>, OracleError> {
        self.check()?;
        self.inner.successors(role, among)
    }

    fn covered_batch(
        &self,
        concepts: &[crate::concept::Concept],
        among: &IndividualSet,
    ) -> Vec<Result<IndividualSet, OracleError>> {
        // One result per concept, whatever the batch's length (an empty batch stays empty).
        if self.check().is_err() {
            return concepts.iter().map(|_| Err(self.exhausted())).collect();
        }
        self.inner.covered_batch(concepts, among)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::oracle::reference::ReferenceOracle;

    #[test]
    fn test_budget_counts_tests_exactly_and_cancellation_wins() {
        let store = oxigraph::store::Store::new().unwrap();
        let oracle = ReferenceOracle::new(&store, Default::default()).unwrap();
        let flag = Arc::new(AtomicBool::new(false));
        let control = RunControl::unlimited()
            .with_max_tests(3)
            .with_cancel(flag.clone());
        let clock = control.start(&oracle);
        assert_eq!(clock.exhausted(2), None);
        assert_eq!(clock.tests_left(2), 1);
        assert_eq!(clock.exhausted(3), Some(Termination::TestBudget));
        flag.store(true, Ordering::Relaxed);
        assert_eq!(clock.exhausted(0), Some(Termination::Cancelled));
        let timed = RunControl::unlimited().with_max_runtime(Duration::ZERO);
        assert_eq!(
            timed.start(&oracle).exhausted(0),
            Some(Termination::TimeBudget)
        );
    }

    #[test]
    fn a_runtime_too_large_for_the_clock_is_no_deadline() {
        let store = oxigraph::store::Store::new().unwrap();
        let oracle = ReferenceOracle::new(&store, Default::default()).unwrap();
        let huge = RunControl::unlimited().with_max_runtime(Duration::MAX);
        assert_eq!(huge.start(&oracle).stopped(), None);
    }

    #[test]
    fn an_exhausted_query_budget_fails_every_concept_of_a_batch() {
        use crate::concept::Concept;
        let store = oxigraph::store::Store::new().unwrap();
        let oracle = ReferenceOracle::new(&store, Default::default()).unwrap();
        let budgeted = QueryBudgeted::new(&oracle, 0);
        let among = IndividualSet::default();
        for n in [0, 1, 3] {
            let batch = vec![Concept::Top; n];
            let out = budgeted.covered_batch(&batch, &among);
            assert_eq!(out.len(), n);
            assert!(out.iter().all(|r| matches!(
                r,
                Err(OracleError::BudgetExhausted(BudgetExhausted::Queries {
                    limit: 0
                }))
            )));
        }
    }
}

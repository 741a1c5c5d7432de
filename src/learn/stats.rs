//! Why a run stopped and what it cost: one [`Termination`] and one [`RunStats`] for every
//! learner (the `stats` object of `learn --json`).

use serde::Serialize;

use crate::oracle::{BudgetExhausted, OracleStats};

/// Why a run ended (stable names in JSON output).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Termination {
    /// The time budget (`max_runtime`) ran out.
    TimeBudget,
    /// The test budget (`max_tests` candidates scored) ran out.
    TestBudget,
    /// The oracle's query budget ran out.
    QueryBudget,
    /// A solution of quality 1 was found (and the learner stops on it).
    PerfectSolution,
    /// Nothing was left to try.
    Exhausted,
    /// The cancellation flag was set (Ctrl-C in the CLI).
    Cancelled,
    /// No change improved the model's score (feature-selection learners).
    NoImprovement,
    /// The model holds as many parts as it may (TBC's feature cap) and nothing else helped.
    FeatureCap,
}

impl Termination {
    pub fn name(self) -> &'static str {
        match self {
            Termination::TimeBudget => "time_budget",
            Termination::TestBudget => "test_budget",
            Termination::QueryBudget => "query_budget",
            Termination::PerfectSolution => "perfect_solution",
            Termination::Exhausted => "exhausted",
            Termination::Cancelled => "cancelled",
            Termination::NoImprovement => "no_improvement",
            Termination::FeatureCap => "feature_cap",
        }
    }
}

impl From<BudgetExhausted> for Termination {
    fn from(b: BudgetExhausted) -> Self {
        match b {
            BudgetExhausted::Queries { .. } => Termination::QueryBudget,
            // `BudgetExhausted` is non-exhaustive: any other budget is a time budget.
            _ => Termination::TimeBudget,
        }
    }
}

/// What one run cost. Every learner fills the common fields; its own counters go in
/// `details` (flattened into the same JSON object, sorted by name).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct RunStats {
    /// Candidate concepts scored against the examples (TBC: candidate features).
    pub concepts_tested: u64,
    pub queries_sent: u64,
    pub cache_hits: u64,
    pub cache_misses: u64,
    /// The whole fit, in milliseconds (search plus reporting, e.g. minimisation).
    pub elapsed_ms: u64,
    /// Loading the knowledge base (filled by the caller that loaded it; 0 otherwise).
    pub load_ms: u64,
    /// Reading the signature and building the operator (filled by the caller; 0 otherwise).
    pub signature_ms: u64,
    /// The search itself.
    pub search_ms: u64,
    pub termination: Termination,
    /// Learner-specific counters (CELOE: `nodes`, `refinements`, `max_horizontal_expansion`;
    /// TBC: `features_tested`, `additions`, `removals`, `em_iterations`).
    #[serde(flatten)]
    pub details: serde_json::Map<String, serde_json::Value>,
}

impl RunStats {
    /// The oracle counters of this run: `after − before`.
    pub fn oracle_delta(before: OracleStats, after: OracleStats) -> OracleStats {
        OracleStats {
            queries_sent: after.queries_sent.saturating_sub(before.queries_sent),
            rows_received: after.rows_received.saturating_sub(before.rows_received),
            backend_time_ns: after.backend_time_ns.saturating_sub(before.backend_time_ns),
            cache_hits: after.cache_hits.saturating_sub(before.cache_hits),
            cache_misses: after.cache_misses.saturating_sub(before.cache_misses),
            composed: after.composed.saturating_sub(before.composed),
            evaluations: after.evaluations.saturating_sub(before.evaluations),
            politeness_wait_ns: after
                .politeness_wait_ns
                .saturating_sub(before.politeness_wait_ns),
            politeness_delay_ms: after.politeness_delay_ms,
        }
    }

    /// A learner's run: its tests, the oracle counters it caused (see
    /// [`RunStats::oracle_delta`]), its times and details; loading and the signature are
    /// filled in by whoever did them.
    pub fn of_run(
        concepts_tested: u64,
        oracle: &OracleStats,
        elapsed_ms: u64,
        search_ms: u64,
        termination: Termination,
        details: serde_json::Map<String, serde_json::Value>,
    ) -> RunStats {
        RunStats {
            concepts_tested,
            queries_sent: oracle.queries_sent,
            cache_hits: oracle.cache_hits,
            cache_misses: oracle.cache_misses,
            elapsed_ms,
            load_ms: 0,
            signature_ms: 0,
            search_ms,
            termination,
            details,
        }
    }

    /// Concepts tested per second of wall time; `None` when the run was too short to say
    /// (under 10 ms: a rate from a 0 ms run would be invented).
    pub fn tests_per_second(&self) -> Option<f64> {
        (self.elapsed_ms >= 10)
            .then(|| self.concepts_tested as f64 * 1000.0 / self.elapsed_ms as f64)
    }

    /// A learner-specific counter, if the learner reports it.
    pub fn detail_u64(&self, name: &str) -> Option<u64> {
        self.details.get(name).and_then(serde_json::Value::as_u64)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn budgets_map_to_their_termination_and_rates_need_a_measurable_time() {
        assert_eq!(
            Termination::from(BudgetExhausted::Queries { limit: 3 }),
            Termination::QueryBudget
        );
        assert_eq!(
            Termination::from(BudgetExhausted::Deadline),
            Termination::TimeBudget
        );
        let mut s = RunStats {
            concepts_tested: 53,
            queries_sent: 0,
            cache_hits: 0,
            cache_misses: 0,
            elapsed_ms: 0,
            load_ms: 0,
            signature_ms: 0,
            search_ms: 0,
            termination: Termination::PerfectSolution,
            details: Default::default(),
        };
        assert_eq!(s.tests_per_second(), None);
        s.elapsed_ms = 500;
        assert_eq!(s.tests_per_second(), Some(106.0));
        assert_eq!(
            serde_json::to_value(Termination::QueryBudget).unwrap(),
            "query_budget"
        );
    }
}

//! The sequential-covering rule learner behind the one-vs-rest theories: for one class,
//! CELOE searches (with a short test budget) for a class expression separating the class's
//! still-uncovered examples from every other class's examples; the best expression it
//! reports that is good enough becomes a rule, the examples it covers are removed, and
//! the search repeats until the class is covered or no good-enough rule is left.
//!
//! "Good enough": on the examples the rule was learned from, it covers its class more
//! often than chance and its χ² reaches [`MultiClassParams::min_chi2`] (a significance
//! test of the 2×2 table, not a constant fitted to a data set).

use std::time::{Duration, Instant};

use super::chi2::RuleCounts;
use super::params::MultiClassParams;
use crate::concept::Concept;
use crate::learn::celoe::Celoe;
use crate::learn::{Examples, LearnError, RunControl, Termination};
use crate::oracle::{IndividualSet, MembershipOracle};

/// The rules found for one class: each expression with the training examples it covers.
#[derive(Clone, Debug)]
pub struct ClassRules {
    pub rules: Vec<(Concept, IndividualSet)>,
    /// Candidates scored over all rule searches.
    pub tests: u64,
    /// Why covering stopped: `exhausted` (class covered, or no good-enough rule), a
    /// budget, or cancellation.
    pub termination: Termination,
}

/// The overall budget of a fit, shared by the rule searches of every class.
pub struct Budget<'c> {
    pub control: &'c RunControl,
    pub start: Instant,
}

impl Budget<'_> {
    /// The control of one rule search: the rule's test budget, the time left of the fit's
    /// budget, the caller's cancellation flag and progress. `None` when the fit is out of
    /// time or cancelled.
    fn rule_control(&self, rule_tests: u64) -> Result<RunControl, Termination> {
        if self
            .control
            .cancel
            .as_ref()
            .is_some_and(|f| f.load(std::sync::atomic::Ordering::Relaxed))
        {
            return Err(Termination::Cancelled);
        }
        let max_runtime = match self.control.max_runtime {
            Some(total) => {
                let left = total.saturating_sub(self.start.elapsed());
                if left < Duration::from_millis(1) {
                    return Err(Termination::TimeBudget);
                }
                Some(left)
            }
            None => None,
        };
        Ok(RunControl {
            max_runtime,
            max_tests: Some(rule_tests),
            max_queries: None,
            cancel: self.control.cancel.clone(),
            progress: self.control.progress.clone(),
        })
    }
}

/// Covers `class` (its training examples) against `others` (every other class's).
pub fn cover_class<O: MembershipOracle + ?Sized>(
    celoe: &Celoe<'_>,
    oracle: &O,
    class: &IndividualSet,
    others: &IndividualSet,
    among: &IndividualSet,
    params: &MultiClassParams,
    budget: &Budget<'_>,
) -> Result<ClassRules, LearnError> {
    let training = class.union(others);
    let mut uncovered = class.clone();
    let mut out = ClassRules {
        rules: Vec::new(),
        tests: 0,
        termination: Termination::Exhausted,
    };
    while !uncovered.is_empty()
        && params
            .max_rules_per_class
            .is_none_or(|m| out.rules.len() < m)
    {
        let control = match budget.rule_control(params.rule_tests) {
            Ok(c) => c,
            Err(t) => {
                out.termination = t;
                break;
            }
        };
        let examples = Examples::new(uncovered.clone(), others.clone())?;
        let run = celoe.run_within(oracle, &examples, among, &control)?;
        out.tests += run.stats.concepts_tested;
        let chosen = run.model.solutions.iter().find(|s| {
            let c = s.confusion;
            let counts = RuleCounts {
                examples: examples.all().len(),
                covered: c.tp + c.fp,
                of_class: uncovered.len(),
                covered_of_class: c.tp,
            };
            c.tp > 0 && counts.positively_associated() && counts.chi2() >= params.min_chi2
        });
        let Some(s) = chosen else {
            if matches!(
                run.stats.termination,
                Termination::Cancelled | Termination::TimeBudget
            ) {
                out.termination = run.stats.termination;
            }
            break;
        };
        let covered = oracle
            .members(&s.concept, among, params.celoe.semantics)?
            .intersection(&training);
        if covered.intersection_count(&uncovered) == 0 {
            break;
        }
        uncovered.difference_with(&covered);
        out.rules.push((s.concept.clone(), covered));
    }
    Ok(out)
}

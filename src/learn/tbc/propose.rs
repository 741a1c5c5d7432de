//! Candidate features proposed by a short CELOE run on the training examples (an option,
//! not in the paper: `TbcParams::proposals`).
//!
//! Alg. 1's beam grows features from ⊤ a few refinement steps deep, scored by the network's
//! BIC at every step. A feature that only pays off once complete, such as family's
//! `Female ⊓ (∃hasSibling.Parent ⊔ ∃married.∃hasSibling.Parent)` (length 11), has no short
//! prefix that scores well, so the beam never reaches it. CELOE's best-first search with
//! its OEHeuristic (accuracy plus a bonus for gains, a penalty for expansions) does reach
//! such expressions. Its best solutions and the best expression of each length it scored
//! are offered to the beam's first level as extra candidates: the network's BIC still
//! decides whether any of them enters, and the beam refines the best of them further.

use std::time::Duration;

use super::params::{TbcParams, semantics_of};
use crate::concept::{Concept, normalize};
use crate::learn::celoe::{Celoe, CeloeParams};
use crate::learn::{Examples, LearnError, Progress, ProgressFn, RunControl, Termination};
use crate::oracle::{IndividualSet, MembershipOracle};
use crate::refine::Refinement;

/// What the proposal run gave: candidate features (normal form, best first, no
/// duplicates, never ⊤ or ⊥), the concepts it tested and why it stopped.
#[derive(Clone, Debug, PartialEq)]
pub struct Proposals {
    pub concepts: Vec<Concept>,
    pub tests: u64,
    pub termination: Option<Termination>,
    pub elapsed: Duration,
}

impl Proposals {
    pub fn none() -> Self {
        Proposals {
            concepts: Vec::new(),
            tests: 0,
            termination: None,
            elapsed: Duration::ZERO,
        }
    }
}

/// The proposal run's budgets: at most `params.proposal_tests` concepts (a test budget
/// keeps it deterministic) and at most half of whatever test, time and query budget the
/// whole run has, so the beam search always keeps the other half.
pub fn proposal_control(params: &TbcParams, control: &RunControl) -> RunControl {
    let tests = control
        .max_tests
        .map_or(params.proposal_tests, |t| params.proposal_tests.min(t / 2));
    RunControl {
        max_runtime: control.max_runtime.map(|d| d / 2),
        max_tests: Some(tests),
        // Within the run's own budget (the oracle handed in counts every query): CELOE
        // ends cleanly at its half, and the beam keeps the rest.
        max_queries: control.max_queries.map(|q| q / 2),
        cancel: control.cancel.clone(),
        // Tests and time only: CELOE's quality is not the network's score.
        progress: control.progress.clone().map(|report| {
            std::sync::Arc::new(move |p: &Progress| {
                report(&Progress {
                    best_quality: None,
                    ..*p
                })
            }) as ProgressFn
        }),
    }
}

/// Runs CELOE over `refinement` (the feature language) on the examples and returns its
/// best solutions followed by the best expression of each length it scored.
pub fn propose(
    oracle: &dyn MembershipOracle,
    pos: &IndividualSet,
    neg: &IndividualSet,
    among: &IndividualSet,
    refinement: &dyn Refinement,
    params: &TbcParams,
    control: &RunControl,
) -> Result<Proposals, LearnError> {
    if params.proposals == 0 {
        return Ok(Proposals::none());
    }
    let celoe_params = CeloeParams {
        semantics: semantics_of(params.semantics),
        max_results: params.proposals,
        // Every candidate is judged by the network's score, not by held-out F1.
        validation: None,
        ..CeloeParams::default()
    };
    let examples = Examples::new(pos.clone(), neg.clone())?;
    let run = Celoe::new(celoe_params, refinement)?.run_within(
        oracle,
        &examples,
        among,
        &proposal_control(params, control),
    )?;
    let mut concepts: Vec<Concept> = Vec::new();
    let found = run.model.solutions.iter().map(|s| &s.concept);
    let front = run.front.staircase();
    for c in found.chain(front.iter().rev().map(|c| &c.concept)) {
        let c = normalize(c);
        if c != Concept::Top && c != Concept::Bottom && !concepts.contains(&c) {
            concepts.push(c);
        }
    }
    Ok(Proposals {
        concepts,
        tests: run.stats.concepts_tested,
        termination: Some(run.stats.termination),
        elapsed: Duration::from_millis(run.stats.elapsed_ms),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_proposal_run_takes_at_most_half_of_the_budgets() {
        let params = TbcParams::default();
        let free = proposal_control(&params, &RunControl::default());
        assert_eq!(free.max_tests, Some(params.proposal_tests));
        assert_eq!(free.max_runtime, None);
        let tight = RunControl::default()
            .with_max_tests(20_000)
            .with_max_runtime(Duration::from_secs(10))
            .with_max_queries(7);
        let c = proposal_control(&params, &tight);
        assert_eq!(c.max_tests, Some(10_000));
        assert_eq!(c.max_runtime, Some(Duration::from_secs(5)));
        assert_eq!(c.max_queries, Some(3));
        let roomy = RunControl::default().with_max_tests(1_000_000);
        assert_eq!(
            proposal_control(&params, &roomy).max_tests,
            Some(params.proposal_tests)
        );
    }
}

//! Choosing how long an expression the data supports, by an internal validation split
//! (CELOE and Forest Mixing: any search that keeps a [`LengthFront`]).
//!
//! Without a noise constraint, a search that tests a million expressions on a few hundred
//! noisy examples finds long ones that fit them better than they predict (carcinogenesis:
//! training F1 0.725, test F1 0.664, below the 0.70 of ⊤). So when the search on all the
//! training examples ends without a perfect solution, the examples are dealt into
//! [`ValidationSplit::folds`] stratified folds, and for each of the first
//! [`ValidationSplit::rounds`] of them a second search runs on the other folds; the best
//! expression of each length it found (its [`LengthFront`] staircase) is scored on the
//! held-out fold. The rounds' predictions are pooled (the folds are disjoint); the length
//! of the best pooled held-out accuracy is the most the data support, unless its advantage
//! over the shortest entry (usually ⊤) is within one paired standard error, when the
//! shortest is ([`super::supported_length`]). The run returns the first search's best
//! expression of at most that length, ahead of its other solutions. The choice is the one
//! of reduced-error pruning (a size chosen on held-out data, then fitted on all of it), with
//! the held-out estimate pooled over folds as in cross-validated pruning, and a departure
//! from the default answer only when the held-out examples show it is not chance.
//!
//! The held-out examples are scored by accuracy whatever quality guides the search: F1
//! prefers ⊤ on imbalanced, noisy data (F1 of ⊤ = 2p/(1+p) beats any partial expression),
//! and ⊤ then predicts every unseen individual a member. On 15 generated noisy problems
//! (`docs/experiments/2026-12-07-generalise-defaults.md`) CELOE's mean test accuracy went
//! 0.500 → 0.632 with this choice; family and carcinogenesis tests are unchanged.
//!
//! A perfect solution ends the first search as before; the first search gets three
//! quarters of every budget (time, tests, queries) and the rounds share the rest, so
//! deterministic runs stay deterministic; problems with fewer than
//! [`MIN_VALIDATION_PER_CLASS`] held-out examples of either class are not split.

use serde::Serialize;

use super::evaluate::Evaluator;
use super::finish::minimized;
use super::front::LengthFront;
use super::solutions::Candidate;
use super::supported_length::{HeldOutRound, SupportedLength, supported_length};
use crate::concept::{Concept, length};
use crate::eval::stratified_folds;
use crate::learn::{
    Examples, LearnError, Progress, QualityMeasure, RunControl, RunStats, Solution, Termination,
};
use crate::oracle::{IndividualSet, MembershipOracle, Semantics};

const PERFECT: f64 = 1.0 - 1e-12;

/// Fewest examples of each class the held-out fold must have for the split to be made.
pub const MIN_VALIDATION_PER_CLASS: usize = 5;

/// How the validation split is made.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct ValidationSplit {
    /// The examples are dealt into this many stratified folds; one is held out per round
    /// (3: a third).
    pub folds: usize,
    /// Folds held out in turn, each with its own search on the others (1 to `folds`).
    pub rounds: usize,
    /// Seed of the deal.
    pub seed: u64,
}

impl Default for ValidationSplit {
    fn default() -> Self {
        ValidationSplit {
            folds: 3,
            rounds: 3,
            seed: 1,
        }
    }
}

impl ValidationSplit {
    /// This split as the selection of a learner that scores with `quality` under
    /// `semantics` (and minimizes its answers when `minimize`).
    pub fn selection(
        self,
        quality: QualityMeasure,
        semantics: Semantics,
        minimize: bool,
    ) -> Selection {
        Selection {
            split: self,
            quality,
            semantics,
            minimize,
        }
    }

    /// At least two folds, and between one round and as many as there are folds.
    pub fn validate(&self) -> Result<(), LearnError> {
        if self.folds < 2 {
            return Err(LearnError::invalid(
                "validation.folds",
                "must be at least 2",
            ));
        }
        if self.rounds == 0 || self.rounds > self.folds {
            return Err(LearnError::invalid(
                "validation.rounds",
                "must be between 1 and the folds",
            ));
        }
        Ok(())
    }
}

/// What the selection did, for the run's statistics.
#[derive(Serialize)]
struct SelectionJson {
    /// The length chosen, and the qualities and error it was chosen by.
    #[serde(flatten)]
    supported: SupportedLength,
    /// Staircase entries (lengths) scored on held-out examples, over all rounds.
    candidates: usize,
    /// Rounds run (folds held out in turn).
    rounds: usize,
    /// Tests of the rounds' searches.
    tests: u64,
}

/// The first search's share of every budget, in quarters: it must keep most of the
/// budget, since exact problems need it to reach long definitions, while the second search
/// only needs the best expression of each length up to the first one's, which short
/// searches find early.
const FIRST_SHARE_QUARTERS: u32 = 3;

/// The first search's share of `control`'s budgets.
fn first_share(control: &RunControl) -> RunControl {
    let q = FIRST_SHARE_QUARTERS;
    let share = |n: u64| (n * u64::from(q)).div_ceil(4);
    RunControl {
        max_runtime: control.max_runtime.map(|d| d * q / 4),
        max_tests: control.max_tests.map(share),
        max_queries: control.max_queries.map(share),
        ..control.clone()
    }
}

/// What `control` leaves after `spent`, for one of `ways` searches still to run (each
/// gets an equal share of what is left); `None` when nothing is left.
fn rest(control: &RunControl, spent: &Spent, ways: usize) -> Option<RunControl> {
    let ways = ways.max(1) as u64;
    let share = |n: u64| n / ways;
    let left = RunControl {
        max_runtime: control.max_runtime.map(|d| {
            let ms = u64::try_from(d.as_millis()).unwrap_or(u64::MAX);
            std::time::Duration::from_millis(share(ms.saturating_sub(spent.elapsed_ms)))
        }),
        max_tests: control
            .max_tests
            .map(|n| share(n.saturating_sub(spent.tests))),
        max_queries: control
            .max_queries
            .map(|n| share(n.saturating_sub(spent.queries))),
        ..control.clone()
    };
    let empty = left.max_runtime.is_some_and(|d| d.is_zero())
        || left.max_tests == Some(0)
        || left.max_queries == Some(0);
    (!empty).then_some(left)
}

/// What the searches so far spent.
#[derive(Clone, Copy, Debug, Default)]
struct Spent {
    tests: u64,
    queries: u64,
    elapsed_ms: u64,
}

impl Spent {
    fn add(&mut self, s: &RunStats) {
        self.tests += s.concepts_tested;
        self.queries += s.queries_sent;
        self.elapsed_ms += s.elapsed_ms;
    }
}

/// `control` reporting a later search's progress as the run's: its tests and time after
/// those `before` spent, and the first search's best quality `best` (a round's is on
/// fewer examples, not the run's).
fn continued_progress(control: RunControl, before: &Spent, best: Option<f64>) -> RunControl {
    let Some(report) = control.progress.clone() else {
        return control;
    };
    let (tests, elapsed) = (
        before.tests,
        std::time::Duration::from_millis(before.elapsed_ms),
    );
    RunControl {
        progress: None,
        ..control
    }
    .with_progress(move |p| {
        report(&Progress {
            concepts_tested: tests + p.concepts_tested,
            best_quality: best,
            elapsed: elapsed + p.elapsed,
        })
    })
}

/// The rounds' (search part, held-out part) pairs, or `None` when a held-out part would be
/// too small.
pub(super) fn splits(examples: &Examples, v: ValidationSplit) -> Option<Vec<(Examples, Examples)>> {
    let (pos, neg) = (examples.positives(), examples.negatives());
    if v.folds < 2 || pos.len().min(neg.len()) < MIN_VALIDATION_PER_CLASS * v.folds {
        return None;
    }
    stratified_folds(pos, neg, v.folds, v.seed)
        .ok()?
        .into_iter()
        .take(v.rounds.clamp(1, v.folds))
        .map(|fold| {
            let search = Examples::new(fold.train_positives, fold.train_negatives).ok()?;
            let held_out = Examples::new(fold.test_positives, fold.test_negatives).ok()?;
            Some((search, held_out))
        })
        .collect()
}

/// A search run the validation split chooses from: its reported solutions, its statistics
/// and the best candidate of each length it scored.
pub trait SelectableRun {
    fn front(&self) -> &LengthFront;
    fn solutions(&self) -> &[Solution];
    fn solutions_mut(&mut self) -> &mut Vec<Solution>;
    fn stats(&self) -> &RunStats;
    fn stats_mut(&mut self) -> &mut RunStats;
}

/// How a learner's results are scored and reported, for the selection.
#[derive(Clone, Copy, Debug)]
pub struct Selection {
    pub split: ValidationSplit,
    pub quality: QualityMeasure,
    pub semantics: Semantics,
    pub minimize: bool,
}

/// A round's staircase scored on its held-out fold: per entry, its length and the held-out
/// examples it covers.
fn held_out_round<O: MembershipOracle + ?Sized>(
    how: &Selection,
    oracle: &O,
    staircase: &[Candidate],
    held_out: &Examples,
    among: &IndividualSet,
) -> Result<HeldOutRound, LearnError> {
    let concepts: Vec<Concept> = staircase.iter().map(|c| c.concept.clone()).collect();
    let (scored, failure) = Evaluator::new(
        oracle,
        held_out,
        QualityMeasure::Accuracy,
        how.semantics,
        1.0,
    )
    .within(among)
    .evaluate_batch_with_members_until(&concepts, &|| false);
    if let Some(e) = failure {
        return Err(e.into());
    }
    let entries = concepts
        .iter()
        .zip(scored)
        .map(|(c, (_, covered))| (length(c), covered))
        .collect();
    Ok(HeldOutRound {
        held_out: held_out.clone(),
        entries,
    })
}

/// `search` on all of `examples`, then, when it found no perfect solution and `how` asks
/// for it, the selection described in this module (`search` runs once more per round, on
/// the round's search part).
pub fn run_selected<R: SelectableRun, O: MembershipOracle + ?Sized>(
    oracle: &O,
    examples: &Examples,
    among: &IndividualSet,
    control: &RunControl,
    how: Option<Selection>,
    search: &dyn Fn(&Examples, &RunControl) -> Result<R, LearnError>,
) -> Result<R, LearnError> {
    let Some(how) = how else {
        return search(examples, control);
    };
    let Some(rounds) = splits(examples, how.split) else {
        return search(examples, control);
    };
    let first = search(examples, &first_share(control))?;
    let perfect = first
        .solutions()
        .first()
        .is_some_and(|s| s.quality >= PERFECT);
    if perfect || first.stats().termination == Termination::Cancelled {
        return Ok(first);
    }
    let first_best = first.solutions().first().map(|s| s.quality);
    let mut spent = Spent::default();
    spent.add(first.stats());
    let mut held_out_rounds = Vec::new();
    let mut round_stats: Vec<RunStats> = Vec::new();
    for (i, (search_part, held_out)) in rounds.iter().enumerate() {
        let Some(left) = rest(control, &spent, rounds.len() - i) else {
            break;
        };
        let left = continued_progress(left, &spent, first_best);
        let round = search(search_part, &left)?;
        spent.add(round.stats());
        let cancelled = round.stats().termination == Termination::Cancelled;
        let staircase = round.front().staircase();
        held_out_rounds.push(held_out_round(&how, oracle, &staircase, held_out, among)?);
        round_stats.push(round.stats().clone());
        if cancelled {
            break;
        }
    }
    let Some(supported) =
        supported_length(&held_out_rounds, QualityMeasure::Accuracy, how.split.seed)
    else {
        return Ok(first);
    };
    let Some(chosen) = first.front().best_within(supported.length) else {
        return Ok(first);
    };
    let chosen = minimized(oracle, chosen, how.minimize, how.semantics)?;
    let mut run = first;
    let solutions = run.solutions_mut();
    solutions.retain(|s| s.concept != chosen.concept);
    solutions.insert(0, chosen);
    let s = run.stats_mut();
    let mut round_tests = 0;
    for t in &round_stats {
        s.concepts_tested += t.concepts_tested;
        s.queries_sent += t.queries_sent;
        s.cache_hits += t.cache_hits;
        s.cache_misses += t.cache_misses;
        s.elapsed_ms += t.elapsed_ms;
        s.search_ms += t.search_ms;
        round_tests += t.concepts_tested;
    }
    let selection = SelectionJson {
        supported,
        candidates: held_out_rounds.iter().map(|r| r.entries.len()).sum(),
        rounds: held_out_rounds.len(),
        tests: round_tests,
    };
    s.details.insert(
        "validation".into(),
        serde_json::to_value(selection).unwrap_or_default(),
    );
    Ok(run)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::oracle::IndividualId;

    fn set(ids: std::ops::Range<u32>) -> IndividualSet {
        IndividualSet::from_ids(100, ids.map(IndividualId))
    }

    #[test]
    fn the_rounds_hold_out_disjoint_stratified_folds_and_small_problems_are_not_split() {
        let examples = Examples::new(set(0..30), set(30..60)).unwrap();
        let rounds = splits(&examples, ValidationSplit::default()).unwrap();
        assert_eq!(rounds.len(), 3);
        let mut held_out_union = IndividualSet::from_ids(100, std::iter::empty());
        for (search, held_out) in &rounds {
            assert_eq!(held_out.positives().len(), 10);
            assert_eq!(held_out.negatives().len(), 10);
            assert_eq!(search.all().intersection_count(held_out.all()), 0);
            assert_eq!(search.all().union(held_out.all()), *examples.all());
            assert_eq!(held_out_union.intersection_count(held_out.all()), 0);
            held_out_union.union_with(held_out.all());
        }
        // Every example is held out once.
        assert_eq!(held_out_union, *examples.all());
        // One round: the first fold only. The same seed, the same deal; another, another.
        let one = ValidationSplit {
            rounds: 1,
            ..ValidationSplit::default()
        };
        let first = splits(&examples, one).unwrap();
        assert_eq!(first.len(), 1);
        assert_eq!(first[0].1, rounds[0].1);
        let other = splits(&examples, ValidationSplit { seed: 2, ..one }).unwrap();
        assert_ne!(other[0].1, rounds[0].1);
        // 14 negatives: a third is 4, below MIN_VALIDATION_PER_CLASS.
        let small = Examples::new(set(0..30), set(30..44)).unwrap();
        assert!(splits(&small, ValidationSplit::default()).is_none());
    }

    #[test]
    fn the_rounds_share_what_the_first_search_left() {
        let control = RunControl::default()
            .with_max_tests(1000)
            .with_max_queries(100)
            .with_max_runtime(std::time::Duration::from_secs(60));
        let spent = Spent {
            tests: 700,
            queries: 40,
            elapsed_ms: 45_000,
        };
        let each = rest(&control, &spent, 3).unwrap();
        assert_eq!(each.max_tests, Some(100));
        assert_eq!(each.max_queries, Some(20));
        assert_eq!(each.max_runtime, Some(std::time::Duration::from_secs(5)));
        let all_spent = Spent {
            tests: 1000,
            ..spent
        };
        assert!(rest(&control, &all_spent, 1).is_none());
    }

    #[test]
    fn the_first_search_gets_three_quarters_of_every_budget() {
        let control = RunControl::default()
            .with_max_tests(1001)
            .with_max_queries(10)
            .with_max_runtime(std::time::Duration::from_secs(60));
        let first = first_share(&control);
        assert_eq!(first.max_tests, Some(751));
        assert_eq!(first.max_queries, Some(8));
        assert_eq!(first.max_runtime, Some(std::time::Duration::from_secs(45)));
        assert_eq!(first_share(&RunControl::default()).max_tests, None);
    }

    #[test]
    fn the_second_search_reports_progress_after_the_first_with_the_first_ones_quality() {
        use std::sync::{Arc, Mutex};
        let seen = Arc::new(Mutex::new(Vec::new()));
        let sink = seen.clone();
        let control = RunControl::default().with_progress(move |p: &Progress| {
            sink.lock().unwrap().push(*p);
        });
        let first = Spent {
            tests: 1000,
            queries: 0,
            elapsed_ms: 2000,
        };
        let second = continued_progress(control, &first, Some(0.8));
        let report = second.progress.expect("progress is kept");
        report(&Progress {
            concepts_tested: 5,
            best_quality: Some(0.95),
            elapsed: std::time::Duration::from_millis(30),
        });
        let got = seen.lock().unwrap()[0];
        assert_eq!(got.concepts_tested, 1005);
        assert_eq!(got.best_quality, Some(0.8));
        assert_eq!(got.elapsed, std::time::Duration::from_millis(2030));
        assert!(
            continued_progress(RunControl::default(), &first, None)
                .progress
                .is_none()
        );
    }
}

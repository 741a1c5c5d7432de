//! Choosing how long an expression the data supports, by an internal validation split
//! (CELOE and Forest Mixing: any search that keeps a [`LengthFront`]).
//!
//! Without a noise constraint, a search that tests a million expressions on a few hundred
//! noisy examples finds long ones that fit them better than they predict (carcinogenesis:
//! training F1 0.725, test F1 0.664, below the 0.70 of ⊤). So when the search on all the
//! training examples ends without a perfect solution, a second search runs on a stratified
//! part of them (all but one of [`ValidationSplit::folds`] folds) and the best expression of
//! each length it found (its [`LengthFront`] staircase) is scored on the held-out fold. The
//! length with the best validation quality (the shortest on ties) is the most the data
//! supports: the run returns the first search's best expression of at most that length,
//! ahead of its other solutions. The choice is the one of reduced-error pruning: a size
//! chosen on held-out data, then fitted on all of it.
//!
//! A perfect solution ends the first search as before; the first search gets three
//! quarters of every budget (time, tests, queries) and the second the rest, so
//! deterministic runs stay deterministic; problems with fewer than [`MIN_VALIDATION_PER_CLASS`] held-out examples of
//! either class are not split.

use serde::Serialize;

use super::evaluate::Evaluator;
use super::finish::minimized;
use super::front::LengthFront;
use super::solutions::Candidate;
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
    /// The examples are dealt into this many stratified folds; one is held out (3: a third).
    pub folds: usize,
    /// Seed of the deal.
    pub seed: u64,
}

impl Default for ValidationSplit {
    fn default() -> Self {
        ValidationSplit { folds: 3, seed: 1 }
    }
}

/// What the selection did, for the run's statistics.
#[derive(Serialize)]
struct SelectionJson {
    /// The longest expression the held-out examples supported.
    length: usize,
    /// Its quality on them.
    quality: f64,
    /// Staircase entries (lengths) scored on the held-out examples.
    candidates: usize,
    /// Tests of the second search.
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

/// What `control` leaves after the first search spent `s`; `None` when nothing is left.
fn rest(control: &RunControl, s: &RunStats) -> Option<RunControl> {
    let spent = std::time::Duration::from_millis(s.elapsed_ms);
    let left = RunControl {
        max_runtime: control.max_runtime.map(|d| d.saturating_sub(spent)),
        max_tests: control
            .max_tests
            .map(|n| n.saturating_sub(s.concepts_tested)),
        max_queries: control
            .max_queries
            .map(|n| n.saturating_sub(s.queries_sent)),
        ..control.clone()
    };
    let empty = left.max_runtime.is_some_and(|d| d.is_zero())
        || left.max_tests == Some(0)
        || left.max_queries == Some(0);
    (!empty).then_some(left)
}

/// `control` reporting the second search's progress as the run's: its tests and time
/// after the first search's, and the first search's best quality (the second one's is on
/// fewer examples, not the run's).
fn continued_progress(control: RunControl, first: &RunStats, best: Option<f64>) -> RunControl {
    let Some(report) = control.progress.clone() else {
        return control;
    };
    let (tests, elapsed) = (
        first.concepts_tested,
        std::time::Duration::from_millis(first.elapsed_ms),
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

/// The search part and the held-out part of `examples`, or `None` when the held-out part
/// would be too small.
pub(super) fn split(examples: &Examples, v: ValidationSplit) -> Option<(Examples, Examples)> {
    let (pos, neg) = (examples.positives(), examples.negatives());
    if v.folds < 2 || pos.len().min(neg.len()) < MIN_VALIDATION_PER_CLASS * v.folds {
        return None;
    }
    let fold = stratified_folds(pos, neg, v.folds, v.seed)
        .ok()?
        .into_iter()
        .next()?;
    let search = Examples::new(fold.train_positives, fold.train_negatives).ok()?;
    let held_out = Examples::new(fold.test_positives, fold.test_negatives).ok()?;
    Some((search, held_out))
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

/// The staircase entry with the best quality on `held_out` (the shortest on ties) and
/// that quality.
fn best_on_held_out<O: MembershipOracle + ?Sized>(
    how: &Selection,
    oracle: &O,
    staircase: &[Candidate],
    held_out: &Examples,
    among: &IndividualSet,
) -> Result<Option<(usize, f64)>, LearnError> {
    let concepts: Vec<Concept> = staircase.iter().map(|c| c.concept.clone()).collect();
    let scored = Evaluator::new(oracle, held_out, how.quality, how.semantics, 1.0)
        .within(among)
        .evaluate_batch(&concepts)?;
    let mut best: Option<(usize, f64)> = None;
    for (c, e) in concepts.iter().zip(scored) {
        if best.is_none_or(|(_, q)| e.quality > q + 1e-12) {
            best = Some((length(c), e.quality));
        }
    }
    Ok(best)
}

/// `search` on all of `examples`, then, when it found no perfect solution, the selection
/// described in this module (`search` runs a second time on the search part).
pub fn run_selected<R: SelectableRun, O: MembershipOracle + ?Sized>(
    oracle: &O,
    examples: &Examples,
    among: &IndividualSet,
    control: &RunControl,
    how: &Selection,
    search: &dyn Fn(&Examples, &RunControl) -> Result<R, LearnError>,
) -> Result<R, LearnError> {
    let Some((search_part, held_out)) = split(examples, how.split) else {
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
    let Some(left) = rest(control, first.stats()) else {
        return Ok(first);
    };
    let first_best = first.solutions().first().map(|s| s.quality);
    let left = continued_progress(left, first.stats(), first_best);
    let second = search(&search_part, &left)?;
    let staircase = second.front().staircase();
    let Some((max_length, quality)) = best_on_held_out(how, oracle, &staircase, &held_out, among)?
    else {
        return Ok(first);
    };
    let Some(chosen) = first.front().best_within(max_length) else {
        return Ok(first);
    };
    let chosen = minimized(oracle, chosen, how.minimize, how.semantics)?;
    let mut run = first;
    let solutions = run.solutions_mut();
    solutions.retain(|s| s.concept != chosen.concept);
    solutions.insert(0, chosen);
    let t = second.stats();
    let s = run.stats_mut();
    s.concepts_tested += t.concepts_tested;
    s.queries_sent += t.queries_sent;
    s.cache_hits += t.cache_hits;
    s.cache_misses += t.cache_misses;
    s.elapsed_ms += t.elapsed_ms;
    s.search_ms += t.search_ms;
    let selection = SelectionJson {
        length: max_length,
        quality,
        candidates: staircase.len(),
        tests: t.concepts_tested,
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
    fn the_split_is_stratified_disjoint_and_refused_when_the_held_out_part_is_too_small() {
        let examples = Examples::new(set(0..30), set(30..60)).unwrap();
        let (search, held_out) = split(&examples, ValidationSplit::default()).unwrap();
        assert_eq!(held_out.positives().len(), 10);
        assert_eq!(held_out.negatives().len(), 10);
        assert_eq!(search.all().intersection_count(held_out.all()), 0);
        assert_eq!(search.all().union(held_out.all()), *examples.all());
        // Another seed, another deal; the same seed, the same.
        let again = split(&examples, ValidationSplit::default()).unwrap();
        assert_eq!(again.1, held_out);
        let other = split(&examples, ValidationSplit { folds: 3, seed: 2 }).unwrap();
        assert_ne!(other.1, held_out);
        // 14 negatives: a third is 4, below MIN_VALIDATION_PER_CLASS.
        let small = Examples::new(set(0..30), set(30..44)).unwrap();
        assert!(split(&small, ValidationSplit::default()).is_none());
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
        let first = RunStats::of_run(
            1000,
            &Default::default(),
            2000,
            1900,
            Termination::TestBudget,
            serde_json::Map::new(),
        );
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

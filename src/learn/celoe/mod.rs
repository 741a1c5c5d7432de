//! CELOE (Class Expression Learning for Ontology Engineering): a best-first search over the
//! refinements of a start class, scored by DL-Learner's `OEHeuristicRuntime`.
//!
//! Each step expands the best node that is not yet perfect (or whose horizontal expansion is
//! still below its length): it is refined with a length limit one above its last one, and
//! refinements longer than the previous limit, not deeper than `max_depth` and never seen
//! before (by normal form) are scored against the examples in batches. A refinement whose
//! optimistic bound (the quality of its covered positives without its covered negatives)
//! cannot beat the k-th best solution kept is not refined: its refinements cover subsets of
//! what it covers, so none could be kept. With a noise constraint, refinements missing
//! more positives than the noise allows are too weak and dropped as well (their own
//! refinements would miss at least as many). The best distinct solutions are kept and, at the end,
//! minimised. With a test budget the run is deterministic: batches are answered in input
//! order and ties in the tree are broken by length and insertion order.
//!
//! Two additions to DL-Learner's CELOE, on by default: the tested concepts are mixed into
//! conjunctions and disjunctions of partial solutions ([`super::search::Mixer`]), and an
//! imperfect result's length is chosen by a validation split
//! ([`super::search::run_selected`]).
//!
//! Budgets come from the [`RunControl`]: the clock is checked between candidates of a
//! batch, and an oracle that reports [`BudgetExhausted`](crate::oracle::BudgetExhausted)
//! (query budget, deadline) ends the run cleanly with the solutions found so far.
//!
//! The node score is DL-Learner's `OEHeuristicRuntime` (start bonus 0.1, gain bonus 0.3,
//! expansion penalty 0.1, refinement penalty 0.0001), with DL-Learner's reference defaults
//! (depth 7, 10 best solutions, 10 s) except where the parts below change them. Two choices
//! differ from DL-Learner and are switchable (`CeloeParams`): the search stops at the first
//! perfect solution, and `C ⊓ D` covering exactly the examples `C` covers is tested but not
//! added to the tree (`learn::search::idle`).
//!
//! Where each part of the search is explained (issue 12: defaults that need no tuning): the
//! optimistic bound (`learn::search::bound`), the expansion penalty relaxed on stalls
//! (`learn::celoe::stall`), `∃r.{a}` candidates (`learn::has_value`), the validation split
//! and the supported length (`learn::search::validation`,
//! `learn::search::supported_length`), split values at the examples' boundaries
//! (`learn::splits`), every split value in ρ(⊤) (`refine::rho::options`), and mixing
//! partial solutions (`learn::search::mix_pool`). The CLI flags for each are in
//! `docs/learners.md`.

mod best_first;
mod params;
mod seeding;
mod stall;

pub use super::search::{MIN_VALIDATION_PER_CLASS, ValidationSplit};
pub use params::CeloeParams;

use super::search::{Evaluator, LengthFront, SelectableRun, report_solutions, run_selected};
use super::{
    BinaryFit, BinaryLearner, ConceptModel, Examples, LearnError, QueryBudgeted, RunControl,
    RunStats, Solution,
};
use crate::oracle::{IndividualSet, MembershipOracle};
use crate::refine::Refinement;

/// A finished run: the model and what it cost.
#[derive(Clone, Debug)]
pub struct CeloeRun {
    pub model: ConceptModel,
    pub stats: RunStats,
    /// The best candidate of each length the search scored (with its training counts).
    pub front: LengthFront,
}

pub struct Celoe<'r> {
    params: CeloeParams,
    refinement: &'r dyn Refinement,
}

const PERFECT: f64 = 1.0 - 1e-12;

impl SelectableRun for CeloeRun {
    fn front(&self) -> &LengthFront {
        &self.front
    }
    fn solutions(&self) -> &[Solution] {
        &self.model.solutions
    }
    fn solutions_mut(&mut self) -> &mut Vec<Solution> {
        &mut self.model.solutions
    }
    fn stats(&self) -> &RunStats {
        &self.stats
    }
    fn stats_mut(&mut self) -> &mut RunStats {
        &mut self.stats
    }
}

impl CeloeRun {
    /// The training quality of the first solution reported.
    pub fn best_quality(&self) -> Option<f64> {
        self.model.solutions.first().map(|s| s.quality)
    }
}

impl<'r> Celoe<'r> {
    pub fn new(params: CeloeParams, refinement: &'r dyn Refinement) -> Result<Self, LearnError> {
        params.validate()?;
        Ok(Celoe { params, refinement })
    }

    pub fn params(&self) -> &CeloeParams {
        &self.params
    }

    /// Searches for expressions separating `examples` under `control`'s budgets.
    pub fn run<O: MembershipOracle + ?Sized>(
        &self,
        oracle: &O,
        examples: &Examples,
        control: &RunControl,
    ) -> Result<CeloeRun, LearnError> {
        self.run_within(oracle, examples, examples.all(), control)
    }

    /// [`Celoe::run`], asking the oracle over `among` (a superset of the examples; the
    /// union is taken). The search and its solutions are the same; only the cache entries
    /// differ: cross-validation passes all of a problem's examples, so the folds share the
    /// answers (see [`TrainingSet::with_context`]). With [`CeloeParams::validation`], an
    /// imperfect result is chosen by a validation split (see [`crate::learn::search::run_selected`]).
    pub fn run_within<O: MembershipOracle + ?Sized>(
        &self,
        oracle: &O,
        examples: &Examples,
        among: &IndividualSet,
        control: &RunControl,
    ) -> Result<CeloeRun, LearnError> {
        let among = among.union(examples.all());
        let p = &self.params;
        let how = p
            .validation
            .map(|split| split.selection(p.quality, p.semantics, p.minimize));
        run_selected(oracle, examples, &among, control, how, &|e, c| {
            self.search_within(oracle, e, &among, c)
        })
    }

    /// One search over all of `examples` (no selection), asking the oracle over `among`.
    fn search_within<O: MembershipOracle + ?Sized>(
        &self,
        oracle: &O,
        examples: &Examples,
        among: &IndividualSet,
        control: &RunControl,
    ) -> Result<CeloeRun, LearnError> {
        let among = among.union(examples.all());
        match control.max_queries {
            Some(limit) => self.run_on(
                &QueryBudgeted::new(oracle, limit),
                examples,
                &among,
                control,
            ),
            None => self.run_on(oracle, examples, &among, control),
        }
    }

    fn run_on<O: MembershipOracle + ?Sized>(
        &self,
        oracle: &O,
        examples: &Examples,
        among: &IndividualSet,
        control: &RunControl,
    ) -> Result<CeloeRun, LearnError> {
        let p = &self.params;
        let clock = control.start(oracle);
        let stats_before = oracle.stats();
        let evaluator = Evaluator::new(
            oracle,
            examples,
            p.quality,
            p.semantics,
            p.noise_percentage / 100.0,
        )
        .within(among);
        let mut search = best_first::Search::new(p, self.refinement, evaluator, &clock);
        let termination = search.run()?;
        let search_ms = clock.elapsed_ms();
        // Reporting (minimising the solutions found) gets the budget's last twentieth, which
        // the search left; what it cannot finish keeps the search's own form.
        clock.extend_deadline_for_reporting();
        search.mixer.add_solutions_to(&mut search.best);
        let solutions = report_solutions(oracle, &search.best, p.minimize, p.semantics)?;
        let oracle_stats = RunStats::oracle_delta(stats_before, oracle.stats());
        let details = search.details();
        Ok(CeloeRun {
            model: ConceptModel {
                quality_measure: p.quality,
                semantics: p.semantics,
                solutions,
            },
            stats: RunStats::of_run(
                search.tests,
                &oracle_stats,
                clock.elapsed_ms(),
                search_ms,
                termination,
                details,
            ),
            front: search.front,
        })
    }
}

impl BinaryLearner for Celoe<'_> {
    type Params = CeloeParams;
    type Model = ConceptModel;
    type Report = ();

    fn name(&self) -> &'static str {
        "celoe"
    }

    fn params(&self) -> &CeloeParams {
        &self.params
    }

    fn fit_binary(
        &self,
        oracle: &dyn MembershipOracle,
        examples: &Examples,
        among: &IndividualSet,
        control: &RunControl,
    ) -> Result<BinaryFit<ConceptModel, ()>, LearnError> {
        let run = self.run_within(oracle, examples, among, control)?;
        Ok(BinaryFit {
            solutions: run.model.solutions.clone(),
            quality: run.model.quality_measure,
            semantics: run.model.semantics,
            model: run.model,
            stats: run.stats,
            report: (),
        })
    }
}

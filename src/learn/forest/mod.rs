//! Forest Mixing (`papers/forest-mixing.txt`): CELOE's refinement search grown as several
//! trees that share one pool of refinements.
//!
//! - **Trees** start from the most specific classes that cover all positives ([`start`];
//!   ⊤ when no class does), up to `trees` of them, or from user-given start classes.
//! - **Turns**: the trees take turns, in order. On its turn a tree expands its best node as
//!   CELOE does (ρ with a length limit one above the node's last, unseen refinements only,
//!   too-weak ones dropped) and puts the scored refinements in the **shared pool**; then it
//!   takes the `max_nodes_added_per_tree` best expressions of the pool into itself. What it
//!   leaves stays for the next trees (so one tree's refinements can grow in another).
//! - **Mixing** ([`mixing`]): the node a tree expands is also conjoined with the best
//!   expression of each earlier tree, under the paper's conditions; the conjunction is
//!   scored and pooled like a refinement.
//! - **Scores**: CELOE's heuristic (default), HT1 or FH (`heuristic.rs`).
//! - **CELOE's defaults, not the paper's**: every concept a tree tests is offered to the
//!   mixing pool of partial solutions ([`crate::learn::search::Mixer`]), and an imperfect
//!   result's length is chosen by a validation split ([`crate::learn::search::run_selected`]);
//!   `mix_pool: 0` and `validation: None` give the paper's search.
//!
//! With one tree from ⊤, CELOE's heuristic and an unbounded draw this is CELOE's search.
//! Budgets, determinism (a test budget gives the same run every time: batches are scored
//! in order, ties broken by length and insertion order) and reporting are CELOE's. The run
//! records when it reached its best quality (`tests_to_best`, `ms_to_best`,
//! `refinements_to_best`, `expansions_to_best`), the paper's measures.

mod heuristic;
pub mod mixing;
mod model;
mod params;
mod ranked;
pub mod start;

pub use heuristic::{ForestHeuristic, NodeFacts};
pub(crate) use model::ForestModelLoader;
pub use model::{ALGORITHM, ForestModel};
pub use params::ForestParams;

use ranked::{Entry, Ranked};

use super::search::{
    BestSolutions, Evaluated, Evaluator, LengthFront, MixLimits, Mixer, SeenConcepts,
    SelectableRun, budget_stop, cannot_beat, extends_conjunction, optimistic_quality,
    report_solutions, run_selected,
};
use super::{
    BinaryFit, BinaryLearner, ConceptModel, Examples, LearnError, Progress, QueryBudgeted,
    RunClock, RunControl, RunStats, Solution, Termination,
};
use crate::concept::{Concept, depth, length, normalize, to_manchester_full};
use crate::oracle::{IndividualSet, MembershipOracle};
use crate::refine::Refinement;

const PERFECT: f64 = 1.0 - 1e-12;

/// A finished run: the model and what it cost.
#[derive(Clone, Debug)]
pub struct ForestRun {
    pub model: ForestModel,
    pub stats: RunStats,
    /// The best candidate of each length the search scored (with its training counts).
    pub front: LengthFront,
}

impl SelectableRun for ForestRun {
    fn front(&self) -> &LengthFront {
        &self.front
    }
    fn solutions(&self) -> &[Solution] {
        &self.model.0.solutions
    }
    fn solutions_mut(&mut self) -> &mut Vec<Solution> {
        &mut self.model.0.solutions
    }
    fn stats(&self) -> &RunStats {
        &self.stats
    }
    fn stats_mut(&mut self) -> &mut RunStats {
        &mut self.stats
    }
}

pub struct ForestMixing<'r> {
    params: ForestParams,
    refinement: &'r dyn Refinement,
}

/// Where the run stood when it first reached its best quality.
#[derive(Clone, Copy, Debug, Default)]
struct ToBest {
    quality: Option<f64>,
    tests: u64,
    ms: u64,
    refinements: u64,
    expansions: u64,
}

/// What the run counts.
#[derive(Clone, Copy, Debug, Default)]
struct Counters {
    tests: u64,
    refinements: u64,
    expansions: u64,
    mixed: u64,
    mixed_pooled: u64,
    /// Expressions a tree took from the pool that another tree's expansion produced.
    adopted: u64,
    /// Turns the trees took.
    turns: u64,
    /// Expressions dropped because their optimistic bound cannot beat the k-th best.
    pruned_by_bound: u64,
}

/// The start expressions with their scores, and a budget's termination.
type Starts = (Vec<(Concept, Evaluated)>, Option<Termination>);

/// One run's state.
struct Search<'a, O: MembershipOracle + ?Sized> {
    p: &'a ForestParams,
    refinement: &'a dyn Refinement,
    evaluator: Evaluator<'a, O>,
    clock: &'a RunClock<'a, O>,
    trees: Vec<Ranked>,
    pool: Ranked,
    /// Each tree's best expression so far: (quality, length, concept).
    tree_best: Vec<Option<(f64, usize, Concept)>>,
    best: BestSolutions,
    front: LengthFront,
    /// Mixes of the partial solutions (see [`Mixer`]), apart from the paper's mixing.
    mixer: Mixer,
    seen: SeenConcepts,
    n: Counters,
    to_best: ToBest,
    roots: Vec<Concept>,
}

impl<'a, O: MembershipOracle + ?Sized> Search<'a, O> {
    fn perfect(&self) -> bool {
        self.p.stop_on_perfect && self.best.best_quality().is_some_and(|q| q >= PERFECT)
    }

    /// Nothing below counts `c` could be kept (the bound is below the k-th best).
    fn hopeless(&self, c: &crate::eval::Confusion) -> bool {
        self.p.prune_by_bound
            && cannot_beat(optimistic_quality(self.p.quality, c), self.best.threshold())
    }

    fn offer(&mut self, c: &Concept, e: &Evaluated) {
        self.front.offer(c, e.quality, e.confusion);
        self.best.offer(c, e.quality, e.confusion);
        self.note_best(self.best.best_quality());
    }

    /// Records where the run stands if `q` is its best quality yet.
    fn note_best(&mut self, q: Option<f64>) {
        if q > self.to_best.quality {
            self.to_best = ToBest {
                quality: q,
                tests: self.n.tests,
                ms: self.clock.elapsed_ms(),
                refinements: self.n.refinements,
                expansions: self.n.expansions,
            };
        }
    }

    /// Scores `concepts` in batches under the budgets, handing each score to `on`; the
    /// termination a budget caused, if one did.
    fn score_each(
        &mut self,
        concepts: &[Concept],
        on: &mut dyn FnMut(&mut Self, &Concept, Evaluated, &IndividualSet),
    ) -> Result<Option<Termination>, LearnError> {
        for chunk in concepts.chunks(self.p.batch_size) {
            if let Some(t) = self.clock.exhausted(self.n.tests) {
                return Ok(Some(t));
            }
            let take = chunk
                .len()
                .min(self.clock.tests_left(self.n.tests) as usize);
            let clock = self.clock;
            let (scored, failure) = self
                .evaluator
                .evaluate_batch_with_members_until(&chunk[..take], &|| clock.stopped().is_some());
            for (c, (e, members)) in chunk.iter().zip(scored) {
                self.n.tests += 1;
                on(self, c, e, &members);
            }
            self.mixer.settle(&self.evaluator, &mut self.front);
            self.note_best(self.mixer.best_with(None));
            self.clock.report(&Progress {
                concepts_tested: self.n.tests,
                best_quality: self.mixer.best_with(self.best.best_quality()),
                elapsed: self.clock.elapsed(),
            });
            if let Some(e) = failure {
                return budget_stop(e).map(Some);
            }
            if self.perfect() {
                break;
            }
        }
        Ok(None)
    }

    /// The start expressions with their scores: the user's, or up to `trees` most specific
    /// covering classes (⊤ when there is none). An ancestor of a start class would only
    /// search a weaker copy of its space, so covering classes that are not most specific
    /// start no tree. Too-weak user classes start no tree either.
    fn starts(&mut self) -> Result<Starts, LearnError> {
        let mut out = Vec::new();
        if !self.p.start_classes.is_empty() {
            let given: Vec<Concept> = self.p.start_classes.iter().map(normalize).collect();
            let stop = self.score_each(&given, &mut |s, c, e, _| {
                if !e.too_weak {
                    s.offer(c, &e);
                    out.push((c.clone(), e));
                }
            })?;
            return Ok((out, stop));
        }
        let refinement = self.refinement;
        let mut stop = None;
        let needed = self.p.start_coverage * self.evaluator.examples().positives().len() as f64;
        let covers_enough = |e: &Evaluated| !e.too_weak && e.confusion.tp as f64 >= needed - 1e-9;
        let candidates = start::covering_classes(refinement, &covers_enough, &mut |batch| {
            let mut scored = Vec::new();
            if stop.is_none() {
                stop = self.score_each(batch, &mut |s, c, e, _| {
                    if !e.too_weak {
                        s.offer(c, &e);
                    }
                    scored.push(e);
                })?;
            }
            Ok::<_, LearnError>(scored)
        })?;
        out.extend(
            candidates
                .into_iter()
                .filter(|s| s.most_specific)
                .take(self.p.trees)
                .map(|s| (s.concept, s.evaluated)),
        );
        if out.is_empty() && stop.is_none() {
            let top = [Concept::Top];
            self.score_each(&top, &mut |s, c, e, _| {
                if !e.too_weak {
                    s.offer(c, &e);
                    out.push((c.clone(), e));
                }
            })
            .map(|t| stop = stop.or(t))?;
        }
        Ok((out, stop))
    }

    fn add_to_tree(&mut self, t: usize, entry: Entry) {
        let better = match &self.tree_best[t] {
            None => true,
            Some((q, len, _)) => {
                entry.facts.quality > *q || (entry.facts.quality == *q && entry.length < *len)
            }
        };
        if entry.origin != t {
            self.n.adopted += 1;
        }
        if better {
            self.tree_best[t] = Some((entry.facts.quality, entry.length, entry.concept.clone()));
        }
        self.trees[t].add(entry);
    }

    /// Keeps a scored refinement of `parent` (tree `t`) in the pool unless it is too weak
    /// or an idle conjunct, and offers it for mixing.
    fn accept(
        &mut self,
        t: usize,
        parent: &Entry,
        refinements: usize,
        c: &Concept,
        e: Evaluated,
        members: &IndividualSet,
    ) {
        if e.too_weak {
            return;
        }
        if self.hopeless(&e.confusion) {
            self.front.offer(c, e.quality, e.confusion);
            self.n.pruned_by_bound += 1;
            return;
        }
        self.offer(c, &e);
        if self.p.skip_idle_conjuncts
            && e.confusion == parent.confusion
            && extends_conjunction(&parent.concept, c)
        {
            return;
        }
        let entry = Entry::new(
            c.clone(),
            e.confusion,
            e.quality,
            Some((parent.facts.quality, refinements)),
            t,
        );
        self.pool.add(entry);
        self.mixer
            .offer(c, &e, members, self.evaluator.examples().all());
    }

    fn fits(&self, c: &Concept) -> bool {
        depth(c) <= self.p.max_depth && self.p.max_length.is_none_or(|m| length(c) <= m)
    }

    /// Tree `t`'s turn: expand its best node, mix it with the earlier trees' bests, draw
    /// from the pool. Whether anything happened, and a budget's termination.
    fn turn(&mut self, t: usize) -> Result<(bool, Option<Termination>), LearnError> {
        self.n.turns += 1;
        let max_length = self.p.max_length;
        let expandable = |e: &Entry| {
            (e.facts.quality < PERFECT || e.facts.horizontal_expansion < e.length)
                && max_length.is_none_or(|m| e.facts.horizontal_expansion < m)
        };
        let mut active = false;
        let mut chosen = self.trees[t].best_where(expandable);
        while let Some(slot) = chosen {
            if !self.hopeless(&self.trees[t].get(slot).confusion) {
                break;
            }
            self.trees[t].remove(slot);
            self.n.pruned_by_bound += 1;
            active = true;
            chosen = self.trees[t].best_where(expandable);
        }
        if let Some(slot) = chosen {
            active = true;
            let node = self.trees[t].get(slot).clone();
            let previous = node.facts.horizontal_expansion;
            let limit = previous + 1;
            let refined = self.refinement.refine(&node.concept, limit);
            let count = refined.len();
            self.n.refinements += count as u64;
            self.n.expansions += 1;
            self.trees[t].expanded(slot, limit, count);
            let fresh: Vec<Concept> = refined
                .into_iter()
                .filter(|r| length(r) > previous && self.fits(r))
                .collect();
            let fresh: Vec<Concept> = fresh.into_iter().filter(|r| self.seen.insert(r)).collect();
            let stop = self.score_each(&fresh, &mut |s, c, e, members| {
                s.accept(t, &node, count, c, e, members)
            })?;
            if stop.is_some() || self.perfect() {
                return Ok((true, stop));
            }
            let mixes: Vec<Concept> = (0..t)
                .filter_map(|u| self.tree_best[u].as_ref())
                .filter_map(|(_, _, b)| mixing::mix(&node.concept, b, self.p.max_mix_length))
                .collect();
            let mixes: Vec<Concept> = mixes.into_iter().filter(|m| self.fits(m)).collect();
            let mixes: Vec<Concept> = mixes.into_iter().filter(|m| self.seen.insert(m)).collect();
            self.n.mixed += mixes.len() as u64;
            let stop = self.score_each(&mixes, &mut |s, c, e, members| {
                let before = s.pool.added();
                s.accept(t, &node, count, c, e, members);
                s.n.mixed_pooled += (s.pool.added() - before) as u64;
            })?;
            if stop.is_some() || self.perfect() {
                return Ok((true, stop));
            }
        }
        for entry in self.pool.take_best(self.p.max_nodes_added_per_tree) {
            active = true;
            if self.hopeless(&entry.confusion) {
                self.n.pruned_by_bound += 1;
                continue;
            }
            self.add_to_tree(t, entry);
        }
        Ok((active, None))
    }

    fn search(&mut self) -> Result<Termination, LearnError> {
        let (starts, stop) = self.starts()?;
        if let Some(t) = stop {
            return Ok(t);
        }
        if starts.is_empty() {
            return Ok(Termination::Exhausted);
        }
        let per_tree = (self.p.max_nodes / starts.len()).max(1);
        for (t, (c, e)) in starts.into_iter().enumerate() {
            self.seen.insert(&c);
            self.roots.push(c.clone());
            self.trees.push(Ranked::new(self.p.heuristic, per_tree));
            self.tree_best.push(None);
            self.add_to_tree(t, Entry::new(c, e.confusion, e.quality, None, t));
        }
        loop {
            if let Some(t) = self.clock.exhausted(self.n.tests) {
                return Ok(t);
            }
            if self.perfect() {
                return Ok(Termination::PerfectSolution);
            }
            let mut active = false;
            for t in 0..self.trees.len() {
                let (did, stop) = self.turn(t)?;
                active |= did;
                if let Some(stop) = stop {
                    return Ok(stop);
                }
                if self.perfect() {
                    return Ok(Termination::PerfectSolution);
                }
            }
            // Nothing expanded and nothing drawn: the pool was empty at every draw.
            if !active && self.pool.is_empty() {
                return Ok(Termination::Exhausted);
            }
        }
    }

    fn details(&self) -> serde_json::Map<String, serde_json::Value> {
        let mut d = serde_json::Map::new();
        let nodes: usize = self.trees.iter().map(Ranked::added).sum();
        let evicted: usize = self.trees.iter().map(Ranked::evicted).sum();
        d.insert("nodes".into(), nodes.into());
        d.insert("nodes_evicted".into(), evicted.into());
        d.insert("trees".into(), self.trees.len().into());
        d.insert(
            "start_classes".into(),
            self.roots
                .iter()
                .map(to_manchester_full)
                .collect::<Vec<_>>()
                .into(),
        );
        d.insert("refinements".into(), self.n.refinements.into());
        d.insert("expansions".into(), self.n.expansions.into());
        d.insert("turns".into(), self.n.turns.into());
        d.insert("pruned_by_bound".into(), self.n.pruned_by_bound.into());
        d.insert("mixed_tested".into(), self.n.mixed.into());
        d.insert("mixed_pooled".into(), self.n.mixed_pooled.into());
        d.insert("adopted_from_other_trees".into(), self.n.adopted.into());
        d.insert("pool_left".into(), self.pool.len().into());
        d.insert("pool_evicted".into(), self.pool.evicted().into());
        self.mixer.add_details(&mut d);
        d.insert("heuristic".into(), self.p.heuristic.name().into());
        d.insert("tests_to_best".into(), self.to_best.tests.into());
        d.insert("ms_to_best".into(), self.to_best.ms.into());
        d.insert(
            "refinements_to_best".into(),
            self.to_best.refinements.into(),
        );
        d.insert("expansions_to_best".into(), self.to_best.expansions.into());
        d.insert(
            "max_horizontal_expansion".into(),
            self.trees
                .iter()
                .map(Ranked::max_horizontal_expansion)
                .max()
                .unwrap_or(0)
                .into(),
        );
        d
    }
}

impl<'r> ForestMixing<'r> {
    pub fn new(params: ForestParams, refinement: &'r dyn Refinement) -> Result<Self, LearnError> {
        params.validate()?;
        Ok(ForestMixing { params, refinement })
    }

    pub fn params(&self) -> &ForestParams {
        &self.params
    }

    /// Searches for expressions separating `examples` under `control`'s budgets.
    pub fn run<O: MembershipOracle + ?Sized>(
        &self,
        oracle: &O,
        examples: &Examples,
        control: &RunControl,
    ) -> Result<ForestRun, LearnError> {
        self.run_within(oracle, examples, examples.all(), control)
    }

    /// [`ForestMixing::run`], asking the oracle over `among` (a superset of the examples),
    /// as [`crate::learn::celoe::Celoe::run_within`]; with [`ForestParams::validation`], an
    /// imperfect result is chosen by a validation split as CELOE's is.
    pub fn run_within<O: MembershipOracle + ?Sized>(
        &self,
        oracle: &O,
        examples: &Examples,
        among: &IndividualSet,
        control: &RunControl,
    ) -> Result<ForestRun, LearnError> {
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
    ) -> Result<ForestRun, LearnError> {
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
    ) -> Result<ForestRun, LearnError> {
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
        let mut search = Search {
            p,
            refinement: self.refinement,
            evaluator,
            clock: &clock,
            trees: Vec::new(),
            pool: Ranked::new(p.heuristic, p.max_nodes),
            tree_best: Vec::new(),
            best: BestSolutions::new(p.max_results),
            front: LengthFront::default(),
            mixer: Mixer::new(
                MixLimits {
                    pool: p.mix_pool,
                    disjunctions: p.mix_disjunctions,
                    max_length: p.max_length,
                    max_depth: p.max_depth,
                    max_results: p.max_results,
                },
                examples.all().len(),
            ),
            seen: SeenConcepts::default(),
            n: Counters::default(),
            to_best: ToBest::default(),
            roots: Vec::new(),
        };
        let termination = search.search()?;
        let search_ms = clock.elapsed_ms();
        clock.extend_deadline_for_reporting();
        search.mixer.add_solutions_to(&mut search.best);
        let solutions = report_solutions(oracle, &search.best, p.minimize, p.semantics)?;
        let oracle_stats = RunStats::oracle_delta(stats_before, oracle.stats());
        let details = search.details();
        Ok(ForestRun {
            model: ForestModel(ConceptModel {
                quality_measure: p.quality,
                semantics: p.semantics,
                solutions,
            }),
            stats: RunStats::of_run(
                search.n.tests,
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

impl BinaryLearner for ForestMixing<'_> {
    type Params = ForestParams;
    type Model = ForestModel;
    type Report = ();

    fn name(&self) -> &'static str {
        ALGORITHM
    }

    fn params(&self) -> &ForestParams {
        &self.params
    }

    fn fit_binary(
        &self,
        oracle: &dyn MembershipOracle,
        examples: &Examples,
        among: &IndividualSet,
        control: &RunControl,
    ) -> Result<BinaryFit<ForestModel, ()>, LearnError> {
        let run = self.run_within(oracle, examples, among, control)?;
        Ok(BinaryFit {
            solutions: run.model.0.solutions.clone(),
            quality: run.model.0.quality_measure,
            semantics: run.model.0.semantics,
            model: run.model,
            stats: run.stats,
            report: (),
        })
    }
}

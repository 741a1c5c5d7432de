//! CELOE's best-first search as a state machine: [`Search::start`] scores the start class,
//! then each [`Search::step`] expands the best expandable node and scores its fresh
//! refinements in batches, until a step reports why the search ended.

use super::seeding::SeedTrigger;
use super::stall::StallRelaxer;
use super::{CeloeParams, PERFECT};
use crate::concept::{Concept, depth, length, normalize};
use crate::eval::Confusion;
use crate::learn::search::{
    BestSolutions, Evaluated, Evaluator, LengthFront, MixLimits, Mixer, NodeId, OeHeuristic,
    SearchNode, SearchTree, SeenConcepts, budget_stop, cannot_beat, extends_conjunction,
    neighbourhood, optimistic_quality,
};
use crate::learn::{LearnError, Progress, RunClock, Termination};
use crate::oracle::{IndividualSet, MembershipOracle};
use crate::refine::Refinement;

/// One run's state.
pub(super) struct Search<'a, O: MembershipOracle + ?Sized> {
    p: &'a CeloeParams,
    refinement: &'a dyn Refinement,
    evaluator: Evaluator<'a, O>,
    clock: &'a RunClock<'a, O>,
    pub(super) tree: SearchTree,
    pub(super) best: BestSolutions,
    pub(super) front: LengthFront,
    seen: SeenConcepts,
    /// Mixes of the partial solutions (see [`Mixer`]).
    pub(super) mixer: Mixer,
    relaxer: Option<StallRelaxer>,
    /// Per node id: its counts on the examples.
    node_confusions: Vec<Confusion>,
    pub(super) tests: u64,
    refinements: u64,
    /// Refinements not added and nodes taken out of the tree.
    pruned_by_bound: u64,
    /// Concepts proposed from the examples' neighbourhood and scored, and the time taken to
    /// build them.
    seeded: u64,
    seeding_ms: u64,
    /// The start node and when to file the proposals; `None` once filed (or never due).
    seeding: Option<(Parent, SeedTrigger)>,
}

/// The node being expanded: its id, concept and counts.
struct Parent {
    id: NodeId,
    concept: Concept,
    confusion: Confusion,
}

impl<'a, O: MembershipOracle + ?Sized> Search<'a, O> {
    pub(super) fn new(
        p: &'a CeloeParams,
        refinement: &'a dyn Refinement,
        evaluator: Evaluator<'a, O>,
        clock: &'a RunClock<'a, O>,
    ) -> Self {
        let examples = evaluator.examples().all().len();
        Search {
            p,
            refinement,
            evaluator,
            clock,
            tree: SearchTree::with_max_nodes(p.heuristic, p.max_nodes),
            best: BestSolutions::new(p.max_results),
            front: LengthFront::default(),
            seen: SeenConcepts::default(),
            mixer: Mixer::new(
                MixLimits {
                    pool: p.mix_pool,
                    disjunctions: p.mix_disjunctions,
                    max_length: p.max_length,
                    max_depth: p.max_depth,
                    max_results: p.max_results,
                },
                examples,
            ),
            relaxer: p.relax_penalty_to.map(StallRelaxer::new),
            node_confusions: Vec::new(),
            tests: 0,
            refinements: 0,
            pruned_by_bound: 0,
            seeded: 0,
            seeding_ms: 0,
            seeding: None,
        }
    }

    /// Runs the search to its end: why it ended.
    pub(super) fn run(&mut self) -> Result<Termination, LearnError> {
        if let Some(t) = self.start()? {
            return Ok(t);
        }
        loop {
            if let Some(t) = self.step()? {
                return Ok(t);
            }
        }
    }

    fn perfect(&self) -> bool {
        self.p.stop_on_perfect && self.best.best_quality().is_some_and(|q| q >= PERFECT)
    }

    /// Not worth refining: the bound is below the k-th best solution's quality.
    fn hopeless(&self, confusion: &Confusion) -> bool {
        self.p.prune_by_bound
            && cannot_beat(
                optimistic_quality(self.p.quality, confusion),
                self.best.threshold(),
            )
    }

    /// Scores the start class and makes it the root; the termination when the search ends
    /// there (a budget, or a start that misses too many positives: nothing below it can do
    /// better).
    fn start(&mut self) -> Result<Option<Termination>, LearnError> {
        let start = normalize(&self.p.start);
        self.seen.insert(&start);
        if let Some(t) = self.clock.exhausted(0) {
            return Ok(Some(t));
        }
        let root = match self.evaluator.evaluate(&start) {
            Err(e) => return budget_stop(e).map(Some),
            Ok(root) => root,
        };
        self.tests += 1;
        if root.too_weak {
            return Ok(Some(Termination::Exhausted));
        }
        self.best.offer(&start, root.quality, root.confusion);
        self.front.offer(&start, root.quality, root.confusion);
        let id = self.tree.add(start.clone(), root.quality, None);
        self.node_confusions.push(root.confusion);
        if self.p.neighbourhood.is_some() && start == Concept::Top {
            let root = Parent {
                id,
                concept: start,
                confusion: root.confusion,
            };
            self.seeding = Some((root, SeedTrigger::new()));
        }
        Ok(None)
    }

    /// Files the neighbourhood's proposals once, when the search first stalls (or has no
    /// node left) and the start is still in the tree (see `celoe::seeding`).
    fn seed_if_stalled(&mut self, out_of_nodes: bool) -> Result<Option<Termination>, LearnError> {
        let q = self.best.best_quality().unwrap_or(0.0);
        let Some((_, trigger)) = &mut self.seeding else {
            return Ok(None);
        };
        if !(trigger.stalled(self.tests, q) || out_of_nodes) {
            return Ok(None);
        }
        let Some((root, _)) = self.seeding.take() else {
            return Ok(None);
        };
        if self.tree.node(root.id).concept != root.concept {
            return Ok(None);
        }
        self.seed_from_neighbourhood(&root)
    }

    /// Scores the concepts built from the examples' neighbourhood and files them below the
    /// start (see [`CeloeParams::neighbourhood`]); the termination when a budget ends the
    /// search there.
    fn seed_from_neighbourhood(
        &mut self,
        root: &Parent,
    ) -> Result<Option<Termination>, LearnError> {
        let Some(limits) = self.p.neighbourhood else {
            return Ok(None);
        };
        let started = std::time::Instant::now();
        let proposed = match neighbourhood::propose(
            self.evaluator.oracle(),
            self.evaluator.examples(),
            self.refinement,
            self.p.quality,
            &limits,
        ) {
            Ok(v) => v,
            Err(e) => return budget_stop(e).map(Some),
        };
        let (max_depth, max_length) = (self.p.max_depth, self.p.max_length);
        let fresh: Vec<Concept> = proposed
            .into_iter()
            .filter(|c| depth(c) <= max_depth && max_length.is_none_or(|m| length(c) <= m))
            .filter(|c| self.seen.insert(c))
            .collect();
        self.seeded = fresh.len() as u64;
        self.seeding_ms = started.elapsed().as_millis() as u64;
        for chunk in fresh.chunks(self.p.batch_size) {
            if let Some(t) = self.clock.exhausted(self.tests) {
                return Ok(Some(t));
            }
            if let Some(t) = self.score_batch(root, chunk)? {
                return Ok(Some(t));
            }
            if self.perfect() {
                break;
            }
        }
        Ok(None)
    }

    /// Expands the best expandable node (or drops it when it is hopeless); the termination
    /// when the search ends.
    pub(super) fn step(&mut self) -> Result<Option<Termination>, LearnError> {
        if let Some(t) = self.clock.exhausted(self.tests) {
            return Ok(Some(t));
        }
        if self.perfect() {
            return Ok(Some(Termination::PerfectSolution));
        }
        let max_length = self.p.max_length;
        let expandable = |n: &SearchNode| {
            (n.quality < PERFECT || n.horizontal_expansion < n.length)
                && max_length.is_none_or(|m| n.horizontal_expansion < m)
        };
        if let Some(t) = self.seed_if_stalled(self.tree.best_where(expandable).is_none())? {
            return Ok(Some(t));
        }
        let Some(id) = self.tree.best_where(expandable) else {
            return Ok(Some(Termination::Exhausted));
        };
        if self.hopeless(&self.node_confusions[id.0]) {
            self.tree.remove(id);
            self.pruned_by_bound += 1;
            return Ok(None);
        }
        let (parent, fresh) = self.expand(id);
        for chunk in fresh.chunks(self.p.batch_size) {
            if let Some(t) = self.clock.exhausted(self.tests) {
                return Ok(Some(t));
            }
            if let Some(t) = self.score_batch(&parent, chunk)? {
                return Ok(Some(t));
            }
            if self.perfect() {
                break;
            }
        }
        Ok(None)
    }

    /// Refines node `id` with a length limit one above its last: the node, and its
    /// refinements longer than the last limit, not too deep and never seen before.
    fn expand(&mut self, id: NodeId) -> (Parent, Vec<Concept>) {
        let node = self.tree.node(id);
        let limit = node.horizontal_expansion + 1;
        let previous = node.horizontal_expansion;
        let parent = Parent {
            id,
            concept: node.concept.clone(),
            confusion: self.node_confusions[id.0],
        };
        let refined = self.refinement.refine(&parent.concept, limit);
        self.refinements += refined.len() as u64;
        self.tree.expanded(id, limit, refined.len());
        let max_depth = self.p.max_depth;
        let seen = &mut self.seen;
        let fresh = refined
            .into_iter()
            .filter(|r| length(r) > previous && depth(r) <= max_depth)
            .filter(|r| seen.insert(r))
            .collect();
        (parent, fresh)
    }

    /// Scores one batch of `parent`'s refinements (as many as the test budget allows) and
    /// keeps them; the termination when a budget stopped the scoring.
    fn score_batch(
        &mut self,
        parent: &Parent,
        chunk: &[Concept],
    ) -> Result<Option<Termination>, LearnError> {
        let take = chunk.len().min(self.clock.tests_left(self.tests) as usize);
        let clock = self.clock;
        let (scored, failure) = self
            .evaluator
            .evaluate_batch_with_members_until(&chunk[..take], &|| clock.stopped().is_some());
        self.tests += scored.len() as u64;
        for (c, (e, members)) in chunk.iter().zip(scored) {
            self.keep(parent, c, &e, &members);
        }
        // Mixes of the batch's concepts with the pool (see `Mixer`).
        self.mixer.settle(&self.evaluator, &mut self.front);
        self.relax();
        self.clock.report(&Progress {
            concepts_tested: self.tests,
            best_quality: self.mixer.best_with(self.best.best_quality()),
            elapsed: self.clock.elapsed(),
        });
        match failure {
            Some(e) => budget_stop(e).map(Some),
            None => Ok(None),
        }
    }

    /// Files a scored refinement `c` of `parent`: dropped when too weak or hopeless, a
    /// solution only when it is an idle conjunct, else a node, a solution and a mixing
    /// candidate.
    fn keep(&mut self, parent: &Parent, c: &Concept, e: &Evaluated, members: &IndividualSet) {
        if e.too_weak {
            return;
        }
        self.front.offer(c, e.quality, e.confusion);
        if self.hopeless(&e.confusion) {
            self.pruned_by_bound += 1;
            return;
        }
        if self.p.skip_idle_conjuncts
            && e.confusion == parent.confusion
            && extends_conjunction(&parent.concept, c)
        {
            self.best.offer(c, e.quality, e.confusion);
            return;
        }
        let node = self.tree.add(c.clone(), e.quality, Some(parent.id));
        // A reused slot (an evicted node's) is overwritten.
        match self.node_confusions.get_mut(node.0) {
            Some(slot) => *slot = e.confusion,
            None => self.node_confusions.push(e.confusion),
        }
        self.best.offer(c, e.quality, e.confusion);
        self.mixer
            .offer(c, e, members, self.evaluator.examples().all());
    }

    /// Lowers the expansion penalty when the search has stalled (see [`StallRelaxer`]).
    fn relax(&mut self) {
        let Some(r) = &mut self.relaxer else {
            return;
        };
        let h = self.tree.heuristic();
        let q = self.best.best_quality().unwrap_or(0.0);
        if let Some(lower) = r.after_batch(self.tests, q, h.expansion_penalty_factor) {
            self.tree.set_heuristic(OeHeuristic {
                expansion_penalty_factor: lower,
                ..h
            });
        }
    }

    /// The run's details for [`crate::learn::RunStats`].
    pub(super) fn details(&self) -> serde_json::Map<String, serde_json::Value> {
        let mut details = serde_json::Map::new();
        details.insert("nodes".into(), self.tree.added().into());
        details.insert("nodes_evicted".into(), self.tree.evicted().into());
        details.insert("refinements".into(), self.refinements.into());
        // Refinements not added and nodes taken out of the tree (`nodes_removed` of them).
        details.insert("pruned_by_bound".into(), self.pruned_by_bound.into());
        details.insert("neighbourhood_proposals".into(), self.seeded.into());
        details.insert("neighbourhood_ms".into(), self.seeding_ms.into());
        details.insert("nodes_removed".into(), self.tree.removed().into());
        // Mixes of pool entries scored, and kept (better than both parts).
        self.mixer.add_details(&mut details);
        if let Some(r) = &self.relaxer {
            details.insert("penalty_halvings".into(), r.halvings().into());
        }
        details.insert(
            "expansion_penalty".into(),
            self.tree.heuristic().expansion_penalty_factor.into(),
        );
        details.insert(
            "max_horizontal_expansion".into(),
            self.tree.max_horizontal_expansion().into(),
        );
        details
    }
}

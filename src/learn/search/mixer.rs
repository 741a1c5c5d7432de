//! Mixing during a search: the concepts a search tests are offered to a [`MixPool`], and
//! the mixes it returns are scored from their parts' members (no query). A mix that beats
//! both parts by a real change is kept as a solution and a length-front entry and goes
//! back to the pool (mixes of mixes follow). Mixes stay out of the search's trees, bound,
//! stopping rule and seen-set: a mix must neither end the search before ρ's shorter
//! definition nor keep ρ from reaching the same concept as a node.

use super::evaluate::{Evaluated, Evaluator};
use super::front::LengthFront;
use super::mix_pool::{Mix, MixPool, least_change};
use super::seen::SeenConcepts;
use super::solutions::BestSolutions;
use crate::concept::{Concept, depth};
use crate::oracle::{IndividualSet, MembershipOracle};

/// Limits on the mixes a search keeps.
#[derive(Clone, Copy, Debug)]
pub struct MixLimits {
    /// Entries per list of the pool (0: no mixing).
    pub pool: usize,
    /// Mix by `⊔` as well as by `⊓`.
    pub disjunctions: bool,
    /// Longest mix (none: unbounded).
    pub max_length: Option<usize>,
    /// Deepest mix.
    pub max_depth: usize,
    /// Distinct best mixes kept as solutions.
    pub max_results: usize,
}

/// One search's mixing state.
pub struct Mixer {
    pool: MixPool,
    limits: MixLimits,
    /// Mixes returned by the pool and not yet scored.
    pending: Vec<Mix>,
    /// Apart from the search's own: a mix must not keep ρ from reaching the same concept.
    seen: SeenConcepts,
    best: BestSolutions,
    least_change: usize,
    tested: u64,
    kept: u64,
}

impl Mixer {
    /// A mixer for a problem of `examples` examples.
    pub fn new(limits: MixLimits, examples: usize) -> Self {
        Mixer {
            pool: MixPool::new(limits.pool, limits.disjunctions),
            limits,
            pending: Vec::new(),
            seen: SeenConcepts::default(),
            best: BestSolutions::new(limits.max_results),
            least_change: least_change(examples),
            tested: 0,
            kept: 0,
        }
    }

    /// The better of `q` and the best kept mix's quality.
    pub fn best_with(&self, q: Option<f64>) -> Option<f64> {
        match (q, self.best.best_quality()) {
            (Some(a), Some(b)) => Some(a.max(b)),
            (a, b) => a.or(b),
        }
    }

    pub fn is_on(&self) -> bool {
        self.limits.pool > 0
    }

    /// Offers a concept the search tested, with its score and its members (`examples`: the
    /// problem's examples, to which the members are cut: a wider context, a fold's, must
    /// not tell equal coverages apart). Its mixes wait for [`Mixer::settle`].
    pub fn offer(
        &mut self,
        c: &Concept,
        e: &Evaluated,
        members: &IndividualSet,
        examples: &IndividualSet,
    ) {
        let complete = e.confusion.fn_ == 0;
        if !self.pool.admits(e.quality, complete) {
            return;
        }
        let members = members.intersection(examples);
        let max_length = self.limits.max_length.unwrap_or(usize::MAX);
        self.pending.extend(
            self.pool
                .offer(c, e.quality, &members, complete, max_length),
        );
    }

    /// Scores the waiting mixes (and the mixes of those kept), offering the kept ones to
    /// `front`.
    pub fn settle<O: MembershipOracle + ?Sized>(
        &mut self,
        evaluator: &Evaluator<'_, O>,
        front: &mut LengthFront,
    ) {
        let max_length = self.limits.max_length.unwrap_or(usize::MAX);
        while let Some(m) = self.pending.pop() {
            self.tested += 1;
            let e = evaluator.score(evaluator.examples().confusion(&m.members));
            if e.too_weak
                || e.quality <= m.parts_quality
                || m.change() < self.least_change
                || depth(&m.concept) > self.limits.max_depth
                || !self.seen.insert(&m.concept)
            {
                continue;
            }
            front.offer(&m.concept, e.quality, e.confusion);
            self.best.offer(&m.concept, e.quality, e.confusion);
            self.kept += 1;
            self.pending.extend(self.pool.offer(
                &m.concept,
                e.quality,
                &m.members,
                e.confusion.fn_ == 0,
                max_length,
            ));
        }
    }

    /// Offers the kept mixes to the search's solutions.
    pub fn add_solutions_to(&self, best: &mut BestSolutions) {
        for c in self.best.candidates() {
            best.offer(&c.concept, c.quality, c.confusion);
        }
    }

    /// `mixes_tested` and `mixes_kept` for the run's statistics (nothing when off).
    pub fn add_details(&self, details: &mut serde_json::Map<String, serde_json::Value>) {
        if self.is_on() {
            details.insert("mixes_tested".into(), self.tested.into());
            details.insert("mixes_kept".into(), self.kept.into());
        }
    }
}

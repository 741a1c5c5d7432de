//! Forest Mixing's parameters: CELOE's, plus the forest's own (trees, start classes, the
//! pool's per-tree draw, the mixing length limit, the node heuristic).

use serde::Serialize;

use super::heuristic::ForestHeuristic;
use crate::concept::Concept;
use crate::learn::{LearnError, QualityMeasure};
use crate::oracle::Semantics;

/// Budgets are not parameters: they come with each run's [`RunControl`](crate::learn::RunControl).
#[derive(Clone, Debug, Serialize)]
pub struct ForestParams {
    /// F1 (default) or accuracy.
    pub quality: QualityMeasure,
    /// Percentage of positives a solution may miss (0–100; DL-Learner's noise constraint):
    /// refinements missing more are too weak and dropped. The default, 100, is no
    /// constraint: the optimistic bound prunes instead (as CELOE).
    pub noise_percentage: f64,
    /// Do not refine (or pool) an expression whose optimistic bound cannot beat the k-th
    /// best solution (see [`crate::learn::search::optimistic_quality`]).
    pub prune_by_bound: bool,
    /// The share of the positives a computed start class must cover (the paper's PosCov;
    /// 1.0 by default). Below 1 it tolerates noisy positives.
    pub start_coverage: f64,
    /// Deepest syntax tree a candidate may have (as CELOE: 7).
    pub max_depth: usize,
    /// Longest candidate (none: unbounded).
    pub max_length: Option<usize>,
    /// Distinct best solutions kept.
    pub max_results: usize,
    /// Trees grown when the start classes are computed (the paper's FM2 has 2). Ignored
    /// when `start_classes` are given: then there is one tree per start class.
    pub trees: usize,
    /// User-given start classes (empty: computed, see [`super::start`]).
    #[serde(serialize_with = "concepts_as_text")]
    pub start_classes: Vec<Concept>,
    /// The paper's `maxNodesAddedPerTree`: most expressions a tree takes from the shared
    /// pool per turn.
    pub max_nodes_added_per_tree: usize,
    /// Longest conjunction the mixing step may add to the pool.
    pub max_mix_length: usize,
    pub heuristic: ForestHeuristic,
    /// Stop as soon as a solution has quality 1.
    pub stop_on_perfect: bool,
    /// Remove redundant parts of the reported solutions.
    pub minimize: bool,
    pub semantics: Semantics,
    /// Refinements scored per oracle batch (between budget checks).
    pub batch_size: usize,
    /// Keep `C ⊓ D` out of the pool when it covers exactly what `C` covers (as CELOE).
    pub skip_idle_conjuncts: bool,
    /// Most nodes each tree holds, and most expressions the pool holds (the worst are
    /// evicted past that).
    pub max_nodes: usize,
    /// When the search finds no perfect solution, choose the returned expression's length
    /// by a validation split, as CELOE does (see [`crate::learn::search::run_selected`]);
    /// `None`: the best on the training examples, as in the paper.
    pub validation: Option<crate::learn::search::ValidationSplit>,
    /// Entries per list of CELOE's pool of partial solutions to mix (see
    /// [`crate::learn::search::Mixer`]); 0 leaves only the paper's mixing.
    pub mix_pool: usize,
    /// Mix partial solutions by `⊔` as well as by `⊓` (off when the language has none).
    pub mix_disjunctions: bool,
}

fn concepts_as_text<S: serde::Serializer>(cs: &[Concept], s: S) -> Result<S::Ok, S::Error> {
    use serde::ser::SerializeSeq;
    let mut seq = s.serialize_seq(Some(cs.len()))?;
    for c in cs {
        seq.serialize_element(&crate::concept::to_manchester_full(c))?;
    }
    seq.end()
}

impl Default for ForestParams {
    fn default() -> Self {
        ForestParams {
            quality: QualityMeasure::F1,
            noise_percentage: 100.0,
            prune_by_bound: true,
            start_coverage: 1.0,
            max_depth: 7,
            max_length: None,
            max_results: 10,
            trees: 2,
            start_classes: Vec::new(),
            max_nodes_added_per_tree: 10,
            max_mix_length: 10,
            heuristic: ForestHeuristic::default(),
            stop_on_perfect: true,
            minimize: true,
            semantics: Semantics::Closed,
            batch_size: 256,
            skip_idle_conjuncts: true,
            max_nodes: 500_000,
            validation: Some(crate::learn::search::ValidationSplit::default()),
            mix_pool: 20,
            mix_disjunctions: true,
        }
    }
}

impl ForestParams {
    pub fn validate(&self) -> Result<(), LearnError> {
        let invalid = |name, message: &str| Err(LearnError::invalid(name, message));
        if !(0.0..=100.0).contains(&self.noise_percentage) {
            return invalid("noise_percentage", "must be between 0 and 100");
        }
        if !(self.start_coverage > 0.0 && self.start_coverage <= 1.0) {
            return invalid("start_coverage", "must be in (0, 1]");
        }
        for (name, value) in [
            ("max_depth", self.max_depth),
            ("max_results", self.max_results),
            ("trees", self.trees),
            ("max_nodes_added_per_tree", self.max_nodes_added_per_tree),
            ("max_mix_length", self.max_mix_length),
            ("batch_size", self.batch_size),
            ("max_nodes", self.max_nodes),
        ] {
            if value == 0 {
                return invalid(name, "must be at least 1");
            }
        }
        if self.max_length == Some(0) {
            return invalid("max_length", "must be at least 1");
        }
        if let Some(v) = &self.validation {
            v.validate()?;
        }
        self.heuristic.validate()
    }
}

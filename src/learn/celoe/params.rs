//! CELOE's parameters, with the reference implementations' defaults.

use crate::concept::Concept;
use crate::learn::search::{NeighbourhoodLimits, OeHeuristic};
use crate::learn::{LearnError, QualityMeasure};
use crate::oracle::Semantics;

/// Budgets are not parameters: they come with each run's [`RunControl`](crate::learn::RunControl).
#[derive(Clone, Debug, serde::Serialize)]
pub struct CeloeParams {
    /// F1 (default, as Ontolearn reports) or accuracy (DL-Learner's default).
    pub quality: QualityMeasure,
    /// Percentage of positives a solution may miss (0–100); refinements missing more are
    /// "too weak" and pruned (DL-Learner's `noisePercentage`). The default, 100, is no
    /// constraint: the optimistic bound ([`CeloeParams::prune_by_bound`]) prunes instead,
    /// which needs no guess of the data's noise.
    pub noise_percentage: f64,
    /// Do not refine a node whose optimistic bound (its covered positives kept, its covered
    /// negatives dropped) is below the quality of the k-th best solution kept
    /// (`max_results`): nothing below it could be kept. See [`crate::learn::search::optimistic_quality`].
    pub prune_by_bound: bool,
    /// Halve the heuristic's expansion penalty, down to this floor, each time the search
    /// stalls (see `celoe::stall`); `None` keeps the penalty fixed, as DL-Learner does.
    pub relax_penalty_to: Option<f64>,
    /// Deepest syntax tree a candidate may have (DL-Learner: 7).
    pub max_depth: usize,
    /// Longest candidate (none: unbounded, as in DL-Learner). With a bound the search can
    /// run out of candidates and end as `exhausted`.
    pub max_length: Option<usize>,
    /// Distinct best solutions kept (DL-Learner: 10).
    pub max_results: usize,
    /// Where the search starts (⊤ by default).
    #[serde(serialize_with = "crate::learn::model::concept_as_text")]
    pub start: Concept,
    pub heuristic: OeHeuristic,
    /// Stop as soon as a solution has quality 1 (default on: a definition was found).
    pub stop_on_perfect: bool,
    /// Remove redundant parts of the reported solutions.
    pub minimize: bool,
    pub semantics: Semantics,
    /// Refinements scored per oracle batch (between budget checks).
    pub batch_size: usize,
    /// Keep `C ⊓ D` out of the tree when it covers exactly the examples `C` covers (it is
    /// still tested). Such a conjunct changes nothing yet; refinements of `D` that would cut
    /// can still be appended to `C` directly at a larger length, so little is lost, and the
    /// tree no longer fills with equivalent nodes. Not in DL-Learner (off there).
    pub skip_idle_conjuncts: bool,
    /// Most nodes the search tree holds; past that the worst-scoring node is evicted for
    /// each new one (about 400 bytes a node: the default bounds the tree near 200 MB; a
    /// 20 s carcinogenesis run adds about 500,000). Not in DL-Learner (unbounded there).
    pub max_nodes: usize,
    /// When the search finds no perfect solution, choose the returned expression's length
    /// by a validation split (see [`crate::learn::search::run_selected`]); `None`: the best on the training
    /// examples, as DL-Learner does.
    pub validation: Option<super::ValidationSplit>,
    /// Entries per list of the mixing pool (best concepts, best complete concepts; see
    /// [`crate::learn::search::Mixer`]); 0 turns mixing off (DL-Learner's CELOE).
    pub mix_pool: usize,
    /// Mix by `⊔` as well as by `⊓` (off when the language has no disjunction).
    pub mix_disjunctions: bool,
    /// When the search first stalls (`celoe::seeding`), add to the tree below the start
    /// concept the concepts built bottom-up from the examples' neighbourhood
    /// (`A ⊓ ∃r.∃s.(B ⊔ C)` from the classes the positives' successors carry; see
    /// [`crate::learn::search::neighbourhood`]), when the operator admits them and the
    /// start is ⊤; `None`: DL-Learner's CELOE, ρ's refinements only.
    pub neighbourhood: Option<NeighbourhoodLimits>,
}

impl Default for CeloeParams {
    fn default() -> Self {
        CeloeParams {
            quality: QualityMeasure::F1,
            noise_percentage: 100.0,
            prune_by_bound: true,
            relax_penalty_to: Some(0.01),
            max_depth: 7,
            max_length: None,
            max_results: 10,
            start: Concept::Top,
            heuristic: OeHeuristic::default(),
            stop_on_perfect: true,
            minimize: true,
            semantics: Semantics::Closed,
            batch_size: 256,
            skip_idle_conjuncts: true,
            max_nodes: 500_000,
            validation: Some(super::ValidationSplit::default()),
            mix_pool: 20,
            mix_disjunctions: true,
            neighbourhood: Some(NeighbourhoodLimits::default()),
        }
    }
}

impl CeloeParams {
    pub fn validate(&self) -> Result<(), LearnError> {
        let invalid = |name, message: &str| Err(LearnError::invalid(name, message));
        if !(0.0..=100.0).contains(&self.noise_percentage) {
            return invalid("noise_percentage", "must be between 0 and 100");
        }
        if self.max_depth == 0 {
            return invalid("max_depth", "must be at least 1");
        }
        if self.max_results == 0 {
            return invalid("max_results", "must be at least 1");
        }
        if self.batch_size == 0 {
            return invalid("batch_size", "must be at least 1");
        }
        if self.max_nodes == 0 {
            return invalid("max_nodes", "must be at least 1");
        }
        if let Some(v) = &self.validation {
            v.validate()?;
        }
        if self.max_length == Some(0) {
            return invalid("max_length", "must be at least 1");
        }
        if self
            .relax_penalty_to
            .is_some_and(|f| !f.is_finite() || f < 0.0)
        {
            return invalid("relax_penalty_to", "must be a finite number, at least 0");
        }
        let h = &self.heuristic;
        for (name, value) in [
            ("heuristic.start_node_bonus", h.start_node_bonus),
            ("heuristic.gain_bonus_factor", h.gain_bonus_factor),
            (
                "heuristic.expansion_penalty_factor",
                h.expansion_penalty_factor,
            ),
            (
                "heuristic.node_refinement_penalty",
                h.node_refinement_penalty,
            ),
        ] {
            if !value.is_finite() {
                return invalid(name, "must be a finite number");
            }
        }
        Ok(())
    }
}

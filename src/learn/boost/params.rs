//! Validated parameters of Fuzzy OWL-Boost and its weak learner wFoil-DL. Where the paper
//! leaves a value open the default is the standard choice, documented here.

use serde::{Deserialize, Serialize};

use super::adaboost::AlphaForm;
use super::fuzzy_set::Partition;
use super::tnorm::TNorm;
use crate::learn::LearnError;

/// The defaults θ = 0.7, at most 3 conjuncts, τ = 0 are the best of a small grid
/// (θ ∈ {0.7, 0.8, 0.9}, conjuncts ∈ {2, 3, 4}, τ ∈ {0, ½}) by 10-fold accuracy on heart and
/// mammographic together; the paper gives no values. One axiom per round with the
/// confidence-rated vote is rule boosting's design (SLIPPER: the weak learner learns a rule,
/// boosting combines them; a covering of five axioms is a strong learner that overfits),
/// checked on the same two sets (`docs/experiments/2026-12-03-owl-boost.md`). The fuzzy
/// partition and how many rounds to keep are not constants: an inner validation of each fit's
/// training examples chooses them ([`super::validation`]).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct BoostParams {
    /// Boosting rounds at most (early stopping: a weak hypothesis no better than chance
    /// ends the run — ε ≥ ½ under the paper's forms, α ≤ 0 under `confidence`; a perfect
    /// one, ε = 0, is the last; the inner validation may keep fewer).
    pub rounds: usize,
    pub tnorm: TNorm,
    pub alpha: AlphaForm,
    /// Fuzzy sets per numeric data property: 3, 5 or 7, or 0 (the default): chosen among
    /// them per fit by the inner validation (3 when it is off).
    pub fuzzy_sets: usize,
    pub partition: Partition,
    /// θ: Learn-One-Axiom stops once the axiom's confidence reaches it.
    pub theta: f64,
    /// Learn-One-Axiom also stops once the axiom covers at most this weighted share of the
    /// negatives (0: none at all, which makes the weak learner sound).
    pub max_negative_share: f64,
    /// Axioms per weak hypothesis at most (sequential covering stops earlier when every
    /// positive is covered or nothing new is learned).
    pub max_axioms: usize,
    /// Conjuncts per axiom at most.
    pub max_conjuncts: usize,
    /// Nesting of ∃ in the operator's atoms (1: `∃r.X` with X not itself an ∃).
    pub role_depth: usize,
    /// `∃r.{a}` atoms for the successors of a role when it has at most this many distinct
    /// ones among the examples (categorical values such as `hasChestPain 4.0`); 0 = none.
    pub max_values: usize,
    /// τ: an axiom covers an individual when its degree is above τ. A covered positive
    /// leaves the positives still to cover, and a round votes for a only above τ (τ = 0 is
    /// the paper's reading and the default; see [`super::adaboost`]).
    pub cover_degree: f64,
    /// Inner stratified folds of the training examples that choose how many of the rounds
    /// to keep ([`super::validation`]); 0 (or fewer examples of a class than folds) keeps
    /// them all. owl-boost only.
    #[serde(default)]
    pub validation_folds: usize,
    /// Also the "F or lower" / "F or higher" shoulders of each partition
    /// ([`super::fuzzy_set::thresholds`]): threshold tests on numeric values.
    #[serde(default)]
    pub threshold_sets: bool,
}

impl Default for BoostParams {
    fn default() -> Self {
        BoostParams {
            rounds: 30,
            tnorm: TNorm::Goedel,
            alpha: AlphaForm::Confidence,
            fuzzy_sets: 0,
            partition: Partition::EqualWidth,
            theta: 0.7,
            max_negative_share: 0.0,
            max_axioms: 1,
            max_conjuncts: 3,
            role_depth: 1,
            max_values: 12,
            cover_degree: 0.0,
            validation_folds: 5,
            threshold_sets: true,
        }
    }
}

impl BoostParams {
    /// The default `max_axioms` of wFoil-DL run alone (`--algorithm wfoil-dl`): a learner
    /// on its own covers the positives with several axioms, where boosting combines
    /// single-axiom rounds.
    pub const WEAK_LEARNER_ALONE_AXIOMS: usize = 5;

    /// The weak learner alone: one round, weight 1.
    pub fn single_weak_learner(mut self) -> Self {
        self.rounds = 1;
        self
    }

    pub fn validate(&self) -> Result<(), LearnError> {
        if self.rounds == 0 {
            return Err(LearnError::invalid("rounds", "must be at least 1"));
        }
        if ![0, 3, 5, 7].contains(&self.fuzzy_sets) {
            return Err(LearnError::invalid(
                "fuzzy_sets",
                format!(
                    "must be 3, 5 or 7 (0: chosen among them by validation), not {}",
                    self.fuzzy_sets
                ),
            ));
        }
        for (name, v) in [
            ("theta", self.theta),
            ("max_negative_share", self.max_negative_share),
            ("cover_degree", self.cover_degree),
        ] {
            if !(v.is_finite() && (0.0..=1.0).contains(&v)) {
                return Err(LearnError::invalid(
                    name,
                    format!("must lie in [0, 1], not {v}"),
                ));
            }
        }
        if self.cover_degree >= 1.0 {
            return Err(LearnError::invalid(
                "cover_degree",
                "must be below 1 (no degree is above 1)",
            ));
        }
        if self.validation_folds == 1 {
            return Err(LearnError::invalid(
                "validation_folds",
                "must be 0 (off) or at least 2",
            ));
        }
        if self.max_axioms == 0 || self.max_conjuncts == 0 {
            return Err(LearnError::invalid(
                "max_axioms/max_conjuncts",
                "must be at least 1",
            ));
        }
        Ok(())
    }
}

//! Validated parameters of the terminological Bayesian classifier learner, with the
//! paper's settings as defaults (depth and maximum length 3, BIC-driven search).

use serde::{Deserialize, Serialize};

use crate::learn::LearnError;
use crate::oracle::Semantics;

/// The network shape.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default, Serialize, Deserialize)]
#[cfg_attr(feature = "cli", derive(clap::ValueEnum))]
#[serde(rename_all = "lowercase")]
pub enum Structure {
    /// Target → each feature.
    #[default]
    #[cfg_attr(feature = "cli", value(help = None::<&str>))]
    Naive,
    /// Naive plus a directed tree among the features (maximum spanning arborescence).
    #[cfg_attr(feature = "cli", value(help = None::<&str>))]
    Tan,
}

/// How unknown memberships (neither `K ⊨ F(a)` nor `K ⊨ ¬F(a)`) are treated.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default, Serialize, Deserialize)]
#[cfg_attr(feature = "cli", derive(clap::ValueEnum))]
#[serde(rename_all = "lowercase")]
pub enum Missing {
    /// Available-case analysis: each CPT counts only the cases where its family is observed
    /// (valid under MCAR).
    #[default]
    #[cfg_attr(feature = "cli", value(help = None::<&str>))]
    Aca,
    /// Expectation–maximisation of the parameters from expected counts (MAR); with TAN the
    /// structure is the available-case one.
    #[cfg_attr(feature = "cli", value(help = None::<&str>))]
    Em,
    /// Structural EM (TAN only): structure and parameters from expected counts.
    #[cfg_attr(feature = "cli", value(help = None::<&str>))]
    Sem,
    /// Two-valued features True vs Other (false or unknown).
    #[cfg_attr(feature = "cli", value(help = None::<&str>))]
    Im2,
    /// Three-valued features True/False/Unknown (informative missingness).
    #[cfg_attr(feature = "cli", value(help = None::<&str>))]
    Im3,
    /// Robust Bayesian estimation (naive only): interval CPTs from the counts including the
    /// unknown cases, posterior intervals, their midpoint for scoring and ranking.
    #[cfg_attr(feature = "cli", value(help = None::<&str>))]
    Robust,
}

/// Feature selection strategy of Alg. 2 (FSBE with `max` removals per step).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default, Serialize, Deserialize)]
#[cfg_attr(feature = "cli", derive(clap::ValueEnum))]
#[serde(rename_all = "lowercase")]
pub enum Selection {
    /// Forward selection: `max = 0`.
    #[default]
    #[cfg_attr(feature = "cli", value(help = None::<&str>))]
    Fs,
    /// Fast forward selection / backward elimination: `max = 1`.
    #[cfg_attr(feature = "cli", value(help = None::<&str>))]
    Ffsbe,
}

impl Selection {
    /// The most features one step may remove.
    pub fn max_removals(self) -> usize {
        match self {
            Selection::Fs => 0,
            Selection::Ffsbe => 1,
        }
    }
}

/// How a feature's value is read from the oracle.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum FeatureSemantics {
    /// Three-valued (the paper): true if entailed, false if the negation is entailed.
    #[default]
    Open,
    /// Closed world: covered is true, anything else false (no unknowns).
    Closed,
}

/// The oracle semantics a feature semantics reads memberships under.
pub fn semantics_of(s: FeatureSemantics) -> Semantics {
    match s {
        FeatureSemantics::Open => Semantics::Open,
        FeatureSemantics::Closed => Semantics::Closed,
    }
}

/// Everything the learner may be told. Build with `TbcParams::default()` and adjust fields;
/// [`TbcParams::validate`] is called by the learner. Budgets (tests, time) are not
/// parameters: they come with each run's [`RunControl`](crate::learn::RunControl).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct TbcParams {
    pub structure: Structure,
    pub missing: Missing,
    pub selection: Selection,
    pub semantics: FeatureSemantics,
    /// Candidates kept per level of the inner beam search (Alg. 1). Default 5.
    pub beam_width: usize,
    /// Refinement steps from ⊤ in the inner search. Default 3 (paper).
    pub depth: usize,
    /// Longest feature concept (DL-Learner length). Default 3 (paper; 2 for FAMILY-TREE).
    pub max_length: usize,
    /// Dirichlet pseudo-count added to every CPT cell (1 = Laplace). Keeps log-likelihoods
    /// finite on empty cells; 0 gives the pure maximum-likelihood estimate. Default 1.
    pub pseudo_count: f64,
    /// EM/SEM stop when the log-likelihood gains less than this. Default 1e-4.
    pub em_threshold: f64,
    /// EM/SEM iteration cap. Default 100.
    pub em_max_iterations: usize,
    /// TAN: let features without a useful parent hang from the target only (a forest);
    /// `false` forces one spanning tree, as in the paper. Default false.
    pub tan_forest: bool,
    /// Most feature concepts in the network. Default 10.
    pub max_features: usize,
    /// Most refinements taken from one beam node per step (deterministic prefix). Default 400.
    pub max_refinements_per_node: usize,
    /// Longest feature the search widens to. When no feature within the current length
    /// improves the score, the length limit and the beam depth grow by one and the search
    /// goes on, up to this length; at or below `max_length` the scope stays the paper's.
    /// A deviation from the paper, on by default (8): with features of length 3 a naive
    /// network cannot express an interaction such as `¬Female ⊓ ∃hasSibling.Parent`, and
    /// on family Uncle the search stopped after `¬Female` (10-fold AUC-PR 0.80).
    pub widen_to: usize,
    /// Candidate features proposed by a short CELOE run on the training examples (its best
    /// solutions, then the best expression of each length it scored): they join the beam's
    /// first level at every step, where the network's BIC decides as for any candidate.
    /// A deviation from the paper (0 restores its search), on by default (10, CELOE's own
    /// number of kept solutions): the beam from ⊤ scores every prefix of a feature by BIC,
    /// so a feature that only separates once complete, such as family Aunt's definition
    /// (length 11), is out of its reach. See `tbc::propose`.
    pub proposals: usize,
    /// Most concepts the proposal run may test (and at most half of the run's own test and
    /// time budgets). A test budget keeps the run deterministic. Default 50,000: about a
    /// second on the embedded store; CELOE stops earlier when it finds a definition.
    pub proposal_tests: u64,
}

impl Default for TbcParams {
    fn default() -> Self {
        TbcParams {
            structure: Structure::Naive,
            missing: Missing::Aca,
            selection: Selection::Fs,
            semantics: FeatureSemantics::Open,
            beam_width: 5,
            depth: 3,
            max_length: 3,
            pseudo_count: 1.0,
            em_threshold: 1e-4,
            em_max_iterations: 100,
            tan_forest: false,
            max_features: 10,
            max_refinements_per_node: 400,
            widen_to: 8,
            proposals: 10,
            proposal_tests: 50_000,
        }
    }
}

impl TbcParams {
    /// Rejects combinations the paper does not define and out-of-range numbers.
    pub fn validate(&self) -> Result<(), LearnError> {
        let bad = |name, m: &str| Err(LearnError::invalid(name, m));
        if self.missing == Missing::Sem && self.structure != Structure::Tan {
            return bad(
                "missing",
                "sem is structural EM and needs structure = tan (use em for naive)",
            );
        }
        if self.missing == Missing::Robust && self.structure != Structure::Naive {
            return bad("missing", "robust is defined for the naive structure only");
        }
        if self.beam_width == 0 || self.depth == 0 || self.max_length == 0 {
            return bad(
                "beam_width/depth/max_length",
                "beam width, depth and maximum length must be at least 1",
            );
        }
        if !(self.pseudo_count.is_finite() && self.pseudo_count >= 0.0) {
            return bad("pseudo_count", "must be a finite number ≥ 0");
        }
        if !(self.em_threshold.is_finite() && self.em_threshold >= 0.0) {
            return bad("em_threshold", "must be a finite number ≥ 0");
        }
        if self.em_max_iterations == 0 || self.max_features == 0 {
            return bad(
                "em_max_iterations/max_features",
                "EM iteration cap and feature cap must be at least 1",
            );
        }
        if self.max_refinements_per_node == 0 {
            return bad("max_refinements_per_node", "must be at least 1");
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn defaults_are_valid_and_pairings_checked() {
        assert!(TbcParams::default().validate().is_ok());
        let sem_naive = TbcParams {
            missing: Missing::Sem,
            ..TbcParams::default()
        };
        assert!(sem_naive.validate().is_err());
        let robust_tan = TbcParams {
            missing: Missing::Robust,
            structure: Structure::Tan,
            ..TbcParams::default()
        };
        assert!(robust_tan.validate().is_err());
        let zero_beam = TbcParams {
            beam_width: 0,
            ..TbcParams::default()
        };
        assert!(zero_beam.validate().is_err());
    }
}

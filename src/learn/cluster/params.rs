//! Validated parameters of terminological cluster trees. The thresholds ν and δ are
//! multiples of the spread (the mean distance to the medoid) of all training individuals
//! (ν) and of the node's individuals (δ), so one default fits every `p`, committee size and
//! KB.

use serde::{Deserialize, Serialize};

use crate::learn::LearnError;

pub use super::medoid::Sampling;
pub use super::projection::UnknownValue;

/// Parameters of one run.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ClusterParams {
    /// The exponent of `d_p` (≥ 1).
    pub p: f64,
    /// ν: a node becomes a leaf when the best split's medoids are closer than this
    /// (a multiple of the spread, ≥ 0).
    pub stop_distance: f64,
    /// δ: when a test leaves one side empty, the individuals farther than this from the other
    /// side's medoid are moved to it (a multiple of the node's spread, ≥ 0).
    pub reassign_distance: f64,
    pub unknown: UnknownValue,
    /// Most levels below the root: a bound on recursion, not the stopping rule (a branch
    /// ends below ν or when no test separates its individuals).
    pub max_depth: usize,
    /// A node with fewer individuals than twice this is a leaf; a split leaving a side
    /// smaller than this is not taken.
    pub min_cluster_size: usize,
    /// Candidate tests: refinements of the node's concept at most this much longer than it.
    pub refinement_length: usize,
    /// Most candidate tests scored per node (ρ's order: shortest first).
    pub max_candidates: usize,
    pub sampling: Sampling,
    /// Seeds the medoid sampling (and nothing else: the rest is deterministic).
    pub seed: u64,
}

impl Default for ClusterParams {
    fn default() -> Self {
        ClusterParams {
            p: 2.0,
            stop_distance: 0.5,
            reassign_distance: 1.0,
            unknown: UnknownValue::Uniform,
            max_depth: 32,
            min_cluster_size: 1,
            refinement_length: 3,
            max_candidates: 200,
            sampling: Sampling::default(),
            seed: 1,
        }
    }
}

impl ClusterParams {
    pub fn validate(&self) -> Result<(), LearnError> {
        if !(self.p.is_finite() && self.p >= 1.0) {
            return Err(LearnError::invalid(
                "p",
                format!("{} is not a number ≥ 1 (d_p is a metric for p ≥ 1)", self.p),
            ));
        }
        for (name, v) in [
            ("stop_distance", self.stop_distance),
            ("reassign_distance", self.reassign_distance),
        ] {
            if !(v.is_finite() && v >= 0.0) {
                return Err(LearnError::invalid(
                    name,
                    format!("{v} is not a number ≥ 0 (a multiple of the data's spread)"),
                ));
            }
        }
        if self.min_cluster_size == 0 {
            return Err(LearnError::invalid(
                "min_cluster_size",
                "must be at least 1",
            ));
        }
        if self.refinement_length == 0 || self.max_candidates == 0 {
            return Err(LearnError::invalid(
                "refinement_length/max_candidates",
                "must be at least 1",
            ));
        }
        let s = &self.sampling;
        if s.exact_limit == 0 || s.candidates == 0 || s.references == 0 || s.finalists == 0 {
            return Err(LearnError::invalid(
                "sampling",
                "exact_limit, candidates, references and finalists must be at least 1",
            ));
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn defaults_validate_and_bad_values_are_named() {
        assert!(ClusterParams::default().validate().is_ok());
        let e = ClusterParams {
            p: 0.5,
            ..Default::default()
        }
        .validate()
        .unwrap_err()
        .to_string();
        assert!(e.contains("p"), "{e}");
        let e = ClusterParams {
            stop_distance: -1.0,
            ..Default::default()
        }
        .validate()
        .unwrap_err()
        .to_string();
        assert!(e.contains("stop_distance"), "{e}");
    }
}

//! DL-Learner's `OEHeuristicRuntime` node score, the CELOE default.

use serde::Serialize;

/// `quality + (root ? start_bonus : (quality − parent_quality)·gain_bonus)
///  − (horizontal_expansion − 1)·expansion_penalty − refinements·refinement_penalty`.
///
/// The expansion penalty makes the search revisit a node less eagerly each time it has
/// been refined with a longer length limit; the refinement penalty favours nodes with few
/// children; the gain bonus favours nodes that improved on their parent.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct OeHeuristic {
    pub start_node_bonus: f64,
    pub gain_bonus_factor: f64,
    pub expansion_penalty_factor: f64,
    /// DL-Learner 0.0001 (the default here); Ontolearn uses 0.001.
    pub node_refinement_penalty: f64,
}

impl Default for OeHeuristic {
    fn default() -> Self {
        OeHeuristic {
            start_node_bonus: 0.1,
            gain_bonus_factor: 0.3,
            expansion_penalty_factor: 0.1,
            node_refinement_penalty: 0.0001,
        }
    }
}

impl OeHeuristic {
    pub fn score(
        &self,
        quality: f64,
        parent_quality: Option<f64>,
        horizontal_expansion: usize,
        refinement_count: usize,
    ) -> f64 {
        let bonus = match parent_quality {
            None => self.start_node_bonus,
            Some(parent) => (quality - parent) * self.gain_bonus_factor,
        };
        quality + bonus
            - (horizontal_expansion as f64 - 1.0) * self.expansion_penalty_factor
            - refinement_count as f64 * self.node_refinement_penalty
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn score_follows_the_formula() {
        let h = OeHeuristic::default();
        // Root: 0.5 + 0.1 − 0·0.1 − 0 = 0.6.
        assert!((h.score(0.5, None, 1, 0) - 0.6).abs() < 1e-12);
        // Child improving by 0.2, third expansion, 100 refinements:
        // 0.7 + 0.06 − 0.2 − 0.01 = 0.55.
        assert!((h.score(0.7, Some(0.5), 3, 100) - 0.55).abs() < 1e-12);
    }
}

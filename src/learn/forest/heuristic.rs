//! The node scores a forest can use: CELOE's, and the paper's HT1 and FH.
//!
//! - `celoe`: DL-Learner's `OEHeuristicRuntime` ([`OeHeuristic`]), the default.
//! - `ht1`: CELOE's score `+ weight / refinements(parent)`: a node whose parent produced
//!   few refinements (few siblings) is favoured, so less-branching paths get explored.
//!   The root (no parent) gets no bonus.
//! - `fh`: `F1 − α·horiz + β·[F1 ≥ 0.8] − γ·[F1 ≤ 0.3]`. The paper names the penalised
//!   quantity `horiz` and calls it both the node's depth and its horizontal expansion; we
//!   read it as the horizontal expansion (length − 1 for a fresh node, +1 per expansion),
//!   which penalises long expressions as the paper intends and also lets a node that was
//!   expanded fall behind (a pure depth penalty would leave the best node best forever,
//!   and the search would refine only it). F1 is the node's F1 whatever `quality` is.

use serde::Serialize;

use crate::learn::LearnError;
use crate::learn::search::OeHeuristic;

/// Which score orders a tree's nodes and the shared pool.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
#[serde(tag = "kind", rename_all = "lowercase")]
pub enum ForestHeuristic {
    Celoe(OeHeuristic),
    Ht1 { base: OeHeuristic, weight: f64 },
    Fh { alpha: f64, beta: f64, gamma: f64 },
}

impl Default for ForestHeuristic {
    fn default() -> Self {
        ForestHeuristic::Celoe(OeHeuristic::default())
    }
}

/// What a score may depend on.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct NodeFacts {
    pub quality: f64,
    pub f1: f64,
    pub parent_quality: Option<f64>,
    pub horizontal_expansion: usize,
    pub refinement_count: usize,
    /// Refinements the parent's expansion produced (None for a root).
    pub parent_refinements: Option<usize>,
}

impl ForestHeuristic {
    /// HT1 with CELOE's defaults and the bonus weight 0.1.
    pub fn ht1() -> Self {
        ForestHeuristic::Ht1 {
            base: OeHeuristic::default(),
            weight: 0.1,
        }
    }

    /// FH with α = 0.1 (CELOE's expansion penalty), β = 0.1, γ = 0.1.
    pub fn fh() -> Self {
        ForestHeuristic::Fh {
            alpha: 0.1,
            beta: 0.1,
            gamma: 0.1,
        }
    }

    pub fn name(&self) -> &'static str {
        match self {
            ForestHeuristic::Celoe(_) => "celoe",
            ForestHeuristic::Ht1 { .. } => "ht1",
            ForestHeuristic::Fh { .. } => "fh",
        }
    }

    pub fn score(&self, n: &NodeFacts) -> f64 {
        let oe = |h: &OeHeuristic| {
            h.score(
                n.quality,
                n.parent_quality,
                n.horizontal_expansion,
                n.refinement_count,
            )
        };
        match self {
            ForestHeuristic::Celoe(h) => oe(h),
            ForestHeuristic::Ht1 { base, weight } => {
                let bonus = n
                    .parent_refinements
                    .map_or(0.0, |r| weight / r.max(1) as f64);
                oe(base) + bonus
            }
            ForestHeuristic::Fh { alpha, beta, gamma } => {
                let mut s = n.f1 - alpha * n.horizontal_expansion as f64;
                if n.f1 >= 0.8 {
                    s += beta;
                }
                if n.f1 <= 0.3 {
                    s -= gamma;
                }
                s
            }
        }
    }

    pub fn validate(&self) -> Result<(), LearnError> {
        let values: Vec<(&'static str, f64)> = match self {
            ForestHeuristic::Celoe(h) | ForestHeuristic::Ht1 { base: h, .. } => vec![
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
            ],
            ForestHeuristic::Fh { alpha, beta, gamma } => vec![
                ("heuristic.alpha", *alpha),
                ("heuristic.beta", *beta),
                ("heuristic.gamma", *gamma),
            ],
        };
        let mut values = values;
        if let ForestHeuristic::Ht1 { weight, .. } = self {
            values.push(("heuristic.weight", *weight));
        }
        match values.into_iter().find(|(_, v)| !v.is_finite()) {
            Some((name, _)) => Err(LearnError::invalid(name, "must be a finite number")),
            None => Ok(()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn facts(quality: f64, parent_refinements: Option<usize>, he: usize) -> NodeFacts {
        NodeFacts {
            quality,
            f1: quality,
            parent_quality: parent_refinements.map(|_| 0.5),
            horizontal_expansion: he,
            refinement_count: 0,
            parent_refinements,
        }
    }

    #[test]
    fn ht1_adds_the_inverse_of_the_parents_refinements() {
        let celoe = ForestHeuristic::default();
        let ht1 = ForestHeuristic::ht1();
        let n = facts(0.7, Some(4), 2);
        // CELOE: 0.7 + 0.2·0.3 − 1·0.1 = 0.66; HT1 adds 0.1 / 4.
        assert!((celoe.score(&n) - 0.66).abs() < 1e-12);
        assert!((ht1.score(&n) - 0.685).abs() < 1e-12);
        // Fewer siblings, larger bonus; a root gets none.
        assert!(ht1.score(&facts(0.7, Some(2), 2)) > ht1.score(&n));
        let root = facts(0.7, None, 1);
        assert_eq!(ht1.score(&root), celoe.score(&root));
    }

    #[test]
    fn fh_rewards_high_f1_penalises_low_f1_and_expansions() {
        let fh = ForestHeuristic::fh();
        // 0.9 − 0.1·2 + 0.1 = 0.8; 0.5 − 0.2 = 0.3; 0.2 − 0.2 − 0.1 = −0.1.
        assert!((fh.score(&facts(0.9, Some(3), 2)) - 0.8).abs() < 1e-12);
        assert!((fh.score(&facts(0.5, Some(3), 2)) - 0.3).abs() < 1e-12);
        assert!((fh.score(&facts(0.2, Some(3), 2)) + 0.1).abs() < 1e-12);
        assert!(fh.score(&facts(0.9, None, 3)) < fh.score(&facts(0.9, None, 2)));
        let bad = ForestHeuristic::Fh {
            alpha: f64::NAN,
            beta: 0.0,
            gamma: 0.0,
        };
        assert!(bad.validate().is_err());
    }
}

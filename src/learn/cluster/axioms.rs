//! Candidate axioms for an engineer to review (Sect. 4.2 of the paper): disjointness
//! between the concepts of every two clusters (leaves), and subsumption of every node's
//! concept by its parent's.

use super::model::TreeNode;
use crate::concept::Concept;

/// `left ⊓ right ⊑ ⊥`, or `left ⊑ right`.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct AxiomPair {
    pub left: Concept,
    pub right: Concept,
}

/// `L_i ⊓ L_j ⊑ ⊥` for every two leaves `i < j` (left-to-right order).
pub fn disjointness(root: &TreeNode) -> Vec<AxiomPair> {
    let leaves: Vec<&Concept> = root.leaves().into_iter().map(TreeNode::concept).collect();
    let mut out = Vec::new();
    for (i, a) in leaves.iter().enumerate() {
        for b in &leaves[i + 1..] {
            out.push(AxiomPair {
                left: (*a).clone(),
                right: (*b).clone(),
            });
        }
    }
    out
}

/// `child ⊑ parent` for every edge of the tree (pre-order), skipping a child whose concept
/// is its parent's and the root when it is ⊤ (nothing to review).
pub fn subsumptions(root: &TreeNode) -> Vec<AxiomPair> {
    let mut out = Vec::new();
    root.visit(&mut |n| {
        if let TreeNode::Split {
            concept,
            left,
            right,
            ..
        } = n
        {
            if *concept == Concept::Top {
                return;
            }
            for child in [left, right] {
                if child.concept() != concept {
                    out.push(AxiomPair {
                        left: child.concept().clone(),
                        right: concept.clone(),
                    });
                }
            }
        }
    });
    out
}

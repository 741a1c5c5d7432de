//! The search tree: nodes in an arena, ordered by their heuristic score.
//!
//! Ties are broken by shorter length, then by insertion order, so the order of expansion
//! (and thus the result of a search with a test budget) never depends on hashing or timing.

use std::cmp::Reverse;
use std::collections::BTreeSet;

use super::OeHeuristic;
use crate::concept::{Concept, length};

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct NodeId(pub usize);

/// One evaluated concept in the tree.
#[derive(Clone, Debug)]
pub struct SearchNode {
    pub concept: Concept,
    pub parent: Option<NodeId>,
    pub quality: f64,
    pub parent_quality: Option<f64>,
    /// The length limit of the last refinement of this node (starts at `length − 1`, as in
    /// DL-Learner, so the first expansion also yields same-length refinements such as
    /// subclasses).
    pub horizontal_expansion: usize,
    /// Refinements the last expansion produced (for the heuristic's penalty).
    pub refinement_count: usize,
    pub length: usize,
    pub children: usize,
    score: f64,
}

/// A total order on finite scores (NaN never occurs: scores are sums of finite terms).
#[derive(Clone, Copy, Debug, PartialEq)]
struct Score(f64);
impl Eq for Score {}
impl PartialOrd for Score {
    fn partial_cmp(&self, other: &Self) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}
impl Ord for Score {
    fn cmp(&self, other: &Self) -> std::cmp::Ordering {
        self.0.total_cmp(&other.0)
    }
}

type Key = (Reverse<Score>, usize, NodeId);

#[derive(Debug)]
pub struct SearchTree {
    heuristic: OeHeuristic,
    nodes: Vec<SearchNode>,
    order: BTreeSet<Key>,
}

impl SearchTree {
    pub fn new(heuristic: OeHeuristic) -> Self {
        SearchTree {
            heuristic,
            nodes: Vec::new(),
            order: BTreeSet::new(),
        }
    }

    pub fn len(&self) -> usize {
        self.nodes.len()
    }

    pub fn is_empty(&self) -> bool {
        self.nodes.is_empty()
    }

    pub fn node(&self, id: NodeId) -> &SearchNode {
        &self.nodes[id.0]
    }

    /// Adds an evaluated concept below `parent` (none for the root).
    pub fn add(&mut self, concept: Concept, quality: f64, parent: Option<NodeId>) -> NodeId {
        let id = NodeId(self.nodes.len());
        let parent_quality = parent.map(|p| self.nodes[p.0].quality);
        if let Some(p) = parent {
            self.nodes[p.0].children += 1;
        }
        let len = length(&concept);
        let horizontal_expansion = len.saturating_sub(1);
        let score = self
            .heuristic
            .score(quality, parent_quality, horizontal_expansion, 0);
        self.nodes.push(SearchNode {
            concept,
            parent,
            quality,
            parent_quality,
            horizontal_expansion,
            refinement_count: 0,
            length: len,
            children: 0,
            score,
        });
        self.order.insert(Self::key_of(&self.nodes[id.0], id));
        id
    }

    /// Records an expansion of `id` with length limit `horizontal_expansion` that produced
    /// `refinement_count` refinements, and re-scores the node.
    pub fn expanded(&mut self, id: NodeId, horizontal_expansion: usize, refinement_count: usize) {
        let old = Self::key_of(&self.nodes[id.0], id);
        self.order.remove(&old);
        let node = &mut self.nodes[id.0];
        node.horizontal_expansion = horizontal_expansion;
        node.refinement_count = refinement_count;
        node.score = self.heuristic.score(
            node.quality,
            node.parent_quality,
            horizontal_expansion,
            refinement_count,
        );
        self.order.insert(Self::key_of(node, id));
    }

    /// The best-scoring node that `expandable` accepts.
    pub fn best_where(&self, expandable: impl Fn(&SearchNode) -> bool) -> Option<NodeId> {
        self.order
            .iter()
            .map(|&(_, _, id)| id)
            .find(|id| expandable(&self.nodes[id.0]))
    }

    pub fn score(&self, id: NodeId) -> f64 {
        self.nodes[id.0].score
    }

    /// The largest horizontal expansion of any node.
    pub fn max_horizontal_expansion(&self) -> usize {
        self.nodes
            .iter()
            .map(|n| n.horizontal_expansion)
            .max()
            .unwrap_or(0)
    }

    fn key_of(node: &SearchNode, id: NodeId) -> Key {
        (Reverse(Score(node.score)), node.length, id)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn best_node_first_and_rescored_after_expansion() {
        let mut tree = SearchTree::new(OeHeuristic::default());
        let root = tree.add(Concept::Top, 0.5, None);
        let a = tree.add(Concept::class("urn:a"), 0.6, Some(root));
        let b = tree.add(Concept::class("urn:b"), 0.6, Some(root));
        // A fresh node's horizontal expansion is length − 1 = 0, which adds 0.1: the root
        // scores 0.5 + 0.1 + 0.1 = 0.7, each child 0.6 + 0.03 + 0.1 = 0.73; equal scores go
        // to the earlier node.
        assert_eq!(tree.best_where(|_| true), Some(a));
        // Expanded to 3 with 10 refinements: 0.6 + 0.03 − 0.2 − 0.001 = 0.429.
        tree.expanded(a, 3, 10);
        assert!((tree.score(a) - 0.429).abs() < 1e-12);
        assert_eq!(tree.best_where(|_| true), Some(b));
        assert_eq!(
            tree.best_where(|n| n.concept != tree.node(b).concept),
            Some(root)
        );
        assert_eq!(tree.node(root).children, 2);
    }
}

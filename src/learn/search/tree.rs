//! The search tree: nodes in an arena, ordered by their heuristic score.
//!
//! Ties are broken by shorter length, then by insertion order, so the order of expansion
//! (and thus the result of a search with a test budget) never depends on hashing or timing.

use std::cmp::Reverse;
use std::collections::BTreeSet;

use super::OeHeuristic;
use super::ordered::Ordered;
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

type Key = (Reverse<Ordered>, usize, NodeId);

/// A tree of at most `max_nodes` nodes: past that, adding a node first evicts the one with
/// the worst score (the last the search would ever expand) and reuses its slot, so a long
/// search holds a bounded tree instead of one node per accepted refinement.
#[derive(Debug)]
pub struct SearchTree {
    heuristic: OeHeuristic,
    nodes: Vec<SearchNode>,
    order: BTreeSet<Key>,
    max_nodes: usize,
    /// Slots of evicted nodes, reused by later nodes.
    free: Vec<NodeId>,
    added: usize,
    removed: usize,
}

impl SearchTree {
    pub fn new(heuristic: OeHeuristic) -> Self {
        Self::with_max_nodes(heuristic, usize::MAX)
    }

    /// A tree that keeps at most `max_nodes` (at least 1) nodes.
    pub fn with_max_nodes(heuristic: OeHeuristic, max_nodes: usize) -> Self {
        SearchTree {
            heuristic,
            nodes: Vec::new(),
            order: BTreeSet::new(),
            max_nodes: max_nodes.max(1),
            free: Vec::new(),
            added: 0,
            removed: 0,
        }
    }

    /// Nodes in the tree now.
    pub fn len(&self) -> usize {
        self.order.len()
    }

    pub fn is_empty(&self) -> bool {
        self.order.is_empty()
    }

    /// Nodes ever added (evicted ones included).
    pub fn added(&self) -> usize {
        self.added
    }

    /// Nodes evicted to keep the tree within its bound.
    pub fn evicted(&self) -> usize {
        self.added - self.order.len() - self.removed
    }

    pub fn node(&self, id: NodeId) -> &SearchNode {
        &self.nodes[id.0]
    }

    /// Adds an evaluated concept below `parent` (none for the root). The id may be an
    /// evicted node's slot: callers indexing by id overwrite what they held for it.
    pub fn add(&mut self, concept: Concept, quality: f64, parent: Option<NodeId>) -> NodeId {
        if self.order.len() >= self.max_nodes {
            self.evict_worst(parent);
        }
        let parent_quality = parent.map(|p| self.nodes[p.0].quality);
        if let Some(p) = parent {
            self.nodes[p.0].children += 1;
        }
        let len = length(&concept);
        let horizontal_expansion = len.saturating_sub(1);
        let score = self
            .heuristic
            .score(quality, parent_quality, horizontal_expansion, 0);
        let node = SearchNode {
            concept,
            parent,
            quality,
            parent_quality,
            horizontal_expansion,
            refinement_count: 0,
            length: len,
            children: 0,
            score,
        };
        let id = match self.free.pop() {
            Some(slot) => {
                self.nodes[slot.0] = node;
                slot
            }
            None => {
                self.nodes.push(node);
                NodeId(self.nodes.len() - 1)
            }
        };
        self.added += 1;
        self.order.insert(Self::key_of(&self.nodes[id.0], id));
        id
    }

    /// Drops the worst-scoring node (never `keep`, the parent being expanded) and frees
    /// its concept; its slot is reused by the next node.
    fn evict_worst(&mut self, keep: Option<NodeId>) {
        let Some(&worst) = self
            .order
            .iter()
            .rev()
            .find(|&&(_, _, id)| Some(id) != keep)
        else {
            return;
        };
        self.order.remove(&worst);
        let id = worst.2;
        self.nodes[id.0].concept = Concept::Bottom;
        self.free.push(id);
    }

    /// Takes `id` out of the tree (the search decided it is not worth refining); its slot
    /// is reused like an evicted node's.
    pub fn remove(&mut self, id: NodeId) {
        if self.order.remove(&Self::key_of(&self.nodes[id.0], id)) {
            self.nodes[id.0].concept = Concept::Bottom;
            self.free.push(id);
            self.removed += 1;
        }
    }

    /// Nodes taken out with [`SearchTree::remove`].
    pub fn removed(&self) -> usize {
        self.removed
    }

    /// Re-scores every node with `heuristic` (the search changed its weights).
    pub fn set_heuristic(&mut self, heuristic: OeHeuristic) {
        self.heuristic = heuristic;
        let ids: Vec<NodeId> = self.order.iter().map(|&(_, _, id)| id).collect();
        self.order.clear();
        for id in ids {
            let n = &mut self.nodes[id.0];
            n.score = heuristic.score(
                n.quality,
                n.parent_quality,
                n.horizontal_expansion,
                n.refinement_count,
            );
            self.order.insert(Self::key_of(n, id));
        }
    }

    pub fn heuristic(&self) -> OeHeuristic {
        self.heuristic
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
        (Reverse(Ordered(node.score)), node.length, id)
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

    #[test]
    fn a_bounded_tree_evicts_the_worst_node_and_reuses_its_slot() {
        let mut tree = SearchTree::with_max_nodes(OeHeuristic::default(), 3);
        let root = tree.add(Concept::Top, 0.5, None);
        let weak = tree.add(Concept::class("urn:weak"), 0.1, Some(root));
        let good = tree.add(Concept::class("urn:good"), 0.9, Some(root));
        assert_eq!((tree.len(), tree.evicted()), (3, 0));
        // A fourth node evicts the worst (the weak one) and takes its slot.
        let fair = tree.add(Concept::class("urn:fair"), 0.6, Some(root));
        assert_eq!(fair, weak);
        assert_eq!((tree.len(), tree.added(), tree.evicted()), (3, 4, 1));
        assert_eq!(tree.node(fair).concept, Concept::class("urn:fair"));
        let order: Vec<_> = std::iter::from_fn({
            let mut seen = Vec::new();
            let tree = &tree;
            move || {
                let next = tree.best_where(|n| !seen.contains(&n.concept))?;
                seen.push(tree.node(next).concept.clone());
                Some(next)
            }
        })
        .collect();
        assert_eq!(order, [good, fair, root]);
        // The parent being expanded is never evicted, even when it scores worst.
        let mut small = SearchTree::with_max_nodes(OeHeuristic::default(), 1);
        let low = small.add(Concept::Top, 0.0, None);
        let child = small.add(Concept::class("urn:c"), 0.9, Some(low));
        assert_eq!(small.node(low).concept, Concept::Top);
        assert_ne!(child, low);
    }
}

//! One terminological decision tree: binary nodes testing a concept (an index into the
//! model's test concepts), leaves with the class counts of the training rows that reached
//! them. Nodes are stored in preorder, so a child's index is always greater than its
//! parent's (the loader checks it: a saved tree cannot loop).

use serde::{Deserialize, Serialize};

use crate::concept::Concept;

/// A node: a leaf, or a test whose `yes` child holds the instances of the test concept and
/// whose `no` child the rest. Every node keeps its training class counts (pruning and
/// describing read them).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "lowercase")]
pub enum Node {
    Leaf {
        counts: Vec<f64>,
    },
    Split {
        test: usize,
        yes: usize,
        no: usize,
        counts: Vec<f64>,
    },
}

impl Node {
    pub fn counts(&self) -> &[f64] {
        match self {
            Node::Leaf { counts } | Node::Split { counts, .. } => counts,
        }
    }
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Tree {
    pub nodes: Vec<Node>,
}

impl Tree {
    /// The leaf an individual reaches, given which tests it passes.
    pub fn leaf(&self, passes: impl Fn(usize) -> bool) -> usize {
        let mut at = 0;
        while let Node::Split { test, yes, no, .. } = &self.nodes[at] {
            at = if passes(*test) { *yes } else { *no };
        }
        at
    }

    pub fn leaves(&self) -> usize {
        self.nodes
            .iter()
            .filter(|n| matches!(n, Node::Leaf { .. }))
            .count()
    }

    /// The test indices the tree uses.
    pub fn tests(&self) -> impl Iterator<Item = usize> + '_ {
        self.nodes.iter().filter_map(|n| match n {
            Node::Split { test, .. } => Some(*test),
            Node::Leaf { .. } => None,
        })
    }

    /// The same tree with every test index mapped by `f`.
    pub fn remap(&self, f: impl Fn(usize) -> usize) -> Tree {
        let nodes = self
            .nodes
            .iter()
            .map(|n| match n {
                Node::Split {
                    test,
                    yes,
                    no,
                    counts,
                } => Node::Split {
                    test: f(*test),
                    yes: *yes,
                    no: *no,
                    counts: counts.clone(),
                },
                leaf => leaf.clone(),
            })
            .collect();
        Tree { nodes }
    }

    /// The union of the paths to the leaves `keep` accepts, each the conjunction of its
    /// tests (`C` on a yes branch, `¬C` on a no branch); ⊥ when there is none, ⊤ for a lone
    /// accepted root. Under closed-world semantics its instances are exactly the individuals
    /// the tree sends to those leaves.
    pub fn paths_to(&self, tests: &[Concept], keep: &dyn Fn(&[f64]) -> bool) -> Concept {
        let mut paths = Vec::new();
        self.collect_paths(0, &mut Vec::new(), tests, keep, &mut paths);
        match paths.len() {
            0 => Concept::Bottom,
            1 => paths.pop().unwrap_or(Concept::Bottom),
            _ => Concept::Or(paths),
        }
    }

    fn collect_paths(
        &self,
        at: usize,
        path: &mut Vec<Concept>,
        tests: &[Concept],
        keep: &dyn Fn(&[f64]) -> bool,
        out: &mut Vec<Concept>,
    ) {
        match &self.nodes[at] {
            Node::Leaf { counts } => {
                if keep(counts) {
                    out.push(match path.len() {
                        0 => Concept::Top,
                        1 => path[0].clone(),
                        _ => Concept::And(path.clone()),
                    });
                }
            }
            Node::Split { test, yes, no, .. } => {
                path.push(tests[*test].clone());
                self.collect_paths(*yes, path, tests, keep, out);
                path.pop();
                path.push(Concept::not(tests[*test].clone()));
                self.collect_paths(*no, path, tests, keep, out);
                path.pop();
            }
        }
    }
}

/// Counts as a distribution (uniform for no counts).
pub fn distribution(counts: &[f64]) -> Vec<f64> {
    let total: f64 = counts.iter().sum();
    if total <= 0.0 {
        return vec![1.0 / counts.len().max(1) as f64; counts.len()];
    }
    counts.iter().map(|c| c / total).collect()
}

/// The most frequent class (the lowest index among ties).
pub fn argmax(xs: &[f64]) -> usize {
    let mut best = 0;
    for (i, x) in xs.iter().enumerate() {
        if *x > xs[best] {
            best = i;
        }
    }
    best
}

//! Cost-complexity pruning (CART's): a subtree is replaced by a leaf when its training
//! errors saved per extra leaf are at most `alpha`. Which `alpha` is chosen by internal
//! cross-validation in the learner ([`super::Tdt`]); here the pruning itself and the
//! candidate values of `alpha` (the weakest-link values of a tree's nodes).

use super::tree::{Node, Tree};

/// A node's training errors as a leaf (all but its majority class), a share of `root`.
fn leaf_cost(counts: &[f64], root: f64) -> f64 {
    let total: f64 = counts.iter().sum();
    let max = counts.iter().copied().fold(0.0, f64::max);
    (total - max) / root
}

/// Per node: the cost of its subtree (errors at its leaves) and its number of leaves.
fn subtree_costs(tree: &Tree) -> Vec<(f64, usize)> {
    let root: f64 = tree.nodes[0].counts().iter().sum::<f64>().max(1.0);
    let mut out = vec![(0.0, 0); tree.nodes.len()];
    // Children come after parents (preorder), so a backward pass sees them first.
    for i in (0..tree.nodes.len()).rev() {
        out[i] = match &tree.nodes[i] {
            Node::Leaf { counts } => (leaf_cost(counts, root), 1),
            Node::Split { yes, no, .. } => (out[*yes].0 + out[*no].0, out[*yes].1 + out[*no].1),
        };
    }
    out
}

/// The weakest-link values of `tree`: 0 and, per test node, the `alpha` at which it would
/// become a leaf; ascending, without repeats.
pub fn alphas(tree: &Tree) -> Vec<f64> {
    let root: f64 = tree.nodes[0].counts().iter().sum::<f64>().max(1.0);
    let costs = subtree_costs(tree);
    let mut out = vec![0.0];
    for (i, n) in tree.nodes.iter().enumerate() {
        if let Node::Split { counts, .. } = n {
            let (sub, leaves) = costs[i];
            out.push(((leaf_cost(counts, root) - sub) / (leaves as f64 - 1.0)).max(0.0));
        }
    }
    out.sort_by(f64::total_cmp);
    out.dedup_by(|a, b| (*a - *b).abs() < 1e-12);
    out
}

/// The smallest subtree minimising errors + `alpha` × leaves (bottom-up; a subtree that
/// does no better than a leaf becomes one).
pub fn prune(tree: &Tree, alpha: f64) -> Tree {
    let root: f64 = tree.nodes[0].counts().iter().sum::<f64>().max(1.0);
    let n = tree.nodes.len();
    // Per node, its best cost and leaves once its children are pruned.
    let mut best = vec![(0.0, 0usize); n];
    let mut collapse = vec![false; n];
    for i in (0..n).rev() {
        best[i] = match &tree.nodes[i] {
            Node::Leaf { counts } => (leaf_cost(counts, root), 1),
            Node::Split {
                yes, no, counts, ..
            } => {
                let sub = (best[*yes].0 + best[*no].0, best[*yes].1 + best[*no].1);
                let as_leaf = leaf_cost(counts, root);
                if as_leaf + alpha <= sub.0 + alpha * sub.1 as f64 + 1e-12 {
                    collapse[i] = true;
                    (as_leaf, 1)
                } else {
                    sub
                }
            }
        };
    }
    let mut out = Tree { nodes: Vec::new() };
    copy(tree, 0, &collapse, &mut out);
    out
}

/// Copies the subtree at `at` in preorder, collapsing the marked nodes; its new index.
fn copy(tree: &Tree, at: usize, collapse: &[bool], out: &mut Tree) -> usize {
    let id = out.nodes.len();
    let counts = tree.nodes[at].counts().to_vec();
    out.nodes.push(Node::Leaf {
        counts: counts.clone(),
    });
    if let Node::Split { test, yes, no, .. } = &tree.nodes[at]
        && !collapse[at]
    {
        let yes = copy(tree, *yes, collapse, out);
        let no = copy(tree, *no, collapse, out);
        out.nodes[id] = Node::Split {
            test: *test,
            yes,
            no,
            counts,
        };
    }
    id
}

#[cfg(test)]
mod tests {
    use super::*;

    fn leaf(a: f64, b: f64) -> Node {
        Node::Leaf { counts: vec![a, b] }
    }

    /// A root split that separates well, under it a split that gains one example.
    fn sample() -> Tree {
        Tree {
            nodes: vec![
                Node::Split {
                    test: 0,
                    yes: 1,
                    no: 4,
                    counts: vec![10.0, 10.0],
                },
                Node::Split {
                    test: 1,
                    yes: 2,
                    no: 3,
                    counts: vec![9.0, 1.0],
                },
                leaf(9.0, 0.0),
                leaf(0.0, 1.0),
                leaf(1.0, 9.0),
            ],
        }
    }

    #[test]
    fn pruning_removes_the_weakest_link_first() {
        let t = sample();
        assert_eq!(prune(&t, 0.0).nodes.len(), 5);
        let a = alphas(&t);
        assert_eq!(a.len(), 3, "{a:?}");
        // Just past the inner node's value: it collapses, the root split stays.
        let p = prune(&t, a[1] + 1e-9);
        assert_eq!(p.nodes.len(), 3);
        assert_eq!(p.leaves(), 2);
        assert_eq!(prune(&t, 1.0).nodes.len(), 1);
    }
}

//! The TAN feature tree: every ordered pair of features is weighted by the BIC gain of
//! making the first the second's parent (decomposable log-likelihood from available or
//! expected pair counts, minus the extra parameters' penalty), then Chu–Liu–Edmonds picks
//! the maximum spanning arborescence.

// Index loops over CPT cells mirror the formulas; iterators would hide them.
#![allow(clippy::needless_range_loop)]

use super::arborescence::{Edge, maximum_arborescence};
use super::features::Dataset;
use super::inference::propagate;
use super::network::{Network, Shape};
use super::score::bic_penalty;

/// What a forced single tree pays per edge from the virtual root (beyond any gain), so
/// exactly one feature hangs from the target only.
const FORCE_TREE: f64 = 1e9;

/// Counts of feature pairs, `pair[j][i]` flat as `[c][x_j][x_i]`, and single features
/// `single[i]` as `[c][x_i]` (available or expected).
#[derive(Clone, Debug, PartialEq)]
pub struct PairCounts {
    pub pair: Vec<Vec<Vec<f64>>>,
    pub single: Vec<Vec<f64>>,
    pub class: [f64; 2],
}

impl PairCounts {
    fn zero(arity: &[usize]) -> PairCounts {
        let n = arity.len();
        PairCounts {
            pair: (0..n)
                .map(|j| (0..n).map(|i| vec![0.0; 2 * arity[j] * arity[i]]).collect())
                .collect(),
            single: arity.iter().map(|&k| vec![0.0; 2 * k]).collect(),
            class: [0.0; 2],
        }
    }
}

/// Counts over the cases where both features (or the one) are observed.
pub fn available_pairs(data: &Dataset) -> PairCounts {
    let arity = &data.arity;
    let mut pc = PairCounts::zero(arity);
    for n in 0..data.len() {
        let c = usize::from(data.class[n]);
        pc.class[c] += 1.0;
        let row = data.row(n);
        for (i, oi) in row.iter().enumerate() {
            let Some(xi) = oi else { continue };
            pc.single[i][c * arity[i] + usize::from(*xi)] += 1.0;
            for (j, oj) in row.iter().enumerate() {
                if let (true, Some(xj)) = (i != j, oj) {
                    let cell = (c * arity[j] + usize::from(*xj)) * arity[i] + usize::from(*xi);
                    pc.pair[j][i][cell] += 1.0;
                }
            }
        }
    }
    pc
}

/// Expected counts under `net`: `P(x_j, x_i | e, c)` for every pair, exact, by
/// conditioning on each value of `X_j` and propagating again.
pub fn expected_pairs(data: &Dataset, net: &Network) -> PairCounts {
    let arity = &data.arity;
    let mut pc = PairCounts::zero(arity);
    for n in 0..data.len() {
        let c = usize::from(data.class[n]);
        pc.class[c] += 1.0;
        let row = data.row(n);
        let base = propagate(net, c, &row);
        for i in 0..row.len() {
            for x in 0..arity[i] {
                pc.single[i][c * arity[i] + x] += base.node[i][x];
            }
        }
        for j in 0..row.len() {
            for y in 0..arity[j] {
                let w = base.node[j][y];
                if w <= 0.0 {
                    continue;
                }
                let conditioned;
                let node = if row[j].is_some() {
                    &base.node
                } else {
                    let mut r = row.clone();
                    r[j] = Some(y as u8);
                    conditioned = propagate(net, c, &r);
                    &conditioned.node
                };
                for i in (0..row.len()).filter(|&i| i != j) {
                    for x in 0..arity[i] {
                        pc.pair[j][i][(c * arity[j] + y) * arity[i] + x] += w * node[i][x];
                    }
                }
            }
        }
    }
    pc
}

fn family_ll(counts: &[f64], k: usize, alpha: f64) -> f64 {
    counts
        .chunks(k)
        .map(|row| {
            let total: f64 = row.iter().sum::<f64>() + alpha * k as f64;
            row.iter()
                .filter(|&&v| v > 0.0)
                .map(|&v| v * ((v + alpha) / total).ln())
                .sum::<f64>()
        })
        .sum()
}

/// BIC gain of the edge `j → i`, both log-likelihoods over the same (pair) counts.
pub fn edge_gain(
    pc: &PairCounts,
    arity: &[usize],
    j: usize,
    i: usize,
    n: usize,
    alpha: f64,
) -> f64 {
    let (kj, ki) = (arity[j], arity[i]);
    let pair = &pc.pair[j][i];
    let with_parent = family_ll(pair, ki, alpha);
    let mut marginal = vec![0.0; 2 * ki];
    for c in 0..2 {
        for y in 0..kj {
            for x in 0..ki {
                marginal[c * ki + x] += pair[(c * kj + y) * ki + x];
            }
        }
    }
    let without = family_ll(&marginal, ki, alpha);
    with_parent - without - bic_penalty(n, 2 * (kj - 1) * (ki - 1))
}

/// The TAN shape maximising the summed edge gains (a spanning tree, or a forest when
/// `forest` lets features keep the target as only parent).
pub fn tan_shape(pc: &PairCounts, arity: &[usize], n: usize, alpha: f64, forest: bool) -> Shape {
    let f = arity.len();
    if f < 2 {
        return Shape::naive(arity.to_vec());
    }
    let root = f;
    let mut edges = Vec::with_capacity(f * f);
    for i in 0..f {
        edges.push(Edge {
            from: root,
            to: i,
            weight: if forest { 0.0 } else { -FORCE_TREE },
        });
        for j in (0..f).filter(|&j| j != i) {
            edges.push(Edge {
                from: j,
                to: i,
                weight: edge_gain(pc, arity, j, i, n, alpha),
            });
        }
    }
    let parent = maximum_arborescence(f + 1, root, &edges)
        .map(|p| {
            p.into_iter()
                .take(f)
                .map(|q| q.filter(|&q| q != root))
                .collect()
        })
        .unwrap_or_else(|| vec![None; f]);
    Shape {
        arity: arity.to_vec(),
        parent,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_copied_feature_becomes_the_others_parent() {
        // X1 equals X0 everywhere, X2 is noise: the tree must link X0 and X1.
        let x0 = [1u8, 1, 0, 0, 1, 0, 1, 0, 1, 1, 0, 0];
        let x2 = [0u8, 1, 0, 1, 1, 0, 0, 1, 1, 0, 1, 0];
        let data = Dataset {
            class: vec![1, 1, 1, 1, 1, 1, 0, 0, 0, 0, 0, 0],
            columns: vec![
                x0.iter().map(|&v| Some(v)).collect(),
                x0.iter().map(|&v| Some(v)).collect(),
                x2.iter().map(|&v| Some(v)).collect(),
            ],
            arity: vec![2, 2, 2],
        };
        let pc = available_pairs(&data);
        let shape = tan_shape(&pc, &data.arity, data.len(), 1.0, true);
        assert!(shape.parent[1] == Some(0) || shape.parent[0] == Some(1));
        assert_eq!(shape.parent[2], None, "noise gains nothing under BIC");
        let tree = tan_shape(&pc, &data.arity, data.len(), 1.0, false);
        assert_eq!(tree.parent.iter().filter(|p| p.is_none()).count(), 1);
    }
}

//! Network structure and conditional probability tables over Boolean (or, for IM3,
//! three-valued) feature variables and the Boolean target.
//!
//! Every feature has the target as parent; in TAN it may have one feature parent too. The
//! CPT of feature `i` is stored flat as `[c][y][x]` (target value, parent value, own value),
//! with a single parent value when there is no feature parent.

use serde::{Deserialize, Serialize};

/// The shape: each feature's optional feature parent, and each variable's arity.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Shape {
    pub arity: Vec<usize>,
    pub parent: Vec<Option<usize>>,
}

impl Shape {
    pub fn naive(arity: Vec<usize>) -> Shape {
        let parent = vec![None; arity.len()];
        Shape { arity, parent }
    }

    pub fn features(&self) -> usize {
        self.arity.len()
    }

    /// Values of feature `i`'s feature parent (1 when it has none).
    pub fn parent_arity(&self, i: usize) -> usize {
        self.parent[i].map_or(1, |p| self.arity[p])
    }

    /// Cells of feature `i`'s CPT.
    pub fn cpt_len(&self, i: usize) -> usize {
        2 * self.parent_arity(i) * self.arity[i]
    }

    /// Index of `P(x | c, y)` in feature `i`'s CPT.
    pub fn cell(&self, i: usize, c: usize, y: usize, x: usize) -> usize {
        (c * self.parent_arity(i) + y) * self.arity[i] + x
    }

    /// |Θ|, the independent parameters: 1 for the target prior, and per feature
    /// `2 · k_parent · (k − 1)`.
    pub fn parameter_count(&self) -> usize {
        1 + (0..self.features())
            .map(|i| 2 * self.parent_arity(i) * (self.arity[i] - 1))
            .sum::<usize>()
    }

    /// Children of each feature in the feature tree.
    pub fn children(&self) -> Vec<Vec<usize>> {
        let mut ch = vec![Vec::new(); self.features()];
        for (i, p) in self.parent.iter().enumerate() {
            if let Some(p) = p {
                ch[*p].push(i);
            }
        }
        ch
    }

    /// Features ordered parents first (the feature graph is a forest).
    pub fn topological_order(&self) -> Vec<usize> {
        let children = self.children();
        let mut order = Vec::with_capacity(self.features());
        let mut stack: Vec<usize> = (0..self.features())
            .rev()
            .filter(|&i| self.parent[i].is_none())
            .collect();
        while let Some(i) = stack.pop() {
            order.push(i);
            stack.extend(children[i].iter().rev());
        }
        order
    }
}

/// A network with point parameters.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Network {
    pub shape: Shape,
    /// `[P(C = 0), P(C = 1)]`.
    pub prior: [f64; 2],
    /// One flat CPT per feature, see [`Shape::cell`].
    pub cpt: Vec<Vec<f64>>,
}

impl Network {
    /// `P(X_i = x | C = c, parent = y)`.
    pub fn p(&self, i: usize, c: usize, y: usize, x: usize) -> f64 {
        self.cpt[i][self.shape.cell(i, c, y, x)]
    }
}

/// Counts (or expected counts) with the CPT layout, and the target counts.
#[derive(Clone, Debug, PartialEq)]
pub struct Counts {
    pub class: [f64; 2],
    pub family: Vec<Vec<f64>>,
}

impl Counts {
    pub fn zero(shape: &Shape) -> Counts {
        Counts {
            class: [0.0; 2],
            family: (0..shape.features())
                .map(|i| vec![0.0; shape.cpt_len(i)])
                .collect(),
        }
    }

    /// Normalised with pseudo-count `alpha` per cell: the (MAP-smoothed) maximum-likelihood
    /// parameters. A row without counts and `alpha = 0` becomes uniform.
    pub fn to_network(&self, shape: &Shape, alpha: f64) -> Network {
        let total = self.class[0] + self.class[1] + 2.0 * alpha;
        let prior = if total > 0.0 {
            [
                (self.class[0] + alpha) / total,
                (self.class[1] + alpha) / total,
            ]
        } else {
            [0.5, 0.5]
        };
        let cpt = (0..shape.features())
            .map(|i| {
                let k = shape.arity[i];
                let mut t = self.family[i].clone();
                for row in t.chunks_mut(k) {
                    let sum: f64 = row.iter().sum::<f64>() + alpha * k as f64;
                    for v in row.iter_mut() {
                        *v = if sum > 0.0 {
                            (*v + alpha) / sum
                        } else {
                            1.0 / k as f64
                        };
                    }
                }
                t
            })
            .collect();
        Network {
            shape: shape.clone(),
            prior,
            cpt,
        }
    }
}

/// Interval CPTs of a naive network (robust Bayesian estimation; computed in
/// `estimate::robust_intervals`, used by `inference::robust_posterior`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Intervals {
    /// Flat `[c][x]` per feature, as the point CPTs of a naive network.
    pub lower: Vec<Vec<f64>>,
    pub upper: Vec<Vec<f64>>,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parameter_counts_naive_and_tan() {
        // Naive, three Boolean features: 1 + 3·2·1 = 7.
        let naive = Shape::naive(vec![2, 2, 2]);
        assert_eq!(naive.parameter_count(), 7);
        // TAN 0 → 1 → 2: feature 0 has 2 params, features 1 and 2 have 2·2·1 = 4 each.
        let tan = Shape {
            arity: vec![2, 2, 2],
            parent: vec![None, Some(0), Some(1)],
        };
        assert_eq!(tan.parameter_count(), 1 + 2 + 4 + 4);
        // IM3, two ternary features: 1 + 2·(3 − 1) + 2·(3 − 1) = 9.
        assert_eq!(Shape::naive(vec![3, 3]).parameter_count(), 9);
        // TAN over IM3: child of a ternary parent: 2·3·2 = 12; root 4; plus 1.
        let tan3 = Shape {
            arity: vec![3, 3],
            parent: vec![Some(1), None],
        };
        assert_eq!(tan3.parameter_count(), 1 + 4 + 12);
        assert_eq!(tan.topological_order(), vec![0, 1, 2]);
        assert_eq!(tan3.topological_order(), vec![1, 0]);
    }

    #[test]
    fn counts_normalise_with_pseudo_counts() {
        let shape = Shape::naive(vec![2]);
        let counts = Counts {
            class: [2.0, 6.0],
            family: vec![vec![1.0, 1.0, 0.0, 6.0]],
        };
        let net = counts.to_network(&shape, 1.0);
        assert!((net.prior[1] - 0.7).abs() < 1e-12); // (6+1)/(8+2)
        assert!((net.p(0, 0, 0, 1) - 0.5).abs() < 1e-12); // (1+1)/(2+2)
        assert!((net.p(0, 1, 0, 1) - 7.0 / 8.0).abs() < 1e-12); // (6+1)/(6+2)
    }
}

//! Exact inference: `P(C | observed features)` with the missing features marginalised out,
//! and, given the target, the posterior marginals of every feature and feature–parent pair
//! (the E-step of EM). The feature graph is a forest under the target, so for a fixed
//! target value one upward (λ) and one downward (π) pass of belief propagation are exact.

use super::features::Obs;
use super::network::Network;

/// Result of propagating one individual's evidence with the target fixed.
#[derive(Clone, Debug)]
pub struct Propagation {
    /// `P(e | C = c)`.
    pub likelihood: f64,
    /// `P(X_i = x | e, c)`, per feature.
    pub node: Vec<Vec<f64>>,
    /// `P(X_i = x, parent = y | e, c)` flat as `[y][x]`, per feature (`y = 0` without a
    /// feature parent, equal to `node`).
    pub family: Vec<Vec<f64>>,
}

fn evidence(obs: Obs, x: usize) -> f64 {
    match obs {
        None => 1.0,
        Some(v) if usize::from(v) == x => 1.0,
        Some(_) => 0.0,
    }
}

/// Belief propagation over the feature forest with `C = c`.
pub fn propagate(net: &Network, c: usize, obs: &[Obs]) -> Propagation {
    let shape = &net.shape;
    let n = shape.features();
    let order = shape.topological_order();
    let children = shape.children();
    // λ_i(x) = ev_i(x) · Π_children λ_{k→i}(x); msg[k](y) = Σ_x P(x | c, y) λ_k(x).
    let mut lambda: Vec<Vec<f64>> = vec![Vec::new(); n];
    let mut up: Vec<Vec<f64>> = vec![Vec::new(); n];
    for &i in order.iter().rev() {
        let k = shape.arity[i];
        let mut l: Vec<f64> = (0..k).map(|x| evidence(obs[i], x)).collect();
        for &ch in &children[i] {
            for (x, lx) in l.iter_mut().enumerate() {
                *lx *= up[ch][x];
            }
        }
        let kp = shape.parent_arity(i);
        up[i] = (0..kp)
            .map(|y| (0..k).map(|x| net.p(i, c, y, x) * l[x]).sum())
            .collect();
        lambda[i] = l;
    }
    let likelihood: f64 = (0..n)
        .filter(|&i| shape.parent[i].is_none())
        .map(|i| up[i][0])
        .product();
    // π_i(x): the prior-side belief of X_i (excluding its own subtree).
    let mut pi: Vec<Vec<f64>> = vec![Vec::new(); n];
    let mut node = vec![Vec::new(); n];
    let mut family = vec![Vec::new(); n];
    for &i in &order {
        let k = shape.arity[i];
        let kp = shape.parent_arity(i);
        // Belief of the parent value excluding this child's subtree.
        let parent_side: Vec<f64> = match shape.parent[i] {
            None => vec![1.0],
            Some(p) => (0..kp)
                .map(|y| {
                    let mut v = pi[p][y] * evidence(obs[p], y);
                    for &sib in &children[p] {
                        if sib != i {
                            v *= up[sib][y];
                        }
                    }
                    v
                })
                .collect(),
        };
        let mut fam = vec![0.0; kp * k];
        for y in 0..kp {
            for x in 0..k {
                fam[y * k + x] = parent_side[y] * net.p(i, c, y, x) * lambda[i][x];
            }
        }
        pi[i] = (0..k)
            .map(|x| (0..kp).map(|y| parent_side[y] * net.p(i, c, y, x)).sum())
            .collect();
        let z: f64 = fam.iter().sum();
        if z > 0.0 {
            fam.iter_mut().for_each(|v| *v /= z);
        }
        node[i] = (0..k)
            .map(|x| (0..kp).map(|y| fam[y * k + x]).sum())
            .collect();
        family[i] = fam;
    }
    Propagation {
        likelihood,
        node,
        family,
    }
}

/// `P(e | C = c)` only.
pub fn likelihood(net: &Network, c: usize, obs: &[Obs]) -> f64 {
    propagate(net, c, obs).likelihood
}

/// `P(C = 1 | e)`; 0.5 when the evidence is impossible under both values.
pub fn posterior(net: &Network, obs: &[Obs]) -> f64 {
    let (l0, l1) = if net.shape.parent.iter().all(Option::is_none) {
        // Naive: a product over the observed features (the hot path of the search).
        let mut l = net.prior;
        for (i, o) in obs.iter().enumerate() {
            if let Some(x) = o {
                for (c, lc) in l.iter_mut().enumerate() {
                    *lc *= net.p(i, c, 0, usize::from(*x));
                }
            }
        }
        (l[0], l[1])
    } else {
        (
            net.prior[0] * likelihood(net, 0, obs),
            net.prior[1] * likelihood(net, 1, obs),
        )
    };
    if l0 + l1 > 0.0 { l1 / (l0 + l1) } else { 0.5 }
}

/// The posterior interval `[lower, upper]` of `P(C = 1 | e)` of a naive network with interval
/// CPTs (Ramoni & Sebastiani's robust Bayes classifier), missing features skipped:
///
/// `lower = p₁·Π lower(eᵢ|1) / (p₁·Π lower(eᵢ|1) + p₀·Π upper(eᵢ|0))`,
/// `upper = p₁·Π upper(eᵢ|1) / (p₁·Π upper(eᵢ|1) + p₀·Π lower(eᵢ|0))`.
///
/// The target prior is a point (the target is observed in every training case).
pub fn robust_posterior(
    prior: [f64; 2],
    intervals: &super::network::Intervals,
    arity: &[usize],
    obs: &[Obs],
) -> (f64, f64) {
    let mut lo = [prior[0], prior[1]];
    let mut hi = [prior[0], prior[1]];
    for (i, o) in obs.iter().enumerate() {
        let Some(x) = o else { continue };
        let k = arity[i];
        for c in 0..2 {
            lo[c] *= intervals.lower[i][c * k + usize::from(*x)];
            hi[c] *= intervals.upper[i][c * k + usize::from(*x)];
        }
    }
    let ratio = |a: f64, b: f64| if a + b > 0.0 { a / (a + b) } else { 0.5 };
    (ratio(lo[1], hi[0]), ratio(hi[1], lo[0]))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::learn::tbc::network::Shape;

    fn naive_two() -> Network {
        // P(C=1) = 0.4; P(X0=1|C=0)=0.2, P(X0=1|C=1)=0.9; P(X1=1|C=0)=0.5, P(X1=1|C=1)=0.75.
        Network {
            shape: Shape::naive(vec![2, 2]),
            prior: [0.6, 0.4],
            cpt: vec![vec![0.8, 0.2, 0.1, 0.9], vec![0.5, 0.5, 0.25, 0.75]],
        }
    }

    #[test]
    fn naive_posterior_marginalises_missing_features() {
        let net = naive_two();
        // Both observed true: 0.4·0.9·0.75 = 0.27 vs 0.6·0.2·0.5 = 0.06 → 0.27/0.33.
        let p = posterior(&net, &[Some(1), Some(1)]);
        assert!((p - 0.27 / 0.33).abs() < 1e-12);
        // X1 missing: 0.4·0.9 = 0.36 vs 0.6·0.2 = 0.12 → 0.75.
        let p = posterior(&net, &[Some(1), None]);
        assert!((p - 0.75).abs() < 1e-12);
        // Nothing observed: the prior.
        assert!((posterior(&net, &[None, None]) - 0.4).abs() < 1e-12);
    }

    #[test]
    fn tan_marginals_match_enumeration() {
        // TAN: X0 root, X1 child of X0.
        let net = Network {
            shape: Shape {
                arity: vec![2, 2],
                parent: vec![None, Some(0)],
            },
            prior: [0.5, 0.5],
            // X0 | c: c=0: [0.7, 0.3]; c=1: [0.2, 0.8]
            // X1 | c, x0: c=0,y=0: [0.9,0.1]; c=0,y=1: [0.4,0.6]; c=1,y=0: [0.5,0.5]; c=1,y=1: [0.1,0.9]
            cpt: vec![
                vec![0.7, 0.3, 0.2, 0.8],
                vec![0.9, 0.1, 0.4, 0.6, 0.5, 0.5, 0.1, 0.9],
            ],
        };
        // X0 missing, X1 = 1, c = 1: P(e|c) = 0.2·0.5 + 0.8·0.9 = 0.82;
        // P(X0=1 | e, c) = 0.72 / 0.82.
        let pr = propagate(&net, 1, &[None, Some(1)]);
        assert!((pr.likelihood - 0.82).abs() < 1e-12);
        assert!((pr.node[0][1] - 0.72 / 0.82).abs() < 1e-12);
        assert!((pr.family[1][3] - 0.72 / 0.82).abs() < 1e-12); // (y=1, x=1)
        assert!((pr.family[1][1] - 0.10 / 0.82).abs() < 1e-12); // (y=0, x=1)
        // Posterior of C given X1 = 1 only: c=0: 0.7·0.1 + 0.3·0.6 = 0.25; c=1: 0.82.
        let p = posterior(&net, &[None, Some(1)]);
        assert!((p - 0.82 / 1.07).abs() < 1e-12);
    }
}

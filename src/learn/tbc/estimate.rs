//! Parameter estimation under each assumption on the ignorance model: available-case
//! counts (ACA, and IM2/IM3 whose encoded data has no missing values), EM over expected
//! counts, and the robust (interval) estimates of Ramoni & Sebastiani.

// Index loops over CPT cells mirror the formulas; iterators would hide them.
#![allow(clippy::needless_range_loop)]

use serde::Serialize;

use super::features::Dataset;
use super::inference::propagate;
use super::network::{Counts, Intervals, Network, Shape};

/// Counts from the available cases: a case counts in feature `i`'s CPT when `X_i` and its
/// feature parent are observed (the target is always observed in training).
pub fn available_counts(data: &Dataset, shape: &Shape) -> Counts {
    let mut counts = Counts::zero(shape);
    for (n, &c) in data.class.iter().enumerate() {
        let c = usize::from(c);
        counts.class[c] += 1.0;
        for i in 0..shape.features() {
            let Some(x) = data.columns[i][n] else {
                continue;
            };
            let y = match shape.parent[i] {
                None => Some(0),
                Some(p) => data.columns[p][n],
            };
            if let Some(y) = y {
                counts.family[i][shape.cell(i, c, usize::from(y), usize::from(x))] += 1.0;
            }
        }
    }
    counts
}

/// ACA parameters for a shape.
pub fn fit_available(data: &Dataset, shape: &Shape, alpha: f64) -> Network {
    available_counts(data, shape).to_network(shape, alpha)
}

/// Expected counts under `net` (the E-step): each individual's missing values are spread
/// over their posterior given its observed features and its (known) target value.
pub fn expected_counts(data: &Dataset, net: &Network) -> Counts {
    let shape = &net.shape;
    let mut counts = Counts::zero(shape);
    for n in 0..data.len() {
        let c = usize::from(data.class[n]);
        counts.class[c] += 1.0;
        let row = data.row(n);
        let pr = propagate(net, c, &row);
        for i in 0..shape.features() {
            let k = shape.arity[i];
            let base = c * shape.parent_arity(i) * k;
            for (j, w) in pr.family[i].iter().enumerate() {
                counts.family[i][base + j] += w;
            }
        }
    }
    counts
}

/// `Σ_n log P(c_n, e_n)`: the log-likelihood of the observed data EM increases.
pub fn log_likelihood(data: &Dataset, net: &Network) -> f64 {
    (0..data.len())
        .map(|n| {
            let c = usize::from(data.class[n]);
            let l = net.prior[c] * propagate(net, c, &data.row(n)).likelihood;
            l.max(f64::MIN_POSITIVE).ln()
        })
        .sum()
}

/// How an EM run ended.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct EmReport {
    pub iterations: usize,
    pub converged: bool,
    pub log_likelihood: f64,
}

/// EM from `start`: alternate expected counts and re-normalisation until the log-likelihood
/// gains less than `threshold` or `max_iterations` M-steps were taken.
pub fn em(
    data: &Dataset,
    start: Network,
    alpha: f64,
    threshold: f64,
    max_iterations: usize,
) -> (Network, EmReport) {
    let mut net = start;
    let mut ll = log_likelihood(data, &net);
    for it in 1..=max_iterations {
        let next = expected_counts(data, &net).to_network(&net.shape, alpha);
        let next_ll = log_likelihood(data, &next);
        let gain = next_ll - ll;
        net = next;
        ll = next_ll;
        if gain < threshold {
            return (
                net,
                EmReport {
                    iterations: it,
                    converged: true,
                    log_likelihood: ll,
                },
            );
        }
    }
    (
        net,
        EmReport {
            iterations: max_iterations,
            converged: false,
            log_likelihood: ll,
        },
    )
}

/// Interval CPTs of a naive network (robust Bayesian estimation). With the target always
/// observed, the only incomplete cases of feature `i` given `c` are those with `X_i`
/// unknown, `n(?|c)`; they may all be completed as `x` or all as not-`x`:
///
/// `lower(x|c) = (α + n(x|c)) / (kα + n(c) + n(?|c))`,
/// `upper(x|c) = (α + n(x|c) + n(?|c)) / (kα + n(c) + n(?|c))`,
///
/// where `n(c)` counts the cases of `c` with `X_i` observed (the paper's
/// `n̄(x|c) = n(?|c) + n(x|?) + n(?|?)` with the last two zero). The ACA estimate
/// `(α + n(x|c)) / (kα + n(c))` lies between them.
pub fn robust_intervals(data: &Dataset, shape: &Shape, alpha: f64) -> Intervals {
    let counts = available_counts(data, shape);
    let mut unknown = vec![[0.0f64; 2]; shape.features()];
    for (n, &c) in data.class.iter().enumerate() {
        for (i, u) in unknown.iter_mut().enumerate() {
            if data.columns[i][n].is_none() {
                u[usize::from(c)] += 1.0;
            }
        }
    }
    let mut lower = Vec::new();
    let mut upper = Vec::new();
    for i in 0..shape.features() {
        let k = shape.arity[i];
        let mut lo = vec![0.0; 2 * k];
        let mut hi = vec![0.0; 2 * k];
        for c in 0..2 {
            let row = &counts.family[i][c * k..(c + 1) * k];
            let nc: f64 = row.iter().sum();
            let q = unknown[i][c];
            let denom = k as f64 * alpha + nc + q;
            for x in 0..k {
                let (l, h) = if denom > 0.0 {
                    ((alpha + row[x]) / denom, (alpha + row[x] + q) / denom)
                } else {
                    (0.0, 1.0)
                };
                lo[c * k + x] = l;
                hi[c * k + x] = h;
            }
        }
        lower.push(lo);
        upper.push(hi);
    }
    Intervals { lower, upper }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// One Boolean feature; positives (c = 1): 1, 1, 0, ?, ?; negatives: 0, 0, 1, 0.
    fn tiny() -> Dataset {
        Dataset {
            class: vec![1, 1, 1, 1, 1, 0, 0, 0, 0],
            columns: vec![vec![
                Some(1),
                Some(1),
                Some(0),
                None,
                None,
                Some(0),
                Some(0),
                Some(1),
                Some(0),
            ]],
            arity: vec![2],
        }
    }

    #[test]
    fn aca_counts_skip_unknown() {
        let d = tiny();
        let shape = Shape::naive(d.arity.clone());
        let net = fit_available(&d, &shape, 0.0);
        assert!((net.p(0, 1, 0, 1) - 2.0 / 3.0).abs() < 1e-12);
        assert!((net.p(0, 0, 0, 1) - 0.25).abs() < 1e-12);
        assert!((net.prior[1] - 5.0 / 9.0).abs() < 1e-12);
    }

    #[test]
    fn robust_intervals_contain_aca_and_midpoint() {
        let d = tiny();
        let shape = Shape::naive(d.arity.clone());
        for alpha in [0.0, 1.0] {
            let aca = fit_available(&d, &shape, alpha);
            let iv = robust_intervals(&d, &shape, alpha);
            for (j, &p) in aca.cpt[0].iter().enumerate() {
                let (lo, hi) = (iv.lower[0][j], iv.upper[0][j]);
                assert!(lo <= p + 1e-12 && p <= hi + 1e-12, "{lo} ≤ {p} ≤ {hi}");
                let mid = (lo + hi) / 2.0;
                assert!(lo <= mid && mid <= hi);
            }
        }
        // By hand, α = 0, c = 1, x = 1: n(x|c) = 2, n(c) = 3, n(?|c) = 2 → [2/5, 4/5].
        let iv = robust_intervals(&d, &shape, 0.0);
        assert!((iv.lower[0][3] - 0.4).abs() < 1e-12);
        assert!((iv.upper[0][3] - 0.8).abs() < 1e-12);
        // Negatives have no unknown: a point interval 1/4.
        assert!((iv.lower[0][1] - 0.25).abs() < 1e-12 && (iv.upper[0][1] - 0.25).abs() < 1e-12);
    }

    #[test]
    fn em_converges_on_hand_computed_naive_example() {
        // Positives: X = 1, 1, 0, ?, ?. From θ₀ = P(X=1|C=1) = ½ with α = 0 the E-step gives
        // each unknown weight θ to X = 1, so θ_{t+1} = (2 + 2θ_t) / 5:
        // θ₁ = 3/5 = 0.6, θ₂ = 3.2/5 = 0.64, … → fixed point θ = 2/3 (the ACA estimate, as
        // it must be when the target is observed). Negatives have no unknown: 1/4 throughout.
        let d = tiny();
        let shape = Shape::naive(d.arity.clone());
        let mut start = fit_available(&d, &shape, 0.0);
        start.cpt[0] = vec![0.5, 0.5, 0.5, 0.5];
        let (one, r1) = em(&d, start.clone(), 0.0, 0.0, 1);
        assert!((one.p(0, 1, 0, 1) - 0.6).abs() < 1e-12);
        assert!((one.p(0, 0, 0, 1) - 0.25).abs() < 1e-12);
        assert_eq!(r1.iterations, 1);
        let (two, _) = em(&d, start.clone(), 0.0, 0.0, 2);
        assert!((two.p(0, 1, 0, 1) - 0.64).abs() < 1e-12);
        let (done, report) = em(&d, start.clone(), 0.0, 1e-10, 200);
        assert!(report.converged, "{report:?}");
        // The gain is quadratic in the remaining error, so θ is within ~1e-5 when it stops.
        assert!((done.p(0, 1, 0, 1) - 2.0 / 3.0).abs() < 1e-4);
        assert!(report.log_likelihood >= log_likelihood(&d, &start));
    }

    #[test]
    fn em_fills_a_missing_parent_from_its_child() {
        // TAN X0 → X1, all positives: (1, 1), (0, 0), (?, 1); α = 0.
        // ACA: P(X0=1) = 1/2, P(X1=1|X0=1) = 1, P(X1=1|X0=0) = 0. The E-step for (?, 1):
        // P(X0=1 | X1=1) ∝ ½·1 vs ½·0 → X0 = 1 surely, so P(X0=1) = 2/3 and
        // P(X1=1|X0=1) = 2/2 = 1, a fixed point. Log-likelihood: 3·ln ½ → ln(2/3·1/3·2/3).
        let d = Dataset {
            class: vec![1, 1, 1],
            columns: vec![
                vec![Some(1), Some(0), None],
                vec![Some(1), Some(0), Some(1)],
            ],
            arity: vec![2, 2],
        };
        let shape = Shape {
            arity: vec![2, 2],
            parent: vec![None, Some(0)],
        };
        let start = fit_available(&d, &shape, 0.0);
        assert!((start.p(0, 1, 0, 1) - 0.5).abs() < 1e-12);
        assert!((log_likelihood(&d, &start) - 3.0 * 0.5f64.ln()).abs() < 1e-9);
        let (net, report) = em(&d, start, 0.0, 1e-9, 50);
        assert!(report.converged && report.iterations <= 3, "{report:?}");
        assert!((net.p(0, 1, 0, 1) - 2.0 / 3.0).abs() < 1e-12);
        assert!((net.p(1, 1, 1, 1) - 1.0).abs() < 1e-12);
        assert!((net.p(1, 1, 0, 1) - 0.0).abs() < 1e-12);
        let expected = (2.0f64 / 3.0 * 1.0 / 3.0 * 2.0 / 3.0).ln();
        assert!((report.log_likelihood - expected).abs() < 1e-9);
    }
}

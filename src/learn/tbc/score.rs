//! Network scores: the conditional log-likelihood of the training individuals' target
//! values given their features (the target's own membership is not used as evidence), and
//! its BIC penalisation `CLL − (log N / 2)·|Θ|`.

use serde::{Deserialize, Serialize};

use super::features::{Dataset, Obs};
use super::inference::{posterior, robust_posterior};
use super::network::Intervals;
use super::network::Network;

/// Probabilities are clamped away from 0 and 1 so one confident mistake costs a finite amount.
const EPS: f64 = 1e-12;

/// A network ready to answer: point parameters, and interval ones for ROBUST.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Fitted {
    pub network: Network,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub intervals: Option<Intervals>,
}

impl Fitted {
    /// `P(C = 1 | e)`; for ROBUST the midpoint of the posterior interval.
    pub fn probability(&self, obs: &[Obs]) -> f64 {
        match self.interval(obs) {
            Some((lo, hi)) => (lo + hi) / 2.0,
            None => posterior(&self.network, obs),
        }
    }

    /// The posterior interval (ROBUST only).
    pub fn interval(&self, obs: &[Obs]) -> Option<(f64, f64)> {
        self.intervals
            .as_ref()
            .map(|iv| robust_posterior(self.network.prior, iv, &self.network.shape.arity, obs))
    }

    pub fn parameter_count(&self) -> usize {
        self.network.shape.parameter_count()
    }
}

/// `Σ_pos log P(C|e) + Σ_neg log P(¬C|e)`.
pub fn conditional_log_likelihood(fitted: &Fitted, data: &Dataset) -> f64 {
    (0..data.len())
        .map(|n| {
            let p = fitted.probability(&data.row(n)).clamp(EPS, 1.0 - EPS);
            if data.class[n] == 1 {
                p.ln()
            } else {
                (1.0 - p).ln()
            }
        })
        .sum()
}

/// The BIC penalty for `parameters` independent parameters over `n` data points.
pub fn bic_penalty(n: usize, parameters: usize) -> f64 {
    (n.max(1) as f64).ln() / 2.0 * parameters as f64
}

/// `CLL − (log N / 2)·|Θ|`.
pub fn bic(fitted: &Fitted, data: &Dataset) -> f64 {
    conditional_log_likelihood(fitted, data) - bic_penalty(data.len(), fitted.parameter_count())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::learn::tbc::network::Shape;

    #[test]
    fn bic_of_a_class_only_network() {
        // No features: P(C=1) = 0.25 for 4 individuals, one positive.
        let fitted = Fitted {
            network: Network {
                shape: Shape::naive(vec![]),
                prior: [0.75, 0.25],
                cpt: vec![],
            },
            intervals: None,
        };
        let data = Dataset {
            class: vec![1, 0, 0, 0],
            columns: vec![],
            arity: vec![],
        };
        let cll = 0.25f64.ln() + 3.0 * 0.75f64.ln();
        assert!((conditional_log_likelihood(&fitted, &data) - cll).abs() < 1e-12);
        assert!((bic(&fitted, &data) - (cll - 4f64.ln() / 2.0)).abs() < 1e-12);
    }
}

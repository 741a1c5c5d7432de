//! Structural EM for TAN (MAR data): from the available-case TAN, repeatedly take expected
//! pair counts under the current network, choose the arborescence maximising the expected
//! BIC gains, set its parameters from the same expected counts; stop when the penalised
//! log-likelihood of the observed data gains less than the threshold (keeping the better
//! network) or at the iteration cap.

use super::estimate::{EmReport, fit_available, log_likelihood};
use super::features::Dataset;
use super::network::{Counts, Network, Shape};
use super::score::bic_penalty;
use super::tan::{PairCounts, available_pairs, expected_pairs, tan_shape};

/// Family counts of `shape` read off pair counts.
fn family_counts(pc: &PairCounts, shape: &Shape) -> Counts {
    let mut counts = Counts::zero(shape);
    counts.class = pc.class;
    for i in 0..shape.features() {
        counts.family[i] = match shape.parent[i] {
            None => pc.single[i].clone(),
            Some(j) => pc.pair[j][i].clone(),
        };
    }
    counts
}

fn penalised(data: &Dataset, net: &Network) -> f64 {
    log_likelihood(data, net) - bic_penalty(data.len(), net.shape.parameter_count())
}

pub fn structural_em(
    data: &Dataset,
    alpha: f64,
    threshold: f64,
    max_iterations: usize,
    forest: bool,
) -> (Network, EmReport) {
    let shape = tan_shape(
        &available_pairs(data),
        &data.arity,
        data.len(),
        alpha,
        forest,
    );
    let mut net = fit_available(data, &shape, alpha);
    let mut score = penalised(data, &net);
    for it in 1..=max_iterations {
        let pc = expected_pairs(data, &net);
        let shape = tan_shape(&pc, &data.arity, data.len(), alpha, forest);
        let next = family_counts(&pc, &shape).to_network(&shape, alpha);
        let next_score = penalised(data, &next);
        let gain = next_score - score;
        if gain >= 0.0 {
            net = next;
            score = next_score;
        }
        if gain < threshold {
            return (
                net.clone(),
                EmReport {
                    iterations: it,
                    converged: true,
                    log_likelihood: log_likelihood(data, &net),
                },
            );
        }
    }
    let ll = log_likelihood(data, &net);
    (
        net,
        EmReport {
            iterations: max_iterations,
            converged: false,
            log_likelihood: ll,
        },
    )
}

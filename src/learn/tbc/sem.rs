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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::learn::tbc::features::Obs;

    #[test]
    fn structural_em_never_scores_below_its_available_case_start() {
        // X1 copies X0 but X0 is often unknown; X2 is noise. SEM's structure must keep the
        // X0–X1 link and its penalised log-likelihood is at least that of the TACA start.
        let x0: Vec<Obs> = [1, 1, 0, 0, 1, 0, 1, 0, 1, 1, 0, 0, 1, 0, 1, 0]
            .iter()
            .enumerate()
            .map(|(n, &v)| if n % 3 == 0 { None } else { Some(v) })
            .collect();
        let x1: Vec<Obs> = [1, 1, 0, 0, 1, 0, 1, 0, 1, 1, 0, 0, 1, 0, 1, 0]
            .iter()
            .map(|&v| Some(v))
            .collect();
        let x2: Vec<Obs> = [0, 1, 1, 0, 0, 1, 1, 0, 1, 0, 0, 1, 1, 1, 0, 0]
            .iter()
            .map(|&v| Some(v))
            .collect();
        let data = Dataset {
            class: vec![1, 1, 1, 1, 1, 1, 1, 1, 0, 0, 0, 0, 0, 0, 0, 0],
            columns: vec![x0, x1, x2],
            arity: vec![2, 2, 2],
        };
        let start_shape = tan_shape(&available_pairs(&data), &data.arity, data.len(), 1.0, true);
        let start = fit_available(&data, &start_shape, 1.0);
        let (net, report) = structural_em(&data, 1.0, 1e-6, 50, true);
        assert!(report.iterations >= 1);
        assert!(penalised(&data, &net) >= penalised(&data, &start) - 1e-9);
        let linked = net.shape.parent[1] == Some(0) || net.shape.parent[0] == Some(1);
        assert!(linked, "{:?}", net.shape);
    }
}

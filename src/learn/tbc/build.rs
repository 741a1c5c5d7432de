//! `BuildOptimalNetwork` of Alg. 2: the best structure and parameters for a fixed set of
//! feature columns, under the chosen structure and missing-data method.

use super::estimate::{EmReport, em, fit_available, robust_intervals};
use super::features::Dataset;
use super::network::Shape;
use super::params::{Missing, Structure, TbcParams};
use super::score::Fitted;
use super::sem::structural_em;
use super::tan::{available_pairs, tan_shape};

/// Fits a network to `data` (already encoded for `params.missing`).
pub fn fit(data: &Dataset, params: &TbcParams) -> (Fitted, Option<EmReport>) {
    let alpha = params.pseudo_count;
    let shape = match params.structure {
        Structure::Naive => Shape::naive(data.arity.clone()),
        Structure::Tan => tan_shape(
            &available_pairs(data),
            &data.arity,
            data.len(),
            alpha,
            params.tan_forest,
        ),
    };
    let point = |network| Fitted {
        network,
        intervals: None,
    };
    match params.missing {
        Missing::Aca | Missing::Im2 | Missing::Im3 => {
            (point(fit_available(data, &shape, alpha)), None)
        }
        Missing::Em => {
            let start = fit_available(data, &shape, alpha);
            let (net, report) = em(
                data,
                start,
                alpha,
                params.em_threshold,
                params.em_max_iterations,
            );
            (point(net), Some(report))
        }
        Missing::Sem => {
            let (net, report) = structural_em(
                data,
                alpha,
                params.em_threshold,
                params.em_max_iterations,
                params.tan_forest,
            );
            (point(net), Some(report))
        }
        Missing::Robust => {
            let network = fit_available(data, &shape, alpha);
            let intervals = robust_intervals(data, &shape, alpha);
            (
                Fitted {
                    network,
                    intervals: Some(intervals),
                },
                None,
            )
        }
    }
}

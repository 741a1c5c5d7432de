//! The optimistic bound: the best quality any refinement of a node can reach.
//!
//! ρ refines downward, so a refinement covers a subset of what its node covers. F1 and
//! accuracy both grow with true positives and shrink with false positives, so the best a
//! subset can do keeps every covered positive and drops every covered negative: the node's
//! counts with `fp` moved to `tn`: F1 `2tp/(tp + |E+|)`, accuracy `(tp + |E−|)/|E|`. A
//! node whose bound cannot beat the k-th best solution found so far leads to nothing the
//! search would keep, and is not refined. Unlike the
//! noise rule ("too weak"), this needs no guess about the data: it follows from the
//! solutions found.

use crate::eval::Confusion;
use crate::learn::QualityMeasure;

/// The counts of the best subset of what `c` covers: all its positives, no negative.
pub fn optimistic_confusion(c: &Confusion) -> Confusion {
    Confusion {
        tp: c.tp,
        fn_: c.fn_,
        fp: 0,
        tn: c.tn + c.fp,
    }
}

/// The highest `measure` a refinement of a node with counts `c` can have.
pub fn optimistic_quality(measure: QualityMeasure, c: &Confusion) -> f64 {
    measure.score(&optimistic_confusion(c))
}

/// A node with bound `bound` is not worth refining when the best `k` solutions are known
/// (`threshold` is the k-th best quality) and the bound is below it. Equal is kept: a
/// refinement of equal quality could still enter the list by being shorter.
pub fn cannot_beat(bound: f64, threshold: Option<f64>) -> bool {
    threshold.is_some_and(|t| bound < t - 1e-12)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn all_subsets(c: &Confusion) -> impl Iterator<Item = Confusion> + '_ {
        (0..=c.tp).flat_map(move |tp| {
            (0..=c.fp).map(move |fp| Confusion {
                tp,
                fn_: c.fn_ + c.tp - tp,
                fp,
                tn: c.tn + c.fp - fp,
            })
        })
    }

    #[test]
    fn no_subset_of_the_coverage_beats_the_bound_and_the_bound_is_reached() {
        for measure in [QualityMeasure::F1, QualityMeasure::Accuracy] {
            for tp in 0..6 {
                for fn_ in 0..4 {
                    for fp in 0..5 {
                        for tn in 0..3 {
                            let c = Confusion { tp, fn_, fp, tn };
                            let bound = optimistic_quality(measure, &c);
                            let best = all_subsets(&c)
                                .map(|s| measure.score(&s))
                                .fold(f64::MIN, f64::max);
                            assert!((best - bound).abs() < 1e-12, "{measure:?} {c:?}");
                        }
                    }
                }
            }
        }
        // F1 of 3 of 4 positives with 2 negatives: 6/9; at best 6/7.
        let c = Confusion {
            tp: 3,
            fn_: 1,
            fp: 2,
            tn: 5,
        };
        assert!((optimistic_quality(QualityMeasure::F1, &c) - 6.0 / 7.0).abs() < 1e-12);
        assert!((optimistic_quality(QualityMeasure::Accuracy, &c) - 10.0 / 11.0).abs() < 1e-12);
    }

    #[test]
    fn only_a_bound_below_a_known_threshold_prunes() {
        assert!(!cannot_beat(0.5, None));
        assert!(cannot_beat(0.5, Some(0.6)));
        assert!(!cannot_beat(0.6, Some(0.6)));
        assert!(!cannot_beat(0.7, Some(0.6)));
    }
}

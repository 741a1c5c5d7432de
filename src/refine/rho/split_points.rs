//! Numeric split points: the thresholds `∃p.[≥ v]` / `∃p.[≤ v]` may use.

use crate::concept::Number;

/// DL-Learner-style split points: sorted distinct values, at most `max_splits` split values
/// taken at evenly spaced positions, each the midpoint between neighbouring distinct values.
///
/// With `n` distinct values there are `n − 1` gaps; `k = min(max_splits, n − 1)` of them are
/// taken, the j-th at gap `⌊(2j + 1)(n − 1) / 2k⌋` (every gap when `k = n − 1`). Non-finite
/// inputs are ignored. The result is strictly increasing.
pub fn numeric_split_points(values: &[f64], max_splits: usize) -> Vec<Number> {
    let mut distinct: Vec<Number> = values.iter().filter_map(|v| Number::new(*v)).collect();
    distinct.sort();
    distinct.dedup();
    let gaps = distinct.len().saturating_sub(1);
    let k = max_splits.min(gaps);
    let mut out: Vec<Number> = (0..k)
        .filter_map(|j| {
            let i = ((2 * j + 1) * gaps) / (2 * k);
            let (a, b) = (distinct[i].get(), distinct[i + 1].get());
            // Halves first: no overflow for values near f64::MAX.
            Number::new(a / 2.0 + b / 2.0)
        })
        .collect();
    out.dedup();
    out
}

/// The next split strictly above `v`, if any.
pub(crate) fn next_above(splits: &[Number], v: Number) -> Option<Number> {
    splits.iter().copied().find(|s| *s > v)
}

/// The next split strictly below `v`, if any.
pub(crate) fn next_below(splits: &[Number], v: Number) -> Option<Number> {
    splits.iter().rev().copied().find(|s| *s < v)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn f(v: &[Number]) -> Vec<f64> {
        v.iter().map(|n| n.get()).collect()
    }

    #[test]
    fn every_gap_when_few_values() {
        assert_eq!(
            f(&numeric_split_points(&[3.0, 1.0, 2.0, 2.0], 12)),
            [1.5, 2.5]
        );
    }

    #[test]
    fn evenly_spaced_when_many_values() {
        let values: Vec<f64> = (0..100).map(f64::from).collect();
        let s = f(&numeric_split_points(&values, 4));
        assert_eq!(s.len(), 4);
        // gaps 12, 37, 61, 86 of 99
        assert_eq!(s, [12.5, 37.5, 61.5, 86.5]);
        assert!(s.windows(2).all(|w| w[0] < w[1]));
    }

    #[test]
    fn degenerate_inputs() {
        assert!(numeric_split_points(&[], 12).is_empty());
        assert!(numeric_split_points(&[5.0, 5.0], 12).is_empty());
        assert!(numeric_split_points(&[1.0, 2.0], 0).is_empty());
        assert_eq!(
            f(&numeric_split_points(
                &[f64::NAN, 1.0, f64::INFINITY, 3.0],
                12
            )),
            [2.0]
        );
        let big = numeric_split_points(&[f64::MAX, f64::MAX / 2.0], 1);
        assert_eq!(big.len(), 1);
    }

    #[test]
    fn neighbours() {
        let s = numeric_split_points(&[1.0, 2.0, 3.0, 4.0], 12); // 1.5 2.5 3.5
        let n = |x| Number::new(x).unwrap();
        assert_eq!(next_above(&s, n(1.5)), Some(n(2.5)));
        assert_eq!(next_above(&s, n(3.5)), None);
        assert_eq!(next_below(&s, n(2.5)), Some(n(1.5)));
        assert_eq!(next_below(&s, n(1.0)), None);
    }
}

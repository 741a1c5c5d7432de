//! The numbers behind the scored-model plots: ROC and precision–recall points from
//! `(score, is_positive)` pairs, and calibration bins. Tied scores are one threshold, as in
//! [`crate::eval::auc_pr`] and [`crate::eval::auc_roc`], so the trapezoids under the ROC
//! points and the steps under the PR points give exactly the AUCs the JSON reports.

use serde::Serialize;

/// Calibration bins: `CALIBRATION_BINS` equal-width score intervals over [0, 1].
pub const CALIBRATION_BINS: usize = 10;

/// One calibration bin: the examples scoring in `[from, to)` (the last bin includes 1).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct CalibrationBin {
    pub from: f64,
    pub to: f64,
    pub count: usize,
    /// The mean score of the bin's examples (`null` when empty).
    pub mean_score: Option<f64>,
    /// The share of positives among them (`null` when empty).
    pub positive_rate: Option<f64>,
}

/// Points per distinct score, high to low: `(false positive rate, true positive rate)`
/// from (0, 0) to (1, 1). Empty without positives or without negatives.
pub fn roc_points(scored: &[(f64, bool)]) -> Vec<(f64, f64)> {
    let p = scored.iter().filter(|(_, x)| *x).count() as f64;
    let n = scored.len() as f64 - p;
    if p == 0.0 || n == 0.0 {
        return Vec::new();
    }
    let mut out = vec![(0.0, 0.0)];
    out.extend(thresholds(scored).map(|(tp, fp)| (fp as f64 / n, tp as f64 / p)));
    out
}

/// Points per distinct score, high to low: `(recall, precision)`. Empty without positives.
pub fn pr_points(scored: &[(f64, bool)]) -> Vec<(f64, f64)> {
    let p = scored.iter().filter(|(_, x)| *x).count() as f64;
    if p == 0.0 {
        return Vec::new();
    }
    thresholds(scored)
        .map(|(tp, fp)| (tp as f64 / p, tp as f64 / (tp + fp) as f64))
        .collect()
}

/// Cumulative `(tp, fp)` after each group of tied scores, highest first (NaN lowest).
fn thresholds(scored: &[(f64, bool)]) -> impl Iterator<Item = (usize, usize)> {
    let key = |x: f64| if x.is_nan() { f64::NEG_INFINITY } else { x };
    let mut sorted: Vec<(f64, bool)> = scored.iter().map(|&(s, p)| (key(s), p)).collect();
    sorted.sort_by(|a, b| b.0.total_cmp(&a.0));
    let mut out = Vec::new();
    let (mut tp, mut fp) = (0, 0);
    for (i, &(s, positive)) in sorted.iter().enumerate() {
        if positive {
            tp += 1;
        } else {
            fp += 1;
        }
        if sorted.get(i + 1).is_none_or(|next| next.0 != s) {
            out.push((tp, fp));
        }
    }
    out.into_iter()
}

/// The area under ROC points by trapezoids (equals the Mann–Whitney AUC-ROC).
pub fn trapezoid_area(points: &[(f64, f64)]) -> f64 {
    points
        .windows(2)
        .map(|w| (w[1].0 - w[0].0) * (w[1].1 + w[0].1) / 2.0)
        .sum()
}

/// The area under PR points as steps (equals the average-precision AUC-PR).
pub fn step_area(points: &[(f64, f64)]) -> f64 {
    let mut prev = 0.0;
    points
        .iter()
        .map(|&(r, p)| {
            let a = (r - prev) * p;
            prev = r;
            a
        })
        .sum()
}

/// Calibration bins of scores in [0, 1] (scores outside are clamped into the end bins).
pub fn calibration(scored: &[(f64, bool)]) -> Vec<CalibrationBin> {
    let k = CALIBRATION_BINS;
    let mut sums = vec![(0usize, 0.0f64, 0usize); k];
    for &(s, positive) in scored.iter().filter(|(s, _)| !s.is_nan()) {
        let i = ((s.clamp(0.0, 1.0) * k as f64) as usize).min(k - 1);
        sums[i].0 += 1;
        sums[i].1 += s;
        sums[i].2 += usize::from(positive);
    }
    sums.into_iter()
        .enumerate()
        .map(|(i, (count, total, pos))| CalibrationBin {
            from: i as f64 / k as f64,
            to: (i + 1) as f64 / k as f64,
            count,
            mean_score: (count > 0).then(|| total / count as f64),
            positive_rate: (count > 0).then(|| pos as f64 / count as f64),
        })
        .collect()
}

/// `(probability, positive)` of a learn result's `predictions` (TBC, the boosters), if any.
pub fn scored_predictions(
    extras: &serde_json::Map<String, serde_json::Value>,
) -> Option<Vec<(f64, bool)>> {
    let preds = extras.get("predictions")?.as_array()?;
    let scored: Option<Vec<(f64, bool)>> = preds
        .iter()
        .map(|p| {
            let score = p.get("probability").or_else(|| p.get("score"))?.as_f64()?;
            Some((score, p.get("positive")?.as_bool()?))
        })
        .collect();
    scored.filter(|s| !s.is_empty())
}

/// Calibration bins of a learn result's training predictions (scored learners only).
pub fn calibration_of_predictions(
    extras: &serde_json::Map<String, serde_json::Value>,
) -> Option<Vec<CalibrationBin>> {
    scored_predictions(extras).map(|s| calibration(&s))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::{auc_pr, auc_roc};

    const SCORED: [(f64, bool); 7] = [
        (0.9, true),
        (0.8, false),
        (0.8, true),
        (0.5, true),
        (0.3, false),
        (0.3, false),
        (0.1, true),
    ];

    #[test]
    fn the_areas_under_the_points_are_the_library_aucs() {
        let roc = roc_points(&SCORED);
        assert_eq!(roc.first(), Some(&(0.0, 0.0)));
        assert_eq!(roc.last(), Some(&(1.0, 1.0)));
        assert!((trapezoid_area(&roc) - auc_roc(&SCORED).unwrap()).abs() < 1e-12);
        let pr = pr_points(&SCORED);
        assert!((step_area(&pr) - auc_pr(&SCORED).unwrap()).abs() < 1e-12);
    }

    #[test]
    fn calibration_bins_count_every_score_once() {
        let bins = calibration(&SCORED);
        assert_eq!(bins.len(), CALIBRATION_BINS);
        assert_eq!(bins.iter().map(|b| b.count).sum::<usize>(), SCORED.len());
        // 0.8, 0.8 fall in [0.8, 0.9): one positive of two.
        assert_eq!(bins[8].count, 2);
        assert_eq!(bins[8].positive_rate, Some(0.5));
        assert_eq!(bins[9].count, 1);
        assert_eq!(bins[2].mean_score, None);
    }
}

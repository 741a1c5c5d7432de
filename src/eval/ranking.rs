//! Ranking quality of scored individuals: the area under the precision–recall curve and
//! under the ROC curve.
//!
//! **AUC-PR** is computed as *average precision* with tied scores taken as one threshold:
//! sort the distinct scores from high to low; at each threshold `t` every example scoring
//! ≥ `t` is predicted positive, giving recall `R_t` and precision `P_t`; then
//! `AUC-PR = Σ_t (R_t − R_{t−1}) · P_t` (a step function, right-continuous in recall, the
//! estimator recommended over linear interpolation by Davis & Goadrich). Treating ties as
//! one threshold makes the value independent of the order of tied examples.
//!
//! **AUC-ROC** is the Mann–Whitney statistic: the share of (positive, negative) pairs where
//! the positive scores higher, ties counting one half.

/// `scored` holds `(score, is_positive)`. `None` without positives (AUC-PR) or without
/// positives or negatives (AUC-ROC); NaN scores rank lowest.
pub fn auc_pr(scored: &[(f64, bool)]) -> Option<f64> {
    let positives = scored.iter().filter(|(_, p)| *p).count();
    if positives == 0 {
        return None;
    }
    let sorted = sorted_desc(scored);
    let (mut tp, mut fp) = (0usize, 0usize);
    let mut area = 0.0;
    let mut prev_recall = 0.0;
    let mut i = 0;
    while i < sorted.len() {
        let s = sorted[i].0;
        while i < sorted.len() && same(sorted[i].0, s) {
            if sorted[i].1 {
                tp += 1;
            } else {
                fp += 1;
            }
            i += 1;
        }
        let recall = tp as f64 / positives as f64;
        let precision = tp as f64 / (tp + fp) as f64;
        area += (recall - prev_recall) * precision;
        prev_recall = recall;
    }
    Some(area)
}

/// See the module docs.
pub fn auc_roc(scored: &[(f64, bool)]) -> Option<f64> {
    let positives = scored.iter().filter(|(_, p)| *p).count();
    let negatives = scored.len() - positives;
    if positives == 0 || negatives == 0 {
        return None;
    }
    // Ascending; for each group of tied scores, positives beat every negative below the
    // group and tie with the negatives inside it.
    let mut sorted = sorted_desc(scored);
    sorted.reverse();
    let mut negatives_below = 0usize;
    let mut wins = 0.0;
    let mut i = 0;
    while i < sorted.len() {
        let s = sorted[i].0;
        let (mut p, mut n) = (0usize, 0usize);
        while i < sorted.len() && same(sorted[i].0, s) {
            if sorted[i].1 {
                p += 1;
            } else {
                n += 1;
            }
            i += 1;
        }
        wins += p as f64 * (negatives_below as f64 + n as f64 / 2.0);
        negatives_below += n;
    }
    Some(wins / (positives as f64 * negatives as f64))
}

fn same(a: f64, b: f64) -> bool {
    a == b || (a.is_nan() && b.is_nan())
}

fn sorted_desc(scored: &[(f64, bool)]) -> Vec<(f64, bool)> {
    let key = |x: f64| if x.is_nan() { f64::NEG_INFINITY } else { x };
    let mut v = scored.to_vec();
    v.sort_by(|a, b| key(b.0).total_cmp(&key(a.0)).then(b.1.cmp(&a.1)));
    v
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: Option<f64>, b: f64) -> bool {
        a.is_some_and(|a| (a - b).abs() < 1e-12)
    }

    #[test]
    fn perfect_and_reversed_rankings() {
        let perfect = [(0.9, true), (0.8, true), (0.3, false), (0.1, false)];
        assert!(close(auc_pr(&perfect), 1.0));
        assert!(close(auc_roc(&perfect), 1.0));
        let reversed = [(0.9, false), (0.8, false), (0.3, true), (0.1, true)];
        // Positives at ranks 3 and 4: AP = ½·(1/3) + ½·(2/4) = 5/12.
        assert!(close(auc_pr(&reversed), 5.0 / 12.0));
        assert!(close(auc_roc(&reversed), 0.0));
    }

    #[test]
    fn hand_computed_mixed_ranking() {
        // Ranking + − + −: AP = ½·1 + ½·(2/3) = 5/6; ROC: pairs (p1>n1,n2), (p2>n2, p2<n1) → 3/4.
        let r = [(0.9, true), (0.7, false), (0.5, true), (0.2, false)];
        assert!(close(auc_pr(&r), 5.0 / 6.0));
        assert!(close(auc_roc(&r), 0.75));
    }

    #[test]
    fn ties_are_one_threshold_and_half_for_roc() {
        // All four tied: one threshold, recall 1 at precision ½ → ½; ROC ½.
        let tied = [(0.5, true), (0.5, false), (0.5, false), (0.5, true)];
        assert!(close(auc_pr(&tied), 0.5));
        assert!(close(auc_roc(&tied), 0.5));
        // Order of tied examples does not matter.
        let a = [(0.9, true), (0.5, false), (0.5, true), (0.1, false)];
        let b = [(0.9, true), (0.5, true), (0.5, false), (0.1, false)];
        assert_eq!(auc_pr(&a), auc_pr(&b));
        // AP = ½·1 + ½·(2/3); ROC: p1 beats both (2), p2 ties n1 (½) and beats n2 (1) → 3.5/4.
        assert!(close(auc_pr(&a), 5.0 / 6.0));
        assert!(close(auc_roc(&a), 3.5 / 4.0));
        assert_eq!(auc_pr(&[(0.1, false)]), None);
        assert_eq!(auc_roc(&[(0.1, true)]), None);
    }
}

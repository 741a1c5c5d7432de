//! How many boosting rounds to keep, chosen on the training examples alone by an inner
//! stratified cross-validation: boosting is rerun on each inner training part with the
//! held-out part weighted 0 (the atoms' degrees are already known for every row), and the
//! number of rounds whose ensemble classifies the held-out examples best, summed over the
//! inner folds, is kept (the fewest on a tie). AdaBoost over noisy data keeps fitting the
//! noise round after round; this is the standard early stop, and it needs no constant
//! fitted to a data set. The folds are dealt [`REPEATS`] times with different shuffles and
//! the counts summed, so that the choice does not hang on one split of a small training
//! set (held-out counts of neighbouring round numbers differ by a few examples).

use super::model::Round;
use crate::eval::stratified_deal;

/// How many times the inner folds are dealt.
pub const REPEATS: u64 = 3;

/// Row indices dealt into `k` stratified parts by [`stratified_deal`] (positives class 0,
/// seeded by repetition `seed`); `None` when a class has fewer than `k` rows.
pub fn inner_folds(labels: &[f64], k: usize, seed: u64) -> Option<Vec<Vec<usize>>> {
    let classes: Vec<usize> = labels.iter().map(|&l| usize::from(l <= 0.0)).collect();
    let positives = classes.iter().filter(|&&c| c == 0).count();
    if positives < k || classes.len() - positives < k {
        return None;
    }
    stratified_deal(&classes, k, 0x0b005 + seed).ok()
}

/// Per prefix length T = 1..=`max_rounds`, how many of `held_out` the first T rounds
/// classify right (a run that stopped early keeps its last ensemble for larger T).
pub fn correct_per_prefix(
    rounds: &[Round],
    beds: &[Vec<f64>],
    cover_degree: f64,
    labels: &[f64],
    held_out: &[usize],
    max_rounds: usize,
) -> Vec<usize> {
    let mut score = vec![0.0; held_out.len()];
    let mut out = Vec::with_capacity(max_rounds);
    for t in 0..max_rounds {
        if let (Some(r), Some(bed)) = (rounds.get(t), beds.get(t)) {
            for (s, &row) in score.iter_mut().zip(held_out) {
                *s += r.vote(bed[row], cover_degree);
            }
        }
        let right = score
            .iter()
            .zip(held_out)
            .filter(|(s, row)| (**s > 0.0) == (labels[**row] > 0.0))
            .count();
        out.push(right);
    }
    out
}

/// The number of rounds with the most held-out examples right (the fewest on a tie).
pub fn best_prefix(correct: &[usize]) -> usize {
    let mut best = 0;
    for (t, c) in correct.iter().enumerate() {
        if *c > correct[best] {
            best = t;
        }
    }
    best + 1
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::concept::Concept;
    use crate::learn::boost::FuzzyConcept;

    fn round(alpha: f64) -> Round {
        Round {
            alpha,
            axioms: vec![FuzzyConcept::Crisp(Concept::Top)],
            base: None,
        }
    }

    #[test]
    fn folds_are_stratified_and_cover_every_row_once() {
        let labels = [1.0, 1.0, 1.0, -1.0, -1.0, -1.0, -1.0];
        let parts = inner_folds(&labels, 3, 0).unwrap();
        let mut all: Vec<usize> = parts.concat();
        all.sort_unstable();
        assert_eq!(all, (0..7).collect::<Vec<_>>());
        for p in &parts {
            assert_eq!(p.iter().filter(|&&r| labels[r] > 0.0).count(), 1);
        }
        assert_eq!(
            inner_folds(&labels, 3, 0),
            Some(parts.clone()),
            "deterministic"
        );
        assert_ne!(
            inner_folds(&labels, 3, 1),
            Some(parts),
            "another repetition"
        );
        assert_eq!(
            inner_folds(&labels, 4, 0),
            None,
            "three positives, four parts"
        );
    }

    /// Round 1 gets both held-out rows right, round 2 (heavier, wrong on row 1) spoils one,
    /// round 3 repairs it: the first prefix with the most right wins.
    #[test]
    fn the_fewest_rounds_with_the_most_held_out_right_are_kept() {
        let labels = [1.0, -1.0];
        let rounds = [round(1.0), round(2.0), round(4.0)];
        // Degrees on rows 0, 1: round 1 covers row 0 only; round 2 covers both; round 3 row 0.
        let beds = vec![vec![1.0, 0.0], vec![1.0, 1.0], vec![1.0, 0.0]];
        let c = correct_per_prefix(&rounds, &beds, 0.0, &labels, &[0, 1], 4);
        // Scores of row 1: −1, +1, −3, −3 (the fourth prefix reuses the third ensemble).
        assert_eq!(c, vec![2, 1, 2, 2]);
        assert_eq!(best_prefix(&c), 1);
        assert_eq!(best_prefix(&[1, 3, 3, 2]), 2);
    }
}

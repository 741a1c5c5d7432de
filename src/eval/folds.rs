//! Stratified k-fold splits (one deal, [`stratified_deal`], for every split in the crate) and the mean ± sd summaries of cross-validation.

use rand::SeedableRng;
use rand::rngs::StdRng;
use rand::seq::SliceRandom;
use serde::Serialize;

use crate::oracle::{IndividualId, IndividualSet};

/// One fold: train on everything else, test on this fold's examples.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Fold {
    pub train_positives: IndividualSet,
    pub train_negatives: IndividualSet,
    pub test_positives: IndividualSet,
    pub test_negatives: IndividualSet,
}

#[derive(Debug, thiserror::Error, PartialEq, Eq)]
#[non_exhaustive]
pub enum FoldError {
    #[error("cross-validation needs at least 2 folds, not {0}")]
    TooFewFolds(usize),
    #[error(
        "{folds} stratified folds need at least {folds} positive and {folds} negative \
         examples; this problem has {positives} and {negatives}"
    )]
    TooFewExamples {
        folds: usize,
        positives: usize,
        negatives: usize,
    },
    #[error("{folds} folds need at least {folds} examples; there are {items}")]
    TooFewItems { folds: usize, items: usize },
}

/// The one stratified deal behind every fold split of the crate (cross-validation of
/// binary and multi-class problems, CELOE's validation split, boosting's and the decision
/// tree's inner folds): the items of each class (`labels[i]` is item `i`'s class), in index
/// order, are shuffled with one generator seeded by `seed`, class 0 first, then dealt
/// round-robin over `k` folds, the deal continuing from class to class. Every fold so keeps
/// the class proportions (a class's share of a fold differs by at most one from another
/// fold's) and fold sizes differ by at most one. Returns each fold's items, sorted. The
/// same labels and seed give the same folds; with fewer items than folds some are empty
/// (callers that need every fold to test something check sizes first).
pub fn stratified_deal(
    labels: &[usize],
    k: usize,
    seed: u64,
) -> Result<Vec<Vec<usize>>, FoldError> {
    if k < 2 {
        return Err(FoldError::TooFewFolds(k));
    }
    let classes = labels.iter().copied().max().map_or(0, |m| m + 1);
    let mut members = vec![Vec::new(); classes];
    for (i, &c) in labels.iter().enumerate() {
        members[c].push(i);
    }
    let mut rng = StdRng::seed_from_u64(seed);
    let mut folds = vec![Vec::new(); k];
    let mut next = 0;
    for mut class in members {
        class.shuffle(&mut rng);
        for i in class {
            folds[next % k].push(i);
            next += 1;
        }
    }
    for f in &mut folds {
        f.sort_unstable();
    }
    Ok(folds)
}

/// [`stratified_deal`] of a binary problem (positives class 0, negatives class 1, each
/// in individual order), as sets. Each class needs at least `k` examples so that every
/// fold tests both.
pub fn stratified_folds(
    positives: &IndividualSet,
    negatives: &IndividualSet,
    k: usize,
    seed: u64,
) -> Result<Vec<Fold>, FoldError> {
    if k < 2 {
        return Err(FoldError::TooFewFolds(k));
    }
    if positives.len() < k || negatives.len() < k {
        return Err(FoldError::TooFewExamples {
            folds: k,
            positives: positives.len(),
            negatives: negatives.len(),
        });
    }
    let universe = positives.universe();
    let ids: Vec<(IndividualId, usize)> = positives
        .iter()
        .map(|id| (id, 0))
        .chain(negatives.iter().map(|id| (id, 1)))
        .collect();
    let labels: Vec<usize> = ids.iter().map(|&(_, c)| c).collect();
    let deal = stratified_deal(&labels, k, seed)?;
    Ok(deal
        .iter()
        .map(|fold| {
            let of_class = |c: usize| {
                IndividualSet::from_ids(
                    universe,
                    fold.iter().filter(|&&i| ids[i].1 == c).map(|&i| ids[i].0),
                )
            };
            let (test_positives, test_negatives) = (of_class(0), of_class(1));
            Fold {
                train_positives: positives.difference(&test_positives),
                train_negatives: negatives.difference(&test_negatives),
                test_positives,
                test_negatives,
            }
        })
        .collect())
}

/// Mean, sample standard deviation (n − 1; 0 for one value) and the values themselves.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Summary {
    pub mean: f64,
    pub sd: f64,
    pub folds: Vec<f64>,
}

impl Summary {
    pub fn of(values: Vec<f64>) -> Summary {
        let n = values.len();
        if n == 0 {
            return Summary {
                mean: 0.0,
                sd: 0.0,
                folds: values,
            };
        }
        let mean = values.iter().sum::<f64>() / n as f64;
        let sd = if n < 2 {
            0.0
        } else {
            (values.iter().map(|v| (v - mean).powi(2)).sum::<f64>() / (n - 1) as f64).sqrt()
        };
        Summary {
            mean,
            sd,
            folds: values,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn set(universe: usize, ids: std::ops::Range<u32>) -> IndividualSet {
        IndividualSet::from_ids(universe, ids.map(IndividualId))
    }

    #[test]
    fn folds_partition_each_class_and_keep_the_ratio() {
        let pos = set(40, 0..10);
        let neg = set(40, 10..33);
        let folds = stratified_folds(&pos, &neg, 3, 7).unwrap();
        let mut seen_pos = IndividualSet::empty(40);
        let mut seen_neg = IndividualSet::empty(40);
        for f in &folds {
            assert!(f.test_positives.len().abs_diff(10 / 3) <= 1);
            assert!(f.test_negatives.len().abs_diff(23 / 3) <= 1);
            assert_eq!(f.train_positives.union(&f.test_positives), pos);
            assert_eq!(f.train_negatives.intersection_count(&f.test_negatives), 0);
            assert_eq!(seen_pos.intersection_count(&f.test_positives), 0);
            seen_pos.union_with(&f.test_positives);
            seen_neg.union_with(&f.test_negatives);
        }
        assert_eq!((seen_pos, seen_neg), (pos.clone(), neg.clone()));
        assert_eq!(folds, stratified_folds(&pos, &neg, 3, 7).unwrap());
        assert_ne!(folds, stratified_folds(&pos, &neg, 3, 8).unwrap());
    }

    #[test]
    fn too_few_examples_is_a_clear_error() {
        let e = stratified_folds(&set(9, 0..2), &set(9, 2..9), 3, 1).unwrap_err();
        assert!(e.to_string().contains("has 2 and 7"), "{e}");
        assert_eq!(
            stratified_folds(&set(9, 0..2), &set(9, 2..9), 1, 1),
            Err(FoldError::TooFewFolds(1))
        );
    }

    /// 12 of class 0, 6 of class 1, 3 of class 2 over 3 folds: 4, 2, 1 of each per fold.
    #[test]
    fn the_deal_partitions_the_items_and_keeps_class_proportions() {
        let labels: Vec<usize> = (0..21)
            .map(|i| usize::from(i >= 12) + usize::from(i >= 18))
            .collect();
        let folds = stratified_deal(&labels, 3, 5).unwrap();
        let mut all: Vec<usize> = folds.concat();
        all.sort_unstable();
        assert_eq!(all, (0..21).collect::<Vec<_>>());
        for f in &folds {
            let count = |c| f.iter().filter(|&&i| labels[i] == c).count();
            assert_eq!((f.len(), count(0), count(1), count(2)), (7, 4, 2, 1));
            assert!(f.windows(2).all(|w| w[0] < w[1]), "sorted");
        }
        assert_eq!(folds, stratified_deal(&labels, 3, 5).unwrap());
        assert_ne!(folds, stratified_deal(&labels, 3, 6).unwrap());
        assert_eq!(
            stratified_deal(&labels, 1, 5),
            Err(FoldError::TooFewFolds(1))
        );
        let sizes: Vec<usize> = stratified_deal(&labels[..2], 3, 5)
            .unwrap()
            .iter()
            .map(Vec::len)
            .collect();
        assert_eq!(
            sizes,
            vec![1, 1, 0],
            "fewer items than folds: the last is empty"
        );
    }

    /// The deal continues from class to class: with 4 positives and 4 negatives over 3
    /// folds the sizes are 3, 3, 2 (not 4, 2, 2 as when each class is dealt from fold 0).
    #[test]
    fn fold_sizes_differ_by_at_most_one() {
        let folds = stratified_folds(&set(8, 0..4), &set(8, 4..8), 3, 2).unwrap();
        let mut sizes: Vec<usize> = folds
            .iter()
            .map(|f| f.test_positives.len() + f.test_negatives.len())
            .collect();
        sizes.sort_unstable();
        assert_eq!(sizes, vec![2, 3, 3]);
    }

    #[test]
    fn summary_uses_the_sample_deviation() {
        let s = Summary::of(vec![1.0, 2.0, 3.0, 4.0]);
        assert_eq!(s.mean, 2.5);
        assert!((s.sd - (5.0f64 / 3.0).sqrt()).abs() < 1e-12);
        assert_eq!(Summary::of(vec![0.5]).sd, 0.0);
    }
}

//! Stratified k-fold splits and the mean ± sd summaries of cross-validation.

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
}

/// Splits positives and negatives separately into `k` folds of near-equal size (each class
/// shuffled with `seed`, then dealt round-robin), so every fold keeps the class ratio.
/// The same inputs and seed give the same folds.
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
    let mut rng = StdRng::seed_from_u64(seed);
    let universe = positives.universe();
    let deal = |set: &IndividualSet, rng: &mut StdRng| -> Vec<Vec<IndividualId>> {
        let mut ids: Vec<IndividualId> = set.iter().collect();
        ids.shuffle(rng);
        let mut parts = vec![Vec::new(); k];
        for (i, id) in ids.into_iter().enumerate() {
            parts[i % k].push(id);
        }
        parts
    };
    let pos_parts = deal(positives, &mut rng);
    let neg_parts = deal(negatives, &mut rng);
    Ok((0..k)
        .map(|i| {
            let test_positives = IndividualSet::from_ids(universe, pos_parts[i].iter().copied());
            let test_negatives = IndividualSet::from_ids(universe, neg_parts[i].iter().copied());
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

    #[test]
    fn summary_uses_the_sample_deviation() {
        let s = Summary::of(vec![1.0, 2.0, 3.0, 4.0]);
        assert_eq!(s.mean, 2.5);
        assert!((s.sd - (5.0f64 / 3.0).sqrt()).abs() < 1e-12);
        assert_eq!(Summary::of(vec![0.5]).sd, 0.0);
    }
}

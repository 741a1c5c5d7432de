//! Stratified folds of a multi-class training set: each class's examples are shuffled
//! with the seed and dealt round-robin over the folds, the deal continuing from class to
//! class, so every fold keeps the class proportions and fold sizes differ by at most one.

use rand::SeedableRng;
use rand::rngs::StdRng;
use rand::seq::SliceRandom;

use crate::eval::FoldError;

/// The test examples of each of `k` folds, as indices into `labels` (sorted). A class with
/// fewer examples than folds is absent from some test folds.
pub fn stratified_class_folds(
    labels: &[usize],
    classes: usize,
    k: usize,
    seed: u64,
) -> Result<Vec<Vec<usize>>, FoldError> {
    if k < 2 {
        return Err(FoldError::TooFewFolds(k));
    }
    if labels.len() < k {
        return Err(FoldError::TooFewExamples {
            folds: k,
            positives: labels.len(),
            negatives: 0,
        });
    }
    let mut rng = StdRng::seed_from_u64(seed);
    let mut folds = vec![Vec::new(); k];
    let mut next = 0;
    for c in 0..classes {
        let mut members: Vec<usize> = (0..labels.len()).filter(|&i| labels[i] == c).collect();
        members.shuffle(&mut rng);
        for i in members {
            folds[next % k].push(i);
            next += 1;
        }
    }
    for f in &mut folds {
        f.sort_unstable();
    }
    Ok(folds)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn folds_partition_the_examples_and_keep_class_proportions() {
        // 12 of class 0, 6 of class 1, 3 of class 2.
        let labels: Vec<usize> = (0..21)
            .map(|i| {
                if i < 12 {
                    0
                } else if i < 18 {
                    1
                } else {
                    2
                }
            })
            .collect();
        let folds = stratified_class_folds(&labels, 3, 3, 5).unwrap();
        let mut all: Vec<usize> = folds.concat();
        all.sort();
        assert_eq!(all, (0..21).collect::<Vec<_>>());
        for f in &folds {
            assert_eq!(f.len(), 7);
            let count = |c| f.iter().filter(|&&i| labels[i] == c).count();
            assert_eq!((count(0), count(1), count(2)), (4, 2, 1));
        }
        assert_eq!(folds, stratified_class_folds(&labels, 3, 3, 5).unwrap());
        assert_ne!(folds, stratified_class_folds(&labels, 3, 3, 6).unwrap());
        assert!(stratified_class_folds(&labels, 3, 1, 5).is_err());
        assert!(stratified_class_folds(&labels[..2], 3, 3, 5).is_err());
    }
}

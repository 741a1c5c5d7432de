//! Confusion counts and the measures derived from them: [`Confusion`] for a binary problem,
//! [`ConfusionMatrix`] for a multi-class one (whose one-vs-rest view of a class is a
//! [`Confusion`]).

use serde::Serialize;

use crate::oracle::IndividualSet;

/// Counts of a concept's predictions against a problem's examples.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Confusion {
    pub tp: usize,
    pub fp: usize,
    pub tn: usize,
    #[serde(rename = "fn")]
    pub fn_: usize,
}

impl Confusion {
    /// Counts from the covered set and the positive/negative example sets.
    pub fn from_sets(covered: &IndividualSet, pos: &IndividualSet, neg: &IndividualSet) -> Self {
        let tp = covered.intersection_count(pos);
        let fp = covered.intersection_count(neg);
        Confusion {
            tp,
            fp,
            tn: neg.len() - fp,
            fn_: pos.len() - tp,
        }
    }

    pub fn total(&self) -> usize {
        self.tp + self.fp + self.tn + self.fn_
    }

    /// (tp + tn) / total; 0 for no examples.
    pub fn accuracy(&self) -> f64 {
        ratio(self.tp + self.tn, self.total())
    }

    /// tp / (tp + fp); 0 when nothing is predicted positive.
    pub fn precision(&self) -> f64 {
        ratio(self.tp, self.tp + self.fp)
    }

    /// tp / (tp + fn); 0 without positives.
    pub fn recall(&self) -> f64 {
        ratio(self.tp, self.tp + self.fn_)
    }

    /// Harmonic mean of precision and recall, `2tp / (2tp + fp + fn)`; 0 when tp = 0.
    pub fn f1(&self) -> f64 {
        ratio(2 * self.tp, 2 * self.tp + self.fp + self.fn_)
    }
}

/// Counts of a multi-class model's decisions, `matrix[actual][predicted]`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct ConfusionMatrix {
    pub classes: Vec<String>,
    pub matrix: Vec<Vec<usize>>,
}

impl ConfusionMatrix {
    /// No decisions yet.
    pub fn new(classes: &[String]) -> Self {
        let k = classes.len();
        ConfusionMatrix {
            classes: classes.to_vec(),
            matrix: vec![vec![0; k]; k],
        }
    }

    /// Counts one example of class `actual` decided as `predicted`.
    pub fn count(&mut self, actual: usize, predicted: usize) {
        self.matrix[actual][predicted] += 1;
    }

    /// The cell-wise sum of `parts` (e.g. the folds of a cross-validation), all over
    /// `classes`.
    pub fn sum<'a>(classes: &[String], parts: impl IntoIterator<Item = &'a Self>) -> Self {
        let mut out = Self::new(classes);
        for part in parts {
            for (row, r) in out.matrix.iter_mut().zip(&part.matrix) {
                for (x, y) in row.iter_mut().zip(r) {
                    *x += y;
                }
            }
        }
        out
    }

    /// Examples decided as their own class.
    pub fn correct(&self) -> usize {
        (0..self.matrix.len()).map(|i| self.matrix[i][i]).sum()
    }

    /// The binary counts of `class` against the rest (its examples positive).
    pub fn one_vs_rest(&self, class: usize) -> Confusion {
        let total: usize = self.matrix.iter().flatten().sum();
        let tp = self.matrix[class][class];
        let actual: usize = self.matrix[class].iter().sum();
        let predicted: usize = self.matrix.iter().map(|row| row[class]).sum();
        Confusion {
            tp,
            fn_: actual - tp,
            fp: predicted - tp,
            tn: total - actual - predicted + tp,
        }
    }
}

fn ratio(a: usize, b: usize) -> f64 {
    if b == 0 { 0.0 } else { a as f64 / b as f64 }
}

#[cfg(test)]
mod tests {
    use super::ConfusionMatrix;

    /// Three classes, six examples: the sum of two parts, and each class's binary counts.
    #[test]
    fn a_matrix_sums_and_gives_each_class_its_binary_counts() {
        let classes: Vec<String> = ["a", "b", "c"].map(String::from).to_vec();
        let mut one = ConfusionMatrix::new(&classes);
        for (actual, predicted) in [(0, 0), (0, 1), (1, 1)] {
            one.count(actual, predicted);
        }
        let mut two = ConfusionMatrix::new(&classes);
        for (actual, predicted) in [(2, 0), (2, 2), (1, 1)] {
            two.count(actual, predicted);
        }
        let all = ConfusionMatrix::sum(&classes, [&one, &two]);
        assert_eq!(
            all.matrix,
            vec![vec![1, 1, 0], vec![0, 2, 0], vec![1, 0, 1]]
        );
        assert_eq!(all.correct(), 4);
        let a = all.one_vs_rest(0);
        assert_eq!((a.tp, a.fn_, a.fp, a.tn), (1, 1, 1, 3));
        let b = all.one_vs_rest(1);
        assert_eq!((b.tp, b.fn_, b.fp, b.tn), (2, 0, 1, 3));
        assert_eq!(b.total(), 6);
    }

    use super::*;

    #[test]
    fn measures_follow_their_definitions() {
        let c = Confusion {
            tp: 3,
            fp: 1,
            tn: 4,
            fn_: 2,
        };
        assert_eq!(c.accuracy(), 0.7);
        assert_eq!(c.precision(), 0.75);
        assert_eq!(c.recall(), 0.6);
        assert!((c.f1() - 6.0 / 9.0).abs() < 1e-12);
    }

    #[test]
    fn degenerate_counts_give_zero_not_nan() {
        let c = Confusion::default();
        assert_eq!(c.accuracy(), 0.0);
        assert_eq!(c.precision(), 0.0);
        assert_eq!(c.recall(), 0.0);
        assert_eq!(c.f1(), 0.0);
    }
}

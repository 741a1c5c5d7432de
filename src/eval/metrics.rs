//! Confusion counts and the measures derived from them.

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

fn ratio(a: usize, b: usize) -> f64 {
    if b == 0 { 0.0 } else { a as f64 / b as f64 }
}

#[cfg(test)]
mod tests {
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

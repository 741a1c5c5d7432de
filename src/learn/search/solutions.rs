//! The N best distinct solutions seen so far.

use std::cmp::Reverse;
use std::collections::BTreeSet;

use super::ordered::Ordered;
use crate::concept::{Concept, length};
use crate::eval::Confusion;

/// A candidate solution with its training counts.
#[derive(Clone, Debug, PartialEq)]
pub struct Candidate {
    pub concept: Concept,
    pub quality: f64,
    pub confusion: Confusion,
}

/// Ordered best first: higher quality, then shorter, then the concepts' derived order (so
/// the set is the same whatever order candidates arrive in).
#[derive(Clone, Debug)]
pub struct BestSolutions {
    capacity: usize,
    set: BTreeSet<(Reverse<Ordered>, usize, Concept)>,
    confusions: rustc_hash::FxHashMap<Concept, Confusion>,
}

impl BestSolutions {
    pub fn new(capacity: usize) -> Self {
        BestSolutions {
            capacity: capacity.max(1),
            set: BTreeSet::new(),
            confusions: rustc_hash::FxHashMap::default(),
        }
    }

    /// Offers a candidate; keeps it if it is among the best `capacity` (concepts are
    /// expected in normal form, so equal concepts are the same solution).
    pub fn offer(&mut self, concept: &Concept, quality: f64, confusion: Confusion) {
        if self.confusions.contains_key(concept) {
            return;
        }
        let key = (Reverse(Ordered(quality)), length(concept), concept.clone());
        if self.set.len() >= self.capacity {
            match self.set.last() {
                Some(worst) if key < *worst => {}
                _ => return,
            }
        }
        self.confusions.insert(concept.clone(), confusion);
        self.set.insert(key);
        while self.set.len() > self.capacity {
            if let Some((_, _, dropped)) = self.set.pop_last() {
                self.confusions.remove(&dropped);
            }
        }
    }

    pub fn best_quality(&self) -> Option<f64> {
        self.set.first().map(|(Reverse(q), _, _)| q.0)
    }

    /// The quality a new solution must beat to be kept: the worst kept one's, once
    /// `capacity` solutions are kept (before that, anything is kept).
    pub fn threshold(&self) -> Option<f64> {
        (self.set.len() >= self.capacity)
            .then(|| self.set.last().map(|(Reverse(q), _, _)| q.0))
            .flatten()
    }

    pub fn len(&self) -> usize {
        self.set.len()
    }

    pub fn is_empty(&self) -> bool {
        self.set.is_empty()
    }

    /// Best first.
    pub fn candidates(&self) -> Vec<Candidate> {
        self.set
            .iter()
            .map(|(Reverse(q), _, c)| Candidate {
                concept: c.clone(),
                quality: q.0,
                confusion: self.confusions[c],
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keeps_the_best_shortest_distinct() {
        let mut best = BestSolutions::new(2);
        let c = Confusion::default();
        let a = Concept::class("urn:a");
        let long = Concept::And(vec![Concept::class("urn:b"), Concept::class("urn:c")]);
        best.offer(&long, 0.9, c);
        best.offer(&a, 0.9, c);
        best.offer(&a, 0.9, c);
        best.offer(&Concept::Top, 0.5, c);
        let got: Vec<Concept> = best.candidates().into_iter().map(|k| k.concept).collect();
        assert_eq!(got, vec![a.clone(), long]);
        best.offer(&Concept::class("urn:d"), 1.0, c);
        assert_eq!(best.best_quality(), Some(1.0));
        assert_eq!(best.threshold(), Some(0.9));
        assert_eq!(BestSolutions::new(3).threshold(), None);
        assert_eq!(best.len(), 2);
        assert_eq!(best.candidates()[1].concept, a);
    }
}

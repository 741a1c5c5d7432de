//! The best candidate of each length seen in a search: the quality the data gives for each
//! amount of syntax. Selecting by validation ([`crate::learn::celoe`]) asks which length the
//! data supports; this front answers "the best expression of at most that length".

use std::collections::BTreeMap;

use super::ordered::Ordered;
use super::solutions::Candidate;
use crate::concept::{Concept, length};
use crate::eval::Confusion;

/// Per length, the best candidate offered (higher quality, then the concepts' derived
/// order, so the front does not depend on the order candidates arrive in).
#[derive(Clone, Debug, Default)]
pub struct LengthFront {
    by_length: BTreeMap<usize, (Ordered, Concept, Confusion)>,
}

impl LengthFront {
    pub fn offer(&mut self, concept: &Concept, quality: f64, confusion: Confusion) {
        let len = length(concept);
        let better = |(q, c, _): &(Ordered, Concept, Confusion)| {
            quality > q.0 || (quality == q.0 && concept < c)
        };
        if self.by_length.get(&len).is_none_or(better) {
            self.by_length
                .insert(len, (Ordered(quality), concept.clone(), confusion));
        }
    }

    /// The staircase, shortest first: each entry is the best of its length and strictly
    /// better than every shorter one (a longer expression that does no better is dropped).
    pub fn staircase(&self) -> Vec<Candidate> {
        let mut out: Vec<Candidate> = Vec::new();
        for (q, c, confusion) in self.by_length.values() {
            if out.last().is_none_or(|last| q.0 > last.quality) {
                out.push(Candidate {
                    concept: c.clone(),
                    quality: q.0,
                    confusion: *confusion,
                });
            }
        }
        out
    }

    /// The staircase's longest entry no longer than `max_length` (the best expression of at
    /// most that length).
    pub fn best_within(&self, max_length: usize) -> Option<Candidate> {
        self.staircase()
            .into_iter()
            .take_while(|c| length(&c.concept) <= max_length)
            .last()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_staircase_keeps_per_length_the_best_when_it_beats_every_shorter_one() {
        let c = Confusion::default();
        let a = Concept::class("urn:a");
        let b = Concept::class("urn:b");
        let ab = Concept::And(vec![a.clone(), b.clone()]);
        let not_a = Concept::Not(Box::new(a.clone()));
        let mut front = LengthFront::default();
        front.offer(&Concept::Top, 0.5, c);
        front.offer(&b, 0.6, c);
        front.offer(&a, 0.6, c);
        front.offer(&not_a, 0.55, c);
        front.offer(&ab, 0.8, c);
        let steps: Vec<(Concept, f64)> = front
            .staircase()
            .into_iter()
            .map(|k| (k.concept, k.quality))
            .collect();
        // Length 1: a beats ⊤ and ties b by the derived order; ¬a (length 2) is no better.
        assert_eq!(steps, vec![(a.clone(), 0.6), (ab.clone(), 0.8)]);
        assert_eq!(front.best_within(2).map(|k| k.concept), Some(a));
        assert_eq!(front.best_within(3).map(|k| k.concept), Some(ab));
        assert_eq!(LengthFront::default().best_within(5), None);
    }
}

//! The concepts a search has already generated, kept as 128-bit fingerprints rather than as
//! copies: a long search generates millions of refinements, and a copy of each was the
//! largest part of its memory after the tree itself.

use std::hash::{DefaultHasher, Hash, Hasher};

use rustc_hash::FxHashSet;

use crate::concept::Concept;

/// Refinements seen so far (a false "seen" needs two 64-bit hashes to collide at once:
/// about n²/2¹²⁹, negligible for the billions of tests no run reaches).
#[derive(Default)]
pub struct SeenConcepts(FxHashSet<u128>);

impl SeenConcepts {
    /// Records `c`; `true` when it was not seen before.
    pub fn insert(&mut self, c: &Concept) -> bool {
        self.0.insert(fingerprint(c))
    }

    pub fn len(&self) -> usize {
        self.0.len()
    }

    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }
}

/// Two independent SipHash values (fixed keys: the same in every run) of the concept.
fn fingerprint(c: &Concept) -> u128 {
    let half = |salt: u8| {
        let mut h = DefaultHasher::new();
        salt.hash(&mut h);
        c.hash(&mut h);
        h.finish()
    };
    (u128::from(half(0)) << 64) | u128::from(half(1))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_concept_is_new_once_and_equal_concepts_are_one() {
        let mut seen = SeenConcepts::default();
        let a = Concept::class("urn:a");
        assert!(seen.insert(&a));
        assert!(!seen.insert(&a.clone()));
        assert!(seen.insert(&Concept::Not(Box::new(a))));
        assert!(seen.insert(&Concept::class("urn:b")));
        assert_eq!(seen.len(), 3);
    }
}

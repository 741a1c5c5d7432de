//! The rules of the one-vs-rest theories and what the combination methods read of the
//! training set: each training example's class, and each rule's coverage by example index
//! (so that coverages can be intersected and united without counting an example twice).

use fixedbitset::FixedBitSet;

use super::chi2::RuleCounts;
use crate::concept::Concept;

/// One rule: "members of `concept` are of class `class`", with the training examples it
/// covers (indices into [`RuleTable::labels`]).
#[derive(Clone, Debug, PartialEq)]
pub struct Rule {
    pub class: usize,
    pub concept: Concept,
    pub covers: FixedBitSet,
}

/// The classes, the training labels and the rules of every class.
#[derive(Clone, Debug, PartialEq)]
pub struct RuleTable {
    pub classes: Vec<String>,
    /// The class of each training example, by example index.
    pub labels: Vec<usize>,
    pub rules: Vec<Rule>,
}

impl RuleTable {
    /// Examples per class among `examples`.
    pub fn class_counts(&self, examples: &FixedBitSet) -> Vec<usize> {
        let mut counts = vec![0; self.classes.len()];
        for i in examples.ones() {
            counts[self.labels[i]] += 1;
        }
        counts
    }

    /// Every training example.
    pub fn all_examples(&self) -> FixedBitSet {
        let mut all = FixedBitSet::with_capacity(self.labels.len());
        all.insert_range(..);
        all
    }

    /// The training examples no rule covers (the default rule's examples).
    pub fn uncovered(&self) -> FixedBitSet {
        let mut left = self.all_examples();
        for r in &self.rules {
            left.difference_with(&r.covers);
        }
        left
    }

    /// Rule `rule`'s 2×2 counts on the examples of `among`.
    pub fn counts(&self, rule: usize, among: &FixedBitSet) -> RuleCounts {
        let r = &self.rules[rule];
        let class = r.class;
        let of_class = among.ones().filter(|&i| self.labels[i] == class).count();
        let covered = r.covers.intersection(among).count();
        let covered_of_class = r
            .covers
            .intersection(among)
            .filter(|&i| self.labels[i] == class)
            .count();
        RuleCounts {
            examples: among.count_ones(..),
            covered,
            of_class,
            covered_of_class,
        }
    }

    /// The rules of class `class`, in learning order.
    pub fn rules_of(&self, class: usize) -> impl Iterator<Item = usize> + '_ {
        (0..self.rules.len()).filter(move |&i| self.rules[i].class == class)
    }
}

/// A bitset of `len` bits with `ones` set (out-of-range indices are ignored).
pub fn bitset(len: usize, ones: impl IntoIterator<Item = usize>) -> FixedBitSet {
    let mut b = FixedBitSet::with_capacity(len);
    for i in ones {
        if i < len {
            b.insert(i);
        }
    }
    b
}

//! Scored expressions kept best first, bounded in number: the store behind each tree of
//! the forest and behind the shared pool.
//!
//! Order: higher score, then shorter, then earlier insertion, so the order never depends
//! on hashing or timing. Past `max` entries, adding one first evicts the worst.
//!
//! The shared search tree ([`crate::learn::search::SearchTree`]) cannot be reused here:
//! a forest node's parent may live in another tree (or have left the pool), and its score
//! is one of three heuristics; so each entry carries its parent's facts as numbers.

use std::cmp::Reverse;
use std::collections::BTreeSet;

use super::heuristic::{ForestHeuristic, NodeFacts};
use crate::concept::{Concept, length};
use crate::eval::Confusion;

/// A total order on finite scores.
#[derive(Clone, Copy, Debug, PartialEq)]
struct Score(f64);

impl Eq for Score {}

impl PartialOrd for Score {
    fn partial_cmp(&self, other: &Self) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for Score {
    fn cmp(&self, other: &Self) -> std::cmp::Ordering {
        self.0.total_cmp(&other.0)
    }
}

/// One scored expression.
#[derive(Clone, Debug)]
pub struct Entry {
    pub concept: Concept,
    pub confusion: Confusion,
    pub facts: NodeFacts,
    pub length: usize,
    /// The tree whose expansion produced it (the start tree for a root).
    pub origin: usize,
}

impl Entry {
    /// A freshly scored expression: its first expansion uses length limit `length`, so
    /// its horizontal expansion starts at `length − 1` (as CELOE's).
    pub fn new(
        concept: Concept,
        confusion: Confusion,
        quality: f64,
        parent: Option<(f64, usize)>,
        origin: usize,
    ) -> Self {
        let len = length(&concept);
        Entry {
            facts: NodeFacts {
                quality,
                f1: confusion.f1(),
                parent_quality: parent.map(|p| p.0),
                horizontal_expansion: len.saturating_sub(1),
                refinement_count: 0,
                parent_refinements: parent.map(|p| p.1),
            },
            concept,
            confusion,
            length: len,
            origin,
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Slot(pub usize);

type Key = (Reverse<Score>, usize, u64, Slot);

/// Entries best first under one heuristic.
#[derive(Debug)]
pub struct Ranked {
    heuristic: ForestHeuristic,
    slots: Vec<Option<(Entry, Key)>>,
    order: BTreeSet<Key>,
    free: Vec<Slot>,
    max: usize,
    next_seq: u64,
    added: usize,
    evicted: usize,
}

impl Ranked {
    pub fn new(heuristic: ForestHeuristic, max: usize) -> Self {
        Ranked {
            heuristic,
            slots: Vec::new(),
            order: BTreeSet::new(),
            free: Vec::new(),
            max: max.max(1),
            next_seq: 0,
            added: 0,
            evicted: 0,
        }
    }

    pub fn len(&self) -> usize {
        self.order.len()
    }

    pub fn is_empty(&self) -> bool {
        self.order.is_empty()
    }

    /// Entries ever added.
    pub fn added(&self) -> usize {
        self.added
    }

    /// Entries evicted to keep within the bound.
    pub fn evicted(&self) -> usize {
        self.evicted
    }

    pub fn get(&self, slot: Slot) -> &Entry {
        match &self.slots[slot.0] {
            Some((e, _)) => e,
            None => unreachable!("slot {slot:?} is free"),
        }
    }

    #[cfg(test)]
    pub fn score(&self, slot: Slot) -> f64 {
        match &self.slots[slot.0] {
            Some((_, key)) => key.0.0.0,
            None => f64::NEG_INFINITY,
        }
    }

    pub fn add(&mut self, entry: Entry) -> Slot {
        if self.order.len() >= self.max
            && let Some(worst) = self.order.last().copied()
        {
            self.remove(worst.3);
            self.evicted += 1;
        }
        let slot = match self.free.pop() {
            Some(s) => s,
            None => {
                self.slots.push(None);
                Slot(self.slots.len() - 1)
            }
        };
        let seq = self.next_seq;
        self.next_seq += 1;
        let key = (
            Reverse(Score(self.heuristic.score(&entry.facts))),
            entry.length,
            seq,
            slot,
        );
        self.order.insert(key);
        self.slots[slot.0] = Some((entry, key));
        self.added += 1;
        slot
    }

    /// Removes and returns the entry in `slot`.
    pub fn remove(&mut self, slot: Slot) -> Option<Entry> {
        let (entry, key) = self.slots.get_mut(slot.0)?.take()?;
        self.order.remove(&key);
        self.free.push(slot);
        Some(entry)
    }

    /// Takes out up to `n` best entries, best first.
    pub fn take_best(&mut self, n: usize) -> Vec<Entry> {
        let slots: Vec<Slot> = self.order.iter().take(n).map(|k| k.3).collect();
        slots.into_iter().filter_map(|s| self.remove(s)).collect()
    }

    /// The best entry that `accept` accepts.
    pub fn best_where(&self, accept: impl Fn(&Entry) -> bool) -> Option<Slot> {
        self.order
            .iter()
            .map(|k| k.3)
            .find(|&s| accept(self.get(s)))
    }

    /// Records an expansion of `slot` with length limit `horizontal_expansion` that
    /// produced `refinements`, and re-scores it (its place among equal scores is kept).
    pub fn expanded(&mut self, slot: Slot, horizontal_expansion: usize, refinements: usize) {
        let Some((entry, key)) = self.slots[slot.0].as_mut() else {
            return;
        };
        self.order.remove(key);
        entry.facts.horizontal_expansion = horizontal_expansion;
        entry.facts.refinement_count = refinements;
        key.0 = Reverse(Score(self.heuristic.score(&entry.facts)));
        self.order.insert(*key);
    }

    /// The entries, best first.
    pub fn iter(&self) -> impl Iterator<Item = &Entry> {
        self.order.iter().map(|k| self.get(k.3))
    }

    pub fn max_horizontal_expansion(&self) -> usize {
        self.iter()
            .map(|e| e.facts.horizontal_expansion)
            .max()
            .unwrap_or(0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn entry(name: &str, quality: f64) -> Entry {
        let c = Confusion {
            tp: 1,
            fp: 0,
            tn: 1,
            fn_: 0,
        };
        Entry::new(Concept::class(name), c, quality, Some((0.5, 10)), 0)
    }

    #[test]
    fn best_first_ties_by_insertion_and_bounded() {
        let mut r = Ranked::new(ForestHeuristic::default(), 3);
        r.add(entry("urn:a", 0.6));
        r.add(entry("urn:b", 0.9));
        r.add(entry("urn:c", 0.6));
        let names = |r: &Ranked| -> Vec<String> {
            r.iter()
                .map(|e| match &e.concept {
                    Concept::Class(i) => i.as_str().to_owned(),
                    _ => String::new(),
                })
                .collect()
        };
        assert_eq!(names(&r), ["urn:b", "urn:a", "urn:c"]);
        // Full: a better entry evicts the worst (the later of the two 0.6s).
        r.add(entry("urn:d", 0.7));
        assert_eq!(names(&r), ["urn:b", "urn:d", "urn:a"]);
        assert_eq!((r.len(), r.added(), r.evicted()), (3, 4, 1));
        let taken = r.take_best(2);
        assert_eq!(taken.len(), 2);
        assert_eq!(names(&r), ["urn:a"]);
        // An expansion lowers the score (CELOE: −0.1 per horizontal expansion, from 0 to 3).
        let slot = r.best_where(|_| true).unwrap();
        let before = r.score(slot);
        r.expanded(slot, 3, 5);
        assert!((before - r.score(slot) - 0.3005).abs() < 1e-12);
    }
}

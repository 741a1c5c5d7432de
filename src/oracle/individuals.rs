//! Individuals as dense ids and sets of them as bitsets, so set algebra between cached
//! answers is local and costs about a microsecond.

use fixedbitset::FixedBitSet;

/// An individual of the active domain, interned by the [`super::Signature`] (ids follow the
/// sorted order of the IRIs, so they are deterministic for a given knowledge base).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct IndividualId(pub u32);

impl IndividualId {
    pub fn index(self) -> usize {
        self.0 as usize
    }
}

/// A set of individuals over a fixed universe size (the signature's individual count).
#[derive(Clone, PartialEq, Eq, Hash, Default)]
pub struct IndividualSet {
    bits: FixedBitSet,
}

impl std::fmt::Debug for IndividualSet {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_set().entries(self.iter().map(|i| i.0)).finish()
    }
}

impl IndividualSet {
    /// The empty set over a universe of `universe` individuals.
    pub fn empty(universe: usize) -> Self {
        IndividualSet {
            bits: FixedBitSet::with_capacity(universe),
        }
    }

    /// Every individual of the universe.
    pub fn full(universe: usize) -> Self {
        let mut bits = FixedBitSet::with_capacity(universe);
        bits.insert_range(..);
        IndividualSet { bits }
    }

    pub fn from_ids(universe: usize, ids: impl IntoIterator<Item = IndividualId>) -> Self {
        let mut set = Self::empty(universe);
        for id in ids {
            set.insert(id);
        }
        set
    }

    pub fn universe(&self) -> usize {
        self.bits.len()
    }

    /// Adds an id; ids outside the universe grow it (sets of one oracle always share a size).
    pub fn insert(&mut self, id: IndividualId) {
        if id.index() >= self.bits.len() {
            self.bits.grow(id.index() + 1);
        }
        self.bits.insert(id.index());
    }

    pub fn remove(&mut self, id: IndividualId) {
        if id.index() < self.bits.len() {
            self.bits.set(id.index(), false);
        }
    }

    pub fn contains(&self, id: IndividualId) -> bool {
        self.bits.contains(id.index())
    }

    pub fn len(&self) -> usize {
        self.bits.count_ones(..)
    }

    pub fn is_empty(&self) -> bool {
        self.bits.is_clear()
    }

    /// Ids in increasing order.
    pub fn iter(&self) -> impl Iterator<Item = IndividualId> + '_ {
        self.bits.ones().map(|i| IndividualId(i as u32))
    }

    pub fn intersection(&self, other: &Self) -> Self {
        let mut bits = self.bits.clone();
        bits.intersect_with(&other.bits);
        IndividualSet { bits }
    }

    pub fn union(&self, other: &Self) -> Self {
        let mut bits = self.bits.clone();
        bits.union_with(&other.bits);
        IndividualSet { bits }
    }

    /// `self \ other`.
    pub fn difference(&self, other: &Self) -> Self {
        let mut bits = self.bits.clone();
        bits.difference_with(&other.bits);
        IndividualSet { bits }
    }

    pub fn intersect_with(&mut self, other: &Self) {
        self.bits.intersect_with(&other.bits);
    }

    pub fn union_with(&mut self, other: &Self) {
        self.bits.union_with(&other.bits);
    }

    pub fn difference_with(&mut self, other: &Self) {
        self.bits.difference_with(&other.bits);
    }

    pub fn is_subset(&self, other: &Self) -> bool {
        self.bits.is_subset(&other.bits)
    }

    /// Size of the intersection without building it (for confusion counts).
    pub fn intersection_count(&self, other: &Self) -> usize {
        self.bits.intersection_count(&other.bits)
    }

    /// Bytes held, for the cache weigher.
    pub fn heap_bytes(&self) -> usize {
        std::mem::size_of_val(self.bits.as_slice())
    }
}

impl FromIterator<IndividualId> for IndividualSet {
    fn from_iter<T: IntoIterator<Item = IndividualId>>(iter: T) -> Self {
        let mut set = IndividualSet::default();
        for id in iter {
            set.insert(id);
        }
        set
    }
}

//! The named types asserted for the individuals of a neighbourhood universe, read once with
//! the signature, so that class atoms over that universe are answered without a query.
//!
//! A learning run asks a class atom over its examples and, through the successor lists the
//! cache composes restrictions from, over their neighbours: on carcinogenesis that was 848 of
//! 1,192 queries, each costing more per example as the store grows. The typings of the
//! universe are a few rows per individual and bounded by the universe, not by the KB.

use std::collections::{BTreeMap, BTreeSet};

use crate::concept::Iri;
use crate::oracle::{IndividualId, IndividualSet};

/// For each named type, the individuals of the universe asserted (`rdf:type`) to have it.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct AssertedTypes {
    by_type: BTreeMap<Iri, Vec<IndividualId>>,
}

impl AssertedTypes {
    /// From `(individual, type)` pairs (any order, duplicates allowed).
    pub fn from_pairs(pairs: impl IntoIterator<Item = (IndividualId, Iri)>) -> Self {
        let mut by_type: BTreeMap<Iri, Vec<IndividualId>> = BTreeMap::new();
        for (individual, class) in pairs {
            by_type.entry(class).or_default().push(individual);
        }
        for members in by_type.values_mut() {
            members.sort_unstable();
            members.dedup();
        }
        AssertedTypes { by_type }
    }

    /// The members of `among` asserted to have one of `types` (a class's implying types:
    /// its instances under the closed-world rule `rdf:type/(subClassOf|equivalentClass)*`).
    pub fn instances_of_any(&self, types: &BTreeSet<Iri>, among: &IndividualSet) -> IndividualSet {
        let mut out = IndividualSet::empty(among.universe());
        for members in types.iter().filter_map(|t| self.by_type.get(t)) {
            for &id in members {
                if among.contains(id) {
                    out.insert(id);
                }
            }
        }
        out
    }

    /// How many typings the table holds.
    pub fn len(&self) -> usize {
        self.by_type.values().map(Vec::len).sum()
    }

    pub fn is_empty(&self) -> bool {
        self.by_type.is_empty()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn instances_are_the_members_of_among_with_an_implying_type() {
        let table = AssertedTypes::from_pairs([
            (IndividualId(0), Iri::new("urn:A")),
            (IndividualId(1), Iri::new("urn:B")),
            (IndividualId(2), Iri::new("urn:B")),
            (IndividualId(2), Iri::new("urn:B")),
            (IndividualId(3), Iri::new("urn:C")),
        ]);
        assert_eq!(table.len(), 4);
        let among = IndividualSet::from_ids(5, [0, 2, 3, 4].map(IndividualId));
        let types = BTreeSet::from([Iri::new("urn:A"), Iri::new("urn:B")]);
        let got: Vec<u32> = table
            .instances_of_any(&types, &among)
            .iter()
            .map(|i| i.0)
            .collect();
        assert_eq!(got, vec![0, 2]);
        let none = BTreeSet::from([Iri::new("urn:Z")]);
        assert!(table.instances_of_any(&none, &among).is_empty());
    }
}

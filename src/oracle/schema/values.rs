//! The data-property values of a neighbourhood universe's individuals, read once with the
//! signature (they come with the triples the walk fetches anyway), so that
//! [`crate::oracle::MembershipOracle::data_values`] over the universe needs no query.
//!
//! A learning run asks them right after the signature: the numeric split points of every
//! individual of the universe, then the boundary values of the examples and their
//! successors. On carcinogenesis that was 60 queries (16k rows) before the first test, each
//! costing more per individual as the store grows; the table is bounded by the universe.

use std::collections::{BTreeMap, BTreeSet};

use crate::concept::{Iri, Literal};
use crate::oracle::{IndividualId, IndividualSet};

/// For each data property of the signature, the `(individual, value)` pairs of the
/// universe (sorted, without duplicates). A property that is not in the table is not known
/// to it: its values are asked from the store.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct UniverseValues {
    by_property: BTreeMap<Iri, Vec<(IndividualId, Literal)>>,
}

impl UniverseValues {
    /// From the properties the table answers for (each gets an entry, even without
    /// values) and `(property, individual, value)` triples (any order, duplicates allowed;
    /// triples of other properties are dropped).
    pub fn new(
        properties: impl IntoIterator<Item = Iri>,
        values: impl IntoIterator<Item = (Iri, IndividualId, Literal)>,
    ) -> Self {
        let mut by_property: BTreeMap<Iri, Vec<(IndividualId, Literal)>> =
            properties.into_iter().map(|p| (p, Vec::new())).collect();
        for (p, id, value) in values {
            if let Some(list) = by_property.get_mut(&p) {
                list.push((id, value));
            }
        }
        for list in by_property.values_mut() {
            list.sort();
            list.dedup();
        }
        UniverseValues { by_property }
    }

    /// The values of any of `properties` for the members of `among`, sorted by individual
    /// then value, without duplicates: what the `data_values` query answers. `None` when a
    /// property is not in the table.
    pub fn values(
        &self,
        properties: &BTreeSet<Iri>,
        among: &IndividualSet,
    ) -> Option<Vec<(IndividualId, Literal)>> {
        let mut out = Vec::new();
        for p in properties {
            let list = self.by_property.get(p)?;
            out.extend(list.iter().filter(|(id, _)| among.contains(*id)).cloned());
        }
        out.sort();
        out.dedup();
        Some(out)
    }

    /// How many values the table holds.
    pub fn len(&self) -> usize {
        self.by_property.values().map(Vec::len).sum()
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lit(v: &str) -> Literal {
        Literal::typed(v, "http://www.w3.org/2001/XMLSchema#decimal")
    }

    #[test]
    fn values_are_those_of_the_properties_and_individuals_asked() {
        let (p, q, r) = (Iri::new("urn:p"), Iri::new("urn:q"), Iri::new("urn:r"));
        let table = UniverseValues::new(
            [p.clone(), q.clone()],
            [
                (p.clone(), IndividualId(2), lit("2")),
                (p.clone(), IndividualId(0), lit("1")),
                (p.clone(), IndividualId(0), lit("1")),
                (q.clone(), IndividualId(1), lit("5")),
                (q.clone(), IndividualId(0), lit("1")),
                (r.clone(), IndividualId(0), lit("9")),
            ],
        );
        assert_eq!(table.len(), 4);
        let among = IndividualSet::from_ids(3, [0, 1].map(IndividualId));
        let got = table
            .values(&BTreeSet::from([p.clone(), q.clone()]), &among)
            .expect("both are in the table");
        assert_eq!(
            got,
            vec![(IndividualId(0), lit("1")), (IndividualId(1), lit("5"))]
        );
        assert_eq!(table.values(&BTreeSet::from([p, r]), &among), None);
    }
}

//! The object-property edges out of a neighbourhood universe's individuals, read once with
//! the signature (they are in the triples the walk fetches), so that the successor lists of
//! forward roles need no query.
//!
//! A learning run asks them right after the signature (the examples' boundary split values
//! follow every object property one step) and again whenever the cache composes a
//! restriction. On carcinogenesis ×100 the first ones were 37k rows, paged past Virtuoso's
//! row cap; the table is bounded by the universe.

use std::collections::BTreeMap;

use super::roles::RoleExpansion;
use crate::concept::Iri;
use crate::oracle::{IndividualId, IndividualSet, Successors};

/// For each object property of the signature, its edges out of the universe's individuals:
/// `(subject, target)`, the target `None` when it is not an individual of the universe.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct UniverseEdges {
    by_property: BTreeMap<Iri, Vec<(IndividualId, Option<IndividualId>)>>,
}

impl UniverseEdges {
    /// From the properties the table answers for (each gets an entry, even without edges)
    /// and `(property, subject, target)` edges (any order; edges of other properties are
    /// dropped).
    pub fn new(
        properties: impl IntoIterator<Item = Iri>,
        edges: impl IntoIterator<Item = (Iri, IndividualId, Option<IndividualId>)>,
    ) -> Self {
        let mut by_property: BTreeMap<Iri, Vec<(IndividualId, Option<IndividualId>)>> =
            properties.into_iter().map(|p| (p, Vec::new())).collect();
        for (p, x, y) in edges {
            if let Some(list) = by_property.get_mut(&p) {
                list.push((x, y));
            }
        }
        for list in by_property.values_mut() {
            list.sort_unstable();
            list.dedup();
        }
        UniverseEdges { by_property }
    }

    /// The successors of `among` along a role with this expansion, as the successor query
    /// answers them: `None` when the table cannot say (a reversed or transitive term, or a
    /// property it does not hold), `Some(None)` when a successor is not an individual of the
    /// universe (the list would be incomplete, which the oracle never hands out).
    pub fn successors(
        &self,
        expansion: &RoleExpansion,
        among: &IndividualSet,
        universe: usize,
    ) -> Option<Option<Successors>> {
        let mut lists = Vec::new();
        for term in &expansion.terms {
            if term.transitive {
                return None;
            }
            for edge in &term.edges {
                if edge.reversed {
                    return None;
                }
                lists.push(self.by_property.get(&edge.property)?);
            }
        }
        let mut pairs = Vec::new();
        for list in lists {
            for &(x, y) in list.iter().filter(|(x, _)| among.contains(*x)) {
                match y {
                    Some(y) => pairs.push((x, y)),
                    None => return Some(None),
                }
            }
        }
        Some(Some(Successors::from_pairs(universe, pairs)))
    }

    /// How many edges the table holds.
    pub fn len(&self) -> usize {
        self.by_property.values().map(Vec::len).sum()
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

#[cfg(test)]
mod tests {
    use super::super::roles::{RoleEdge, RoleTerm};
    use super::*;

    fn forward(p: &Iri) -> RoleExpansion {
        RoleExpansion {
            terms: vec![RoleTerm {
                edges: vec![RoleEdge {
                    property: p.clone(),
                    reversed: false,
                }],
                transitive: false,
            }],
            needs_iri_guard: false,
        }
    }

    #[test]
    fn forward_roles_are_answered_and_others_are_left_to_the_store() {
        let (p, q, r) = (Iri::new("urn:p"), Iri::new("urn:q"), Iri::new("urn:r"));
        let id = IndividualId;
        let table = UniverseEdges::new(
            [p.clone(), q.clone()],
            [
                (p.clone(), id(0), Some(id(1))),
                (p.clone(), id(0), Some(id(2))),
                (p.clone(), id(0), Some(id(2))),
                (p.clone(), id(3), None),
                (q.clone(), id(1), Some(id(0))),
            ],
        );
        assert_eq!(table.len(), 4);
        let among = IndividualSet::from_ids(4, [id(0), id(1)]);
        let got = table.successors(&forward(&p), &among, 4).unwrap().unwrap();
        assert_eq!(
            got,
            Successors::from_pairs(4, vec![(id(0), id(1)), (id(0), id(2))])
        );
        // id(3) has a successor outside the universe: no list.
        let all = IndividualSet::full(4);
        assert_eq!(table.successors(&forward(&p), &all, 4), Some(None));
        // Unknown properties and reversed or transitive terms go to the store.
        assert_eq!(table.successors(&forward(&r), &among, 4), None);
        let mut reversed = forward(&p);
        reversed.terms[0].edges[0].reversed = true;
        assert_eq!(table.successors(&reversed, &among, 4), None);
        let mut transitive = forward(&q);
        transitive.terms[0].transitive = true;
        assert_eq!(table.successors(&transitive, &among, 4), None);
    }
}

//! What a role means in the data: which asserted edges make up `r`, given the declared
//! sub-properties, inverses, symmetry and transitivity.
//!
//! Rules (applied to a fixpoint, starting from `(r, forward)`):
//! - a sub-property `s ⊑ p` contributes its edges in the same direction;
//! - `p owl:inverseOf q` (either way round) contributes `q`'s edges reversed;
//! - a symmetric `p` contributes its own edges reversed;
//! - if `r` is transitive, the role is the transitive closure of all those edges; otherwise each
//!   transitive property `t` among the contributors contributes the closure of `t`'s own
//!   expansion (so `hasParent ⊑ hasAncestor` with `hasAncestor` transitive works, and a
//!   transitive sub-property of a non-transitive role keeps its closure).
//!
//! Both the SPARQL compiler and the reference evaluator consume this expansion, so they agree
//! by construction on what the schema implies; the tests check the data side.

use std::collections::BTreeSet;

use crate::concept::{Iri, Role};

use super::Signature;

/// One asserted property read in one direction.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct RoleEdge {
    pub property: Iri,
    /// Read object → subject.
    pub reversed: bool,
}

/// A union of edges, optionally closed transitively (`(e₁|…|eₙ)+`).
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct RoleTerm {
    pub edges: Vec<RoleEdge>,
    pub transitive: bool,
}

/// The role as a union of terms.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct RoleExpansion {
    pub terms: Vec<RoleTerm>,
    /// Some edge may have a literal or blank node at an end (guard with `isIRI`).
    pub needs_iri_guard: bool,
}

impl Signature {
    /// The expansion of a role (an inverse role reverses every edge).
    pub fn role_expansion(&self, role: &Role) -> RoleExpansion {
        let mut expansion = self.property_expansion(&role.property);
        if role.inverse {
            for term in &mut expansion.terms {
                for edge in &mut term.edges {
                    edge.reversed = !edge.reversed;
                }
                term.edges.sort();
            }
        }
        expansion
    }

    fn property_expansion(&self, property: &Iri) -> RoleExpansion {
        let edges = self.edge_closure(property);
        let needs_iri_guard = edges.iter().any(|e| {
            self.object_properties
                .get(&e.property)
                .is_none_or(|info| info.has_non_iri_ends)
        });
        if self.is_transitive(property) {
            return RoleExpansion {
                terms: vec![RoleTerm {
                    edges: edges.into_iter().collect(),
                    transitive: true,
                }],
                needs_iri_guard,
            };
        }
        let mut terms = vec![RoleTerm {
            edges: edges.iter().cloned().collect(),
            transitive: false,
        }];
        for member in edges
            .iter()
            .filter(|e| e.property != *property && self.is_transitive(&e.property))
        {
            let mut t_edges: Vec<RoleEdge> =
                self.edge_closure(&member.property).into_iter().collect();
            if member.reversed {
                for e in &mut t_edges {
                    e.reversed = !e.reversed;
                }
                t_edges.sort();
            }
            terms.push(RoleTerm {
                edges: t_edges,
                transitive: true,
            });
        }
        terms.sort();
        terms.dedup();
        RoleExpansion {
            terms,
            needs_iri_guard,
        }
    }

    fn is_transitive(&self, p: &Iri) -> bool {
        self.object_properties.get(p).is_some_and(|i| i.transitive)
    }

    /// All (property, direction) pairs whose edges belong to `property`.
    fn edge_closure(&self, property: &Iri) -> BTreeSet<RoleEdge> {
        let start = RoleEdge {
            property: property.clone(),
            reversed: false,
        };
        let mut seen = BTreeSet::from([start.clone()]);
        let mut todo = vec![start];
        while let Some(edge) = todo.pop() {
            let mut next = Vec::new();
            for (p, info) in &self.object_properties {
                if info.super_properties.contains(&edge.property) {
                    next.push(RoleEdge {
                        property: p.clone(),
                        reversed: edge.reversed,
                    });
                }
            }
            if let Some(info) = self.object_properties.get(&edge.property) {
                for q in &info.inverses {
                    next.push(RoleEdge {
                        property: q.clone(),
                        reversed: !edge.reversed,
                    });
                }
                if info.symmetric {
                    next.push(RoleEdge {
                        property: edge.property.clone(),
                        reversed: !edge.reversed,
                    });
                }
            }
            for n in next {
                if seen.insert(n.clone()) {
                    todo.push(n);
                }
            }
        }
        seen
    }
}

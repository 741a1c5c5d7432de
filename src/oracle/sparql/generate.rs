//! The instances of a concept over the whole KB, asked of the store in one query that
//! enumerates candidates from the concept itself rather than from an interned universe.
//!
//! `SELECT DISTINCT ?x WHERE { seed(C, ?x) FILTER(isIRI(?x) && member(C, ?x)) }`: the seed
//! binds `?x` to a superset of the members that the store can find by index — the typings of
//! `A`'s implying types, the subjects of `r`'s edges for `∃r.C`, `≥n r.C`, `∃r.{a}`, `∃r.Self`,
//! the subjects of `p` for data restrictions, the listed individuals of `{a, b}`; a
//! conjunction takes one conjunct's seed, a disjunction the union of its operands' seeds.
//! Where no such seed exists (`⊤`, `¬C`, `∀r.C`, `≤n r.C`) the meaning of the concept depends
//! on the whole active domain, and the seed is the active domain itself (typed with a named
//! class or `owl:NamedIndividual`, or at an end of an object-property assertion: the universe
//! [`crate::oracle::IndividualScope::ActiveDomain`] interns). A seed that could bind
//! something outside the active domain (a data property's subjects, the edges of a property
//! that is not an object property) is joined with an active-domain check, so the answer is
//! the same as that of `covered` over the active domain; the caller drops schema entities
//! (classes, properties) as the signature does.

use oxigraph::model::NamedNode;
use spargebra::Query;
use spargebra::algebra::{Expression, GraphPattern, PropertyPathExpression};
use spargebra::term::{GroundTerm, NamedNodePattern, TermPattern, TriplePattern, Variable};

use super::build::*;
use super::compile::{Compiler, SUBJECT, edge_step};
use crate::concept::{Concept, Role, vocab};
use crate::oracle::OracleError;

const OWL_NAMED_INDIVIDUAL: &str = "http://www.w3.org/2002/07/owl#NamedIndividual";

/// Where a seed's bindings are known to lie.
struct Seed {
    pattern: GraphPattern,
    /// Every binding of `?x` is in the active domain.
    within_domain: bool,
}

impl Compiler<'_> {
    /// The closed-world instances of `c` among the KB's active domain, at most `limit` rows
    /// (`None`: all). No `ORDER BY`: a store streams the answer instead of sorting it.
    pub fn instances_query(&self, c: &Concept, limit: Option<usize>) -> Result<Query, OracleError> {
        let x = Variable::new_unchecked(SUBJECT);
        let seed = self.seed(c, &x).unwrap_or_else(|| Seed {
            pattern: self.active_domain(&x),
            within_domain: true,
        });
        let mut conditions = vec![is_iri(&x)];
        if !seed.within_domain {
            conditions.push(self.in_active_domain(&x));
        }
        conditions.push(self.member(c, &x)?);
        let selected = GraphPattern::Distinct {
            inner: Box::new(GraphPattern::Project {
                inner: Box::new(filter(seed.pattern, and_all(conditions))),
                variables: vec![x],
            }),
        };
        let pattern = match limit {
            Some(n) => GraphPattern::Slice {
                inner: Box::new(selected),
                start: 0,
                length: Some(n),
            },
            None => selected,
        };
        Ok(Query::Select {
            dataset: None,
            pattern,
            base_iri: None,
        })
    }

    /// A pattern binding `?x` to a superset of `c`'s members, or `None` where only the active
    /// domain is (the concept holds of individuals without any assertion).
    fn seed(&self, c: &Concept, x: &Variable) -> Option<Seed> {
        match c {
            Concept::Bottom => Some(Seed {
                pattern: filter(GraphPattern::Bgp { patterns: vec![] }, truth(false)),
                within_domain: true,
            }),
            Concept::Class(a) => self.typed_seed(x, a.as_str()),
            Concept::Some { role, .. }
            | Concept::HasValue { role, .. }
            | Concept::HasSelf(role) => Some(self.role_seed(role, x)),
            Concept::Min { n, role, .. } | Concept::Exactly { n, role, .. } if *n >= 1 => {
                Some(self.role_seed(role, x))
            }
            Concept::Data { property, .. } => Some(Seed {
                pattern: path(
                    var(x),
                    self.data_path(property.as_str()),
                    var(&self.fresh()),
                ),
                within_domain: false,
            }),
            Concept::OneOf(individuals) => Some(Seed {
                pattern: values_of(
                    x,
                    &individuals
                        .iter()
                        .map(|i| node(i.as_str()))
                        .collect::<Vec<_>>(),
                ),
                within_domain: false,
            }),
            Concept::And(cs) => cs.iter().find_map(|c| self.seed(c, x)),
            Concept::Or(cs) => {
                let seeds = cs
                    .iter()
                    .map(|c| self.seed(c, x))
                    .collect::<Option<Vec<_>>>()?;
                let within_domain = seeds.iter().all(|s| s.within_domain);
                let pattern = seeds.into_iter().map(|s| s.pattern).reduce(|left, right| {
                    GraphPattern::Union {
                        left: Box::new(left),
                        right: Box::new(right),
                    }
                })?;
                Some(Seed {
                    pattern,
                    within_domain,
                })
            }
            _ => None,
        }
    }

    /// `?x rdf:type ?t` over the types implying `class` (the type path with blank-node types).
    fn typed_seed(&self, x: &Variable, class: &str) -> Option<Seed> {
        match class {
            vocab::OWL_THING => return None,
            vocab::OWL_NOTHING => return self.seed(&Concept::Bottom, x),
            _ => {}
        }
        let iri = crate::concept::Iri::new(class);
        let types = self.sig.types_implying(&iri);
        if self.sig.has_blank_types || types.is_empty() {
            return Some(Seed {
                pattern: path(var(x), type_path(), TermPattern::NamedNode(node(class))),
                within_domain: false,
            });
        }
        let within_domain = types.iter().all(|t| self.sig.classes.contains(t));
        Some(Seed {
            pattern: typed_with(x, &self.fresh(), types.iter().map(|t| node(t.as_str()))),
            within_domain,
        })
    }

    /// The subjects of the role's edges (one step: a transitive closure starts with one).
    fn role_seed(&self, role: &Role, x: &Variable) -> Seed {
        let expansion = self.sig.role_expansion(role);
        let edges: Vec<_> = expansion.terms.iter().flat_map(|t| &t.edges).collect();
        let within_domain = edges
            .iter()
            .all(|e| self.sig.object_properties.contains_key(&e.property));
        let steps = edges.iter().map(|e| edge_step(e)).collect();
        let pattern = match alternatives(steps) {
            Some(step) => path(var(x), step, var(&self.fresh())),
            None => filter(GraphPattern::Bgp { patterns: vec![] }, truth(false)),
        };
        Seed {
            pattern,
            within_domain,
        }
    }

    /// Every individual of the active domain, as a pattern binding `?x` (with duplicates).
    fn active_domain(&self, x: &Variable) -> GraphPattern {
        let mut parts = vec![typed_with(x, &self.fresh(), self.typing_classes())];
        if let Some(step) = self.object_property_step() {
            let y = self.fresh();
            parts.push(path(var(x), step.clone(), var(&y)));
            parts.push(path(
                var(x),
                PropertyPathExpression::Reverse(Box::new(step)),
                var(&y),
            ));
        }
        let union = parts
            .into_iter()
            .reduce(|left, right| GraphPattern::Union {
                left: Box::new(left),
                right: Box::new(right),
            })
            .expect("at least the typing part");
        filter(union, is_iri(x))
    }

    /// `?x` is in the active domain.
    fn in_active_domain(&self, x: &Variable) -> Expression {
        let mut parts = vec![exists(typed_with(x, &self.fresh(), self.typing_classes()))];
        if let Some(step) = self.object_property_step() {
            parts.push(exists(path(var(x), step.clone(), var(&self.fresh()))));
            parts.push(exists(path(
                var(x),
                PropertyPathExpression::Reverse(Box::new(step)),
                var(&self.fresh()),
            )));
        }
        or_all(parts)
    }

    /// The classes whose typings put an individual in the active domain.
    fn typing_classes(&self) -> impl Iterator<Item = NamedNode> + '_ {
        self.sig
            .classes
            .iter()
            .map(|c| node(c.as_str()))
            .chain(std::iter::once(node(OWL_NAMED_INDIVIDUAL)))
    }

    /// `p₁|p₂|…` over the object properties.
    fn object_property_step(&self) -> Option<PropertyPathExpression> {
        alternatives(
            self.sig
                .object_properties
                .keys()
                .map(|p| PropertyPathExpression::NamedNode(node(p.as_str())))
                .collect(),
        )
    }
}

/// `?x rdf:type ?t VALUES ?t { types }`.
fn typed_with(x: &Variable, t: &Variable, types: impl Iterator<Item = NamedNode>) -> GraphPattern {
    GraphPattern::Join {
        left: Box::new(GraphPattern::Bgp {
            patterns: vec![TriplePattern {
                subject: var(x),
                predicate: NamedNodePattern::NamedNode(node(RDF_TYPE)),
                object: var(t),
            }],
        }),
        right: Box::new(GraphPattern::Values {
            variables: vec![t.clone()],
            bindings: types
                .map(|c| vec![Some(GroundTerm::NamedNode(c))])
                .collect(),
        }),
    }
}

//! The candidates for a concept's instances over the whole KB, found by the store from the
//! concept itself rather than from an interned universe.
//!
//! `SELECT DISTINCT ?x WHERE { seed(C, ?x) }`: the seed binds `?x` to a superset of the
//! members that the store finds by index — the typings of `A`'s implying types, the subjects
//! of `r`'s edges for `∃r.C`, `≥n r.C`, `∃r.{a}`, `∃r.Self`, the subjects of `p` for data
//! restrictions, the listed individuals of `{a, b}`; a conjunction takes one conjunct's seed,
//! a disjunction one query per operand's seed. Where no seed exists (`⊤`, `¬C`, `∀r.C`,
//! `≤n r.C`) the concept holds of individuals without any assertion, and the candidates are
//! the active domain itself (typed with a named class or `owl:NamedIndividual`, or at an end
//! of an object-property assertion, as [`crate::oracle::IndividualScope::ActiveDomain`]
//! interns it), asked part by part. Only plain patterns are sent (typings, property paths,
//! `VALUES`); membership of the candidates is then asked the usual way, in the shapes the
//! endpoint's probe found it answers correctly.

use oxigraph::model::NamedNode;
use spargebra::Query;
use spargebra::algebra::{Expression, GraphPattern, PropertyPathExpression};
use spargebra::term::{GroundTerm, NamedNodePattern, TermPattern, TriplePattern, Variable};

use super::build::*;
use super::compile::{Compiler, SUBJECT, edge_step};
use crate::concept::{Concept, Iri, Role, vocab};

const OWL_NAMED_INDIVIDUAL: &str = "http://www.w3.org/2002/07/owl#NamedIndividual";

/// Where a seed's bindings are known to lie.
struct Seed {
    pattern: GraphPattern,
    /// Every binding of `?x` is in the active domain.
    within_domain: bool,
}

impl Compiler<'_> {
    /// Queries whose answers together are the candidates for `c`'s closed-world instances
    /// (a superset of them), each with whether its answers all lie in the active domain
    /// (otherwise check them with [`Self::in_domain_queries`]). `roles`: the properties the
    /// concept uses as roles, whose ends count as individuals like an object property's.
    /// One query per seed of a disjunction and per part of the active domain, without
    /// `UNION`: Virtuoso 7 drops branches of a union beside a `VALUES` block.
    pub fn candidates_queries(&self, c: &Concept, roles: &[Iri]) -> Vec<(Query, bool)> {
        let x = Variable::new_unchecked(SUBJECT);
        let seeds = self.seeds(c, &x).unwrap_or_else(|| {
            self.active_domain_parts(&x, roles)
                .into_iter()
                .map(|pattern| Seed {
                    pattern,
                    within_domain: true,
                })
                .collect()
        });
        seeds
            .into_iter()
            .map(|s| {
                let query = distinct_subjects(filter(s.pattern, is_iri(&x)), x.clone());
                (query, s.within_domain)
            })
            .collect()
    }

    /// Queries whose answers together are those of `individuals` in the active domain.
    pub fn in_domain_queries(&self, individuals: &[NamedNode], roles: &[Iri]) -> Vec<Query> {
        let x = Variable::new_unchecked(SUBJECT);
        self.active_domain_parts(&x, roles)
            .into_iter()
            .map(|part| {
                let pattern = GraphPattern::Join {
                    left: Box::new(values_of(&x, individuals)),
                    right: Box::new(part),
                };
                distinct_subjects(pattern, x.clone())
            })
            .collect()
    }

    /// The seeds of a disjunction's operands (all must have one), or of one conjunct.
    fn seeds(&self, c: &Concept, x: &Variable) -> Option<Vec<Seed>> {
        match c {
            Concept::Or(cs) => cs
                .iter()
                .map(|c| self.seeds(c, x))
                .collect::<Option<Vec<_>>>()
                .map(|seeds| seeds.into_iter().flatten().collect()),
            Concept::And(cs) => cs.iter().find_map(|c| self.seeds(c, x)),
            c => self.seed(c, x).map(|s| vec![s]),
        }
    }

    /// A pattern binding `?x` to a superset of the members of a concept that is neither a
    /// conjunction nor a disjunction ([`Self::seeds`]), or `None` where only the active
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
        let iri = Iri::new(class);
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

    /// Patterns binding `?x` to the individuals of the active domain, together (with
    /// duplicates): the typed ones, the subjects and the objects of object properties.
    fn active_domain_parts(&self, x: &Variable, roles: &[Iri]) -> Vec<GraphPattern> {
        let mut parts = vec![typed_with(x, &self.fresh(), self.typing_classes())];
        if let Some(step) = self.object_property_step(roles) {
            parts.push(path(var(x), step.clone(), var(&self.fresh())));
            parts.push(path(
                var(x),
                PropertyPathExpression::Reverse(Box::new(step)),
                var(&self.fresh()),
            ));
        }
        parts
            .into_iter()
            .map(|part| filter(part, is_iri(x)))
            .collect()
    }

    /// The classes whose typings put an individual in the active domain.
    fn typing_classes(&self) -> impl Iterator<Item = NamedNode> + '_ {
        self.sig
            .classes
            .iter()
            .map(|c| node(c.as_str()))
            .chain(std::iter::once(node(OWL_NAMED_INDIVIDUAL)))
    }

    /// `p₁|p₂|…` over the object properties and the properties of `roles` (a concept's
    /// roles: used as object properties even where the schema does not declare them).
    fn object_property_step(&self, roles: &[Iri]) -> Option<PropertyPathExpression> {
        let properties: std::collections::BTreeSet<&Iri> =
            self.sig.object_properties.keys().chain(roles).collect();
        alternatives(
            properties
                .into_iter()
                .map(|p| PropertyPathExpression::NamedNode(node(p.as_str())))
                .collect(),
        )
    }
}

/// `SELECT DISTINCT ?x WHERE { pattern }`.
fn distinct_subjects(pattern: GraphPattern, x: Variable) -> Query {
    Query::Select {
        dataset: None,
        pattern: GraphPattern::Distinct {
            inner: Box::new(GraphPattern::Project {
                inner: Box::new(pattern),
                variables: vec![x],
            }),
        },
        base_iri: None,
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

/// A pattern binding a variable to candidates the store lists by index (see
/// [`Compiler::candidate_sources`]).
#[derive(Clone, Debug)]
pub struct CandidateSource {
    pub pattern: GraphPattern,
    /// Every binding is an individual of the active domain (else check with
    /// [`Compiler::in_domain`]).
    pub within_domain: bool,
}

impl Compiler<'_> {
    /// Patterns binding `?x` (the [`SUBJECT`] variable) whose answers together hold every
    /// closed-world instance of `c`: its seeds ([`Self::candidates_queries`] explains them),
    /// or `None` when `c` has none (`⊤`, `¬C`, `∀r.C`, `≤n r.C`: only the whole active
    /// domain is a superset, and listing it must be asked for by name).
    pub fn candidate_sources(&self, c: &Concept) -> Option<Vec<CandidateSource>> {
        let x = Variable::new_unchecked(SUBJECT);
        let seeds = self.seeds(c, &x)?;
        Some(
            seeds
                .into_iter()
                .map(|s| CandidateSource {
                    pattern: s.pattern,
                    within_domain: s.within_domain,
                })
                .collect(),
        )
    }

    /// Patterns binding `?x` to the individuals of the active domain, together (typed ones,
    /// subjects and objects of object properties and of `roles`).
    pub fn active_domain_sources(&self, roles: &[Iri]) -> Vec<CandidateSource> {
        let x = Variable::new_unchecked(SUBJECT);
        self.active_domain_parts(&x, roles)
            .into_iter()
            .map(|pattern| CandidateSource {
                pattern,
                within_domain: true,
            })
            .collect()
    }

    /// The condition that `?v` is an individual of the active domain (typed with a named
    /// class or `owl:NamedIndividual`, or at an end of an object-property assertion).
    pub fn in_domain(&self, v: &Variable, roles: &[Iri]) -> Expression {
        or_all(
            self.active_domain_parts(v, roles)
                .into_iter()
                .map(|part| exists(unfiltered(part))),
        )
    }
}

/// The pattern without its outer `FILTER(isIRI(…))` (inside `EXISTS` the variable is bound).
fn unfiltered(p: GraphPattern) -> GraphPattern {
    match p {
        GraphPattern::Filter { inner, .. } => *inner,
        p => p,
    }
}

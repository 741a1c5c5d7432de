//! Concept → SPARQL: one SELECT over `VALUES ?x { examples }` whose FILTER is the concept's
//! membership condition, so the store returns only the covered examples.
//!
//! Closed-world semantics (DESIGN.md §3), one rule per constructor:
//! - ⊤: every individual (the examples are individuals already; nested ⊤ fillers need no
//!   `rdf:type owl:Thing`); ⊥: none.
//! - `A`: `?x rdf:type/(rdfs:subClassOf|owl:equivalentClass|^owl:equivalentClass)* A`, on every
//!   atom, nested fillers included.
//! - `¬C`: `!member(C)`; `⊓`, `⊔`: `&&`, `||` (exact set operations on the active domain).
//! - `∃r.C`: `EXISTS { ?x R ?y FILTER(member(C, ?y)) }` with `R` the role's expansion
//!   (sub-properties, inverses, symmetry, transitivity: see [`crate::oracle::RoleExpansion`]).
//! - `∀r.C`: `NOT EXISTS { ?x R ?y FILTER(!member(C, ?y)) }` — vacuously true without successors.
//! - `≥n r.C` (n ≥ 2): a `GROUP BY HAVING (COUNT(DISTINCT ?y) >= n)` sub-select inside `EXISTS`,
//!   in one of two equivalent shapes (see [`CountingShape`]); `≤n r.C`: `NOT EXISTS` of the
//!   `> n` sub-select, so zero successors count; `=n r.C`: both (`=0` is `≤0`).
//! - `∃r.{a}`: `EXISTS { ?x R a }`; `{a, b}`: `?x IN (a, b)`; `∃r.Self`: `EXISTS { ?x R ?x }`.
//! - data `∃p.R`: `EXISTS { ?x P ?v FILTER(R admits ?v) }` with `P` the property and its
//!   sub-properties; see [`crate::oracle::datatypes`] for what a range admits.

use std::cell::Cell;

use oxigraph::model::{Literal as RdfLiteral, NamedNode};
use spargebra::Query;
use spargebra::algebra::{
    AggregateExpression, AggregateFunction, Expression, Function, GraphPattern,
    PropertyPathExpression,
};
use spargebra::term::{GroundTerm, TermPattern, Variable};

use super::build::*;
use super::shapes::{BooleanShape, CountingShape, QueryShapes};
use crate::concept::{Concept, DataRange, Literal, Role, vocab};
use crate::oracle::datatypes::{
    compares_by_value, datatype_family, integer_range, numeric_datatypes,
};
use crate::oracle::{OracleError, Signature};

/// Which truth set a three-valued compilation asks for.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Polarity {
    /// Provably a member (`T(C)`).
    True,
    /// Provably not a member (`F(C)`).
    False,
}

impl Polarity {
    pub fn flip(self) -> Self {
        match self {
            Polarity::True => Polarity::False,
            Polarity::False => Polarity::True,
        }
    }
}

/// How class atoms are written (both have the same answers; the differential tests check it).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum ClassAtoms {
    /// `rdf:type ?t` with `?t` among the types implying the class (from the signature).
    #[default]
    Values,
    /// `rdf:type/(rdfs:subClassOf|owl:equivalentClass|^owl:equivalentClass)*` in the query.
    Path,
}

/// Compiles concepts against one signature (which supplies role expansions and disjointness).
pub struct Compiler<'a> {
    pub(super) sig: &'a Signature,
    class_atoms: ClassAtoms,
    /// How counting restrictions and transitive roles are written.
    pub(super) shapes: QueryShapes,
    fresh: Cell<usize>,
}

/// The variable that carries the examples.
pub const SUBJECT: &str = "x";

impl<'a> Compiler<'a> {
    pub fn new(sig: &'a Signature) -> Self {
        Self::with_class_atoms(sig, ClassAtoms::default())
    }

    pub fn with_class_atoms(sig: &'a Signature, class_atoms: ClassAtoms) -> Self {
        Compiler {
            sig,
            class_atoms,
            shapes: QueryShapes::default(),
            fresh: Cell::new(0),
        }
    }

    /// Writes queries in these shapes (what the endpoint was found to answer correctly).
    pub fn with_shapes(mut self, shapes: QueryShapes) -> Self {
        self.shapes = shapes;
        self
    }

    /// Writes counting restrictions with n ≥ 2 in this shape ([`CountingShape::Unavailable`]:
    /// refuses them instead of sending a query the endpoint would answer wrongly).
    pub fn with_counting(mut self, shape: CountingShape) -> Self {
        self.shapes.counting = shape;
        self
    }

    /// Refuse counting restrictions with n ≥ 2.
    pub fn without_counting(self) -> Self {
        self.with_counting(CountingShape::Unavailable)
    }

    /// `a && b && …` of membership conditions; with [`BooleanShape::Split`] written
    /// `!(!a || !b || …)`: Virtuoso 7 drops the `EXISTS` beside a `NOT EXISTS` over a grouped
    /// sub-select in a conjunction (`=n`, `A ⊓ ≤n r.C` in fillers), and answers the negated
    /// disjunction correctly.
    pub(super) fn conjunction(&self, parts: impl IntoIterator<Item = Expression>) -> Expression {
        let parts: Vec<Expression> = parts.into_iter().collect();
        let folded = and_all(parts.iter().cloned());
        if self.shapes.booleans != BooleanShape::Split || !matches!(folded, Expression::And(..)) {
            return folded;
        }
        Expression::Not(Box::new(or_all(parts.into_iter().map(not))))
    }

    pub(super) fn fresh(&self) -> Variable {
        let n = self.fresh.get() + 1;
        self.fresh.set(n);
        Variable::new_unchecked(format!("y{n}"))
    }

    /// `SELECT ?x WHERE { VALUES ?x { examples } FILTER(condition(?x)) }`.
    pub fn select_members(&self, condition: Expression, examples: &[NamedNode]) -> Query {
        let x = Variable::new_unchecked(SUBJECT);
        let values = values_of(&x, examples);
        Query::Select {
            dataset: None,
            pattern: GraphPattern::Project {
                inner: Box::new(filter(values, condition)),
                variables: vec![x],
            },
            base_iri: None,
        }
    }

    /// Several conditions in one query, so one round trip answers a batch:
    /// `SELECT ?x ?k WHERE { VALUES ?x { examples } VALUES ?k { 0 … } FILTER((?k = 0 && c₀) || …) }`.
    /// Each row says example `?x` satisfies condition number `?k`.
    pub fn select_tagged(&self, conditions: Vec<Expression>, examples: &[NamedNode]) -> Query {
        let x = Variable::new_unchecked(SUBJECT);
        let k = Variable::new_unchecked("k");
        let values_x = values_of(&x, examples);
        let values_k = GraphPattern::Values {
            variables: vec![k.clone()],
            bindings: (0..conditions.len())
                .map(|i| vec![Some(GroundTerm::Literal(RdfLiteral::from(i as i64)))])
                .collect(),
        };
        let tagged = or_all(conditions.into_iter().enumerate().map(|(i, c)| {
            and_all([
                Expression::Equal(
                    Box::new(ev(&k)),
                    Box::new(Expression::Literal(RdfLiteral::from(i as i64))),
                ),
                c,
            ])
        }));
        Query::Select {
            dataset: None,
            pattern: GraphPattern::Project {
                inner: Box::new(filter(
                    GraphPattern::Join {
                        left: Box::new(values_x),
                        right: Box::new(values_k),
                    },
                    tagged,
                )),
                variables: vec![x, k],
            },
            base_iri: None,
        }
    }

    /// The closed-world query returning which of `examples` are instances of `c`.
    pub fn covered_query(&self, c: &Concept, examples: &[NamedNode]) -> Result<Query, OracleError> {
        let x = Variable::new_unchecked(SUBJECT);
        Ok(self.select_members(self.member(c, &x)?, examples))
    }

    /// The closed-world membership condition of `c` for the individual bound to `v`.
    pub fn member(&self, c: &Concept, v: &Variable) -> Result<Expression, OracleError> {
        Ok(match c {
            Concept::Top => truth(true),
            Concept::Bottom => truth(false),
            Concept::Class(a) => self.instance_of(v, a.as_str()),
            Concept::Not(inner) => not(self.member(inner, v)?),
            Concept::And(cs) => self.conjunction(
                cs.iter()
                    .map(|c| self.member(c, v))
                    .collect::<Result<Vec<_>, _>>()?,
            ),
            Concept::Or(cs) => or_all(
                cs.iter()
                    .map(|c| self.member(c, v))
                    .collect::<Result<Vec<_>, _>>()?,
            ),
            Concept::Some { role, filler } => {
                let y = self.fresh();
                let cond = self.member(filler, &y)?;
                exists(filter(self.role_pattern(role, var(v), var(&y)), cond))
            }
            Concept::Only { role, filler } => {
                let y = self.fresh();
                let cond = not(self.member(filler, &y)?);
                not(exists(filter(
                    self.role_pattern(role, var(v), var(&y)),
                    cond,
                )))
            }
            Concept::Min { n, role, filler } => self.count_condition(role, filler, v, *n, None)?,
            // n = u32::MAX: more successors than that cannot exist.
            Concept::Max { n, role, filler } => match n.checked_add(1) {
                Some(more) => not(self.count_condition(role, filler, v, more, None)?),
                None => truth(true),
            },
            Concept::Exactly { n, role, filler } => {
                let at_least = self.count_condition(role, filler, v, *n, None)?;
                let more = match n.checked_add(1) {
                    Some(more) => self.count_condition(role, filler, v, more, None)?,
                    None => truth(false),
                };
                self.conjunction([at_least, not(more)])
            }
            Concept::HasValue { role, individual } => exists(self.role_pattern(
                role,
                var(v),
                TermPattern::NamedNode(node(individual.as_str())),
            )),
            Concept::OneOf(individuals) => self.one_of(v, individuals),
            Concept::HasSelf(role) => exists(self.role_pattern(role, var(v), var(v))),
            Concept::Data { property, range } => {
                self.data_condition(property.as_str(), range, v)?
            }
        })
    }

    pub(super) fn one_of(&self, v: &Variable, individuals: &[crate::concept::Iri]) -> Expression {
        if individuals.is_empty() {
            return truth(false);
        }
        Expression::In(
            Box::new(ev(v)),
            individuals
                .iter()
                .map(|i| Expression::NamedNode(node(i.as_str())))
                .collect(),
        )
    }

    /// `?v` is an instance of `class`: `owl:Thing`/`owl:Nothing` are ⊤/⊥; otherwise
    /// `EXISTS { ?v rdf:type ?t VALUES ?t { types implying the class } }`, which is the
    /// closure of `rdf:type/(rdfs:subClassOf|owl:equivalentClass|^owl:equivalentClass)*`
    /// precomputed from the hierarchy (measured ~15× faster on carcinogenesis than the path).
    /// The path itself is kept when resources are typed with blank nodes (VALUES cannot name
    /// them) or when [`ClassAtoms::Path`] is asked for.
    pub(super) fn instance_of(&self, v: &Variable, class: &str) -> Expression {
        self.instance_of_any(v, [class])
    }

    /// `?v` is an instance of one of `classes`: one `EXISTS` over the union of their implying
    /// types (rather than a disjunction of atoms: fewer patterns, and wide disjunctions of
    /// `EXISTS` are where some endpoints go wrong).
    pub(super) fn instance_of_any<'c>(
        &self,
        v: &Variable,
        classes: impl IntoIterator<Item = &'c str>,
    ) -> Expression {
        let mut named = Vec::new();
        for class in classes {
            match class {
                vocab::OWL_THING => return truth(true),
                vocab::OWL_NOTHING => {}
                _ => named.push(class),
            }
        }
        if named.is_empty() {
            return truth(false);
        }
        if self.class_atoms == ClassAtoms::Path || self.sig.has_blank_types {
            return or_all(named.into_iter().map(|class| {
                exists(path(
                    var(v),
                    type_path(),
                    TermPattern::NamedNode(node(class)),
                ))
            }));
        }
        let types: std::collections::BTreeSet<crate::concept::Iri> = named
            .iter()
            .flat_map(|class| self.sig.types_implying(&crate::concept::Iri::new(*class)))
            .collect();
        let rdf_type = || PropertyPathExpression::NamedNode(node(RDF_TYPE));
        if let [only] = types.iter().collect::<Vec<_>>()[..] {
            return exists(path(
                var(v),
                rdf_type(),
                TermPattern::NamedNode(node(only.as_str())),
            ));
        }
        let t = self.fresh();
        let values = GraphPattern::Values {
            variables: vec![t.clone()],
            bindings: types
                .iter()
                .map(|c| vec![Some(GroundTerm::NamedNode(node(c.as_str())))])
                .collect(),
        };
        exists(GraphPattern::Join {
            left: Box::new(path(var(v), rdf_type(), var(&t))),
            right: Box::new(values),
        })
    }

    /// The role's expansion as a pattern between two terms, guarded with `isIRI` when the
    /// property has literal or blank-node ends in the data.
    pub(super) fn role_pattern(&self, role: &Role, s: TermPattern, o: TermPattern) -> GraphPattern {
        let expansion = self.sig.role_expansion(role);
        let term_paths: Vec<PropertyPathExpression> = expansion
            .terms
            .iter()
            .filter_map(|term| {
                let edges = term.edges.iter().map(edge_step).collect();
                let alt = alternatives(edges)?;
                Some(if term.transitive {
                    PropertyPathExpression::OneOrMore(Box::new(alt))
                } else {
                    alt
                })
            })
            .collect();
        let Some(full) = alternatives(term_paths) else {
            return filter(GraphPattern::Bgp { patterns: vec![] }, truth(false));
        };
        let guards: Vec<Expression> = if expansion.needs_iri_guard {
            [&s, &o]
                .into_iter()
                .filter_map(|t| match t {
                    TermPattern::Variable(v) => Some(is_iri(v)),
                    _ => None,
                })
                .collect()
        } else {
            Vec::new()
        };
        filter(path(s, full, o), and_all(guards))
    }

    /// At least `n` distinct r-successors of `?v` satisfy the filler (a grouped sub-select in
    /// the configured [`CountingShape`] for n ≥ 2, a plain `EXISTS` for n = 1). `polarity` is `None` for closed-world membership of the filler, or the truth set
    /// (three-valued mode) that the successors must be in.
    pub(super) fn count_condition(
        &self,
        role: &Role,
        filler: &Concept,
        v: &Variable,
        n: u32,
        polarity: Option<Polarity>,
    ) -> Result<Expression, OracleError> {
        if n == 0 {
            return Ok(truth(true));
        }
        let y = self.fresh();
        let cond = match polarity {
            Some(p) => self.truth(filler, &y, p)?,
            None => self.member(filler, &y)?,
        };
        if n == 1 {
            return Ok(exists(filter(
                self.role_pattern(role, var(v), var(&y)),
                cond,
            )));
        }
        let count = self.fresh();
        match self.shapes.counting {
            CountingShape::Unavailable => Err(OracleError::Unsupported(format!(
                "counting {n} or more successors needs a grouped sub-select inside EXISTS, \
                 which this endpoint cannot answer correctly (the capability probe failed); \
                 cardinality restrictions with n ≥ 2 (and ≤n, =n with n ≥ 1) are unavailable here"
            ))),
            CountingShape::Correlated => {
                let successors = filter(self.role_pattern(role, var(v), var(&y)), cond);
                Ok(exists(at_least_n(successors, v, &y, &count, n)))
            }
            CountingShape::Joined => {
                let s = self.fresh();
                let w = self.fresh();
                let successors = filter(self.role_pattern(role, var(&s), var(&y)), cond);
                let grouped = at_least_n(successors, &s, &y, &count, n);
                let joined = GraphPattern::Join {
                    left: Box::new(self.role_pattern(role, var(v), var(&w))),
                    right: Box::new(grouped),
                };
                Ok(exists(filter(
                    joined,
                    Expression::Equal(Box::new(ev(&s)), Box::new(ev(v))),
                )))
            }
        }
    }

    /// A data property with its sub-properties as a path.
    pub(super) fn data_path(&self, property: &str) -> PropertyPathExpression {
        let props = self
            .sig
            .data_property_closure(&crate::concept::Iri::new(property));
        alternatives(
            props
                .iter()
                .map(|p| PropertyPathExpression::NamedNode(node(p.as_str())))
                .collect(),
        )
        .unwrap_or_else(|| PropertyPathExpression::NamedNode(node(property)))
    }

    /// `EXISTS { ?v P ?o FILTER(range admits ?o) }`
    pub(super) fn data_condition(
        &self,
        property: &str,
        range: &DataRange,
        v: &Variable,
    ) -> Result<Expression, OracleError> {
        let p = self.data_path(property);
        if let DataRange::Value(lit) = range
            && !compares_by_value(lit.datatype.as_str())
        {
            return Ok(exists(path(
                var(v),
                p,
                TermPattern::Literal(rdf_literal(lit)),
            )));
        }
        let o = self.fresh();
        let admits = self.range_admits(range, &o)?;
        Ok(exists(filter(path(var(v), p, var(&o)), admits)))
    }

    /// Whether the literal bound to `o` is in the range (also used for functional-property
    /// negatives in three-valued mode).
    pub(super) fn range_admits(
        &self,
        range: &DataRange,
        o: &Variable,
    ) -> Result<Expression, OracleError> {
        let is_literal = call(Function::IsLiteral, vec![ev(o)]);
        let datatype_in = |types: Vec<String>| {
            Expression::In(
                Box::new(call(Function::Datatype, vec![ev(o)])),
                types
                    .into_iter()
                    .map(|t| Expression::NamedNode(node(&t)))
                    .collect(),
            )
        };
        Ok(match range {
            DataRange::Value(lit) if compares_by_value(lit.datatype.as_str()) => {
                // Value equality within the same kind of value (numbers with numbers,
                // booleans with booleans), so a type error cannot leak through.
                let kind = if lit.datatype.as_str() == vocab::XSD_BOOLEAN {
                    vec![vocab::XSD_BOOLEAN.to_string()]
                } else {
                    numeric_datatypes().iter().map(|s| s.to_string()).collect()
                };
                and_all([
                    is_literal,
                    datatype_in(kind),
                    Expression::Equal(
                        Box::new(ev(o)),
                        Box::new(Expression::Literal(rdf_literal(lit))),
                    ),
                ])
            }
            DataRange::Value(lit) => Expression::SameTerm(
                Box::new(ev(o)),
                Box::new(Expression::Literal(rdf_literal(lit))),
            ),
            DataRange::Datatype(dt) => match datatype_family(dt.as_str()) {
                None => is_literal,
                Some(types) => {
                    let mut parts = vec![is_literal, datatype_in(types)];
                    if let Some((lo, hi)) = integer_range(dt.as_str()) {
                        let int = |n: i128| {
                            Box::new(Expression::Literal(RdfLiteral::new_typed_literal(
                                n.to_string(),
                                node(vocab::XSD_INTEGER),
                            )))
                        };
                        if let Some(lo) = lo {
                            parts.push(Expression::GreaterOrEqual(Box::new(ev(o)), int(lo)));
                        }
                        if let Some(hi) = hi {
                            parts.push(Expression::LessOrEqual(Box::new(ev(o)), int(hi)));
                        }
                    }
                    and_all(parts)
                }
            },
            DataRange::Numeric { min, max, .. } => {
                let numeric = numeric_datatypes().iter().map(|s| s.to_string()).collect();
                // Bounds as xsd:double: every numeric value is then compared as a double,
                // exactly as the reference evaluator does (xsd:decimal would overflow or lose
                // digits for very large or very small bounds).
                let bound = |b: &crate::concept::Bound| {
                    Box::new(Expression::Literal(RdfLiteral::new_typed_literal(
                        format!("{:e}", b.value.get()),
                        node(vocab::XSD_DOUBLE),
                    )))
                };
                let mut parts = vec![is_literal, datatype_in(numeric)];
                if let Some(b) = min {
                    parts.push(if b.inclusive {
                        Expression::GreaterOrEqual(Box::new(ev(o)), bound(b))
                    } else {
                        Expression::Greater(Box::new(ev(o)), bound(b))
                    });
                }
                if let Some(b) = max {
                    parts.push(if b.inclusive {
                        Expression::LessOrEqual(Box::new(ev(o)), bound(b))
                    } else {
                        Expression::Less(Box::new(ev(o)), bound(b))
                    });
                }
                and_all(parts)
            }
        })
    }
}

/// `SELECT ?subject { successors } GROUP BY ?subject HAVING (COUNT(DISTINCT ?y) >= n)`, with
/// `count` a fresh variable for the aggregate.
fn at_least_n(
    successors: GraphPattern,
    subject: &Variable,
    y: &Variable,
    count: &Variable,
    n: u32,
) -> GraphPattern {
    let grouped = GraphPattern::Group {
        inner: Box::new(successors),
        variables: vec![subject.clone()],
        aggregates: vec![(
            count.clone(),
            AggregateExpression::FunctionCall {
                name: AggregateFunction::Count,
                expr: ev(y),
                distinct: true,
            },
        )],
    };
    let having = Expression::GreaterOrEqual(
        Box::new(ev(count)),
        Box::new(Expression::Literal(RdfLiteral::from(i64::from(n)))),
    );
    GraphPattern::Project {
        inner: Box::new(filter(grouped, having)),
        variables: vec![subject.clone()],
    }
}

/// A concept literal as an RDF literal.
/// One edge of a role's expansion as a path step (`p` or `^p`).
pub(super) fn edge_step(e: &crate::oracle::schema::RoleEdge) -> PropertyPathExpression {
    let p = PropertyPathExpression::NamedNode(node(e.property.as_str()));
    if e.reversed {
        PropertyPathExpression::Reverse(Box::new(p))
    } else {
        p
    }
}

pub fn rdf_literal(lit: &Literal) -> RdfLiteral {
    match &lit.language {
        Some(lang) => RdfLiteral::new_language_tagged_literal_unchecked(&*lit.lexical, &**lang),
        None => RdfLiteral::new_typed_literal(&*lit.lexical, node(lit.datatype.as_str())),
    }
}

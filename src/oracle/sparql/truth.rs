//! Three-valued membership (open world, unique names): `T(C)` = provably a member,
//! `F(C)` = provably not; the rest is unknown. Sound and incomplete. The rules:
//!
//! | C | T(C) | F(C) |
//! |---|------|------|
//! | ⊤ | all | none |
//! | ⊥ | none | all |
//! | A | typed A (via hierarchy) | typed with a class disjoint with (or complement of) A or a superclass of A |
//! | ¬C | F(C) | T(C) |
//! | C ⊓ D | T(C) ∩ T(D) | F(C) ∪ F(D) |
//! | C ⊔ D | T(C) ∪ T(D) | F(C) ∩ F(D) |
//! | ∃r.C | an r-successor in T(C) | in F(dom r); or r functional and an r-successor in F(C) |
//! | ∀r.C | in F(dom r) (no successor possible); or r functional and an r-successor in T(C) | an r-successor in F(C) |
//! | ≥n r.C | ≥ n distinct r-successors in T(C) | in F(dom r); or r functional and n ≥ 2; or r functional, n = 1 and F(∃r.C) |
//! | ≤n r.C | in F(dom r); or r functional and n ≥ 1; or n = 0 and T(∀r.¬C) | ≥ n+1 distinct r-successors in T(C) |
//! | =n r.C | T(≥n) ∩ T(≤n) | F(≥n) ∪ F(≤n) |
//! | ∃r.{a} | a is an r-successor | in F(dom r); or r functional and a successor other than a |
//! | {a,…} | those | every other individual |
//! | ∃r.Self | x r x | in F(dom r); or r functional and a successor other than x |
//! | ∃p.R (data) | has a value in R | in F(dom p); or p functional, has values and none in R |
//!
//! `dom r` is the declared domains of r and of its super-properties (ranges for `r⁻`);
//! "r functional" means `owl:FunctionalProperty` (for `r⁻`: `owl:InverseFunctionalProperty`).
//! Distinct IRIs denote distinct individuals (unique names), which counting and nominals use.

use std::collections::BTreeSet;

use spargebra::algebra::Expression;
use spargebra::term::{TermPattern, Variable};

use super::build::*;
use super::compile::{Compiler, Polarity};
use crate::concept::{Concept, Iri, Role};
use crate::oracle::OracleError;

/// `owl:Thing` and `owl:Nothing` written as classes are ⊤ and ⊥ (as in the normal form).
pub(crate) fn vocabulary_constant(c: &Concept) -> Option<Concept> {
    match c {
        Concept::Class(a) if a.as_str() == crate::concept::vocab::OWL_THING => Some(Concept::Top),
        Concept::Class(a) if a.as_str() == crate::concept::vocab::OWL_NOTHING => {
            Some(Concept::Bottom)
        }
        _ => None,
    }
}

impl Compiler<'_> {
    /// The condition for the individual bound to `v` to be in `T(c)` or `F(c)`.
    pub fn truth(
        &self,
        c: &Concept,
        v: &Variable,
        pol: Polarity,
    ) -> Result<Expression, OracleError> {
        use Polarity::{False as F, True as T};
        if let Some(constant) = vocabulary_constant(c) {
            return self.truth(&constant, v, pol);
        }
        Ok(match (c, pol) {
            (Concept::Top, T) | (Concept::Bottom, F) => truth(true),
            (Concept::Top, F) | (Concept::Bottom, T) => truth(false),
            (Concept::Class(a), T) => self.instance_of(v, a.as_str()),
            (Concept::Class(a), F) => self.provably_not_instance(v, a),
            (Concept::Not(inner), _) => self.truth(inner, v, pol.flip())?,
            (Concept::And(cs), T) | (Concept::Or(cs), F) => {
                self.conjunction(self.truths(cs, v, pol)?)
            }
            (Concept::And(cs), F) | (Concept::Or(cs), T) => or_all(self.truths(cs, v, pol)?),
            (Concept::Some { role, filler }, T) => {
                self.count_condition(role, filler, v, 1, Some(T))?
            }
            (Concept::Some { role, filler }, F) => self.no_successor_in(role, filler, v)?,
            (Concept::Only { role, filler }, T) => self.all_successors_in(role, filler, v)?,
            (Concept::Only { role, filler }, F) => {
                self.count_condition(role, filler, v, 1, Some(F))?
            }
            (Concept::Min { n, role, filler }, T) => {
                self.count_condition(role, filler, v, *n, Some(T))?
            }
            (Concept::Min { n, role, filler }, F) => self.min_false(*n, role, filler, v)?,
            (Concept::Max { n, role, filler }, T) => self.max_true(*n, role, filler, v)?,
            (Concept::Max { n, role, filler }, F) => match n.checked_add(1) {
                Some(more) => self.count_condition(role, filler, v, more, Some(T))?,
                None => truth(false),
            },
            (Concept::Exactly { n, role, filler }, T) => self.conjunction([
                self.count_condition(role, filler, v, *n, Some(T))?,
                self.max_true(*n, role, filler, v)?,
            ]),
            (Concept::Exactly { n, role, filler }, F) => or_all([
                self.min_false(*n, role, filler, v)?,
                match n.checked_add(1) {
                    Some(more) => self.count_condition(role, filler, v, more, Some(T))?,
                    None => truth(false),
                },
            ]),
            (Concept::HasValue { role, individual }, T) => exists(self.role_pattern(
                role,
                var(v),
                TermPattern::NamedNode(node(individual.as_str())),
            )),
            (Concept::HasValue { role, individual }, F) => self.functional_successor_other_than(
                role,
                v,
                Expression::NamedNode(node(individual.as_str())),
            ),
            (Concept::OneOf(individuals), T) => self.one_of(v, individuals),
            (Concept::OneOf(individuals), F) => not(self.one_of(v, individuals)),
            (Concept::HasSelf(role), T) => exists(self.role_pattern(role, var(v), var(v))),
            (Concept::HasSelf(role), F) => self.functional_successor_other_than(role, v, ev(v)),
            (Concept::Data { property, range }, T) => {
                self.data_condition(property.as_str(), range, v)?
            }
            (Concept::Data { property, range }, F) => self.data_false(property, range, v)?,
        })
    }

    fn truths(
        &self,
        cs: &[Concept],
        v: &Variable,
        pol: Polarity,
    ) -> Result<Vec<Expression>, OracleError> {
        cs.iter().map(|c| self.truth(c, v, pol)).collect()
    }

    /// Instances of any class disjoint with `class` (or with one of its superclasses).
    fn provably_not_instance(&self, v: &Variable, class: &Iri) -> Expression {
        let disjoint = self.sig.disjoint_with(class);
        self.instance_of_any(v, disjoint.iter().map(|d| d.as_str()))
    }

    /// The role's declared domain classes (ranges for an inverse role), including those of
    /// its super-properties.
    pub(super) fn role_domains(&self, role: &Role) -> BTreeSet<Iri> {
        let supers = self.sig.super_property_closure(&role.property);
        let mut out = BTreeSet::new();
        for p in supers {
            if let Some(info) = self.sig.object_properties.get(&p) {
                out.extend(if role.inverse {
                    info.ranges.iter().cloned()
                } else {
                    info.domains.iter().cloned()
                });
            }
        }
        out
    }

    /// `v` can have no r-successor at all: it is provably outside a domain of r.
    fn outside_domain(&self, role: &Role, v: &Variable) -> Expression {
        let disjoint: BTreeSet<Iri> = self
            .role_domains(role)
            .iter()
            .flat_map(|d| self.sig.disjoint_with(d))
            .collect();
        self.instance_of_any(v, disjoint.iter().map(|d| d.as_str()))
    }

    fn is_functional(&self, role: &Role) -> bool {
        self.sig
            .object_properties
            .get(&role.property)
            .is_some_and(|i| {
                if role.inverse {
                    i.inverse_functional
                } else {
                    i.functional
                }
            })
    }

    /// F(∃r.C) with `pol = False`, T(∀r.C) with `pol = True`: outside the domain of r (no
    /// successor at all), or r functional and its (only) successor in the `pol` set of C.
    fn domain_or_functional_successor(
        &self,
        role: &Role,
        filler: &Concept,
        v: &Variable,
        pol: Polarity,
    ) -> Result<Expression, OracleError> {
        let mut cases = vec![self.outside_domain(role, v)];
        if self.is_functional(role) {
            cases.push(self.count_condition(role, filler, v, 1, Some(pol))?);
        }
        Ok(or_all(cases))
    }

    /// F(∃r.C)
    fn no_successor_in(
        &self,
        role: &Role,
        filler: &Concept,
        v: &Variable,
    ) -> Result<Expression, OracleError> {
        self.domain_or_functional_successor(role, filler, v, Polarity::False)
    }

    /// T(∀r.C)
    fn all_successors_in(
        &self,
        role: &Role,
        filler: &Concept,
        v: &Variable,
    ) -> Result<Expression, OracleError> {
        self.domain_or_functional_successor(role, filler, v, Polarity::True)
    }

    /// F(≥n r.C)
    fn min_false(
        &self,
        n: u32,
        role: &Role,
        filler: &Concept,
        v: &Variable,
    ) -> Result<Expression, OracleError> {
        if n == 0 {
            return Ok(truth(false));
        }
        if self.is_functional(role) && n >= 2 {
            return Ok(truth(true));
        }
        self.no_successor_in(role, filler, v)
    }

    /// T(≤n r.C)
    fn max_true(
        &self,
        n: u32,
        role: &Role,
        filler: &Concept,
        v: &Variable,
    ) -> Result<Expression, OracleError> {
        if self.is_functional(role) && n >= 1 {
            return Ok(truth(true));
        }
        if n == 0 {
            return self.all_successors_in(role, &Concept::not(filler.clone()), v);
        }
        Ok(self.outside_domain(role, v))
    }

    /// F(∃r.{a}) and F(∃r.Self): outside the domain, or functional with another successor.
    fn functional_successor_other_than(
        &self,
        role: &Role,
        v: &Variable,
        other: Expression,
    ) -> Expression {
        let mut cases = vec![self.outside_domain(role, v)];
        if self.is_functional(role) {
            let y = self.fresh();
            let differs = not(Expression::SameTerm(Box::new(ev(&y)), Box::new(other)));
            cases.push(exists(filter(
                self.role_pattern(role, var(v), var(&y)),
                differs,
            )));
        }
        or_all(cases)
    }

    /// F(∃p.R) for a data property.
    fn data_false(
        &self,
        property: &Iri,
        range: &crate::concept::DataRange,
        v: &Variable,
    ) -> Result<Expression, OracleError> {
        let info = self.sig.data_properties.get(property);
        let mut cases = Vec::new();
        let mut domains = BTreeSet::new();
        for p in self.sig.super_property_closure(property) {
            if let Some(i) = self.sig.data_properties.get(&p) {
                domains.extend(i.domains.iter().cloned());
            }
        }
        cases.extend(domains.iter().map(|d| self.provably_not_instance(v, d)));
        if info.is_some_and(|i| i.functional) {
            let p = self.data_path(property.as_str());
            let (o1, o2) = (self.fresh(), self.fresh());
            let has_value = exists(path(var(v), p.clone(), var(&o1)));
            let admitted = self.range_admits(range, &o2)?;
            let some_admitted = exists(filter(path(var(v), p, var(&o2)), admitted));
            cases.push(self.conjunction([has_value, not(some_admitted)]));
        }
        Ok(or_all(cases))
    }
}

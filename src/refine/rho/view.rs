//! The parts of the Signature ρ reads, precomputed once: class and role hierarchies (collapsed
//! over equivalences), declared disjointness, domains/ranges as contexts, data properties.

use std::collections::{BTreeMap, BTreeSet};

use crate::concept::{Iri, Role, vocab};
use crate::oracle::Signature;

use super::poset::Poset;

/// Where a concept is refined: the intersection of these named classes (representatives,
/// none below another); empty = ⊤. A filler of `∃r` lives in range(r), an appended conjunct
/// in the class it is appended to.
pub(crate) type Ctx = BTreeSet<Iri>;

/// A boolean data property and which values occur.
#[derive(Debug)]
pub(crate) struct BooleanProperty {
    pub property: Iri,
    pub domain: Ctx,
    pub values: Vec<bool>,
}

/// A numeric data property: the datatype its restrictions are written with, and its domain.
#[derive(Debug)]
pub(crate) struct NumericProperty {
    pub datatype: Iri,
    pub domain: Ctx,
}

#[derive(Debug, Default)]
pub(crate) struct SigView {
    pub classes: Poset,
    pub roles: Poset,
    /// Class → classes declared disjoint with it (or a superclass); everything below them is
    /// disjoint too.
    disjoint: BTreeMap<Iri, BTreeSet<Iri>>,
    domains: BTreeMap<Iri, Ctx>,
    ranges: BTreeMap<Iri, Ctx>,
    functional: BTreeSet<Iri>,
    pub booleans: Vec<BooleanProperty>,
    pub numeric: BTreeMap<Iri, NumericProperty>,
}

impl SigView {
    pub(crate) fn new(sig: &Signature) -> Self {
        Self::without(sig, &BTreeSet::new())
    }

    /// The view with the classes `hidden` left out of the class hierarchy, as DL-Learner
    /// restricts its class hierarchy to the classes not ignored: their subclasses move up
    /// to their superclasses (the hierarchy is read as a closure), and a domain or range
    /// naming one of them no longer narrows anything.
    pub(crate) fn without(sig: &Signature, hidden: &BTreeSet<Iri>) -> Self {
        let kept: BTreeSet<Iri> = sig.classes.difference(hidden).cloned().collect();
        let classes = Poset::new(&kept, |c| sig.superclasses_of(c));
        let props: BTreeSet<Iri> = sig.object_properties.keys().cloned().collect();
        let roles = Poset::new(&props, |p| sig.super_property_closure(p));
        let mut view = SigView {
            classes,
            roles,
            ..SigView::default()
        };
        for c in &sig.classes {
            let Some(r) = view.classes.rep(c).cloned() else {
                continue;
            };
            let ds: BTreeSet<Iri> = sig
                .disjoint_with(c)
                .iter()
                .filter_map(|d| view.classes.rep(d).cloned())
                .collect();
            view.disjoint.entry(r).or_default().extend(ds);
        }
        for (p, info) in &sig.object_properties {
            let mut dom = Vec::new();
            let mut ran = Vec::new();
            for q in sig.super_property_closure(p) {
                if let Some(qi) = sig.object_properties.get(&q) {
                    dom.extend(qi.domains.iter().cloned());
                    ran.extend(qi.ranges.iter().cloned());
                }
            }
            let dom = view.context_of(dom);
            let ran = view.context_of(ran);
            view.domains.insert(p.clone(), dom);
            view.ranges.insert(p.clone(), ran);
            if info.functional {
                view.functional.insert(p.clone());
            }
        }
        for (p, info) in &sig.data_properties {
            let domain = view.context_of(
                sig.super_property_closure(p)
                    .iter()
                    .filter_map(|q| sig.data_properties.get(q))
                    .flat_map(|qi| qi.domains.iter().cloned()),
            );
            let boolean = info.booleans.is_some()
                || info
                    .datatypes
                    .keys()
                    .any(|d| d.as_str() == vocab::XSD_BOOLEAN)
                || info.ranges.iter().any(|d| d.as_str() == vocab::XSD_BOOLEAN);
            if boolean {
                let values = match info.booleans {
                    Some(b) => [(true, b.true_count), (false, b.false_count)]
                        .into_iter()
                        .filter(|(_, n)| *n > 0)
                        .map(|(v, _)| v)
                        .collect(),
                    None => vec![true, false],
                };
                view.booleans.push(BooleanProperty {
                    property: p.clone(),
                    domain: domain.clone(),
                    values,
                });
            }
            // The most used numeric datatype in the data, else a declared one, else double
            // (the oracle compares every numeric value as a double, so this is cosmetic).
            let seen = info
                .datatypes
                .iter()
                .filter(|(d, _)| vocab::is_numeric_datatype(d.as_str()))
                .max_by_key(|(_, n)| **n)
                .map(|(d, _)| d.clone());
            let declared = info
                .ranges
                .iter()
                .find(|d| vocab::is_numeric_datatype(d.as_str()))
                .cloned();
            if info.numeric.is_some() || seen.is_some() || declared.is_some() {
                let datatype = seen
                    .or(declared)
                    .unwrap_or_else(|| Iri::new(vocab::XSD_DOUBLE));
                view.numeric
                    .insert(p.clone(), NumericProperty { datatype, domain });
            }
        }
        view
    }

    /// The context of some named classes: known ones as representatives, minus those above
    /// another.
    pub(crate) fn context_of(&self, classes: impl IntoIterator<Item = Iri>) -> Ctx {
        let reps: BTreeSet<Iri> = classes
            .into_iter()
            .filter_map(|c| self.classes.rep(&c).cloned())
            .collect();
        reps.iter()
            .filter(|a| {
                !reps
                    .iter()
                    .any(|b| b != *a && self.classes.is_below_or_eq(b, a))
            })
            .cloned()
            .collect()
    }

    /// Declared disjointness between two classes (through their superclasses).
    pub(crate) fn classes_disjoint(&self, a: &Iri, b: &Iri) -> bool {
        let (Some(ra), Some(rb)) = (self.classes.rep(a), self.classes.rep(b)) else {
            return false;
        };
        let below_some = |x: &Iri, ds: Option<&BTreeSet<Iri>>| {
            ds.is_some_and(|ds| ds.iter().any(|d| self.classes.is_below_or_eq(x, d)))
        };
        below_some(rb, self.disjoint.get(ra)) || below_some(ra, self.disjoint.get(rb))
    }

    /// `a` is declared disjoint with the context.
    pub(crate) fn disjoint_with_ctx(&self, a: &Iri, ctx: &Ctx) -> bool {
        ctx.iter().any(|c| self.classes_disjoint(a, c))
    }

    /// Two contexts are declared disjoint.
    pub(crate) fn contexts_disjoint(&self, a: &Ctx, b: &Ctx) -> bool {
        a.iter().any(|x| self.disjoint_with_ctx(x, b))
    }

    /// The context lies below `b` (so `b` adds nothing to it and `¬b` empties it).
    pub(crate) fn ctx_below(&self, ctx: &Ctx, b: &Iri) -> bool {
        ctx.iter().any(|c| self.classes.is_below_or_eq(c, b))
    }

    /// Where the role's subjects live.
    pub(crate) fn domain(&self, role: &Role) -> Ctx {
        let m = if role.inverse {
            &self.ranges
        } else {
            &self.domains
        };
        m.get(&role.property).cloned().unwrap_or_default()
    }

    /// Where the role's successors live.
    pub(crate) fn range(&self, role: &Role) -> Ctx {
        let m = if role.inverse {
            &self.domains
        } else {
            &self.ranges
        };
        m.get(&role.property).cloned().unwrap_or_default()
    }

    /// Declared functional (in the role's direction), so it has at most one successor.
    pub(crate) fn functional(&self, role: &Role) -> bool {
        !role.inverse && self.functional.contains(&role.property)
    }

    /// Direct sub-roles (`r⁻`'s are the inverses of `r`'s).
    pub(crate) fn sub_roles(&self, role: &Role) -> Vec<Role> {
        self.roles
            .direct_down(&role.property)
            .map(|p| Role {
                property: p.clone(),
                inverse: role.inverse,
            })
            .collect()
    }

    /// Direct super-roles.
    pub(crate) fn super_roles(&self, role: &Role) -> Vec<Role> {
        self.roles
            .direct_up(&role.property)
            .map(|p| Role {
                property: p.clone(),
                inverse: role.inverse,
            })
            .collect()
    }
}

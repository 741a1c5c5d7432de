//! The per-constructor rules of ρ, the ⊓-append, and the checks every result passes.

use std::collections::BTreeSet;

use crate::concept::{Bound, Concept, DataRange, Iri, Role, length, normalize};

use super::Rho;
use super::split_points::{next_above, next_below};
use super::view::Ctx;

impl Rho {
    /// ρ(c) in `ctx` for a normal `c`: normal results of length ≤ `max_len`, never `c`.
    pub(crate) fn refine_in(&self, c: &Concept, ctx: &Ctx, max_len: usize) -> BTreeSet<Concept> {
        if let Concept::Top = c {
            return self.top_refinements(ctx, max_len).iter().cloned().collect();
        }
        let mut raw = self.constructor_rules(c, ctx, max_len);
        self.append(c, ctx, max_len, &mut raw);
        raw.iter()
            .map(normalize)
            .filter(|d| d != c && self.acceptable(d, max_len))
            .collect()
    }

    /// The rule for `c`'s outermost constructor (unnormalised results).
    fn constructor_rules(&self, c: &Concept, ctx: &Ctx, max_len: usize) -> Vec<Concept> {
        let v = &self.view;
        let mut out = Vec::new();
        match c {
            Concept::Class(a) => {
                out.extend(v.classes.direct_down(a).cloned().map(Concept::Class));
            }
            Concept::Not(inner) => {
                if let Concept::Class(a) = &**inner {
                    out.extend(
                        v.classes
                            .direct_up(a)
                            .map(|b| Concept::not(Concept::Class(b.clone()))),
                    );
                }
            }
            Concept::And(ops) | Concept::Or(ops) => {
                self.operand_rules(c, ops, ctx, max_len, &mut out);
            }
            Concept::Some { role, filler } => self.some_rules(role, filler, max_len, &mut out),
            Concept::Only { role, filler } => self.only_rules(role, filler, max_len, &mut out),
            Concept::Min { n, role, filler } => {
                let budget = max_len.saturating_sub(2 + role_len(role));
                for e in self.refine_in(filler, &self.range_ctx(role), budget) {
                    out.push(Concept::min(*n, role.clone(), e));
                }
                if *n < self.max_fillers(role) {
                    out.push(Concept::min(n + 1, role.clone(), (**filler).clone()));
                }
            }
            Concept::Max { n, role, filler } => {
                if *n >= 1 {
                    out.push(Concept::max(n - 1, role.clone(), (**filler).clone()));
                }
                // ≤n is antitone in the role too.
                for s in v.super_roles(role) {
                    out.push(Concept::max(*n, s, (**filler).clone()));
                }
            }
            Concept::Data {
                property,
                range: DataRange::Numeric { datatype, min, max },
            } => out.extend(self.numeric_rule(property, datatype, min, max)),
            _ => {}
        }
        out
    }

    /// `c` = `⊓ ops` or `⊔ ops`: one operand refined at a time, the others kept.
    fn operand_rules(
        &self,
        c: &Concept,
        ops: &[Concept],
        ctx: &Ctx,
        max_len: usize,
        out: &mut Vec<Concept>,
    ) {
        let is_and = matches!(c, Concept::And(_));
        let total = length(c);
        for (i, op) in ops.iter().enumerate() {
            // The rest of the expression keeps its length; op may grow into the slack.
            let budget = (max_len + length(op)).saturating_sub(total);
            for d in self.refine_in(op, ctx, budget) {
                let mut next = ops.to_vec();
                next[i] = d;
                out.push(if is_and {
                    Concept::And(next)
                } else {
                    Concept::Or(next)
                });
            }
        }
    }

    /// `∃r.D`: the filler refined, a sub-role, `≥2 r.D`, `∃r.{a}` for `D = ⊤`.
    fn some_rules(&self, role: &Role, filler: &Concept, max_len: usize, out: &mut Vec<Concept>) {
        let budget = max_len.saturating_sub(1 + role_len(role));
        for e in self.refine_in(filler, &self.range_ctx(role), budget) {
            out.push(Concept::some(role.clone(), e));
        }
        for s in self.view.sub_roles(role) {
            out.push(Concept::some(s, filler.clone()));
        }
        if self.options.use_cardinality && self.max_fillers(role) >= 2 {
            out.push(Concept::min(2, role.clone(), filler.clone()));
        }
        if self.options.use_has_value && !role.inverse && *filler == Concept::Top {
            for a in self.has_value.get(&role.property).into_iter().flatten() {
                out.push(Concept::HasValue {
                    role: role.clone(),
                    individual: a.clone(),
                });
            }
        }
    }

    /// `∀r.D`: a super-role, the filler refined, `∀r.⊥` when D is a leaf class.
    fn only_rules(&self, role: &Role, filler: &Concept, max_len: usize, out: &mut Vec<Concept>) {
        // ∀ is antitone in the role: a super-role has more successors to satisfy D.
        for s in self.view.super_roles(role) {
            out.push(Concept::only(s, filler.clone()));
        }
        if *filler == Concept::Bottom {
            return;
        }
        let budget = max_len.saturating_sub(1 + role_len(role));
        for e in self.refine_in(filler, &self.range_ctx(role), budget) {
            out.push(Concept::only(role.clone(), e));
        }
        // The paper's condition: D is a class with no subclasses.
        if let Concept::Class(a) = filler
            && self.view.classes.direct_down(a).next().is_none()
        {
            out.push(Concept::only(role.clone(), Concept::Bottom));
        }
    }

    /// A one-sided numeric bound moved to the next split value past it.
    fn numeric_rule(
        &self,
        property: &Iri,
        datatype: &Iri,
        min: &Option<Bound>,
        max: &Option<Bound>,
    ) -> Option<Concept> {
        let splits = self.splits.get(property).map(Vec::as_slice).unwrap_or(&[]);
        let (min, max) = match (min, max) {
            (Some(b), None) => next_above(splits, b.value).map(|v| (Some(with(b, v)), None)),
            (None, Some(b)) => next_below(splits, b.value).map(|v| (None, Some(with(b, v)))),
            _ => None,
        }?;
        Some(Concept::Data {
            property: property.clone(),
            range: DataRange::Numeric {
                datatype: datatype.clone(),
                min,
                max,
            },
        })
    }

    /// `c ⊓ D` for D ∈ ρ(⊤) in c's context (the context plus c's named classes), except for
    /// ⊤, ⊥ and `∀r.⊥` (as RhoDRDown). Skips D = `∀r.E` when c already has a `∀r` conjunct
    /// (`∀r.E ⊓ ∀r.F` is `∀r.(E ⊓ F)`, reached by refining the filler) and a numeric bound
    /// on a property c already bounds the same way (one of the two is redundant).
    fn append(&self, c: &Concept, ctx: &Ctx, max_len: usize, out: &mut Vec<Concept>) {
        if matches!(c, Concept::Bottom | Concept::Top)
            || matches!(c, Concept::Only { filler, .. } if **filler == Concept::Bottom)
        {
            return;
        }
        let Some(budget) = max_len.checked_sub(length(c) + 1).filter(|b| *b >= 1) else {
            return;
        };
        let conjuncts: Vec<&Concept> = match c {
            Concept::And(ops) => ops.iter().collect(),
            other => vec![other],
        };
        let ctx = if self.options.domain_range_aware {
            let named = conjuncts.iter().filter_map(|op| match op {
                Concept::Class(a) => Some(a.clone()),
                _ => None,
            });
            self.view.context_of(ctx.iter().cloned().chain(named))
        } else {
            Ctx::new()
        };
        for d in self.top_refinements(&ctx, budget).iter() {
            if conjuncts.iter().any(|op| redundant_pair(op, d)) {
                continue;
            }
            out.push(Concept::And(vec![c.clone(), d.clone()]));
        }
    }

    /// A normal candidate is kept: not ⊤/⊥, fits the length, not empty by the hierarchy or
    /// (if pruning) by declared disjointness, and without a redundant conjunct.
    pub(crate) fn acceptable(&self, d: &Concept, max_len: usize) -> bool {
        !matches!(d, Concept::Top | Concept::Bottom)
            && length(d) <= max_len
            && !self.empty(d)
            && !self.redundant(d)
    }

    /// Some ⊓ (anywhere in `d`) has two class operands one below the other (`A ⊓ B` with
    /// B ⊑ A is just B) or two negated ones (`¬A ⊓ ¬B` with B ⊑ A is just ¬A): an equivalent,
    /// shorter concept exists, reached by the class rules. This arises when ρ(⊤) in a
    /// filler's context (subclasses of the range) is appended to a class.
    pub(crate) fn redundant(&self, d: &Concept) -> bool {
        let v = &self.view;
        match d {
            Concept::And(ops) => {
                let named = |neg: bool| -> Vec<&crate::concept::Iri> {
                    ops.iter()
                        .filter_map(|op| match (op, neg) {
                            (Concept::Class(a), false) => Some(a),
                            (Concept::Not(inner), true) => match &**inner {
                                Concept::Class(a) => Some(a),
                                _ => None,
                            },
                            _ => None,
                        })
                        .collect()
                };
                let nested = |xs: Vec<&crate::concept::Iri>| {
                    xs.iter().enumerate().any(|(i, a)| {
                        xs[i + 1..].iter().any(|b| {
                            v.classes.is_below_or_eq(a, b) || v.classes.is_below_or_eq(b, a)
                        })
                    })
                };
                nested(named(false))
                    || nested(named(true))
                    || ops.iter().any(|op| self.redundant(op))
            }
            _ => d.children().into_iter().any(|c| self.redundant(c)),
        }
    }

    /// Provably empty: a ⊓ of `A` and `¬B` with A ⊑ B (empty in every semantics here, as
    /// class atoms follow `rdfs:subClassOf*`), or of classes declared disjoint (if pruning;
    /// sound for consistent data), or `∃r.X`/`≥n r.X` with an empty X, or a ⊔ of empties.
    pub(crate) fn empty(&self, d: &Concept) -> bool {
        let v = &self.view;
        let pruning = self.options.disjointness_pruning;
        match d {
            Concept::Bottom => true,
            Concept::Class(a) => pruning && v.classes_disjoint(a, a),
            Concept::And(ops) => {
                let classes: Vec<_> = ops
                    .iter()
                    .filter_map(|op| match op {
                        Concept::Class(a) => Some(a),
                        _ => None,
                    })
                    .collect();
                let negated = ops.iter().filter_map(|op| match op {
                    Concept::Not(inner) => match &**inner {
                        Concept::Class(b) => Some(b),
                        _ => None,
                    },
                    _ => None,
                });
                let mut negated = negated.peekable();
                let below_negated = negated.peek().is_some()
                    && negated.any(|b| classes.iter().any(|a| v.classes.is_below_or_eq(a, b)));
                below_negated
                    || (pruning
                        && classes.iter().enumerate().any(|(i, a)| {
                            classes[i + 1..].iter().any(|b| v.classes_disjoint(a, b))
                        }))
                    || ops.iter().any(|op| self.empty(op))
            }
            Concept::Or(ops) => ops.iter().all(|op| self.empty(op)),
            Concept::Some { filler, .. }
            | Concept::Min { filler, .. }
            | Concept::Exactly { filler, .. } => self.empty(filler),
            _ => false,
        }
    }
}

fn role_len(role: &Role) -> usize {
    if role.inverse { 2 } else { 1 }
}

fn with(b: &Bound, value: crate::concept::Number) -> Bound {
    Bound {
        value,
        inclusive: b.inclusive,
    }
}

/// `d` appended to a conjunct `op` would be redundant (see [`Rho::append`]).
fn redundant_pair(op: &Concept, d: &Concept) -> bool {
    match (op, d) {
        (Concept::Only { role: r1, .. }, Concept::Only { role: r2, .. }) => r1 == r2,
        (
            Concept::Data {
                property: p1,
                range:
                    DataRange::Numeric {
                        min: lo1, max: hi1, ..
                    },
            },
            Concept::Data {
                property: p2,
                range:
                    DataRange::Numeric {
                        min: lo2, max: hi2, ..
                    },
            },
        ) => p1 == p2 && ((lo1.is_some() && lo2.is_some()) || (hi1.is_some() && hi2.is_some())),
        _ => false,
    }
}

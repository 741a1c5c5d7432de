//! ρ(⊤) per context: the set M of most general "building blocks" and their disjunctions,
//! cached per (context, length limit).

use std::collections::BTreeSet;
use std::sync::Arc;

use crate::concept::{Bound, Concept, DataRange, Iri, Literal, Role, length, normalize, vocab};

use super::Rho;
use super::view::Ctx;

impl Rho {
    /// ρ(⊤) in `ctx` up to `max_len`, sorted by (length, `Ord`). Cached: the ⊓-append asks
    /// for it at every node.
    pub(crate) fn top_refinements(&self, ctx: &Ctx, max_len: usize) -> Arc<Vec<Concept>> {
        self.top_cache
            .get_or(ctx, max_len, || self.compute_top(ctx, max_len))
    }

    /// ρ(⊤) = M ∪ disjunctions of M ∪ {∀r.E | E ∈ ρ(⊤) in range(r)}. The last part stands in
    /// for RhoDRDown's `∀r.⊤` ∈ M, which the normal form makes ⊤ (so it could not be a node):
    /// every refinement of `∀r.⊤` is offered at once. Inside disjunctions only `∀r.E` with
    /// E ∈ M appear (see [`Rho::m_set`]), which keeps ρ(⊤) polynomial in M.
    fn compute_top(&self, ctx: &Ctx, max_len: usize) -> Vec<Concept> {
        let m = self.m_set(ctx, max_len);
        let mut out: BTreeSet<Concept> = m.iter().map(|(_, c)| c.clone()).collect();
        if self.options.use_all {
            for role in self.antitone_roles(ctx) {
                let role_len = if role.inverse { 2 } else { 1 };
                if max_len >= role_len + 2 {
                    let range = self.range_ctx(&role);
                    for e in self.top_refinements(&range, max_len - role_len - 1).iter() {
                        let d = normalize(&Concept::only(role.clone(), e.clone()));
                        if self.acceptable(&d, max_len) {
                            out.insert(d);
                        }
                    }
                }
            }
        }
        if self.options.use_disjunction {
            let mut picked = Vec::new();
            self.disjunctions(&m, 0, &mut picked, 0, max_len, &mut out);
        }
        let mut v: Vec<Concept> = out.into_iter().collect();
        v.sort_by(|a, b| length(a).cmp(&length(b)).then_with(|| a.cmp(b)));
        v
    }

    /// Every disjunction of ≥ 2 distinct M elements (taken in M's order, so each set once)
    /// whose length fits. `m` is sorted by length, so a too-long element ends the scan.
    fn disjunctions<'a>(
        &self,
        m: &'a [(usize, Concept)],
        start: usize,
        picked: &mut Vec<&'a Concept>,
        picked_len: usize,
        max_len: usize,
        out: &mut BTreeSet<Concept>,
    ) {
        for i in start..m.len() {
            let (l, c) = &m[i];
            let total = if picked.is_empty() {
                *l
            } else {
                picked_len + l + 1
            };
            if total > max_len {
                break;
            }
            picked.push(c);
            if picked.len() >= 2 {
                let d = normalize(&Concept::Or(picked.iter().map(|c| (*c).clone()).collect()));
                if self.acceptable(&d, max_len) {
                    out.insert(d);
                }
            }
            self.disjunctions(m, i + 1, picked, total, max_len, out);
            picked.pop();
        }
    }

    /// M in `ctx`, cached: normal, deduplicated, each of length ≤ `max_len`, sorted by length.
    /// Here `∀r.⊤` is represented by `∀r.E` for E ∈ M in range(r).
    pub(crate) fn m_set(&self, ctx: &Ctx, max_len: usize) -> Arc<Vec<(usize, Concept)>> {
        self.m_cache
            .get_or(ctx, max_len, || self.compute_m(ctx, max_len))
    }

    fn compute_m(&self, ctx: &Ctx, max_len: usize) -> Vec<(usize, Concept)> {
        let o = &self.options;
        let mut m: Vec<Concept> = Vec::new();
        m.extend(self.class_candidates(ctx).into_iter().map(Concept::Class));
        if o.use_negation {
            m.extend(
                self.negated_candidates(ctx)
                    .into_iter()
                    .map(|b| Concept::not(Concept::Class(b))),
            );
        }
        for role in self.antitone_roles(ctx) {
            let role_len = if role.inverse { 2 } else { 1 };
            if o.use_all && max_len >= role_len + 2 {
                let range = self.range_ctx(&role);
                for (_, e) in self.m_set(&range, max_len - role_len - 1).iter() {
                    m.push(Concept::only(role.clone(), e.clone()));
                }
            }
            if o.use_cardinality {
                let k = self.max_fillers(&role);
                if k >= 1 {
                    m.push(Concept::max(k - 1, role.clone(), Concept::Top));
                }
            }
        }
        for role in self.general_roles(ctx) {
            if o.use_exists {
                m.push(Concept::some(role.clone(), Concept::Top));
            }
            if o.use_self {
                m.push(Concept::HasSelf(role.clone()));
            }
            if o.use_has_value && !role.inverse {
                for a in self.has_value.get(&role.property).into_iter().flatten() {
                    m.push(Concept::HasValue {
                        role: role.clone(),
                        individual: a.clone(),
                    });
                }
            }
        }
        if o.use_boolean_data {
            for b in &self.view.booleans {
                if self.domain_fits(&b.domain, ctx) {
                    for v in &b.values {
                        m.push(Concept::Data {
                            property: b.property.clone(),
                            range: DataRange::Value(Literal::boolean(*v)),
                        });
                    }
                }
            }
        }
        if o.use_numeric_data {
            for (p, splits) in &self.splits {
                let (datatype, fits) = match self.view.numeric.get(p) {
                    Some(n) => (n.datatype.clone(), self.domain_fits(&n.domain, ctx)),
                    None => (Iri::new(vocab::XSD_DOUBLE), true),
                };
                if fits && o.every_split_in_top {
                    for s in splits {
                        m.push(numeric(p, &datatype, Some(*s), None));
                        m.push(numeric(p, &datatype, None, Some(*s)));
                    }
                } else if let (true, Some(lo), Some(hi)) = (fits, splits.first(), splits.last()) {
                    m.push(numeric(p, &datatype, Some(*lo), None));
                    m.push(numeric(p, &datatype, None, Some(*hi)));
                }
            }
        }
        let set: BTreeSet<Concept> = m
            .iter()
            .map(normalize)
            .filter(|c| self.acceptable(c, max_len))
            .collect();
        let mut v: Vec<(usize, Concept)> = set.into_iter().map(|c| (length(&c), c)).collect();
        v.sort();
        v
    }

    /// The most general classes that say something in `ctx`: descend from the roots past
    /// classes above the context (they add nothing), skip those declared disjoint with it
    /// (RhoDRDown's `getClassCandidates`).
    pub(crate) fn class_candidates(&self, ctx: &Ctx) -> BTreeSet<Iri> {
        let mut out = BTreeSet::new();
        let mut seen = BTreeSet::new();
        let mut todo: Vec<Iri> = self.view.classes.roots().cloned().collect();
        while let Some(c) = todo.pop() {
            if !seen.insert(c.clone()) || self.pruned_by_ctx(&c, ctx) {
                continue;
            }
            if self.view.ctx_below(ctx, &c) {
                todo.extend(self.view.classes.direct_down(&c).cloned());
            } else {
                out.insert(c);
            }
        }
        out
    }

    /// The B of `¬B` in M: the most specific classes, except that a class the context lies
    /// below is skipped (`¬B` would empty it) and one disjoint with the context is replaced
    /// by its superclasses (`¬B` would add nothing) (RhoDRDown's `getNegClassCandidates`).
    pub(crate) fn negated_candidates(&self, ctx: &Ctx) -> BTreeSet<Iri> {
        let mut out = BTreeSet::new();
        let mut seen = BTreeSet::new();
        let mut todo: Vec<Iri> = self.view.classes.leaves().cloned().collect();
        while let Some(b) = todo.pop() {
            if !seen.insert(b.clone()) || self.view.ctx_below(ctx, &b) {
                continue;
            }
            if self.pruned_by_ctx(&b, ctx) {
                todo.extend(self.view.classes.direct_up(&b).cloned());
            } else {
                out.insert(b);
            }
        }
        out
    }

    /// The most general roles usable in `ctx`: the top of the role hierarchy (and its
    /// inverses if enabled), descending past roles whose domain is disjoint with `ctx`.
    pub(crate) fn general_roles(&self, ctx: &Ctx) -> Vec<Role> {
        let mut out = BTreeSet::new();
        self.walk_roles(|r| {
            let fits = self.domain_fits(&self.view.domain(r), ctx);
            if fits {
                out.insert(r.clone());
            }
            !fits
        });
        out.into_iter().collect()
    }

    /// The roles `∀` and `≤n` start from in `ctx`: every role usable there (and its inverse
    /// if enabled), not only the most general ones as for `∃`. Both are antitone in the role,
    /// so ρ reaches `∀r.D` from a sub-role's `∀s.D` by climbing, never the other way; and
    /// climbing alone is not enough, since a filler can be trivial in the sub-role's range
    /// (`∀hasChild.Male` has no counterpart under `hasSon` with range `Male`).
    pub(crate) fn antitone_roles(&self, ctx: &Ctx) -> Vec<Role> {
        let mut out = BTreeSet::new();
        self.walk_roles(|r| {
            if self.domain_fits(&self.view.domain(r), ctx) {
                out.insert(r.clone());
            }
            true
        });
        out.into_iter().collect()
    }

    /// Visits each role once, from the roots of the role hierarchy (and their inverses if
    /// enabled) down to the sub-roles of those for which `visit` returns true.
    fn walk_roles(&self, mut visit: impl FnMut(&Role) -> bool) {
        let mut seen = BTreeSet::new();
        let mut todo: Vec<Role> = Vec::new();
        for p in self.view.roles.roots() {
            todo.push(Role::new(p.clone()));
            if self.options.use_inverse {
                todo.push(Role::inverse_of(p.clone()));
            }
        }
        while let Some(r) = todo.pop() {
            if seen.insert(r.clone()) && visit(&r) {
                todo.extend(self.view.sub_roles(&r));
            }
        }
    }

    /// A class is left out in `ctx` because declared disjointness empties it there.
    fn pruned_by_ctx(&self, c: &Iri, ctx: &Ctx) -> bool {
        self.options.disjointness_pruning && self.view.disjoint_with_ctx(c, ctx)
    }

    /// Something with this domain may hold in `ctx`.
    pub(crate) fn domain_fits(&self, domain: &Ctx, ctx: &Ctx) -> bool {
        !self.options.domain_range_aware
            || !self.options.disjointness_pruning
            || !self.view.contexts_disjoint(domain, ctx)
    }

    /// The context a filler of `role` is refined in.
    pub(crate) fn range_ctx(&self, role: &Role) -> Ctx {
        if self.options.domain_range_aware {
            self.view.range(role)
        } else {
            Ctx::new()
        }
    }

    /// Most fillers worth counting: 1 for a functional role, else the cardinality limit.
    pub(crate) fn max_fillers(&self, role: &Role) -> u32 {
        if self.view.functional(role) {
            1.min(self.options.cardinality_limit)
        } else {
            self.options.cardinality_limit
        }
    }
}

/// `∃p.[≥ lo]` or `∃p.[≤ hi]` (inclusive bounds, as RhoDRDown's min/max-inclusive facets).
pub(crate) fn numeric(
    p: &Iri,
    datatype: &Iri,
    lo: Option<crate::concept::Number>,
    hi: Option<crate::concept::Number>,
) -> Concept {
    let bound = |v| Bound {
        value: v,
        inclusive: true,
    };
    Concept::Data {
        property: p.clone(),
        range: DataRange::Numeric {
            datatype: datatype.clone(),
            min: lo.map(bound),
            max: hi.map(bound),
        },
    }
}

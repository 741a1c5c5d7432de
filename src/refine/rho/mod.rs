//! ρ, the downward refinement operator of Lehmann & Hitzler ("Concept learning in description
//! logics using refinement operators", 2010) in the form DL-Learner's `RhoDRDown` gives it,
//! as CELOE uses it. It reads only the [`Signature`] (and split values and has-value
//! candidates given up front), never the oracle.
//!
//! Every rule is downward in the crate's closed-world semantics (each refinement's instances
//! are a subset of its parent's; `tests/refine_props.rs` checks it on real data):
//!
//! * ⊤ → the elements of M (in the context) and their disjunctions (`top.rs`): the most
//!   general classes, ¬(most specific classes), `∃r.⊤` for the most general roles, `∀r.E` for
//!   every role and E ∈ ρ(⊤) in range(r) (standing in for `∀r.⊤`, which the normal form
//!   turns into ⊤), `≤(k−1) r.⊤` for every role with k the role's filler limit, booleans `∃p.{true}`/`∃p.{false}`, numeric
//!   `∃p.[≥ s₁]`/`∃p.[≤ sₙ]` at the smallest/largest split, and, if enabled, `∃r.Self`, `∃r.{a}`.
//! * per constructor (`rules.rs`): `A` → direct subclasses; `¬A` → ¬(direct superclasses);
//!   `∃r.D` → `∃r.ρ(D)`, `∃s.D` (direct sub-roles), `≥2 r.D`, `∃r.{a}` (D = ⊤); `∀r.D` →
//!   `∀r.ρ(D)`, `∀s.D` (direct **super**-roles: more successors, so fewer instances), `∀r.⊥`
//!   (D a most specific class); `≥n r.D` → `≥n r.ρ(D)`, `≥(n+1) r.D`; `≤n r.D` → `≤(n−1) r.D`,
//!   `≤n s.D` (direct super-roles);
//!   numeric bounds move to the next split; ⊓ and ⊔ refine one operand; any C other than
//!   ⊤, ⊥, ∀r.⊥ also gets `C ⊓ D`, D ∈ ρ(⊤) in C's context.
//!
//! Results are normalised ([`normalize`]), deduplicated, never the input, never ⊥, never
//! empty by the class hierarchy (`A ⊓ ¬B` with A ⊑ B) or by declared disjointness (if
//! pruning is on), and sorted by (length, derived `Ord`).
//!
//! Where this differs from `RhoDRDown`, and why:
//!
//! * `∀r.⊤` is not an element of M: the normal form makes it ⊤, so it could not be a search
//!   node. ρ(⊤) offers its refinements `∀r.E` (E ∈ ρ(⊤) in range(r)) directly; inside
//!   disjunctions only `∀r.E` with E ∈ M, which keeps ρ(⊤) polynomial in |M|.
//! * `∀r.D → ∀s.D` uses direct super-roles, as the paper does; a sub-role step would be
//!   upward (`tests/refine_props.rs` shows a counterexample on the family fixture). So M holds
//!   `∀` and `≤n` on every role, where RhoDRDown has them on the most general ones as for
//!   `∃`: with the step upward only, `∀s.D` would be unreachable for a sub-role `s` (UOBM's
//!   `∀hasUndergraduateDegreeFrom.⊥` under `hasDegreeFrom`). `∀r.⊥` climbs too.
//! * ρ never reads the data, so the filler limit k of a role is `cardinality_limit` (1 for a
//!   functional role) where RhoDRDown takes min(observed maximum, limit): M holds
//!   `≤(k−1) r.⊤` (`≤0 r.⊤` = `∀r.⊥`), `≥n r.D` grows up to k, and `≥2 r.D` is never offered
//!   for a functional role.
//! * `∀r.⊥` is offered for a filler that is a class without subclasses (the paper's
//!   condition), not whenever the filler happens to have no refinement within the length.
//! * Equivalent classes (and properties) are one: the smallest IRI stands for the group.
//! * The conjunct appended to C is drawn from ρ(⊤) in C's context *plus C's named classes*
//!   (RhoDRDown uses the context alone), so `Male ⊓ Female` (disjoint) and `Male ⊓ Person`
//!   (adds nothing) are not generated; ⊓s with one class below another are dropped.
//! * Not done (as RhoDRDown's defaults): dropping disjuncts, upward refinement of `≤n`
//!   fillers, the data-property hierarchy (every boolean/numeric property is offered where
//!   its domain fits). `=n`, `{a}`, `∃r.{a}`, `∃r.Self` and other data ranges only get the
//!   ⊓-append.
//!
//! Pruning by declared disjointness and by domains/ranges only leaves refinements out; it
//! never makes a step non-downward. In closed-world data that breaks the schema (an
//! individual typed Male and Female, a `hasChild` successor not typed Person), the pruned
//! concepts may have instances: that is a loss of completeness, turned off with
//! `disjointness_pruning: false` / `domain_range_aware: false`.

mod admits;
mod cache;
mod options;
mod poset;
mod rules;
mod split_points;
mod top;
mod view;

#[cfg(test)]
mod tests;

use std::collections::BTreeMap;
use std::sync::Arc;

use crate::concept::{Concept, Iri, Number, length, normalize};
use crate::oracle::Signature;

use super::Refinement;

pub use options::RhoOptions;
pub use split_points::numeric_split_points;

use cache::PerContext;
use view::{Ctx, SigView};

/// The refinement operator. `Send + Sync`; share it by reference. The refinements of ⊤ per
/// (context, length) are cached inside, so repeated calls are cheap.
pub struct Rho {
    signature: Arc<Signature>,
    options: RhoOptions,
    view: SigView,
    splits: BTreeMap<Iri, Vec<Number>>,
    has_value: BTreeMap<Iri, Vec<Iri>>,
    top_cache: PerContext<Vec<Concept>>,
    m_cache: PerContext<Vec<(usize, Concept)>>,
}

impl Rho {
    pub fn new(signature: Arc<Signature>, options: RhoOptions) -> Self {
        let view = SigView::new(&signature);
        Rho {
            signature,
            options,
            view,
            splits: BTreeMap::new(),
            has_value: BTreeMap::new(),
            top_cache: PerContext::default(),
            m_cache: PerContext::default(),
        }
    }

    /// Adds split values beyond `max_numeric_splits` (the examples' boundaries, see
    /// `learn::splits::example_boundary_splits`): they are few and each one matters.
    pub fn with_extra_numeric_splits(mut self, extra: BTreeMap<Iri, Vec<Number>>) -> Self {
        for (p, values) in extra {
            let v = self.splits.entry(p).or_default();
            v.extend(values);
            v.sort();
            v.dedup();
        }
        self.clear_cache();
        self
    }

    /// Numeric split values per data property, computed by the caller from data
    /// (`oracle.data_values`, then [`numeric_split_points`]); ρ never asks the oracle. Values
    /// are sorted and deduplicated; more than `max_numeric_splits` are thinned evenly.
    pub fn with_numeric_splits(mut self, splits: BTreeMap<Iri, Vec<Number>>) -> Self {
        let max = self.options.max_numeric_splits;
        self.splits = splits
            .into_iter()
            .map(|(p, mut v)| {
                v.sort();
                v.dedup();
                if v.len() > max {
                    let n = v.len();
                    v = (0..max).map(|j| v[((2 * j + 1) * n) / (2 * max)]).collect();
                }
                (p, v)
            })
            .filter(|(_, v)| !v.is_empty())
            .collect();
        self.clear_cache();
        self
    }

    /// Candidate individuals for `∃r.{a}` per object property, when `use_has_value` is on.
    pub fn with_has_value_candidates(mut self, values: BTreeMap<Iri, Vec<Iri>>) -> Self {
        self.has_value = values
            .into_iter()
            .map(|(p, mut v)| {
                v.sort();
                v.dedup();
                (p, v)
            })
            .collect();
        self.clear_cache();
        self
    }

    /// The operator without the named classes `hidden` (and, through them, nothing else):
    /// no refinement names one, and their subclasses take their place below their
    /// superclasses. Class learning hides the class it describes and its equivalents, so
    /// the definition found is not the class itself.
    pub fn hide_classes(&mut self, hidden: &std::collections::BTreeSet<Iri>) {
        self.view = SigView::without(&self.signature, hidden);
        self.clear_cache();
    }

    pub fn options(&self) -> &RhoOptions {
        &self.options
    }

    pub fn signature(&self) -> &Signature {
        &self.signature
    }

    fn clear_cache(&mut self) {
        self.top_cache = PerContext::default();
        self.m_cache = PerContext::default();
    }
}

/// Options and sizes only (the caches are not worth printing).
impl std::fmt::Debug for Rho {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Rho")
            .field("options", &self.options)
            .field("numeric_split_properties", &self.splits.len())
            .field("has_value_properties", &self.has_value.len())
            .finish_non_exhaustive()
    }
}

impl Refinement for Rho {
    /// All downward refinements of `c` (normalised first) of length ≤ `max_len`, at the root
    /// context ⊤.
    fn refine(&self, c: &Concept, max_len: usize) -> Vec<Concept> {
        let c = normalize(c);
        let mut out: Vec<Concept> = self
            .refine_in(&c, &Ctx::new(), max_len)
            .into_iter()
            .collect();
        out.sort_by(|a, b| length(a).cmp(&length(b)).then_with(|| a.cmp(b)));
        out
    }

    /// Classes the view keeps (not hidden), and ⊓, ⊔ (if enabled), ∃ (if enabled) over
    /// forward roles of the signature, in normal form, not provably empty (see `admits.rs`).
    fn admits(&self, c: &Concept) -> bool {
        self.admits_concept(c)
    }
}

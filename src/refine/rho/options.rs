//! What ρ may construct. Defaults follow DL-Learner's `RhoDRDown` as CELOE uses it.
//!
//! `every_split_in_top`: DL-Learner's M holds only `∃p.[≥ lowest]` and `∃p.[≤ highest]`,
//! refined one split value at a time. Each step is a node expansion, and the steps that
//! change nothing on the examples keep the parent's quality, so a best-first search rarely
//! walks a chain of twenty. With every split value in M a threshold is one refinement away.

/// Switches and limits of the refinement operator. `Default` gives DL-Learner's CELOE setup:
/// negation, ∀, ∃, cardinalities (limit 5), boolean and numeric data (12 splits) and
/// disjunction on (and, not in DL-Learner, the examples' boundary splits and every split
/// value in ρ(⊤)); has-value, inverse roles and Self off; disjointness pruning and
/// domain/range awareness on.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RhoOptions {
    /// `¬A` for the most specific classes A.
    pub use_negation: bool,
    /// `∀r.C`.
    pub use_all: bool,
    /// `∃r.C`.
    pub use_exists: bool,
    /// `≥n r.C` and `≤n r.C`.
    pub use_cardinality: bool,
    /// Largest number of fillers counted (`≥n` grows to it, `≤(limit−1) r.⊤` starts below it).
    pub cardinality_limit: u32,
    /// `∃p.{true}` / `∃p.{false}` for boolean data properties.
    pub use_boolean_data: bool,
    /// `∃p.[≥ v]` / `∃p.[≤ v]` at split values (see [`super::Rho::with_numeric_splits`]).
    pub use_numeric_data: bool,
    /// Most split values kept per numeric property (evenly spaced over its values).
    pub max_numeric_splits: usize,
    /// Also split between the examples' least and greatest values along each role
    /// (`learn::splits::example_boundary_splits`, at most `MAX_EXAMPLE_SPLITS`); used where
    /// the operator is built for given examples (`splits::rho_over_examples`).
    pub use_example_splits: bool,
    /// ρ(⊤) offers `∃p.[≥ v]` and `∃p.[≤ v]` at every split value, not only the widest
    /// (DL-Learner's M), so a threshold that matters is one test away instead of a chain of
    /// refinements that each change nothing on the examples.
    pub every_split_in_top: bool,
    /// `∃r.{a}` for the candidates given with [`super::Rho::with_has_value_candidates`].
    pub use_has_value: bool,
    /// Inverse roles `r⁻` among the most general roles.
    pub use_inverse: bool,
    /// `∃r.Self`.
    pub use_self: bool,
    /// Disjunctions of the refinements of ⊤.
    pub use_disjunction: bool,
    /// Drop refinements that declared disjointness makes empty (`A ⊓ B` with `A`, `B` disjoint).
    pub disjointness_pruning: bool,
    /// Refine fillers within range(r), offer roles only where their domain fits.
    pub domain_range_aware: bool,
}

impl Default for RhoOptions {
    fn default() -> Self {
        RhoOptions {
            use_negation: true,
            use_all: true,
            use_exists: true,
            use_cardinality: true,
            cardinality_limit: 5,
            use_boolean_data: true,
            use_numeric_data: true,
            max_numeric_splits: 12,
            use_example_splits: true,
            every_split_in_top: true,
            use_has_value: false,
            use_inverse: false,
            use_self: false,
            use_disjunction: true,
            disjointness_pruning: true,
            domain_range_aware: true,
        }
    }
}

impl RhoOptions {
    /// The paper's TBC feature language: only ⊓, ⊔, ¬, ∃ (no ∀, cardinalities, data).
    pub fn boolean_existential() -> Self {
        RhoOptions {
            use_all: false,
            use_cardinality: false,
            use_boolean_data: false,
            use_numeric_data: false,
            ..RhoOptions::default()
        }
    }
}

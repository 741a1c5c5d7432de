//! Refinement and concept generation over a signature (never the oracle).

pub mod random;
pub mod rho;

use crate::concept::Concept;

/// A downward refinement operator, as the search-based learners use it.
///
/// Implementations read only the signature (and values given to them up front, such as
/// numeric split points), never the oracle, so a learner can swap operators freely.
pub trait Refinement: Send + Sync {
    /// The refinements of `c` whose length is at most `max_len`, in normal form, without
    /// duplicates, in a deterministic order. Shorter refinements may be included again at
    /// every call: callers that grow `max_len` filter by length themselves.
    fn refine(&self, c: &Concept, max_len: usize) -> Vec<Concept>;

    /// `c` is in the operator's language: its classes, roles and constructors are ones the
    /// operator may use (a class it hides is not). Learners propose concepts built from the
    /// data (`learn::search::neighbourhood`) only where this holds. The default, false,
    /// suits operators that cannot tell (wrappers that filter refinements): nothing beyond
    /// their own refinements is proposed then.
    fn admits(&self, _c: &Concept) -> bool {
        false
    }
}

//! The membership oracle: which examples does a class expression cover?
//!
//! Learners only see [`MembershipOracle`]. [`SparqlOracle`] compiles concepts to SPARQL and
//! runs them on a [`backend::SparqlBackend`] (an embedded Oxigraph store, or a SPARQL 1.1
//! endpoint over HTTP); [`Cached`] memoises answers under the concept's normal form and composes `⊓`, `⊔`
//! and `¬` locally from cached parts; [`reference::ReferenceOracle`] evaluates the same
//! semantics directly over an in-memory graph, for tests.

pub mod backend;
mod cached;
pub mod datatypes;
mod error;
mod individuals;
pub mod reference;
mod schema;
pub mod sparql;
mod sparql_oracle;
mod stats;
mod successors;

pub use cached::{CacheOptions, Cached};
pub use error::{BudgetExhausted, OracleError};
pub use individuals::{IndividualId, IndividualSet};
pub use schema::*;
pub use sparql_oracle::{OracleOptions, SparqlOracle};
pub use stats::{OracleStats, StatsCounter};
pub use successors::Successors;

use rayon::prelude::*;

use crate::concept::{Concept, Iri, Literal, Role};

/// Which semantics a caller wants membership under.
/// (`--semantics` on the command line: the `help` texts below are its help.)
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default, serde::Serialize)]
#[cfg_attr(feature = "cli", derive(clap::ValueEnum))]
#[serde(rename_all = "lowercase")]
pub enum Semantics {
    /// Closed world over the data graph (the default): anything not derivable is false.
    #[default]
    #[cfg_attr(feature = "cli", value(help = "Closed world over the data (default)"))]
    Closed,
    /// Three-valued, sound approximation of entailment (members are `T(C)`).
    #[cfg_attr(
        feature = "cli",
        value(help = "Three-valued open world: provable members only")
    )]
    Open,
}

/// The three-valued answer: provable members, provable non-members; the rest is unknown.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TruthSets {
    pub true_set: IndividualSet,
    pub false_set: IndividualSet,
}

impl TruthSets {
    /// Individuals of `among` that are neither provably in nor provably out.
    pub fn unknown(&self, among: &IndividualSet) -> IndividualSet {
        among.difference(&self.true_set).difference(&self.false_set)
    }

    /// `T(¬C) = F(C)`, `F(¬C) = T(C)`.
    pub fn negated(&self) -> TruthSets {
        TruthSets {
            true_set: self.false_set.clone(),
            false_set: self.true_set.clone(),
        }
    }
}

/// What learners ask. Implementations must be callable from many threads at once.
pub trait MembershipOracle: Send + Sync {
    fn signature(&self) -> &Signature;

    /// Which of `among` are instances of `c` (closed world).
    fn covered(&self, c: &Concept, among: &IndividualSet) -> Result<IndividualSet, OracleError>;

    /// Three-valued membership of `among` in `c` (open world, sound approximation).
    fn truth(&self, c: &Concept, among: &IndividualSet) -> Result<TruthSets, OracleError>;

    /// Literal values of a data property (and its sub-properties) for `among`, sorted.
    fn data_values(
        &self,
        property: &Iri,
        among: &IndividualSet,
    ) -> Result<Vec<(IndividualId, Literal)>, OracleError>;

    fn stats(&self) -> OracleStats;

    /// Sets (or, with `None`, clears) the deadline of the current run: queries still unanswered
    /// then fail with [`OracleError::BudgetExhausted`] instead of overrunning the budget, and
    /// remote requests get at most the time that is left. Oracles without a backend ignore it.
    fn set_deadline(&self, _deadline: Option<std::time::Instant>) {}

    /// The successors of `among` along `role` (with the role's full expansion), if this
    /// oracle can list them and every successor is an individual of the active domain;
    /// `None` otherwise (callers then ask about each restriction instead).
    fn successors(
        &self,
        _role: &Role,
        _among: &IndividualSet,
    ) -> Result<Option<Successors>, OracleError> {
        Ok(None)
    }

    /// Members under the chosen semantics (`T(C)` in open-world mode).
    fn members(
        &self,
        c: &Concept,
        among: &IndividualSet,
        semantics: Semantics,
    ) -> Result<IndividualSet, OracleError> {
        match semantics {
            Semantics::Closed => self.covered(c, among),
            Semantics::Open => Ok(self.truth(c, among)?.true_set),
        }
    }

    /// Scores a batch in parallel (rayon); answers are in input order, so results do not
    /// depend on thread timing.
    fn covered_batch(
        &self,
        concepts: &[Concept],
        among: &IndividualSet,
    ) -> Vec<Result<IndividualSet, OracleError>> {
        concepts
            .par_iter()
            .map(|c| self.covered(c, among))
            .collect()
    }
}

/// A borrowed oracle is an oracle (so a cache can wrap an oracle owned elsewhere).
impl<T: MembershipOracle + ?Sized> MembershipOracle for &T {
    fn signature(&self) -> &Signature {
        (**self).signature()
    }

    fn covered(&self, c: &Concept, among: &IndividualSet) -> Result<IndividualSet, OracleError> {
        (**self).covered(c, among)
    }

    fn truth(&self, c: &Concept, among: &IndividualSet) -> Result<TruthSets, OracleError> {
        (**self).truth(c, among)
    }

    fn data_values(
        &self,
        property: &Iri,
        among: &IndividualSet,
    ) -> Result<Vec<(IndividualId, Literal)>, OracleError> {
        (**self).data_values(property, among)
    }

    fn stats(&self) -> OracleStats {
        (**self).stats()
    }

    fn set_deadline(&self, deadline: Option<std::time::Instant>) {
        (**self).set_deadline(deadline)
    }

    fn successors(
        &self,
        role: &Role,
        among: &IndividualSet,
    ) -> Result<Option<Successors>, OracleError> {
        (**self).successors(role, among)
    }

    fn covered_batch(
        &self,
        concepts: &[Concept],
        among: &IndividualSet,
    ) -> Vec<Result<IndividualSet, OracleError>> {
        (**self).covered_batch(concepts, among)
    }
}

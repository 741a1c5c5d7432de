//! Where queries run: the SPARQL seam between the oracle and a store.
//!
//! The oracle builds `spargebra` algebra and hands it to a [`SparqlBackend`]; only the backend
//! knows whether the store is an embedded Oxigraph `Store` or a remote endpoint. The remote
//! one (`HttpBackend`, with `Auth`) is behind the `http` feature; the capability
//! [`probe`] works over any backend.

#[cfg(feature = "http")]
mod auth;
mod deadline;
mod embedded;
mod from_graphs;
#[cfg(feature = "http")]
mod http;
mod log;
#[cfg(feature = "http")]
mod politeness;
mod probe;
#[cfg(feature = "http")]
mod results;
#[cfg(feature = "http")]
mod rewrite;

#[cfg(feature = "http")]
pub use auth::{Auth, AuthFileError};
pub use embedded::EmbeddedBackend;
pub use from_graphs::FromGraphs;
#[cfg(feature = "http")]
pub use http::{HttpBackend, HttpOptions, QueryMethod, ResultsSyntax};
pub use log::QueryLog;
#[cfg(feature = "http")]
pub use politeness::{PUBLIC_DEFAULT, default_for_endpoint, is_local_host};
pub use probe::{Capabilities, check_required, probe, require_capabilities};

use std::time::Duration;

use oxigraph::model::Term;
use spargebra::Query;
use spargebra::term::Variable;

use super::OracleError;

/// What politeness (the delay between request starts of a remote backend) cost a backend so far (see [`crate::oracle::OracleStats::politeness_share`]).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct PolitenessReport {
    /// Time requests spent waiting for their turn (summed over concurrent requests).
    pub waited: Duration,
    /// The delay in force now (the adaptive one, not necessarily the configured floor).
    pub delay: Duration,
}

/// The rows of a SELECT answer, columns in `variables` order (`None` = unbound).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct SolutionTable {
    pub variables: Vec<Variable>,
    pub rows: Vec<Vec<Option<Term>>>,
}

impl SolutionTable {
    /// Index of a column by variable name.
    pub fn column(&self, name: &str) -> Option<usize> {
        self.variables.iter().position(|v| v.as_str() == name)
    }

    /// The values of one column (unbound cells skipped).
    pub fn column_values<'a>(&'a self, name: &str) -> impl Iterator<Item = &'a Term> + 'a {
        let index = self.column(name);
        self.rows
            .iter()
            .filter_map(move |row| index.and_then(|i| row.get(i)).and_then(|t| t.as_ref()))
    }
}

/// A store that answers SPARQL SELECT queries. Implementations must be usable from many
/// threads at once (learners score batches in parallel).
pub trait SparqlBackend: Send + Sync {
    /// Runs a SELECT query and returns all its rows.
    fn select(&self, query: &Query) -> Result<SolutionTable, OracleError>;

    /// A short human-readable name for error messages and statistics ("embedded", a URL…).
    fn name(&self) -> String;

    /// What the capability probe found, once it ran on this backend (remote backends remember
    /// it, so an oracle built over the backend writes the shapes the endpoint answers).
    fn probed(&self) -> Option<Capabilities> {
        None
    }

    /// Keeps the probe's findings (see [`SparqlBackend::probed`]); backends that need no
    /// endpoint-specific shapes ignore them.
    fn remember_probe(&self, _caps: &Capabilities) {}

    /// The run's deadline (see [`crate::oracle::MembershipOracle::set_deadline`]): a query
    /// that cannot start before it fails with `OracleError::BudgetExhausted`, and a remote
    /// request's timeout is cut to what is left. The default ignores it.
    fn set_deadline(&self, _deadline: Option<std::time::Instant>) {}

    /// The graphs queries read as their default graph, when the backend chooses them
    /// (`default-graph-uri`, `FROM`): an update whose `WHERE` must read what queries read
    /// names them with `USING`. `None`: the store's own default graph.
    fn read_graphs(&self) -> Option<Vec<spargebra::term::NamedNode>> {
        None
    }

    /// Time spent waiting for the politeness delay and the delay in force (zero for
    /// backends without one).
    fn politeness(&self) -> PolitenessReport {
        PolitenessReport::default()
    }

    /// The most rows an answer may hold before the endpoint cuts it (`None`: no cap). The
    /// backend pages a capped answer itself, but paging re-runs the query sorted, page by
    /// page; a caller that chooses how much to ask at once (the neighbourhood's triples)
    /// keeps its answers under the cap instead.
    fn row_cap(&self) -> Option<usize> {
        None
    }
}

/// A backend behind a pointer is the backend (boxed for dynamic choice, shared, borrowed).
macro_rules! forwarding_backend {
    ([$($generics:tt)*] $pointer:ty) => {
        impl<$($generics)*> SparqlBackend for $pointer {
            fn select(&self, query: &Query) -> Result<SolutionTable, OracleError> {
                (**self).select(query)
            }

            fn name(&self) -> String {
                (**self).name()
            }

            fn probed(&self) -> Option<Capabilities> {
                (**self).probed()
            }

            fn remember_probe(&self, caps: &Capabilities) {
                (**self).remember_probe(caps)
            }

            fn set_deadline(&self, deadline: Option<std::time::Instant>) {
                (**self).set_deadline(deadline)
            }

            fn read_graphs(&self) -> Option<Vec<spargebra::term::NamedNode>> {
                (**self).read_graphs()
            }

            fn politeness(&self) -> PolitenessReport {
                (**self).politeness()
            }

            fn row_cap(&self) -> Option<usize> {
                (**self).row_cap()
            }
        }
    };
}

forwarding_backend!([B: SparqlBackend + ?Sized] Box<B>);
forwarding_backend!([B: SparqlBackend + ?Sized] std::sync::Arc<B>);
forwarding_backend!(['a, B: SparqlBackend + ?Sized] &'a B);

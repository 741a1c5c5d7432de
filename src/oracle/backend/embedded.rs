//! The embedded backend: queries an `oxigraph::store::Store` in the same process.

use oxigraph::sparql::{QueryResults, SparqlEvaluator};
use oxigraph::store::Store;
use spargebra::Query;

use super::{SolutionTable, SparqlBackend};
use crate::oracle::OracleError;

/// Runs queries on a caller-supplied Oxigraph store (cloning a `Store` is cheap: it is a handle),
/// so an Oxigraph-based platform can embed oxilearn over its own data.
#[derive(Clone)]
pub struct EmbeddedBackend {
    store: Store,
}

impl EmbeddedBackend {
    pub fn new(store: Store) -> Self {
        EmbeddedBackend { store }
    }

    pub fn store(&self) -> &Store {
        &self.store
    }

    fn failure(&self, query: &Query, message: impl ToString) -> OracleError {
        OracleError::Backend {
            backend: self.name(),
            message: message.to_string(),
            query: query.to_string(),
        }
    }
}

impl SparqlBackend for EmbeddedBackend {
    fn select(&self, query: &Query) -> Result<SolutionTable, OracleError> {
        let results = SparqlEvaluator::new()
            .for_query(query.clone())
            .on_store(&self.store)
            .execute()
            .map_err(|e| self.failure(query, e))?;
        // Query results are not `Send`: consume them here, on the thread that ran the query.
        match results {
            QueryResults::Solutions(solutions) => {
                let variables = solutions.variables().to_vec();
                let mut rows = Vec::new();
                for solution in solutions {
                    let solution = solution.map_err(|e| self.failure(query, e))?;
                    rows.push(variables.iter().map(|v| solution.get(v).cloned()).collect());
                }
                Ok(SolutionTable { variables, rows })
            }
            _ => Err(OracleError::UnexpectedAnswer {
                backend: self.name(),
                message: "expected SELECT solutions".into(),
            }),
        }
    }

    fn name(&self) -> String {
        "embedded Oxigraph store".into()
    }
}

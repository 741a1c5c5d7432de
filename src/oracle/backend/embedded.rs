//! The embedded backend: queries an `oxigraph::store::Store` in the same process.

use oxigraph::sparql::{QueryResults, SparqlEvaluator};
use oxigraph::store::Store;
use spargebra::Query;

use super::deadline::DeadlineCell;
use super::{SolutionTable, SparqlBackend};
use crate::oracle::OracleError;

/// Runs queries on a caller-supplied Oxigraph store (cloning a `Store` is cheap: it is a handle),
/// so an Oxigraph-based platform can embed oxilearn over its own data.
///
/// The knowledge base is the store's default graph; when the store holds named graphs (a TriG
/// or N-Quads file, a platform's own graphs) it is the union of all graphs, so data in named
/// graphs is never silently ignored. [`EmbeddedBackend::default_graph_only`] restricts it.
///
/// A deadline ([`SparqlBackend::set_deadline`]) is checked before each query starts: Oxigraph
/// cannot interrupt a query once it runs, so a query started just before the deadline runs to
/// its end (queries here are bounded by the examples; a slow one overruns by its own length).
#[derive(Clone)]
pub struct EmbeddedBackend {
    store: Store,
    union_of_graphs: bool,
    deadline: DeadlineCell,
}

impl EmbeddedBackend {
    pub fn new(store: Store) -> Self {
        let union_of_graphs = store.named_graphs().next().is_some();
        EmbeddedBackend {
            store,
            union_of_graphs,
            deadline: DeadlineCell::default(),
        }
    }

    /// Query only the default graph, whatever named graphs the store holds.
    pub fn default_graph_only(mut self) -> Self {
        self.union_of_graphs = false;
        self
    }

    /// Whether queries see the union of all graphs.
    pub fn uses_union_of_graphs(&self) -> bool {
        self.union_of_graphs
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
        self.deadline.remaining()?;
        let mut prepared = SparqlEvaluator::new().for_query(query.clone());
        if self.union_of_graphs {
            prepared.dataset_mut().set_default_graph_as_union();
        }
        let results = prepared
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

    fn set_deadline(&self, deadline: Option<std::time::Instant>) {
        self.deadline.set(deadline);
    }
}

#[cfg(test)]
mod tests {
    use std::time::{Duration, Instant};

    use super::*;
    use crate::oracle::BudgetExhausted;

    #[test]
    fn no_query_starts_past_the_deadline() {
        let backend = EmbeddedBackend::new(Store::new().unwrap());
        let query = spargebra::SparqlParser::new()
            .parse_query("SELECT ?x WHERE { VALUES ?x { <urn:a> } }")
            .unwrap();
        backend.set_deadline(Some(Instant::now() + Duration::from_secs(60)));
        assert_eq!(backend.select(&query).unwrap().rows.len(), 1);
        backend.set_deadline(Some(Instant::now()));
        let e = backend.select(&query).unwrap_err();
        assert_eq!(e.budget_exhausted(), Some(BudgetExhausted::Deadline));
        backend.set_deadline(None);
        assert!(backend.select(&query).is_ok());
    }
}

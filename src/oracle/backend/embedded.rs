//! The embedded backend: queries an `oxigraph::store::Store` in the same process.

use oxigraph::model::vocab::rdf;
use oxigraph::model::{GraphName, NamedNodeRef, NamedOrBlankNode, QuadRef};
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
/// graphs is never silently ignored, except the graphs of predictions oxilearn wrote
/// (marked `G a oxl:PredictionGraph`, see [`crate::oxl`]): learning on its own output
/// would feed predictions back as facts. [`EmbeddedBackend::including_predictions`] reads
/// them too; [`EmbeddedBackend::default_graph_only`] reads the default graph alone. The
/// graphs are listed when the backend is made: build a new one after writing predictions.
///
/// A deadline ([`SparqlBackend::set_deadline`]) is checked before each query starts: Oxigraph
/// cannot interrupt a query once it runs, so a query started just before the deadline runs to
/// its end (queries here are bounded by the examples; a slow one overruns by its own length).
#[derive(Clone)]
pub struct EmbeddedBackend {
    store: Store,
    graphs: Graphs,
    deadline: DeadlineCell,
    /// Some graph of predictions is left out.
    skipped: bool,
}

/// What queries see as their default graph.
#[derive(Clone, Debug, PartialEq)]
enum Graphs {
    DefaultOnly,
    Union,
    /// The default graph and these named graphs (the others hold predictions).
    Listed(Vec<GraphName>),
}

impl EmbeddedBackend {
    /// Over the default graph and every named graph but those holding oxilearn's predictions.
    pub fn new(store: Store) -> Self {
        let mut kept = vec![GraphName::DefaultGraph];
        let mut skipped = false;
        for graph in store.named_graphs().flatten() {
            if is_prediction_graph(&store, &graph) {
                skipped = true;
            } else {
                kept.push(graph.into());
            }
        }
        // Listed, not the live union: graphs written after this (a run's staging graph)
        // stay unseen.
        let graphs = match kept.len() {
            1 => Graphs::DefaultOnly,
            _ => Graphs::Listed(kept),
        };
        EmbeddedBackend {
            store,
            graphs,
            deadline: DeadlineCell::default(),
            skipped,
        }
    }

    /// Over the union of all graphs, oxilearn's predictions included.
    pub fn including_predictions(store: Store) -> Self {
        let graphs = if store.named_graphs().next().is_some() {
            Graphs::Union
        } else {
            Graphs::DefaultOnly
        };
        EmbeddedBackend {
            store,
            graphs,
            deadline: DeadlineCell::default(),
            skipped: false,
        }
    }

    /// Query only the default graph, whatever named graphs the store holds.
    pub fn default_graph_only(mut self) -> Self {
        self.graphs = Graphs::DefaultOnly;
        self
    }

    /// Whether queries see named graphs besides the default graph.
    pub fn uses_union_of_graphs(&self) -> bool {
        self.graphs != Graphs::DefaultOnly
    }

    /// Whether a graph of oxilearn's predictions is left out of what queries see.
    pub fn skips_predictions(&self) -> bool {
        self.skipped && self.graphs != Graphs::DefaultOnly
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
        // A query that names its own dataset (`FROM`) reads that.
        match &self.graphs {
            _ if query.dataset().is_some() => {}
            Graphs::DefaultOnly => {}
            Graphs::Union => prepared.dataset_mut().set_default_graph_as_union(),
            Graphs::Listed(graphs) => prepared.dataset_mut().set_default_graph(graphs.clone()),
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

/// Whether `graph` carries the marker `graph a oxl:PredictionGraph` (a failed read counts as
/// no: the graph is then read like any other).
pub fn is_prediction_graph(store: &Store, graph: &NamedOrBlankNode) -> bool {
    let NamedOrBlankNode::NamedNode(name) = graph else {
        return false;
    };
    let marker = NamedNodeRef::new_unchecked(crate::oxl::PREDICTION_GRAPH);
    store
        .contains(QuadRef::new(name, rdf::TYPE, marker, name))
        .unwrap_or(false)
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

    /// Subjects typed `urn:C` as the backend sees them.
    fn typed(backend: &EmbeddedBackend) -> Vec<String> {
        let query = spargebra::SparqlParser::new()
            .parse_query("SELECT ?x WHERE { ?x a <urn:C> } ORDER BY ?x")
            .unwrap();
        let mut out: Vec<String> = backend
            .select(&query)
            .unwrap()
            .rows
            .into_iter()
            .map(|r| r[0].as_ref().unwrap().to_string())
            .collect();
        out.sort();
        out
    }

    #[test]
    fn graphs_of_predictions_are_left_out_unless_asked_for() {
        let store = Store::new().unwrap();
        store
            .load_from_slice(
                oxigraph::io::RdfFormat::TriG,
                r#"<urn:a> a <urn:C> .
                   <urn:g1> { <urn:b> a <urn:C> . }
                   <urn:p> { <urn:p> a <https://w3id.org/oxilearn/ns#PredictionGraph> .
                             <urn:c> a <urn:C> . }"#,
            )
            .unwrap();
        let backend = EmbeddedBackend::new(store.clone());
        assert!(backend.skips_predictions());
        assert_eq!(typed(&backend), ["<urn:a>", "<urn:b>"]);
        let all = EmbeddedBackend::including_predictions(store.clone());
        assert!(!all.skips_predictions());
        assert_eq!(typed(&all), ["<urn:a>", "<urn:b>", "<urn:c>"]);
        assert_eq!(typed(&backend.default_graph_only()), ["<urn:a>"]);
        // Without a prediction graph, named graphs are read as before (the union).
        let plain = Store::new().unwrap();
        plain
            .load_from_slice(
                oxigraph::io::RdfFormat::TriG,
                "<urn:g1> { <urn:b> a <urn:C> . }",
            )
            .unwrap();
        let backend = EmbeddedBackend::new(plain);
        assert!(backend.uses_union_of_graphs() && !backend.skips_predictions());
        assert_eq!(typed(&backend), ["<urn:b>"]);
    }
}

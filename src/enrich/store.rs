//! Writing into an Oxigraph store: the target's state, and the store as an [`UpdateTarget`].

use oxigraph::model::vocab::rdf;
use oxigraph::model::{GraphNameRef, NamedNode, NamedNodeRef, Quad, QuadRef};
use oxigraph::store::Store;

use super::staged::{DEFAULT_CHUNK, Staged, UpdateTarget};
use super::{EnrichError, GraphState, Mode, WriteReport};
use crate::oracle::backend::{EmbeddedBackend, SolutionTable, SparqlBackend};
use crate::oxl;

/// What `graph` holds in `store` (see [`GraphState`]).
pub fn graph_state(store: &Store, graph: &NamedNode) -> Result<GraphState, EnrichError> {
    let name = GraphNameRef::NamedNode(graph.as_ref());
    let any = store
        .quads_for_pattern(None, None, None, Some(name))
        .next()
        .transpose()
        .map_err(|e| EnrichError::Store(e.to_string()))?;
    if any.is_none() {
        return Ok(GraphState::Empty);
    }
    let marker = QuadRef::new(
        graph.as_ref(),
        rdf::TYPE,
        NamedNodeRef::new_unchecked(oxl::PREDICTION_GRAPH),
        graph.as_ref(),
    );
    let ours = store
        .contains(marker)
        .map_err(|e| EnrichError::Store(e.to_string()))?;
    Ok(if ours {
        GraphState::Predictions
    } else {
        GraphState::Foreign
    })
}

/// Writes `quads` (all in `graph`) into `store` through a staging graph (see
/// [`super::staged`]): a failure leaves the graph as it was.
pub fn write_to_store(
    store: &Store,
    graph: &NamedNode,
    quads: &[Quad],
    mode: Mode,
    force: bool,
) -> Result<WriteReport, EnrichError> {
    let target = StoreTarget(store.clone());
    let mut staged = Staged::begin(&target, graph, mode, force, DEFAULT_CHUNK)?;
    staged.insert(quads)?;
    staged.finish()
}

/// An Oxigraph store as an [`UpdateTarget`] (each update is a transaction of its own).
pub struct StoreTarget(pub Store);

impl UpdateTarget for StoreTarget {
    fn describe(&self) -> String {
        "the embedded store".into()
    }

    fn update(&self, step: &str, update: &str, _retry: bool) -> Result<(), String> {
        self.0
            .update(update)
            .map_err(|e| format!("{step} in the embedded store: {e}"))
    }

    fn select(&self, step: &str, query: &spargebra::Query) -> Result<SolutionTable, String> {
        EmbeddedBackend::new(self.0.clone())
            .default_graph_only()
            .select(query)
            .map_err(|e| format!("{step}: {e}"))
    }

    fn failure(&self, message: String) -> EnrichError {
        EnrichError::Store(message)
    }
}

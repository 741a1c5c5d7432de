//! Writing into an Oxigraph store in one transaction: a failure leaves the graph as it was.

use std::collections::HashSet;

use oxigraph::model::vocab::rdf;
use oxigraph::model::{GraphNameRef, NamedNode, NamedNodeRef, Quad, QuadRef};
use oxigraph::store::Store;

use super::{EnrichError, GraphState, Mode, WriteReport};
use crate::vocab;

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
        NamedNodeRef::new_unchecked(vocab::PREDICTION_GRAPH),
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

/// Refuses a graph of someone else's data unless `force`.
pub fn check_writable(
    state: GraphState,
    graph: &NamedNode,
    force: bool,
) -> Result<(), EnrichError> {
    if state == GraphState::Foreign && !force {
        return Err(EnrichError::ForeignGraph {
            graph: graph.as_str().to_owned(),
        });
    }
    Ok(())
}

/// Writes `quads` (all in `graph`) into `store` in one transaction.
pub fn write_to_store(
    store: &Store,
    graph: &NamedNode,
    quads: &[Quad],
    mode: Mode,
    force: bool,
) -> Result<WriteReport, EnrichError> {
    check_writable(graph_state(store, graph)?, graph, force)?;
    let failed = |e: oxigraph::store::StorageError| EnrichError::Store(e.to_string());
    let name = GraphNameRef::NamedNode(graph.as_ref());
    let before: HashSet<Quad> = store
        .quads_for_pattern(None, None, None, Some(name))
        .collect::<Result<_, _>>()
        .map_err(failed)?;
    let this_run: HashSet<&Quad> = quads.iter().collect();
    let added = this_run.iter().filter(|q| !before.contains(**q)).count();
    let removed = match mode {
        Mode::Replace => before.iter().filter(|q| !this_run.contains(q)).count(),
        Mode::Append => 0,
    };
    let mut transaction = store.start_transaction().map_err(failed)?;
    if mode == Mode::Replace {
        transaction.clear_graph(name).map_err(failed)?;
    }
    transaction.extend(quads.iter().map(Quad::as_ref));
    transaction.commit().map_err(failed)?;
    Ok(WriteReport {
        added,
        removed,
        in_graph: before.len() - removed + added,
    })
}

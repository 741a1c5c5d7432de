//! Writing a model's predictions back into a store: `?x rdf:type <Class>` for every predicted
//! member, a prediction resource per member for scored models, and the provenance of the run
//! (PROV-O), all in one named graph of oxilearn's own (vocabulary: [`crate::oxl`]).
//!
//! The triples are a pure function of the model, the class, the graph and the predictions
//! ([`build::enrichment_quads`]), so a rerun writes the same triples; prediction IRIs come
//! from the model's fingerprint and the individual. Three destinations, each all-or-nothing:
//! a [`Store`](oxigraph::store::Store) (one transaction, [`store::write_to_store`]), a
//! dataset file (a temporary file renamed into place, [`file::write_dataset_file`]) and, with
//! feature `http`, a SPARQL 1.1 Update endpoint (staged in a fresh graph, then moved onto the
//! target, [`endpoint::UpdateEndpoint`]). A graph holding triples oxilearn did not write is
//! refused unless forced.

pub mod apply;
pub mod build;
pub mod canonical;
pub mod compare;
#[cfg(feature = "http")]
pub mod endpoint;
pub mod file;
pub mod identity;
pub mod refresh;
pub mod staged;
pub mod store;

use std::path::PathBuf;

use oxigraph::model::NamedNode;

pub use build::{Enrichment, enrichment_quads, is_predicted_member, writes_scores};
pub use identity::ModelIdentity;

/// What happens to triples already in the target graph (`enrich --mode`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
#[cfg_attr(feature = "cli", derive(clap::ValueEnum))]
pub enum Mode {
    /// The graph ends holding exactly this run's triples.
    #[default]
    Replace,
    /// This run's triples are added to what the graph holds.
    #[cfg_attr(feature = "cli", value(help = "Add what the graph does not hold yet"))]
    Append,
}

/// What the target graph held before a write.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GraphState {
    Empty,
    /// Carries the marker of a graph oxilearn wrote.
    Predictions,
    /// Holds triples but no marker: someone else's data.
    Foreign,
}

/// What a write changed.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize)]
pub struct WriteReport {
    /// Triples of this run not in the graph before.
    pub added: usize,
    /// Triples the graph held that this run removed (replace mode).
    pub removed: usize,
    /// Triples in the graph afterwards.
    pub in_graph: usize,
    /// This run's triples (typings, predictions, provenance).
    pub this_run: usize,
}

/// Why predictions could not be written. Nothing was changed unless the message says so.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum EnrichError {
    #[error(
        "the graph <{graph}> holds triples oxilearn did not write (no `<{graph}> a <{marker}>`): \
         refusing to change it; pass --force to write there anyway",
        marker = crate::oxl::PREDICTION_GRAPH
    )]
    ForeignGraph { graph: String },
    #[error("the store: {0}")]
    Store(String),
    #[error("{}: {message}", path.display())]
    File { path: PathBuf, message: String },
    /// A step at an endpoint failed; `message` says which and what state it left.
    #[error("{message}")]
    Endpoint { message: String },
    /// The run stopped between pages (`--max-runtime`, Ctrl-C); nothing was written.
    #[error("{reason} after {done} individuals; the target graph was not changed")]
    Stopped { reason: String, done: usize },
    /// A refresh cannot patch this graph, or stopped part-way (`message` says which).
    #[error("{message}")]
    Refresh { message: String },
    #[error(transparent)]
    Kb(#[from] crate::KnowledgeBaseError),
    #[error(transparent)]
    Oracle(#[from] crate::oracle::OracleError),
    #[error(transparent)]
    Model(#[from] crate::learn::LearnError),
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

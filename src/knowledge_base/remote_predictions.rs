//! Keeping oxilearn's own predictions out of what an endpoint shows: where the default graph
//! is the union of all graphs (Virtuoso), a graph `enrich` wrote would be read back as facts.
//! When the default graph shows such a graph, every query reads the other graphs instead
//! (`FROM`, see [`FromGraphs`]), with a warning saying so. The check's queries go through the
//! caller's backend, so `--log-queries` records them.

use spargebra::SparqlParser;
use spargebra::term::NamedNode;

use crate::oracle::OracleError;
use crate::oracle::backend::{FromGraphs, SparqlBackend};
use crate::oxl;

/// The backend to read, and what was done to keep predictions out.
pub struct Kept {
    pub backend: Box<dyn SparqlBackend>,
    /// Said when the default graph showed predictions.
    pub warning: Option<String>,
    /// The graphs every query then reads (`FROM`); empty when the default graph is read.
    pub graphs: Vec<String>,
}

/// `backend`, reading only the graphs without predictions when its default graph shows a
/// prediction graph, and the warning when it does. Costs one query otherwise.
pub fn without_predictions(backend: Box<dyn SparqlBackend>) -> Result<Kept, OracleError> {
    let marked = iris(
        backend.as_ref(),
        &format!(
            "SELECT DISTINCT ?g WHERE {{ ?g a <{}> }} LIMIT 10000",
            oxl::PREDICTION_GRAPH
        ),
    )?;
    if marked.is_empty() {
        return Ok(Kept {
            backend,
            warning: None,
            graphs: Vec::new(),
        });
    }
    let graphs: Vec<String> = iris(
        backend.as_ref(),
        "SELECT DISTINCT ?g WHERE { GRAPH ?g { ?s ?p ?o } } LIMIT 100000",
    )?
    .into_iter()
    .filter(|g| !marked.contains(g))
    .collect();
    let warning = format!(
        "{}'s default graph shows oxilearn's predictions ({}); reading the {} other graph(s) \
         instead (pass --graph to choose, --include-predictions to read them too)",
        backend.name(),
        marked.join(", "),
        graphs.len()
    );
    let from = graphs
        .iter()
        .cloned()
        .map(NamedNode::new_unchecked)
        .collect();
    Ok(Kept {
        backend: Box::new(FromGraphs::new(backend, from)),
        warning: Some(warning),
        graphs,
    })
}

/// The IRIs bound to the query's one variable, sorted.
fn iris(backend: &dyn SparqlBackend, query: &str) -> Result<Vec<String>, OracleError> {
    let query = SparqlParser::new()
        .parse_query(query)
        .expect("a valid fixed query");
    let mut out: Vec<String> = backend
        .select(&query)?
        .rows
        .into_iter()
        .filter_map(|row| match row.into_iter().next().flatten() {
            Some(oxigraph::model::Term::NamedNode(n)) => Some(n.into_string()),
            _ => None,
        })
        .collect();
    out.sort();
    out.dedup();
    Ok(out)
}

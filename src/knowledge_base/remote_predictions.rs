//! Keeping oxilearn's own predictions out of what an endpoint shows: where the default graph
//! is the union of all graphs (Virtuoso), a graph `enrich` wrote would be read back as facts.
//! When the default graph shows such a graph, the other graphs are named as the default
//! graph instead (`default-graph-uri`), with a warning saying so.

use spargebra::SparqlParser;

use super::KnowledgeBaseError;
use crate::oracle::backend::{HttpBackend, HttpOptions, SparqlBackend};
use crate::vocab;

/// The options to read the endpoint without prediction graphs, and the warning when that
/// changed them. Costs one query where the default graph shows no prediction graph.
pub fn without_predictions(
    options: HttpOptions,
) -> Result<(HttpOptions, Option<String>), KnowledgeBaseError> {
    let endpoint = options.endpoint.clone();
    let error = |source| KnowledgeBaseError::Probe {
        endpoint: endpoint.clone(),
        source,
    };
    let backend =
        HttpBackend::new(options.clone()).map_err(|source| KnowledgeBaseError::Endpoint {
            endpoint: endpoint.clone(),
            source,
        })?;
    let marked = iris(
        &backend,
        &format!(
            "SELECT DISTINCT ?g WHERE {{ ?g a <{}> }} LIMIT 10000",
            vocab::PREDICTION_GRAPH
        ),
    )
    .map_err(error)?;
    if marked.is_empty() {
        return Ok((options, None));
    }
    let graphs: Vec<String> = iris(
        &backend,
        "SELECT DISTINCT ?g WHERE { GRAPH ?g { ?s ?p ?o } } LIMIT 10000",
    )
    .map_err(error)?
    .into_iter()
    .filter(|g| !marked.contains(g))
    .collect();
    let warning = format!(
        "{endpoint}'s default graph shows oxilearn's predictions ({}); reading the {} other \
         graph(s) instead (pass --graph to choose, --include-predictions to read them too)",
        marked.join(", "),
        graphs.len()
    );
    let mut options = options;
    options.default_graphs = graphs;
    Ok((options, Some(warning)))
}

/// The IRIs bound to the query's one variable, sorted.
fn iris(backend: &HttpBackend, query: &str) -> Result<Vec<String>, crate::oracle::OracleError> {
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

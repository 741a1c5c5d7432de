//! Writing into a SPARQL 1.1 Update endpoint without ever leaving the target graph half
//! written: the triples are staged in a fresh graph with chunked `INSERT DATA` requests (each
//! answer checked), then `MOVE`d (replace) or `ADD`ed (append) onto the target in one
//! request, and the result is verified by counting. A failure while staging leaves the
//! target as it was, drops the staging graph, and says which step failed.
//!
//! Reads (the target's current triples, the counts) go through the query endpoint, with the
//! same timeout, retries and credentials as every query. Updates are retried on connection
//! failures, timeouts, 429 and 5xx, except the final `MOVE`/`ADD`, whose outcome is checked
//! by counting instead (a retried move of an already moved graph would fail).

use std::collections::HashSet;
use std::time::{Duration, Instant};

use oxigraph::model::{NamedNode, NamedOrBlankNode, Quad, Term};
use reqwest::header::CONTENT_TYPE;
use spargebra::SparqlParser;

use super::compare::quad_key;
use super::{EnrichError, GraphState, Mode, WriteReport};
use crate::oracle::backend::{Auth, HttpBackend, HttpOptions, SparqlBackend};
use crate::vocab;

/// Triples per `INSERT DATA` request by default.
pub const DEFAULT_CHUNK: usize = 1000;

/// A query endpoint and the update endpoint beside it.
pub struct UpdateEndpoint {
    reads: HttpBackend,
    update_url: String,
    client: reqwest::Client,
    runtime: tokio::runtime::Runtime,
    auth: Option<Auth>,
    timeout: Duration,
    retries: u32,
    backoff: Duration,
    /// Triples per `INSERT DATA`.
    pub chunk: usize,
}

impl UpdateEndpoint {
    /// Reads through `query` (its default graphs are not used: every read names the graph),
    /// writes to `update_url` with the same timeout, retries and credentials.
    pub fn new(query: HttpOptions, update_url: &str) -> Result<Self, EnrichError> {
        let fail = |message: String| EnrichError::Endpoint { message };
        let url = reqwest::Url::parse(update_url).map_err(|e| {
            fail(format!(
                "--update-endpoint {update_url}: not a valid URL: {e}"
            ))
        })?;
        if !matches!(url.scheme(), "http" | "https") {
            return Err(fail(format!(
                "--update-endpoint {update_url}: the URL must be http:// or https://"
            )));
        }
        let mut read_options = query.clone();
        read_options.default_graphs.clear();
        read_options.named_graphs.clear();
        let reads = HttpBackend::new(read_options)
            .map_err(|e| fail(format!("setting up the query endpoint: {e}")))?;
        let runtime = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .map_err(|e| fail(format!("cannot start the HTTP runtime: {e}")))?;
        let client = reqwest::Client::builder()
            .timeout(query.timeout)
            .connect_timeout(query.connect_timeout)
            .user_agent(concat!("oxilearn/", env!("CARGO_PKG_VERSION")))
            .build()
            .map_err(|e| fail(format!("cannot build the HTTP client: {e}")))?;
        Ok(UpdateEndpoint {
            reads,
            update_url: update_url.to_owned(),
            client,
            runtime,
            auth: query.auth.clone(),
            timeout: query.timeout,
            retries: query.retries,
            backoff: query.backoff,
            chunk: DEFAULT_CHUNK,
        })
    }

    /// What `graph` holds at the endpoint.
    pub fn graph_state(&self, graph: &NamedNode) -> Result<GraphState, EnrichError> {
        let any = self.select(
            "checking the target graph",
            &format!("SELECT ?s WHERE {{ GRAPH {graph} {{ ?s ?p ?o }} }} LIMIT 1"),
        )?;
        if any.is_empty() {
            return Ok(GraphState::Empty);
        }
        let marked = self.select(
            "checking the target graph",
            &format!(
                "SELECT ?g WHERE {{ GRAPH {graph} {{ {graph} a <{}> . BIND({graph} AS ?g) }} }}",
                vocab::PREDICTION_GRAPH
            ),
        )?;
        Ok(if marked.is_empty() {
            GraphState::Foreign
        } else {
            GraphState::Predictions
        })
    }

    /// The triples of `graph` (an oxilearn graph: as large as what it writes).
    fn triples(&self, graph: &NamedNode) -> Result<HashSet<Quad>, EnrichError> {
        let rows = self.select(
            "reading the target graph",
            &format!("SELECT ?s ?p ?o WHERE {{ GRAPH {graph} {{ ?s ?p ?o }} }}"),
        )?;
        Ok(rows
            .into_iter()
            .filter_map(|row| {
                let [Some(s), Some(Term::NamedNode(p)), Some(o)] =
                    <[Option<Term>; 3]>::try_from(row).ok()?
                else {
                    return None;
                };
                let s: NamedOrBlankNode = match s {
                    Term::NamedNode(n) => n.into(),
                    Term::BlankNode(b) => b.into(),
                    _ => return None,
                };
                Some(Quad::new(s, p, o, graph.clone()))
            })
            .collect())
    }

    fn count(&self, graph: &NamedNode, step: &str) -> Result<usize, EnrichError> {
        let rows = self.select(
            step,
            &format!("SELECT (COUNT(*) AS ?n) WHERE {{ GRAPH {graph} {{ ?s ?p ?o }} }}"),
        )?;
        rows.first()
            .and_then(|r| r.first().cloned().flatten())
            .and_then(|t| match t {
                Term::Literal(l) => l.value().parse::<usize>().ok(),
                _ => None,
            })
            .ok_or_else(|| EnrichError::Endpoint {
                message: format!("{step}: the endpoint answered no count"),
            })
    }

    fn select(&self, step: &str, query: &str) -> Result<Vec<Vec<Option<Term>>>, EnrichError> {
        let parsed = SparqlParser::new()
            .parse_query(query)
            .map_err(|e| EnrichError::Endpoint {
                message: format!("{step}: cannot write the query: {e}"),
            })?;
        self.reads
            .select(&parsed)
            .map(|t| t.rows)
            .map_err(|e| EnrichError::Endpoint {
                message: format!("{step}: {e}"),
            })
    }

    /// Writes `quads` (all in `graph`) as the module docs say; `progress(done, total)` after
    /// each staged chunk.
    pub fn write(
        &self,
        graph: &NamedNode,
        quads: &[Quad],
        mode: Mode,
        force: bool,
        progress: &dyn Fn(usize, usize),
    ) -> Result<WriteReport, EnrichError> {
        let state = self.graph_state(graph)?;
        super::store::check_writable(state, graph, force)?;
        let before = match state {
            GraphState::Empty => HashSet::new(),
            _ => self.triples(graph)?,
        };
        let before: HashSet<String> = before.iter().map(quad_key).collect();
        let this_run: HashSet<String> = quads.iter().map(quad_key).collect();
        let missing: Vec<&Quad> = quads
            .iter()
            .filter(|q| !before.contains(&quad_key(q)))
            .collect();
        let removed = match mode {
            Mode::Replace => before.iter().filter(|q| !this_run.contains(*q)).count(),
            Mode::Append => 0,
        };
        let report = WriteReport {
            added: missing.len(),
            removed,
            in_graph: before.len() - removed + missing.len(),
        };
        if report.added == 0 && report.removed == 0 {
            return Ok(report);
        }
        let staged: Vec<&Quad> = match mode {
            Mode::Replace => quads.iter().collect(),
            Mode::Append => missing,
        };
        let staging = staging_graph(graph);
        self.update(
            "clearing the staging graph",
            &format!("DROP SILENT GRAPH {staging}"),
            true,
        )
        .map_err(|e| self.unchanged(graph, e))?;
        let chunks: Vec<&[&Quad]> = staged.chunks(self.chunk.max(1)).collect();
        for (i, chunk) in chunks.iter().enumerate() {
            let step = format!(
                "inserting chunk {} of {} ({} triples) into the staging graph {staging}",
                i + 1,
                chunks.len(),
                chunk.len()
            );
            if let Err(e) = self.update(&step, &insert_data(&staging, chunk), true) {
                let _ = self.update(
                    "dropping the staging graph",
                    &format!("DROP SILENT GRAPH {staging}"),
                    false,
                );
                return Err(self.unchanged(graph, e));
            }
            progress((i + 1) * self.chunk.max(1).min(staged.len()), staged.len());
        }
        let (what, request) = match mode {
            Mode::Replace => (
                "moving the staging graph onto",
                format!("MOVE {staging} TO {graph}"),
            ),
            Mode::Append => (
                "adding the staging graph to",
                format!("ADD {staging} TO {graph} ; DROP SILENT GRAPH {staging}"),
            ),
        };
        let step = format!("{what} {graph}");
        let moved = self.update(&step, &request, false);
        let count = self.count(graph, &format!("counting {graph} after {what} it"));
        match (moved, count) {
            (_, Ok(n)) if n == report.in_graph => Ok(report),
            (Err(e), _) => {
                let _ = self.update(
                    "dropping the staging graph",
                    &format!("DROP SILENT GRAPH {staging}"),
                    false,
                );
                Err(EnrichError::Endpoint {
                    message: format!(
                        "{e}; the endpoint applies an update request as a whole, so {graph} \
                         should be as it was (check it)"
                    ),
                })
            }
            (Ok(()), Ok(n)) => Err(EnrichError::Endpoint {
                message: format!(
                    "{step}: {graph} holds {n} triples afterwards, expected {}",
                    report.in_graph
                ),
            }),
            (Ok(()), Err(e)) => Err(e),
        }
    }

    /// Drops `graph` at the endpoint (`DROP SILENT GRAPH`: a graph that is not there is no
    /// error), e.g. to take an enrichment back.
    pub fn drop_graph(&self, graph: &NamedNode) -> Result<(), EnrichError> {
        self.update(
            &format!("dropping {graph}"),
            &format!("DROP SILENT GRAPH {graph}"),
            true,
        )
        .map_err(|message| EnrichError::Endpoint { message })
    }

    /// The error of a failed step before the target was touched.
    fn unchanged(&self, graph: &NamedNode, e: String) -> EnrichError {
        EnrichError::Endpoint {
            message: format!("{e}; the target graph {graph} was not changed"),
        }
    }

    /// Sends one update request; `retry` allows retrying transient failures.
    fn update(&self, step: &str, update: &str, retry: bool) -> Result<(), String> {
        let mut attempt = 0;
        loop {
            let started = Instant::now();
            let outcome = self.runtime.block_on(self.send(update));
            match outcome {
                Ok(()) => return Ok(()),
                Err((message, transient)) => {
                    if !(retry && transient) || attempt >= self.retries {
                        let tries = if attempt > 0 {
                            format!(" (after {} attempts)", attempt + 1)
                        } else {
                            String::new()
                        };
                        return Err(format!(
                            "{step} at {}: {message}{tries} ({:.1} s)",
                            self.update_url,
                            started.elapsed().as_secs_f64()
                        ));
                    }
                    std::thread::sleep(self.backoff.saturating_mul(1 << attempt.min(8)));
                    attempt += 1;
                }
            }
        }
    }

    /// One request; the error says whether retrying may help.
    async fn send(&self, update: &str) -> Result<(), (String, bool)> {
        let request = self
            .client
            .post(&self.update_url)
            .header(CONTENT_TYPE, "application/x-www-form-urlencoded")
            .form(&[("update", update)])
            .timeout(self.timeout);
        let request = match &self.auth {
            Some(Auth::Basic { user, password }) => request.basic_auth(user, Some(password)),
            Some(Auth::Bearer(token)) => request.bearer_auth(token),
            None => request,
        };
        let response = request.send().await.map_err(|e| {
            let transient = e.is_timeout() || e.is_connect() || e.is_request();
            (format!("request failed: {}", e.without_url()), transient)
        })?;
        let status = response.status();
        if status.is_success() {
            return Ok(());
        }
        let body = response.text().await.unwrap_or_default();
        let excerpt: String = body.chars().take(300).collect();
        // Virtuoso answers 500 to SQL errors too (permissions, syntax): those stay.
        let refused = body.contains("SECURITY") || body.contains("Virtuoso 37000");
        let transient = status.as_u16() == 429 || (status.is_server_error() && !refused);
        Err((format!("HTTP {status}: {}", excerpt.trim()), transient))
    }
}

/// A fresh graph for this run's staging, derived from the target, the process and the time.
fn staging_graph(graph: &NamedNode) -> NamedNode {
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_nanos())
        .unwrap_or(0);
    NamedNode::new_unchecked(format!(
        "urn:oxilearn:staging:{:016x}:{}:{nanos}",
        vocab::fnv1a64(&[graph.as_str()]),
        std::process::id()
    ))
}

/// `INSERT DATA { GRAPH <staging> { … } }` for the chunk (terms in N-Triples syntax, which
/// SPARQL reads as written).
fn insert_data(staging: &NamedNode, chunk: &[&Quad]) -> String {
    let mut out = format!("INSERT DATA {{ GRAPH {staging} {{\n");
    for q in chunk {
        out.push_str(&format!("{} {} {} .\n", q.subject, q.predicate, q.object));
    }
    out.push_str("} }");
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use oxigraph::model::Literal;

    #[test]
    fn insert_data_writes_terms_sparql_reads_back() {
        let g = NamedNode::new_unchecked("urn:g");
        let q = Quad::new(
            NamedNode::new_unchecked("urn:s"),
            NamedNode::new_unchecked("urn:p"),
            Literal::new_simple_literal("a \"quoted\"\nline"),
            g.clone(),
        );
        let text = insert_data(&g, &[&q]);
        let update = spargebra::SparqlParser::new().parse_update(&text).unwrap();
        let store = oxigraph::store::Store::new().unwrap();
        store.update(update.to_string().as_str()).unwrap();
        assert!(store.contains(&q).unwrap());
    }

    #[test]
    fn staging_graphs_are_fresh() {
        let g = NamedNode::new_unchecked("urn:g");
        let a = staging_graph(&g);
        std::thread::sleep(Duration::from_millis(1));
        assert_ne!(a, staging_graph(&g));
        assert!(a.as_str().starts_with("urn:oxilearn:staging:"));
    }
}

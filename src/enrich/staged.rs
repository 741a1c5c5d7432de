//! Writing a graph of predictions of any size so that the target changes all at once: the
//! run's triples go into a staging graph page by page (`INSERT DATA`, or `INSERT … WHERE`
//! evaluated by the store itself), then one `MOVE` (replace) or `ADD` (append) puts them
//! onto the target. What changed is counted by the store (`COUNT` over the two graphs),
//! never by downloading either, so memory does not grow with the graph.
//!
//! The staging graph's name is derived from the target alone, so a run that was killed
//! (no chance to clean up) leaves a graph the next run over the same target drops first;
//! a run that fails or is abandoned drops it itself. One run per target graph at a time.

use oxigraph::model::{NamedNode, Quad, Term};
use spargebra::{Query, SparqlParser};

use super::{EnrichError, GraphState, Mode, WriteReport};
use crate::oracle::backend::SolutionTable;
use crate::oxl;

/// Triples per `INSERT DATA` request by default.
pub const DEFAULT_CHUNK: usize = 1000;

/// Something that runs SPARQL updates and queries over named graphs: an Oxigraph store, or
/// a query endpoint with its update endpoint.
pub trait UpdateTarget: Send + Sync {
    /// Where the writes go, for messages.
    fn describe(&self) -> String;

    /// Runs one update request; `retry` allows retrying transient failures. The error is
    /// a message saying which `step` failed and why.
    fn update(&self, step: &str, update: &str, retry: bool) -> Result<(), String>;

    /// Runs one SELECT (every query here names its graphs).
    fn select(&self, step: &str, query: &Query) -> Result<SolutionTable, String>;

    /// The error a failed step becomes.
    fn failure(&self, message: String) -> EnrichError {
        EnrichError::Endpoint { message }
    }
}

/// The staging graph of `graph`.
pub fn staging_graph(graph: &NamedNode) -> NamedNode {
    NamedNode::new_unchecked(format!(
        "urn:oxilearn:staging:{:016x}",
        oxl::fnv1a64(&[graph.as_str()])
    ))
}

/// A write in progress: the staging graph is dropped unless [`Staged::finish`] moved it.
pub struct Staged<'t> {
    target: &'t dyn UpdateTarget,
    graph: NamedNode,
    staging: NamedNode,
    mode: Mode,
    /// Triples per `INSERT DATA`.
    chunk: usize,
    /// The staging graph may exist (dropped on drop).
    open: bool,
}

impl<'t> Staged<'t> {
    /// Checks the target (someone else's data is refused unless `force`) and starts from an
    /// empty staging graph (dropping what a killed run left there).
    pub fn begin(
        target: &'t dyn UpdateTarget,
        graph: &NamedNode,
        mode: Mode,
        force: bool,
        chunk: usize,
    ) -> Result<Self, EnrichError> {
        let staged = Staged {
            target,
            graph: graph.clone(),
            staging: staging_graph(graph),
            mode,
            chunk: chunk.max(1),
            open: true,
        };
        let state = staged.graph_state()?;
        super::check_writable(state, graph, force)?;
        staged.run_update(
            "clearing the staging graph",
            &format!("DROP SILENT GRAPH {}", staged.staging),
            true,
        )?;
        Ok(staged)
    }

    pub fn staging(&self) -> &NamedNode {
        &self.staging
    }

    pub fn graph(&self) -> &NamedNode {
        &self.graph
    }

    /// What the target held before this run.
    fn graph_state(&self) -> Result<GraphState, EnrichError> {
        let g = &self.graph;
        let any = self.rows(
            "checking the target graph",
            &format!("SELECT ?s WHERE {{ GRAPH {g} {{ ?s ?p ?o }} }} LIMIT 1"),
        )?;
        if any.rows.is_empty() {
            return Ok(GraphState::Empty);
        }
        let marked = self.rows(
            "checking the target graph",
            &format!(
                "SELECT ?s WHERE {{ GRAPH {g} {{ ?s a <{}> FILTER(?s = {g}) }} }} LIMIT 1",
                oxl::PREDICTION_GRAPH
            ),
        )?;
        Ok(if marked.rows.is_empty() {
            GraphState::Foreign
        } else {
            GraphState::Predictions
        })
    }

    /// Adds `quads` (their graph is ignored: they go into the staging graph), a chunk per
    /// request.
    pub fn insert(&mut self, quads: &[Quad]) -> Result<(), EnrichError> {
        let chunks = quads.chunks(self.chunk).count();
        for (i, chunk) in quads.chunks(self.chunk).enumerate() {
            let step = format!(
                "inserting chunk {} of {chunks} ({} triples) into the staging graph {}",
                i + 1,
                chunk.len(),
                self.staging
            );
            self.run_update(&step, &insert_data(&self.staging, chunk), true)?;
        }
        Ok(())
    }

    /// Runs an update the caller wrote against [`Staged::staging`] (an `INSERT … WHERE`
    /// the store evaluates).
    pub fn update(&mut self, step: &str, update: &str) -> Result<(), EnrichError> {
        self.run_update(step, update, true)
    }

    /// How many distinct subjects the staging graph types with `class` so far.
    pub fn typed(&self, class: &NamedNode) -> Result<usize, EnrichError> {
        self.count(
            "counting the staged members",
            &format!(
                "SELECT (COUNT(DISTINCT ?s) AS ?n) WHERE {{ GRAPH {} {{ ?s a {class} }} }}",
                self.staging
            ),
        )
    }

    /// Puts the staging graph onto the target in one request (unless nothing would change)
    /// and checks the result by counting.
    pub fn finish(mut self) -> Result<WriteReport, EnrichError> {
        let (g, s) = (self.graph.clone(), self.staging.clone());
        let triples = |graph: &NamedNode| {
            format!("SELECT (COUNT(*) AS ?n) WHERE {{ GRAPH {graph} {{ ?s ?p ?o }} }}")
        };
        let missing_from = |from: &NamedNode, of: &NamedNode| {
            format!(
                "SELECT (COUNT(*) AS ?n) WHERE {{ GRAPH {of} {{ ?s ?p ?o }} \
                 FILTER NOT EXISTS {{ GRAPH {from} {{ ?s ?p ?o }} }} }}"
            )
        };
        let this_run = self.count("counting the staged triples", &triples(&s))?;
        let before = self.count("counting the target graph", &triples(&g))?;
        let added = self.count(
            "counting the triples the target lacks",
            &missing_from(&g, &s),
        )?;
        let removed = match self.mode {
            Mode::Replace => self.count(
                "counting the triples this run removes",
                &missing_from(&s, &g),
            )?,
            Mode::Append => 0,
        };
        let report = WriteReport {
            added,
            removed,
            in_graph: match self.mode {
                Mode::Replace => this_run,
                Mode::Append => before + added,
            },
            this_run,
        };
        if added == 0 && removed == 0 {
            self.drop_staging();
            return Ok(report);
        }
        let (what, request) = match self.mode {
            Mode::Replace => ("moving the staging graph onto", format!("MOVE {s} TO {g}")),
            Mode::Append => (
                "adding the staging graph to",
                format!("ADD {s} TO {g} ; DROP SILENT GRAPH {s}"),
            ),
        };
        let step = format!("{what} {g}");
        // Not retried: a retried MOVE of a moved graph fails; the count tells what happened.
        let moved = self.target.update(&step, &request, false);
        let count = self.count(&format!("counting {g} after {what} it"), &triples(&g));
        match (moved, count) {
            (_, Ok(n)) if n == report.in_graph => {
                self.drop_staging();
                Ok(report)
            }
            (Err(e), _) => Err(self.target.failure(format!(
                "{e}; the store applies an update request as a whole, so {g} should be as it \
                 was (check it)"
            ))),
            (Ok(()), Ok(n)) => Err(self.target.failure(format!(
                "{step}: {g} holds {n} triples afterwards, expected {}",
                report.in_graph
            ))),
            (Ok(()), Err(e)) => Err(e),
        }
    }

    /// Gives up: the staging graph is dropped, the target was never touched.
    pub fn abandon(mut self) {
        self.drop_staging();
    }

    fn drop_staging(&mut self) {
        if self.open {
            let _ = self.target.update(
                "dropping the staging graph",
                &format!("DROP SILENT GRAPH {}", self.staging),
                false,
            );
            self.open = false;
        }
    }

    /// An update whose failure leaves the target unchanged (and drops the staging graph).
    fn run_update(&self, step: &str, update: &str, retry: bool) -> Result<(), EnrichError> {
        self.target.update(step, update, retry).map_err(|e| {
            self.target.failure(format!(
                "{e}; the target graph {} was not changed",
                self.graph
            ))
        })
    }

    fn rows(&self, step: &str, query: &str) -> Result<SolutionTable, EnrichError> {
        let parsed = SparqlParser::new().parse_query(query).map_err(|e| {
            self.target
                .failure(format!("{step}: cannot write the query: {e}"))
        })?;
        self.target
            .select(step, &parsed)
            .map_err(|e| self.target.failure(e))
    }

    fn count(&self, step: &str, query: &str) -> Result<usize, EnrichError> {
        let table = self.rows(step, query)?;
        table
            .rows
            .first()
            .and_then(|r| r.first().cloned().flatten())
            .and_then(|t| match t {
                Term::Literal(l) => l.value().parse::<usize>().ok(),
                _ => None,
            })
            .ok_or_else(|| {
                self.target.failure(format!(
                    "{step}: {} answered no count",
                    self.target.describe()
                ))
            })
    }
}

impl Drop for Staged<'_> {
    fn drop(&mut self) {
        self.drop_staging();
    }
}

/// `INSERT DATA { GRAPH <staging> { … } }` for the chunk (terms in N-Triples syntax, which
/// SPARQL reads as written).
pub fn insert_data(staging: &NamedNode, chunk: &[Quad]) -> String {
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
        let text = insert_data(&g, std::slice::from_ref(&q));
        let update = SparqlParser::new().parse_update(&text).unwrap();
        let store = oxigraph::store::Store::new().unwrap();
        store.update(update.to_string().as_str()).unwrap();
        assert!(store.contains(&q).unwrap());
    }

    #[test]
    fn a_target_has_one_staging_graph_of_its_own() {
        let a = NamedNode::new_unchecked("urn:a");
        let b = NamedNode::new_unchecked("urn:b");
        assert_eq!(staging_graph(&a), staging_graph(&a));
        assert_ne!(staging_graph(&a), staging_graph(&b));
        assert!(
            staging_graph(&a)
                .as_str()
                .starts_with("urn:oxilearn:staging:")
        );
    }
}

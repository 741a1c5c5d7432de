//! A query log: every SELECT a backend answers, with its time and row count, one JSON object
//! per line. It answers "which query makes this run slow on that endpoint?" without a
//! profiler, and shows exactly what a learning run reads.

use std::fs::File;
use std::io::{BufWriter, Write};
use std::path::Path;
use std::sync::Mutex;
use std::time::{Duration, Instant};

use spargebra::Query;

use super::{Capabilities, PolitenessReport, SolutionTable, SparqlBackend};
use crate::oracle::OracleError;

/// Wraps a backend and appends `{"at_ms", "ms", "rows"|"error", "query"}` per query to a file.
pub struct QueryLog<B> {
    inner: B,
    opened: Instant,
    out: Mutex<BufWriter<File>>,
}

impl<B: SparqlBackend> QueryLog<B> {
    /// Creates (truncates) `path`.
    pub fn create(inner: B, path: &Path) -> std::io::Result<Self> {
        Ok(QueryLog {
            inner,
            opened: Instant::now(),
            // Truncated, then written in append mode: other writers of the same run (an
            // update endpoint's requests) add their lines without overwriting these.
            out: Mutex::new(BufWriter::new({
                File::create(path)?;
                std::fs::OpenOptions::new().append(true).open(path)?
            })),
        })
    }

    fn record(
        &self,
        started: Instant,
        took: Duration,
        query: &Query,
        answer: &Result<SolutionTable, OracleError>,
    ) {
        let mut line = serde_json::json!({
            "at_ms": millis(started.duration_since(self.opened)),
            "ms": millis(took),
            "query": query.to_string(),
        });
        match answer {
            Ok(table) => line["rows"] = table.rows.len().into(),
            Err(e) => line["error"] = e.to_string().into(),
        }
        if let Ok(mut out) = self.out.lock() {
            // A log that cannot be written must not fail the run it observes. Flushed per
            // line, so that a run that hangs shows the query it waits for.
            let _ = writeln!(out, "{line}").and_then(|()| out.flush());
        }
    }
}

fn millis(d: Duration) -> f64 {
    (d.as_secs_f64() * 1e6).round() / 1e3
}

impl<B> Drop for QueryLog<B> {
    fn drop(&mut self) {
        if let Ok(out) = self.out.get_mut() {
            let _ = out.flush();
        }
    }
}

impl<B: SparqlBackend> SparqlBackend for QueryLog<B> {
    fn select(&self, query: &Query) -> Result<SolutionTable, OracleError> {
        let started = Instant::now();
        let answer = self.inner.select(query);
        self.record(started, started.elapsed(), query, &answer);
        answer
    }

    fn name(&self) -> String {
        self.inner.name()
    }

    fn probed(&self) -> Option<Capabilities> {
        self.inner.probed()
    }

    fn remember_probe(&self, caps: &Capabilities) {
        self.inner.remember_probe(caps)
    }

    fn set_deadline(&self, deadline: Option<Instant>) {
        self.inner.set_deadline(deadline)
    }

    fn read_graphs(&self) -> Option<Vec<spargebra::term::NamedNode>> {
        self.inner.read_graphs()
    }

    fn politeness(&self) -> PolitenessReport {
        self.inner.politeness()
    }

    fn row_cap(&self) -> Option<usize> {
        self.inner.row_cap()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::oracle::backend::EmbeddedBackend;
    use oxigraph::store::Store;

    #[test]
    fn every_query_is_one_line_with_its_rows() {
        let dir = std::env::temp_dir().join(format!("oxilearn-log-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("q.jsonl");
        let store = Store::new().unwrap();
        let log = QueryLog::create(EmbeddedBackend::new(store), &path).unwrap();
        let q: Query = spargebra::SparqlParser::new()
            .parse_query("SELECT ?x WHERE { VALUES ?x { 1 2 } }")
            .unwrap();
        assert_eq!(log.select(&q).unwrap().rows.len(), 2);
        assert_eq!(log.select(&q).unwrap().rows.len(), 2);
        drop(log);
        let text = std::fs::read_to_string(&path).unwrap();
        let lines: Vec<serde_json::Value> = text
            .lines()
            .map(|l| serde_json::from_str(l).unwrap())
            .collect();
        assert_eq!(lines.len(), 2);
        assert_eq!(lines[0]["rows"], 2);
        assert!(lines[1]["query"].as_str().unwrap().contains("VALUES"));
        assert!(lines[0]["ms"].as_f64().unwrap() >= 0.0);
        std::fs::remove_dir_all(&dir).unwrap();
    }
}

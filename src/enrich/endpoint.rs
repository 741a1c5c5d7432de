//! A SPARQL 1.1 Update endpoint as an [`UpdateTarget`]: what is written there goes through
//! a staging graph ([`super::staged`]), so the target is never left half written.
//!
//! Reads (the target's state, the counts) go through the query endpoint, with the
//! same timeout, retries and credentials as every query. Updates are retried on connection
//! failures, timeouts, 429 and 5xx, except the final `MOVE`/`ADD`, whose outcome is checked
//! by counting instead (a retried move of an already moved graph would fail).

use std::time::{Duration, Instant};

use oxigraph::model::{NamedNode, Quad};
use reqwest::header::CONTENT_TYPE;

use super::staged::{DEFAULT_CHUNK, Staged, UpdateTarget};
use super::{EnrichError, Mode, WriteReport};
use crate::oracle::backend::{Auth, HttpBackend, HttpOptions, SolutionTable, SparqlBackend};

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
    /// Where each request is recorded (`--log-queries`), appended to the query log.
    log: Option<std::sync::Mutex<std::fs::File>>,
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
            log: None,
        })
    }

    /// Writes `quads` (all in `graph`) through a staging graph (see [`super::staged`]);
    /// `progress(done, total)` after each staged chunk.
    pub fn write(
        &self,
        graph: &NamedNode,
        quads: &[Quad],
        mode: Mode,
        force: bool,
        progress: &dyn Fn(usize, usize),
    ) -> Result<WriteReport, EnrichError> {
        let mut staged = Staged::begin(self, graph, mode, force, self.chunk)?;
        for (i, chunk) in quads.chunks(self.chunk.max(1)).enumerate() {
            staged.insert(chunk)?;
            progress(
                (i * self.chunk.max(1) + chunk.len()).min(quads.len()),
                quads.len(),
            );
        }
        staged.finish()
    }

    /// Drops `graph` at the endpoint (`DROP SILENT GRAPH`: a graph that is not there is no
    /// error), e.g. to take an enrichment back.
    pub fn drop_graph(&self, graph: &NamedNode) -> Result<(), EnrichError> {
        self.send_update(
            &format!("dropping {graph}"),
            &format!("DROP SILENT GRAPH {graph}"),
            true,
        )
        .map_err(|message| EnrichError::Endpoint { message })
    }

    /// Appends a JSON line per request (its step, time and outcome; updates as text) to
    /// `path`, the file `--log-queries` names, beside the queries' lines.
    pub fn log_to(&mut self, path: &std::path::Path) -> Result<(), EnrichError> {
        let file = std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(path)
            .map_err(|e| EnrichError::File {
                path: path.to_owned(),
                message: format!("opening the query log: {e}"),
            })?;
        self.log = Some(std::sync::Mutex::new(file));
        Ok(())
    }

    fn record(&self, step: &str, text: &str, took: Duration, error: Option<&str>) {
        use std::io::Write;
        let Some(log) = &self.log else {
            return;
        };
        let mut line = serde_json::json!({
            "step": step,
            "ms": (took.as_secs_f64() * 1e6).round() / 1e3,
            "update": text,
        });
        if let Some(e) = error {
            line["error"] = e.into();
        }
        if let Ok(mut out) = log.lock() {
            // A log that cannot be written must not fail the run it observes.
            let _ = writeln!(out, "{line}");
        }
    }

    /// Sends one update request; `retry` allows retrying transient failures.
    fn send_update(&self, step: &str, update: &str, retry: bool) -> Result<(), String> {
        let mut attempt = 0;
        loop {
            let started = Instant::now();
            let outcome = self.runtime.block_on(self.send(update));
            self.record(
                step,
                update,
                started.elapsed(),
                outcome.as_ref().err().map(|e| e.0.as_str()),
            );
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

impl UpdateTarget for UpdateEndpoint {
    fn describe(&self) -> String {
        self.update_url.clone()
    }

    fn update(&self, step: &str, update: &str, retry: bool) -> Result<(), String> {
        self.send_update(step, update, retry)
    }

    fn select(&self, step: &str, query: &spargebra::Query) -> Result<SolutionTable, String> {
        let started = Instant::now();
        let answer = self.reads.select(query).map_err(|e| format!("{step}: {e}"));
        self.record(
            step,
            &query.to_string(),
            started.elapsed(),
            answer.as_ref().err().map(String::as_str),
        );
        answer
    }
}

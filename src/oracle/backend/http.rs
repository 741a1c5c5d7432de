//! The remote backend: SPARQL 1.1 Protocol over HTTP (reqwest, rustls), with the quirks of
//! real endpoints handled rather than hoped away.
//!
//! - Queries go as form-encoded POST by default (`application/sparql-query` bodies hang
//!   Virtuoso; long GET URLs are silently truncated there), GET and direct POST on request.
//! - Every request has a timeout; timeouts, connection errors, 429 and 5xx are retried a
//!   bounded number of times with exponential backoff and jitter, honouring `Retry-After`.
//! - A politeness delay spaces request starts (its default follows the host, and it adapts
//!   to throttling: see [`super::politeness`]) and a semaphore bounds concurrency; a query
//!   budget stops a run that would send too many.
//! - Once a deadline is set ([`SparqlBackend::set_deadline`]), a request that cannot start
//!   before it is not sent, each request's timeout and each backoff sleep is cut to what is
//!   left, and a timeout that the deadline caused ends the query with
//!   `BudgetExhausted::Deadline` instead of being retried.
//! - A result of exactly `max_rows` rows, or one that reaches the cap named by Virtuoso's
//!   `X-SPARQL-MaxRows` header, is taken as truncated: the query is re-run page by page (`ORDER BY` all projected variables,
//!   `LIMIT`/`OFFSET`). Where the endpoint refuses to sort that deep (Virtuoso's
//!   `MaxSortedTopRows`, 10,000 by default on public endpoints: error `SR353`), the query's
//!   `VALUES` block is halved instead and each half answered the same way, recursively, so a
//!   capped answer still ends complete. A partial answer (Virtuoso's anytime `X-SQL-State: S1TAT`) or a body
//!   that does not parse after `200 OK` is an error, never an empty answer.
//! - Errors carry the endpoint's message and the query; credentials never appear in them.
//!
//! Learners are synchronous and rayon-parallel: the backend owns one tokio runtime and every
//! call hands its request to that runtime and waits on a channel, so it works from any thread
//! (even one inside another runtime) without nesting runtimes.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::{Duration, Instant};

use oxigraph::model::Term;
use rand::Rng;
use reqwest::StatusCode;
use reqwest::header::{ACCEPT, CONTENT_TYPE, HeaderMap, RETRY_AFTER};
use sparesults::QueryResultsFormat;
use spargebra::Query;
use spargebra::algebra::{Expression, GraphPattern, OrderExpression};
use tokio::sync::Semaphore;

use super::deadline::{DeadlineCell, exhausted};
use super::politeness::{Politeness, PolitenessReport, default_for_endpoint};
use super::results::parse_solutions;
use super::rewrite::without_nested_exists;
use super::{Auth, Capabilities, SolutionTable, SparqlBackend};
use crate::oracle::{BudgetExhausted, OracleError};

/// How the query is sent (`--method form|get|direct` on the command line).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
#[cfg_attr(feature = "cli", derive(clap::ValueEnum))]
pub enum QueryMethod {
    /// `POST` with `application/x-www-form-urlencoded` (`query=…`): works everywhere.
    #[default]
    #[cfg_attr(
        feature = "cli",
        value(name = "form", help = "Form-encoded POST (works everywhere)")
    )]
    FormPost,
    /// `GET ?query=…` (URLs over ~8–10 KB fail on common servers).
    #[cfg_attr(feature = "cli", value(help = "GET with the query in the URL"))]
    Get,
    /// `POST` with `application/sparql-query` (hangs Virtuoso 7).
    #[cfg_attr(
        feature = "cli",
        value(name = "direct", help = "POST with an application/sparql-query body")
    )]
    DirectPost,
}

/// Which result serialisation is asked for.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum ResultsSyntax {
    #[default]
    Json,
    Xml,
}

/// Settings of the HTTP backend. Defaults are polite enough for a public endpoint.
#[derive(Clone, Debug)]
pub struct HttpOptions {
    /// The SPARQL query endpoint URL.
    pub endpoint: String,
    /// `default-graph-uri` parameters (always send one to Virtuoso: its default graph is the
    /// union of every graph, system graphs included).
    pub default_graphs: Vec<String>,
    /// `named-graph-uri` parameters.
    pub named_graphs: Vec<String>,
    pub method: QueryMethod,
    /// The results syntax asked for. With JSON (the default), answers switch to XML once
    /// the capability probe finds Virtuoso, whose JSON writer is the slower by far.
    pub results: ResultsSyntax,
    /// Whole-request timeout (connect, send, answer).
    pub timeout: Duration,
    pub connect_timeout: Duration,
    /// Retries after the first attempt.
    pub retries: u32,
    /// First backoff delay; doubled per retry, plus up to the same again as jitter.
    pub backoff: Duration,
    pub max_backoff: Duration,
    /// Minimum time between the starts of two requests: the floor of the adaptive delay
    /// (see [`super::politeness`]). [`HttpOptions::new`] picks it from the host: zero for
    /// loopback and private networks, 50 ms otherwise.
    pub politeness: Duration,
    /// Requests in flight at once.
    pub concurrency: usize,
    /// Requests allowed in this backend's life (`None`: unlimited).
    pub budget: Option<u64>,
    /// The endpoint's row cap (Virtuoso's `ResultSetMaxRows`, 10,000 by default): an answer of
    /// this many rows (or of the cap named in `X-SPARQL-MaxRows`) is treated as truncated and
    /// paged with pages of this size.
    pub max_rows: usize,
    pub auth: Option<Auth>,
}

impl HttpOptions {
    pub fn new(endpoint: impl Into<String>) -> Self {
        let endpoint = endpoint.into();
        HttpOptions {
            politeness: default_for_endpoint(&endpoint),
            endpoint,
            default_graphs: Vec::new(),
            named_graphs: Vec::new(),
            method: QueryMethod::default(),
            results: ResultsSyntax::default(),
            timeout: Duration::from_secs(60),
            connect_timeout: Duration::from_secs(10),
            retries: 3,
            backoff: Duration::from_millis(500),
            max_backoff: Duration::from_secs(30),
            concurrency: 2,
            budget: None,
            max_rows: 10_000,
            auth: None,
        }
    }

    /// Settings for a server on this machine: no politeness delay, more concurrency.
    pub fn local(endpoint: impl Into<String>) -> Self {
        HttpOptions {
            politeness: Duration::ZERO,
            concurrency: 4,
            backoff: Duration::from_millis(100),
            ..HttpOptions::new(endpoint)
        }
    }

    pub fn with_default_graph(mut self, graph: impl Into<String>) -> Self {
        self.default_graphs.push(graph.into());
        self
    }
}

/// What one attempt produced.
enum Attempt {
    /// The rows, and the row cap when the answer reached it (then it may be cut).
    Done(SolutionTable, Option<usize>),
    Retry(String, Option<Duration>),
    Fail(String),
    /// The request's timeout, cut short by the run's deadline, ran out.
    Deadline,
}

struct Shared {
    client: reqwest::Client,
    options: HttpOptions,
    /// The endpoint URL without userinfo, for messages.
    shown_endpoint: String,
    semaphore: Semaphore,
    politeness: Politeness,
    deadline: DeadlineCell,
    sent: AtomicU64,
    /// Ask for XML results: chosen in the options, or once the probe found Virtuoso, whose
    /// JSON writer is slow (2.5–3.5× the time of XML for the same rows on carcinogenesis).
    xml: AtomicBool,
}

/// A SPARQL endpoint reached over HTTP.
pub struct HttpBackend {
    shared: Arc<Shared>,
    /// What the capability probe found (the shapes oracles over this backend write).
    probed: std::sync::Mutex<Option<Capabilities>>,
    /// Always `Some` until dropped (taken in `Drop` to shut down without blocking).
    runtime: Option<tokio::runtime::Runtime>,
}

impl Drop for HttpBackend {
    /// A runtime dropped inside async code panics; shutting it down in the background does not.
    fn drop(&mut self) {
        if let Some(runtime) = self.runtime.take() {
            runtime.shutdown_background();
        }
    }
}

impl HttpBackend {
    pub fn new(options: HttpOptions) -> Result<Self, OracleError> {
        let mut url = reqwest::Url::parse(&options.endpoint).map_err(|e| OracleError::Backend {
            backend: "the endpoint".into(),
            message: format!("not a valid endpoint URL: {e}"),
            query: String::new(),
        })?;
        let _ = url.set_username("");
        let _ = url.set_password(None);
        let shown_endpoint = url.to_string();
        if !matches!(url.scheme(), "http" | "https") {
            return Err(OracleError::Backend {
                backend: shown_endpoint,
                message: "the endpoint URL must be http:// or https://".into(),
                query: String::new(),
            });
        }
        let runtime = tokio::runtime::Builder::new_multi_thread()
            .worker_threads(2)
            .thread_name("oxilearn-http")
            .enable_all()
            .build()
            .map_err(|e| OracleError::Backend {
                backend: shown_endpoint.clone(),
                message: format!("cannot start the HTTP runtime: {e}"),
                query: String::new(),
            })?;
        let client = reqwest::Client::builder()
            .timeout(options.timeout)
            .connect_timeout(options.connect_timeout)
            .user_agent(concat!("oxilearn/", env!("CARGO_PKG_VERSION")))
            .build()
            .map_err(|e| OracleError::Backend {
                backend: shown_endpoint.clone(),
                message: format!("cannot build the HTTP client: {e}"),
                query: String::new(),
            })?;
        Ok(HttpBackend {
            shared: Arc::new(Shared {
                client,
                semaphore: Semaphore::new(options.concurrency.max(1)),
                politeness: Politeness::new(
                    options.politeness,
                    options.max_backoff.max(options.politeness),
                ),
                deadline: DeadlineCell::default(),
                sent: AtomicU64::new(0),
                xml: AtomicBool::new(options.results == ResultsSyntax::Xml),
                options,
                shown_endpoint,
            }),
            probed: std::sync::Mutex::new(None),
            runtime: Some(runtime),
        })
    }

    pub fn options(&self) -> &HttpOptions {
        &self.shared.options
    }

    /// HTTP requests sent so far (retries and pages included).
    pub fn requests_sent(&self) -> u64 {
        self.shared.sent.load(Ordering::Relaxed)
    }

    /// Runs a future on the backend's runtime from any thread and waits for it.
    fn block_on<T: Send + 'static>(
        &self,
        future: impl std::future::Future<Output = T> + Send + 'static,
    ) -> Option<T> {
        let (tx, rx) = std::sync::mpsc::channel();
        self.runtime.as_ref()?.spawn(async move {
            let _ = tx.send(future.await);
        });
        rx.recv().ok()
    }
}

impl Shared {
    /// The results syntax asked for now (see [`Shared::xml`]).
    fn syntax(&self) -> ResultsSyntax {
        if self.xml.load(Ordering::Relaxed) {
            ResultsSyntax::Xml
        } else {
            ResultsSyntax::Json
        }
    }

    fn error(&self, query: &str, message: impl Into<String>) -> OracleError {
        OracleError::Backend {
            backend: self.shown_endpoint.clone(),
            message: message.into(),
            query: query.to_string(),
        }
    }

    /// All rows of `query`: one request, or pages when the answer is capped, or halves of its
    /// `VALUES` block when the endpoint cannot page that deep.
    fn select_all(
        self: Arc<Self>,
        query: Query,
    ) -> std::pin::Pin<
        Box<dyn std::future::Future<Output = Result<SolutionTable, OracleError>> + Send>,
    > {
        Box::pin(async move {
            let text = query.to_string();
            let (table, capped) = self.run_with_retries(&text).await?;
            let Some(cap) = capped else {
                return Ok(table);
            };
            match Arc::clone(&self).page(&query, &text, table, cap).await {
                Err(e) if is_sort_limit(&e) => self.select_halves(&query, e).await,
                other => other,
            }
        })
    }

    /// Answers the two halves of the query's `VALUES` block and joins their rows.
    async fn select_halves(
        self: Arc<Self>,
        query: &Query,
        cause: OracleError,
    ) -> Result<SolutionTable, OracleError> {
        let Some((first, second)) = split_values(query) else {
            return Err(self.error(
                &query.to_string(),
                format!(
                    "the answer is capped, paging past the endpoint's sort limit fails, and \
                     the query has no VALUES block left to split: {cause}"
                ),
            ));
        };
        let mut table = Arc::clone(&self).select_all(first).await?;
        let rest = self.select_all(second).await?;
        if rest.variables == table.variables {
            table.rows.extend(rest.rows);
        } else {
            for row in rest.rows {
                let mut aligned = vec![None; table.variables.len()];
                for (v, cell) in rest.variables.iter().zip(row) {
                    if let Some(i) = table.variables.iter().position(|w| w == v) {
                        aligned[i] = cell;
                    }
                }
                table.rows.push(aligned);
            }
        }
        Ok(table)
    }

    /// Pages through an ordered version of a capped query, pages of the cap.
    async fn page(
        self: Arc<Self>,
        query: &Query,
        text: &str,
        table: SolutionTable,
        cap: usize,
    ) -> Result<SolutionTable, OracleError> {
        // Cut by the endpoint's row cap: page through an ordered version, pages of the cap.
        let page = cap.max(1);
        let mut all = SolutionTable {
            variables: table.variables.clone(),
            rows: Vec::new(),
        };
        let mut offset = 0;
        let mut previous_first: Option<Vec<Option<Term>>> = None;
        loop {
            let paged = paged_query(query, &table.variables, offset, page).ok_or_else(|| {
                self.error(text, "truncated answer to a query that cannot be paged")
            })?;
            let paged_text = paged.to_string();
            let (chunk, page_capped) = self.run_with_retries(&paged_text).await?;
            if page_capped.is_some_and(|c| c < page) {
                return Err(self.error(&paged_text, "the row cap changed while paging"));
            }
            let n = chunk.rows.len();
            // An endpoint that ignores OFFSET sends the same page again: stop, loudly.
            let first = chunk.rows.first().cloned();
            if n == page && first.is_some() && first == previous_first {
                return Err(self.error(
                    &paged_text,
                    "paging does not advance (the endpoint seems to ignore OFFSET)",
                ));
            }
            previous_first = first;
            all.rows.extend(chunk.rows);
            if n < page {
                return Ok(all);
            }
            offset += page;
        }
    }

    async fn run_with_retries(
        &self,
        query: &str,
    ) -> Result<(SolutionTable, Option<usize>), OracleError> {
        let mut attempt = 0;
        loop {
            let outcome = {
                self.deadline.remaining()?;
                let permit = self.semaphore.acquire();
                let _permit = match self.deadline.get() {
                    Some(d) => tokio::time::timeout_at(d.into(), permit)
                        .await
                        .map_err(|_| exhausted())?,
                    None => permit.await,
                }
                .map_err(|_| self.error(query, "backend shut down"))?;
                // Reserve a request of the budget atomically, so concurrent callers cannot
                // all pass a check made before they waited for a permit.
                let budget = self.options.budget;
                if self
                    .sent
                    .fetch_update(Ordering::SeqCst, Ordering::SeqCst, |n| match budget {
                        Some(b) if n >= b => None,
                        _ => Some(n + 1),
                    })
                    .is_err()
                {
                    return Err(OracleError::BudgetExhausted(BudgetExhausted::Queries {
                        limit: budget.unwrap_or(0),
                    }));
                }
                if self
                    .politeness
                    .wait_turn(self.deadline.get())
                    .await
                    .is_err()
                {
                    // Not sent after all: give the reserved request back.
                    self.sent.fetch_sub(1, Ordering::SeqCst);
                    return Err(exhausted());
                }
                // The request's timeout is what is left of the run, when that is shorter.
                let (timeout, cut) = match self.deadline.remaining() {
                    Ok(Some(left)) if left < self.options.timeout => (left, true),
                    Ok(_) => (self.options.timeout, false),
                    Err(e) => {
                        self.sent.fetch_sub(1, Ordering::SeqCst);
                        return Err(e);
                    }
                };
                let started = Instant::now();
                let outcome = self.attempt(query, timeout, cut).await;
                if let Attempt::Done(..) = outcome {
                    self.politeness.answered(started.elapsed());
                }
                outcome
            };
            match outcome {
                Attempt::Done(table, truncated) => return Ok((table, truncated)),
                Attempt::Fail(message) => return Err(self.error(query, message)),
                Attempt::Deadline => return Err(exhausted()),
                Attempt::Retry(message, retry_after) => {
                    if attempt >= self.options.retries {
                        return Err(self.error(
                            query,
                            format!("{message} (gave up after {} attempts)", attempt + 1),
                        ));
                    }
                    let sleep = self.backoff(attempt, retry_after);
                    // A retry that could only start after the deadline is not waited for.
                    if let Some(left) = self.deadline.remaining()?
                        && sleep >= left
                    {
                        return Err(exhausted());
                    }
                    tokio::time::sleep(sleep).await;
                    attempt += 1;
                }
            }
        }
    }

    fn backoff(&self, attempt: u32, retry_after: Option<Duration>) -> Duration {
        let base = self.options.backoff.saturating_mul(1 << attempt.min(16));
        let jitter = self
            .options
            .backoff
            .mul_f64(rand::rng().random_range(0.0..1.0));
        let delay = retry_after.unwrap_or(base + jitter);
        delay.min(self.options.max_backoff.max(self.options.backoff))
    }

    fn request(&self, query: &str, timeout: Duration) -> reqwest::RequestBuilder {
        let o = &self.options;
        let mut params: Vec<(&str, &str)> = Vec::new();
        for g in &o.default_graphs {
            params.push(("default-graph-uri", g));
        }
        for g in &o.named_graphs {
            params.push(("named-graph-uri", g));
        }
        let builder = match o.method {
            QueryMethod::FormPost => {
                let mut form = params.clone();
                form.push(("query", query));
                self.client.post(&o.endpoint).form(&form)
            }
            QueryMethod::Get => {
                let mut all = params.clone();
                all.push(("query", query));
                self.client.get(&o.endpoint).query(&all)
            }
            QueryMethod::DirectPost => self
                .client
                .post(&o.endpoint)
                .query(&params)
                .header(CONTENT_TYPE, "application/sparql-query")
                .body(query.to_string()),
        };
        let accept = match self.syntax() {
            ResultsSyntax::Json => "application/sparql-results+json",
            ResultsSyntax::Xml => "application/sparql-results+xml",
        };
        let builder = builder.header(ACCEPT, accept).timeout(timeout);
        match &o.auth {
            Some(Auth::Basic { user, password }) => builder.basic_auth(user, Some(password)),
            Some(Auth::Bearer(token)) => builder.bearer_auth(token),
            None => builder,
        }
    }

    /// One request with this `timeout`; `cut` says the deadline set it (then running out of
    /// time is the deadline's doing, not the endpoint's fault, and is not retried).
    async fn attempt(&self, query: &str, timeout: Duration, cut: bool) -> Attempt {
        let response = match self.request(query, timeout).send().await {
            Ok(r) => r,
            Err(e) if e.is_timeout() && cut => return Attempt::Deadline,
            Err(e) if e.is_timeout() => {
                return Attempt::Retry(
                    format!("no answer within {:?}", self.options.timeout),
                    None,
                );
            }
            Err(e) if e.is_connect() || e.is_request() => {
                return Attempt::Retry(format!("connection failed: {}", without_url(&e)), None);
            }
            Err(e) => return Attempt::Fail(format!("request failed: {}", without_url(&e))),
        };
        let status = response.status();
        let headers = response.headers().clone();
        let body = match response.bytes().await {
            Ok(b) => b,
            Err(e) if e.is_timeout() && cut => return Attempt::Deadline,
            Err(e) if e.is_timeout() => {
                return Attempt::Retry("answer cut off by the timeout".into(), None);
            }
            Err(e) => {
                return Attempt::Retry(format!("answer cut off: {}", without_url(&e)), None);
            }
        };
        let throttled = status == StatusCode::TOO_MANY_REQUESTS
            || status == StatusCode::SERVICE_UNAVAILABLE
            || headers.contains_key(RETRY_AFTER);
        if throttled {
            self.politeness.throttled(retry_after(&headers)).await;
        }
        if !status.is_success() {
            let message = format!("HTTP {status}: {}", excerpt(&body));
            // Refusing to sort that deep is no transient fault: the caller splits instead.
            if is_sort_limit_message(&message) {
                return Attempt::Fail(message);
            }
            return if status == StatusCode::TOO_MANY_REQUESTS || status.is_server_error() {
                Attempt::Retry(message, retry_after(&headers))
            } else {
                Attempt::Fail(message)
            };
        }
        if let Some(state) = headers.get("x-sql-state")
            && state.as_bytes().eq_ignore_ascii_case(b"S1TAT")
        {
            return Attempt::Retry(
                "the endpoint returned a partial (anytime) answer after its time limit".into(),
                None,
            );
        }
        let syntax = match headers
            .get(CONTENT_TYPE)
            .and_then(|v| v.to_str().ok())
            .unwrap_or("")
        {
            ct if ct.contains("xml") => QueryResultsFormat::Xml,
            ct if ct.contains("json") => QueryResultsFormat::Json,
            ct if ct.contains("html") => {
                return Attempt::Fail(format!(
                    "the endpoint answered HTML ({ct}), not SPARQL results: {}",
                    excerpt(&body)
                ));
            }
            _ => match self.syntax() {
                ResultsSyntax::Json => QueryResultsFormat::Json,
                ResultsSyntax::Xml => QueryResultsFormat::Xml,
            },
        };
        match parse_solutions(syntax, &body) {
            Ok(table) => {
                // Virtuoso names its cap in `X-SPARQL-MaxRows`: an answer that reaches it may
                // be cut. Without the header, only an answer of exactly the configured cap is
                // suspect: a longer one proves that no such cap is in force (an Oxigraph
                // server's 18,000-row walk answer is whole, and paging it re-sorts it).
                let named_cap = headers
                    .get("x-sparql-maxrows")
                    .and_then(|v| v.to_str().ok())
                    .and_then(|v| v.trim().parse::<usize>().ok());
                let rows = table.rows.len();
                let capped = match named_cap {
                    Some(cap) => (rows >= cap).then_some(cap.min(self.options.max_rows)),
                    None => (rows == self.options.max_rows).then_some(self.options.max_rows),
                };
                Attempt::Done(table, capped)
            }
            Err(message) => Attempt::Retry(
                format!("the answer after 200 OK is not valid SPARQL results: {message}"),
                None,
            ),
        }
    }
}

/// Virtuoso's refusal to sort past `MaxSortedTopRows` (error `SR353`, "Sorted TOP clause
/// specifies more then N rows to sort").
fn is_sort_limit_message(message: &str) -> bool {
    message.contains("SR353") || message.contains("Sorted TOP clause")
}

fn is_sort_limit(e: &OracleError) -> bool {
    matches!(e, OracleError::Backend { message, .. } if is_sort_limit_message(message))
}

/// The query with its outermost `VALUES` block (the examples) cut in two halves, or `None`
/// when it has none with two bindings or more.
fn split_values(query: &Query) -> Option<(Query, Query)> {
    let Query::Select {
        dataset,
        pattern,
        base_iri,
    } = query
    else {
        return None;
    };
    let (a, b) = split_pattern(pattern)?;
    let select = |pattern| Query::Select {
        dataset: dataset.clone(),
        pattern,
        base_iri: base_iri.clone(),
    };
    Some((select(a), select(b)))
}

/// Finds the first `VALUES` outside any expression (through projections, filters, joins,
/// slices and orderings) and returns the pattern twice, once with each half of its rows.
fn split_pattern(pattern: &GraphPattern) -> Option<(GraphPattern, GraphPattern)> {
    let both = |inner: &GraphPattern, rebuild: &dyn Fn(GraphPattern) -> GraphPattern| {
        split_pattern(inner).map(|(a, b)| (rebuild(a), rebuild(b)))
    };
    match pattern {
        GraphPattern::Values {
            variables,
            bindings,
        } if bindings.len() >= 2 => {
            let (a, b) = bindings.split_at(bindings.len() / 2);
            let values = |rows: &[Vec<Option<spargebra::term::GroundTerm>>]| GraphPattern::Values {
                variables: variables.clone(),
                bindings: rows.to_vec(),
            };
            Some((values(a), values(b)))
        }
        GraphPattern::Project { inner, variables } => both(inner, &|p| GraphPattern::Project {
            inner: Box::new(p),
            variables: variables.clone(),
        }),
        GraphPattern::Distinct { inner } => {
            both(inner, &|p| GraphPattern::Distinct { inner: Box::new(p) })
        }
        GraphPattern::Reduced { inner } => {
            both(inner, &|p| GraphPattern::Reduced { inner: Box::new(p) })
        }
        GraphPattern::Filter { expr, inner } => both(inner, &|p| GraphPattern::Filter {
            expr: expr.clone(),
            inner: Box::new(p),
        }),
        GraphPattern::Join { left, right } => both(left, &|p| GraphPattern::Join {
            left: Box::new(p),
            right: right.clone(),
        })
        .or_else(|| {
            both(right, &|p| GraphPattern::Join {
                left: left.clone(),
                right: Box::new(p),
            })
        }),
        _ => None,
    }
}

/// reqwest errors print the URL, which may carry credentials in userinfo: drop it.
fn without_url(e: &reqwest::Error) -> String {
    let mut e = e.to_string();
    if let Some(i) = e.find(" for url (") {
        e.truncate(i);
    }
    e
}

fn excerpt(body: &[u8]) -> String {
    let text = String::from_utf8_lossy(body);
    let text = text.trim();
    if text.chars().count() > 2000 {
        format!("{}…", text.chars().take(2000).collect::<String>())
    } else {
        text.to_string()
    }
}

fn retry_after(headers: &HeaderMap) -> Option<Duration> {
    let value = headers.get(RETRY_AFTER)?.to_str().ok()?;
    value.trim().parse::<u64>().ok().map(Duration::from_secs)
}

/// The variables a SELECT query projects (empty for other queries).
fn projected_variables(query: &Query) -> Vec<spargebra::term::Variable> {
    let Query::Select { pattern, .. } = query else {
        return Vec::new();
    };
    let mut p = pattern;
    loop {
        match p {
            GraphPattern::Project { variables, .. } => return variables.clone(),
            GraphPattern::Distinct { inner }
            | GraphPattern::Reduced { inner }
            | GraphPattern::Slice { inner, .. }
            | GraphPattern::OrderBy { inner, .. } => p = inner,
            _ => {
                let mut out = Vec::new();
                p.on_in_scope_variable(|v| out.push(v.clone()));
                return out;
            }
        }
    }
}

/// `SELECT vars WHERE { { original } } ORDER BY vars LIMIT page OFFSET offset`.
fn paged_query(
    query: &Query,
    variables: &[spargebra::term::Variable],
    offset: usize,
    page: usize,
) -> Option<Query> {
    let Query::Select {
        dataset,
        pattern,
        base_iri,
    } = query
    else {
        return None;
    };
    let ordered = GraphPattern::OrderBy {
        inner: Box::new(pattern.clone()),
        expression: variables
            .iter()
            .map(|v| OrderExpression::Asc(Expression::Variable(v.clone())))
            .collect(),
    };
    Some(Query::Select {
        dataset: dataset.clone(),
        pattern: GraphPattern::Slice {
            inner: Box::new(GraphPattern::Project {
                inner: Box::new(ordered),
                variables: variables.to_vec(),
            }),
            start: offset,
            length: Some(page),
        },
        base_iri: base_iri.clone(),
    })
}

impl SparqlBackend for HttpBackend {
    fn select(&self, query: &Query) -> Result<SolutionTable, OracleError> {
        let shared = Arc::clone(&self.shared);
        let q = match self.probed() {
            Some(caps) if !caps.nested_exists => without_nested_exists(query),
            _ => query.clone(),
        };
        let mut result = self.block_on(shared.select_all(q)).unwrap_or_else(|| {
            Err(self
                .shared
                .error(&query.to_string(), "the HTTP runtime stopped"))
        });
        // An empty answer that names no variables (Comunica's `"head": {}`) has the
        // query's columns.
        if let Ok(table) = &mut result
            && table.rows.is_empty()
            && table.variables.is_empty()
        {
            table.variables = projected_variables(query);
        }
        result
    }

    fn name(&self) -> String {
        self.shared.shown_endpoint.clone()
    }

    fn probed(&self) -> Option<Capabilities> {
        self.probed.lock().ok().and_then(|p| p.clone())
    }

    fn remember_probe(&self, caps: &Capabilities) {
        if caps.virtuoso {
            self.shared.xml.store(true, Ordering::Relaxed);
        }
        if let Ok(mut p) = self.probed.lock() {
            *p = Some(caps.clone());
        }
    }

    fn set_deadline(&self, deadline: Option<Instant>) {
        self.shared.deadline.set(deadline);
    }

    fn read_graphs(&self) -> Option<Vec<spargebra::term::NamedNode>> {
        let graphs = &self.shared.options.default_graphs;
        (!graphs.is_empty()).then(|| {
            graphs
                .iter()
                .map(|g| spargebra::term::NamedNode::new_unchecked(g.as_str()))
                .collect()
        })
    }

    fn politeness(&self) -> PolitenessReport {
        PolitenessReport {
            waited: self.shared.politeness.waited(),
            delay: self.shared.politeness.current(),
        }
    }

    fn row_cap(&self) -> Option<usize> {
        Some(self.shared.options.max_rows)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paging_orders_by_every_variable() {
        let q = spargebra::SparqlParser::new()
            .parse_query("SELECT DISTINCT ?x WHERE { ?x ?p ?o }")
            .unwrap();
        let vars = vec![spargebra::term::Variable::new_unchecked("x")];
        let paged = paged_query(&q, &vars, 20, 10).unwrap().to_string();
        assert!(paged.contains("ORDER BY"), "{paged}");
        assert!(paged.contains("LIMIT 10"), "{paged}");
        assert!(paged.contains("OFFSET 20"), "{paged}");
        // The printed query parses again.
        spargebra::SparqlParser::new().parse_query(&paged).unwrap();
    }

    #[test]
    fn invalid_urls_are_refused_clearly() {
        let e = HttpBackend::new(HttpOptions::new("not a url"))
            .err()
            .unwrap();
        assert!(e.to_string().contains("not a valid endpoint URL"));
        let e = HttpBackend::new(HttpOptions::new("ftp://x/sparql"))
            .err()
            .unwrap();
        assert!(e.to_string().contains("http"));
    }
}

//! Argument pieces several commands share (clap derive): where the KB comes from, which
//! individuals a model is applied to, the semantics. A leaf: it imports nothing from the
//! CLI, so every command module can use it without an import circle.

use std::path::PathBuf;

use clap::Args;

use crate::oracle::backend::QueryMethod;

/// The heading of the options `--help` leaves to `oxilearn help endpoint`.
pub const ENDPOINT_HEADING: &str = "Endpoint options";

/// Where the knowledge base comes from.
#[derive(Debug, Args, Clone)]
pub struct KbArgs {
    /// Knowledge-base file(s): RDF/XML, Turtle, N-Triples, N-Quads, TriG, OWL/XML, OWL
    /// functional syntax, Manchester syntax; `.gz` is decompressed.
    #[arg(long = "kb", value_name = "FILE")]
    pub kb: Vec<PathBuf>,
    /// Override the format detected from the extension and content
    /// (rdfxml, turtle, ntriples, nquads, trig, owlxml, ofn).
    #[arg(long, value_name = "FORMAT")]
    pub format: Option<String>,
    /// A SPARQL 1.1 query endpoint instead of files (credentials from --auth-file, else
    /// OXILEARN_ENDPOINT_TOKEN, or OXILEARN_ENDPOINT_USER and OXILEARN_ENDPOINT_PASSWORD).
    #[arg(long, value_name = "URL", conflicts_with = "kb")]
    pub endpoint: Option<String>,
    /// The graph to query at the endpoint (sent as default-graph-uri; repeatable).
    #[arg(long = "graph", value_name = "IRI", requires = "endpoint", help_heading = ENDPOINT_HEADING)]
    pub graph: Vec<String>,
    /// Per-request timeout in seconds (endpoints).
    #[arg(long, value_name = "SECS", default_value_t = 60.0, help_heading = ENDPOINT_HEADING)]
    pub timeout: f64,
    /// How queries are sent to the endpoint.
    #[arg(long, value_enum, default_value_t, help_heading = ENDPOINT_HEADING)]
    pub method: QueryMethod,
    /// Milliseconds between the starts of two requests: default 0 for loopback and
    /// private-network hosts, 50 for others; the delay adapts to 429/503/Retry-After.
    #[arg(long, value_name = "MS", help_heading = ENDPOINT_HEADING)]
    pub politeness_ms: Option<u64>,
    /// Requests in flight at once.
    #[arg(long, value_name = "N", default_value_t = 2, help_heading = ENDPOINT_HEADING)]
    pub concurrency: usize,
    /// Most requests this run may send.
    #[arg(long, value_name = "N", help_heading = ENDPOINT_HEADING)]
    pub query_budget: Option<u64>,
    /// The endpoint's result-row cap (answers that reach it are paged).
    #[arg(long, value_name = "N", default_value_t = 10_000, help_heading = ENDPOINT_HEADING)]
    pub max_rows: usize,
    /// Examples per VALUES block (Virtuoso fails beyond ~4,000 terms).
    #[arg(long, value_name = "N", default_value_t = 1000, help_heading = ENDPOINT_HEADING)]
    pub values_chunk: usize,
    /// Concepts packed into one query when a batch is scored (1: a query per concept).
    #[arg(long, value_name = "N", default_value_t = 1, help_heading = ENDPOINT_HEADING)]
    pub pack_size: usize,
    /// Endpoint credentials from a file of `key = value` lines: `token = …` (bearer), or
    /// `user = …` and `password = …` (basic); `#` comments. Wins over the environment.
    #[arg(long, value_name = "PATH", requires = "endpoint", help_heading = ENDPOINT_HEADING)]
    pub auth_file: Option<PathBuf>,
    /// Learning commands: role steps from the examples whose individuals the run reads
    /// (split points, successor lists, the minimiser); deeper concepts are still answered
    /// exactly by the store.
    #[arg(long, value_name = "N", default_value_t = 2, help_heading = ENDPOINT_HEADING)]
    pub scope_depth: usize,
    /// Learning commands: most individuals the examples' neighbourhood may hold.
    #[arg(long, value_name = "N", default_value_t = 250_000, help_heading = ENDPOINT_HEADING)]
    pub scope_max_individuals: usize,
    /// Read every individual of the KB, by name: learning commands read it instead of the
    /// examples' neighbourhood (slow on a large KB; answers are the same); `predict` and
    /// `enrich` apply the model to every individual; on an endpoint, `signature`,
    /// `instances --semantics open` and `cluster` read the whole active domain.
    #[arg(long)]
    pub whole_kb: bool,
    /// Append every SELECT sent to the store (time, rows, text) as a JSON line to FILE.
    #[arg(long, value_name = "FILE")]
    pub log_queries: Option<PathBuf>,
    /// Also read the graphs of predictions `enrich` wrote (left out by default, so that
    /// learning never takes its own output for facts).
    #[arg(long, help_heading = ENDPOINT_HEADING)]
    pub include_predictions: bool,
    /// Endpoints: read the schema and probe the endpoint again, ignoring and rewriting the
    /// signature cache (kept in $OXILEARN_CACHE_DIR, else $XDG_CACHE_HOME/oxilearn or
    /// ~/.cache/oxilearn; used while a fingerprint of the schema is unchanged).
    #[arg(long, help_heading = ENDPOINT_HEADING)]
    pub refresh_signature: bool,
}

/// Which individuals a model is applied to (`predict`, `enrich`), and how the run is paged.
/// Without any of `--scope`, `--scope-query`, `--individuals` or `--whole-kb`: the model's
/// own support where it has one (a class expression; a TBC model with closed-world features
/// under which "no feature holds" means "not a member"), else the command asks for one.
#[derive(Debug, Args, Clone)]
pub struct ApplyArgs {
    /// The instances of this class expression (Manchester or DL syntax), listed by the store.
    #[arg(
        long,
        value_name = "EXPR",
        alias = "class",
        conflicts_with_all = ["scope_query", "individuals"]
    )]
    pub scope: Option<String>,
    /// The IRIs a SPARQL `SELECT ?v WHERE { … }` binds to its one variable (`@FILE` reads
    /// the query from FILE); listed page by page, keyed, so no row cap truncates it.
    #[arg(long, value_name = "SPARQL", conflicts_with = "individuals")]
    pub scope_query: Option<String>,
    /// The examples (positives and negatives) of these problems.
    #[arg(long, value_name = "LPFILE")]
    pub individuals: Option<PathBuf>,
    /// Individuals per page (per request where the store evaluates the model); endpoints
    /// cap it below --max-rows.
    #[arg(long, value_name = "N", default_value_t = crate::enrich::apply::DEFAULT_PAGE)]
    pub page_size: usize,
    /// `enrich` at an endpoint: candidates per `INSERT … WHERE` request where the store
    /// evaluates a class expression itself (no rows come back, so no row cap applies; each
    /// request costs the store a scan of all candidates).
    #[arg(long, value_name = "N", default_value_t = crate::enrich::apply::DEFAULT_STORE_PAGE)]
    pub store_page_size: usize,
    /// Stop after this many seconds (0: no limit). `enrich` then writes nothing; `predict`
    /// fails after the pages it printed.
    #[arg(long, value_name = "SECS", default_value_t = 0.0)]
    pub max_runtime: f64,
}

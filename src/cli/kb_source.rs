//! Opening a knowledge base for a command: load the files, read the signature, wrap the
//! oracle in the cache.

use std::path::PathBuf;
use std::str::FromStr;
use std::sync::Arc;

use anyhow::{Context, bail};
use oxigraph::store::Store;

use std::time::Duration;

use super::args::{KbArgs, MethodArg};
use crate::concept::Iri;
use crate::concept::{self, Concept, Vocabulary};
use crate::kb::{self, KbFormat};
use crate::oracle::backend::{
    Auth, EmbeddedBackend, HttpBackend, HttpOptions, QueryLog, QueryMethod, SparqlBackend,
    require_capabilities,
};
use crate::oracle::sparql::TransitiveShape;
use crate::oracle::{
    CacheOptions, Cached, IndividualScope, Neighbourhood, OracleOptions, Signature, SparqlOracle,
};
use crate::problem::LearningProblem;

/// The oracle stack every command uses, over a file-backed store or an endpoint.
pub type SessionOracle = Cached<SparqlOracle<Box<dyn SparqlBackend>>>;

/// A loaded knowledge base, ready to answer.
pub struct Session {
    /// The in-memory store when the KB came from files (`None` for an endpoint).
    pub store: Option<Store>,
    pub oracle: SessionOracle,
    pub vocabulary: Vocabulary,
    pub triples: usize,
}

impl Session {
    pub fn signature(&self) -> Arc<Signature> {
        self.oracle.inner().shared_signature()
    }

    /// Parses a concept typed by the user against the KB's names.
    pub fn parse_concept(&self, text: &str) -> anyhow::Result<Concept> {
        concept::parse(text, &self.vocabulary).with_context(|| format!("parsing concept `{text}`"))
    }

    pub fn manchester(&self, c: &Concept) -> String {
        concept::to_manchester(c, &self.vocabulary)
    }

    pub fn dl(&self, c: &Concept) -> String {
        concept::to_dl(c, &self.vocabulary)
    }
}

/// Loads the files into a fresh in-memory store.
pub fn load_store(files: &[PathBuf], format: Option<&str>) -> anyhow::Result<(Store, usize)> {
    if files.is_empty() {
        bail!("no knowledge base given: pass --kb FILE");
    }
    let format = format
        .map(|f| KbFormat::from_str(f).map_err(|e| anyhow::anyhow!("--format {f}: {e}")))
        .transpose()?;
    let store = Store::new().context("creating the in-memory store")?;
    let mut triples = 0;
    for file in files {
        let report = kb::load_file(&store, file, format)
            .with_context(|| format!("loading {}", file.display()))?;
        for warning in &report.warnings {
            eprintln!("warning: {}: {warning}", file.display());
        }
        triples += report.triples_loaded;
    }
    Ok((store, triples))
}

/// Opens the endpoint of `--endpoint`, or the KB files named by `--kb`, or `fallback` (e.g.
/// a .conf file's `ks.fileName`), over the whole active domain (for answers about the KB).
pub fn open(args: &KbArgs, fallback: Option<PathBuf>) -> anyhow::Result<Session> {
    open_in(args, fallback, IndividualScope::ActiveDomain)
}

/// [`open`] with the individuals of `scope` as the universe.
pub fn open_in(
    args: &KbArgs,
    fallback: Option<PathBuf>,
    scope: IndividualScope,
) -> anyhow::Result<Session> {
    if let Some(url) = &args.endpoint {
        return open_endpoint(args, url, scope);
    }
    let files = kb_files(args, fallback);
    let (store, triples) = load_store(&files, args.format.as_deref())?;
    session_over(store, triples, args, scope)
}

/// The files of `--kb`, else `fallback`.
pub fn kb_files(args: &KbArgs, fallback: Option<PathBuf>) -> Vec<PathBuf> {
    if args.kb.is_empty() {
        fallback.into_iter().collect()
    } else {
        args.kb.clone()
    }
}

/// The scope of a learning run over `problems`: their examples and what they reach (the
/// `--scope-*` flags), or the whole KB with `--whole-kb`.
pub fn learning_scope(
    args: &KbArgs,
    problems: &[LearningProblem],
    inverse_roles: bool,
) -> IndividualScope {
    if args.whole_kb {
        return IndividualScope::ActiveDomain;
    }
    let seeds = problems
        .iter()
        .flat_map(|p| p.positives.iter().chain(&p.negatives))
        .map(|s| Iri::new(s.as_str()));
    let mut n = Neighbourhood::of(seeds);
    n.depth = args.scope_depth;
    n.max_individuals = args.scope_max_individuals.max(1);
    n.inverse_roles = inverse_roles;
    IndividualScope::Neighbourhood(n)
}

pub fn oracle_options(args: &KbArgs) -> OracleOptions {
    OracleOptions {
        values_chunk: args.values_chunk.max(1),
        pack_size: args.pack_size.max(1),
        ..OracleOptions::default()
    }
}

/// Wraps an already filled store.
pub fn session_over(
    store: Store,
    triples: usize,
    args: &KbArgs,
    scope: IndividualScope,
) -> anyhow::Result<Session> {
    let backend = logged(args, Box::new(EmbeddedBackend::new(store.clone())))?;
    let options = OracleOptions {
        scope,
        ..oracle_options(args)
    };
    let oracle = SparqlOracle::new(backend, options).context("reading the signature")?;
    warn_if_truncated(&oracle);
    Ok(wrap(Some(store), oracle, triples))
}

/// The backend, writing each query to `--log-queries FILE` when given.
fn logged(
    args: &KbArgs,
    backend: Box<dyn SparqlBackend>,
) -> anyhow::Result<Box<dyn SparqlBackend>> {
    Ok(match &args.log_queries {
        Some(path) => Box::new(
            QueryLog::create(backend, path)
                .with_context(|| format!("creating the query log {}", path.display()))?,
        ),
        None => backend,
    })
}

/// Says when the examples' neighbourhood hit its individual limit.
fn warn_if_truncated(oracle: &SparqlOracle<Box<dyn SparqlBackend>>) {
    let scope = &oracle.signature_ref().scope;
    if scope.truncated {
        eprintln!(
            "warning: the examples' neighbourhood reached --scope-max-individuals ({} \
             individuals within {} steps): split points and successor lists see only part of \
             it (membership stays exact)",
            scope.individuals, scope.depth
        );
    }
}

fn wrap(
    store: Option<Store>,
    oracle: SparqlOracle<Box<dyn SparqlBackend>>,
    triples: usize,
) -> Session {
    let vocabulary = oracle.signature_ref().vocabulary();
    Session {
        store,
        oracle: Cached::new(oracle, CacheOptions::default()),
        vocabulary,
        triples,
    }
}

/// The HTTP settings from the command line.
pub fn http_options(args: &KbArgs, url: &str) -> anyhow::Result<HttpOptions> {
    if !(args.timeout.is_finite() && args.timeout > 0.0) {
        bail!(
            "--timeout must be a positive number of seconds, not {}",
            args.timeout
        );
    }
    let mut options = HttpOptions::new(url);
    options.default_graphs = args.graph.clone();
    options.timeout = Duration::from_secs_f64(args.timeout);
    options.method = match args.method {
        MethodArg::Form => QueryMethod::FormPost,
        MethodArg::Get => QueryMethod::Get,
        MethodArg::Direct => QueryMethod::DirectPost,
    };
    // Without the flag, `HttpOptions::new` picked the host's default.
    if let Some(ms) = args.politeness_ms {
        options.politeness = Duration::from_millis(ms);
    }
    options.concurrency = args.concurrency.max(1);
    options.budget = args.query_budget;
    options.max_rows = args.max_rows.max(1);
    options.auth = match &args.auth_file {
        Some(file) => Some(Auth::from_file(file)?),
        None => Auth::from_env(),
    };
    Ok(options)
}

fn open_endpoint(args: &KbArgs, url: &str, scope: IndividualScope) -> anyhow::Result<Session> {
    // Logged from the first request on, the capability probe included.
    let backend = logged(args, Box::new(HttpBackend::new(http_options(args, url)?)?))?;
    let caps = require_capabilities(&backend).with_context(|| format!("probing {url}"))?;
    let shapes = caps.shapes();
    if !caps.counting() {
        eprintln!(
            "warning: {url} cannot answer grouped sub-selects correctly: cardinality \
             restrictions with n ≥ 2 are composed from successor lists where the cache can, \
             and refused otherwise"
        );
    }
    if shapes.transitive == TransitiveShape::Unavailable {
        eprintln!(
            "warning: {url} is Virtuoso, which answers transitive property paths wrongly: \
             concepts over transitive roles will be refused"
        );
    }
    // The oracle writes the shapes the probe picked (the backend remembers them).
    let options = OracleOptions {
        scope,
        ..oracle_options(args)
    };
    let oracle = SparqlOracle::new(backend, options)
        .with_context(|| format!("reading the signature from {url}"))?;
    warn_if_truncated(&oracle);
    Ok(wrap(None, oracle, 0))
}

//! Opening a knowledge base for a command, through the library's front door
//! ([`KnowledgeBase`]): the builder gets the flags' oracle options, the run's scope and
//! `--log-queries` (the log wraps the backend before an endpoint's capability probe, so
//! the probe's queries are logged too); files are loaded here so that loading and reading
//! the signature are timed apart; what opening found is printed as warnings.

use std::path::PathBuf;
use std::str::FromStr;

use anyhow::{Context, bail};
use oxigraph::store::Store;

use std::time::Duration;

use super::options::KbArgs;
use crate::concept::Iri;
use crate::files::{self, KbFormat, LoadReport};
use crate::knowledge_base::{KnowledgeBase, KnowledgeBaseBuilder};
use crate::oracle::backend::{Auth, HttpOptions};
use crate::oracle::{IndividualScope, Neighbourhood, OracleOptions, Signature};
use crate::problem::LearningProblem;

/// The endpoint of `--endpoint`, or the KB files named by `--kb`, or `fallback` (e.g. a
/// .conf file's `ks.fileName`), opened over the individuals of `scope`.
pub fn open_kb(
    args: &KbArgs,
    fallback: Option<PathBuf>,
    scope: IndividualScope,
) -> anyhow::Result<KnowledgeBase> {
    if let Some(url) = &args.endpoint {
        let kb = builder(args, scope).open_endpoint(http_options(args, url)?)?;
        return Ok(opened(kb));
    }
    let (store, reports) = load_files(&kb_files(args, fallback), args.format.as_deref())?;
    open_loaded(store, reports, args, scope)
}

/// Over the store [`load_files`] filled (the caller times the two steps apart).
pub fn open_loaded(
    store: Store,
    reports: Vec<LoadReport>,
    args: &KbArgs,
    scope: IndividualScope,
) -> anyhow::Result<KnowledgeBase> {
    Ok(opened(builder(args, scope).open_loaded(store, reports)?))
}

/// The front door's options from the flags: how queries are written, over which
/// individuals, the signature cache and the query log.
fn builder(args: &KbArgs, scope: IndividualScope) -> KnowledgeBaseBuilder {
    let mut builder = KnowledgeBase::builder()
        .oracle_options(OracleOptions {
            scope,
            ..oracle_options(args)
        })
        .include_predictions(args.include_predictions);
    // Only endpoints use it (see `KnowledgeBaseBuilder::signature_cache`).
    if let Some(dir) = crate::signature_cache::default_dir() {
        builder = builder
            .signature_cache(dir)
            .refresh_signature(args.refresh_signature);
    }
    match &args.log_queries {
        Some(path) => builder.log_queries(path),
        None => builder,
    }
}

/// Prints what opening found (loader and endpoint warnings, a truncated neighbourhood).
fn opened(kb: KnowledgeBase) -> KnowledgeBase {
    for w in kb.warnings() {
        eprintln!("warning: {w}");
    }
    warn_if_truncated(kb.signature());
    kb
}

/// Loads the files into a fresh in-memory store, with one report per file.
pub fn load_files(
    files: &[PathBuf],
    format: Option<&str>,
) -> anyhow::Result<(Store, Vec<LoadReport>)> {
    if files.is_empty() {
        bail!("no knowledge base given: pass --kb FILE");
    }
    let format = format
        .map(|f| KbFormat::from_str(f).map_err(|e| anyhow::anyhow!("--format {f}: {e}")))
        .transpose()?;
    let store = Store::new().context("creating the in-memory store")?;
    let mut reports = Vec::with_capacity(files.len());
    for file in files {
        reports.push(
            files::load_file(&store, file, format)
                .with_context(|| format!("loading {}", file.display()))?,
        );
    }
    Ok((store, reports))
}

/// Loads the files into a fresh in-memory store; the loader's warnings go to stderr.
pub fn load_store(files: &[PathBuf], format: Option<&str>) -> anyhow::Result<(Store, usize)> {
    let (store, reports) = load_files(files, format)?;
    for r in &reports {
        for warning in &r.warnings {
            eprintln!("warning: {}: {warning}", r.path.display());
        }
    }
    Ok((store, reports.iter().map(|r| r.triples_loaded).sum()))
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

/// Says when the examples' neighbourhood hit its individual limit.
fn warn_if_truncated(signature: &Signature) {
    let scope = &signature.scope;
    if scope.truncated {
        eprintln!(
            "warning: the examples' neighbourhood reached --scope-max-individuals ({} \
             individuals within {} steps): split points and successor lists see only part of \
             it (membership stays exact)",
            scope.individuals, scope.depth
        );
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
    options.method = args.method;
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

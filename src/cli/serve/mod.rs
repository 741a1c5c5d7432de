//! `oxilearn serve`: a SPARQL 1.1 Protocol endpoint over KB files loaded into an in-memory
//! store, with oxilearn's functions ([`crate::sparql_functions`]) and the loaded models,
//! plus `POST /learn` and `POST /predict`.
//!
//! Built on axum over tokio. Limits: the request body (`--max-request-bytes`, 413), the time
//! of a query, update or prediction (`--query-timeout`, 504; the query is cancelled), the
//! requests in flight (`--max-concurrent`, 503 for those beyond), a `/learn` run's
//! `max-runtime` (`--max-learn-runtime`). Ctrl-C or SIGTERM stop accepting, let the requests
//! in flight finish (running learners stop early and answer) and exit.
//!
//! Beyond loopback ([`gate`]): bearer tokens with scopes (`--tokens-file`, 401/403), a
//! per-client rate limit (`--rate-limit`, 429), an audit log (`--audit-log`); a non-loopback
//! `--bind` without tokens refuses to start unless `--insecure-no-auth` says so.

mod audit;
mod auth;
mod error;
mod gate;
mod learn;
mod predict;
mod rate;
mod sparql;
mod update;

use std::collections::BTreeMap;
use std::net::{SocketAddr, ToSocketAddrs};
use std::path::PathBuf;
use std::sync::atomic::Ordering;
use std::sync::{Arc, RwLock};
use std::time::Duration;

use anyhow::{Context, bail};
use axum::Router;
use axum::extract::DefaultBodyLimit;
use axum::routing::{get, post};
use oxigraph::store::Store;
use tokio::sync::Semaphore;

use super::args::ServeArgs;
use super::kb_source;
use crate::learn::document::ModelHeader;
use crate::sparql_functions::SparqlFunctions;

/// A model file named on the command line.
struct ModelFile {
    name: String,
    path: PathBuf,
    text: String,
}

/// What queries answer from: the functions over the store as it is, and the models'
/// headers. Rebuilt after every update: the schema is read again and the functions start
/// with an empty memo.
pub(super) struct Loaded {
    functions: SparqlFunctions,
    headers: BTreeMap<String, ModelHeader>,
}

impl Loaded {
    /// Opens the KB over `store` and loads every model into the functions; returns the
    /// models' warnings too. Reads the schema only (the functions ask about each call's
    /// individual when it comes), so opening costs the same on any number of individuals.
    fn open(store: &Store, models: &[ModelFile]) -> anyhow::Result<(Self, Vec<String>)> {
        let functions = SparqlFunctions::over_store(store.clone()).context("reading the schema")?;
        let mut headers = BTreeMap::new();
        let mut warnings = Vec::new();
        for m in models {
            let (header, w) = functions
                .add_model_json(&m.name, &m.text)
                .with_context(|| format!("loading the model {}", m.path.display()))?;
            warnings.extend(w.into_iter().map(|w| format!("{}: {w}", m.path.display())));
            headers.insert(m.name.clone(), header);
        }
        Ok((Loaded { functions, headers }, warnings))
    }
}

/// Shared by every request.
pub(super) struct State {
    store: Store,
    loaded: RwLock<Arc<Loaded>>,
    models: Vec<ModelFile>,
    allow_update: bool,
    union_default_graph: bool,
    query_timeout: Duration,
    max_learn_runtime: f64,
    /// Count the quads an update changes (for `--audit-log`; two scans of the store, so
    /// only for stores loaded with at most [`COUNT_QUADS_UP_TO`] triples).
    count_quads: bool,
    /// Updates one at a time (each rebuilds [`Loaded`]).
    update_lock: std::sync::Mutex<()>,
}

impl State {
    fn loaded(&self) -> Arc<Loaded> {
        self.loaded
            .read()
            .unwrap_or_else(|p| p.into_inner())
            .clone()
    }
}

/// `--model NAME=FILE` or `--model FILE` (named by the file stem); names are unique.
fn model_files(specs: &[String]) -> anyhow::Result<Vec<ModelFile>> {
    let mut out: Vec<ModelFile> = Vec::new();
    for spec in specs {
        let (name, path) = match spec.split_once('=') {
            Some((name, path))
                if !name.is_empty()
                    && name
                        .chars()
                        .all(|c| c.is_alphanumeric() || matches!(c, '_' | '-' | '.')) =>
            {
                (name.to_owned(), PathBuf::from(path))
            }
            _ => {
                let path = PathBuf::from(spec);
                let stem = path
                    .file_stem()
                    .map(|s| s.to_string_lossy().into_owned())
                    .with_context(|| format!("--model {spec}: not a file name"))?;
                (stem, path)
            }
        };
        if out.iter().any(|m| m.name == name) {
            bail!("--model: two models are named {name:?}; name one with --model NAME=FILE");
        }
        let text = std::fs::read_to_string(&path)
            .with_context(|| format!("reading the model {}", path.display()))?;
        out.push(ModelFile { name, path, text });
    }
    Ok(out)
}

fn check_limits(args: &ServeArgs) -> anyhow::Result<()> {
    if !(args.query_timeout.is_finite() && args.query_timeout > 0.0) {
        bail!(
            "--query-timeout must be a positive number of seconds, not {}",
            args.query_timeout
        );
    }
    if !(args.max_learn_runtime.is_finite() && args.max_learn_runtime > 0.0) {
        bail!(
            "--max-learn-runtime must be a positive number of seconds, not {}",
            args.max_learn_runtime
        );
    }
    if args.max_concurrent == 0 {
        bail!("--max-concurrent must be at least 1");
    }
    if args.max_request_bytes == 0 {
        bail!("--max-request-bytes must be at least 1");
    }
    if args.rate_limit == Some(0) {
        bail!("--rate-limit must be at least 1 request per second");
    }
    Ok(())
}

/// A `--bind` beyond loopback needs tokens (or the user's explicit `--insecure-no-auth`):
/// checked before anything is loaded.
fn check_exposure(args: &ServeArgs) -> anyhow::Result<()> {
    if args.tokens_file.is_some() || args.insecure_no_auth {
        return Ok(());
    }
    let addrs: Vec<SocketAddr> = args
        .bind
        .to_socket_addrs()
        .with_context(|| format!("--bind {}: not an address to listen on", args.bind))?
        .collect();
    if let Some(open) = addrs.iter().find(|a| !a.ip().is_loopback()) {
        bail!(
            "--bind {}: {} is not a loopback address, and without --tokens-file anyone who \
             reaches it could query{} the store and run /learn. Give --tokens-file FILE \
             (lines `SCOPES TOKEN`, see docs/serve.md), or --insecure-no-auth if that is \
             really meant",
            args.bind,
            open.ip(),
            if args.allow_update { " and change" } else { "" }
        );
    }
    Ok(())
}

/// The access rules of the arguments: tokens, rate limit, audit log.
fn gate_of(args: &ServeArgs) -> anyhow::Result<gate::Gate> {
    let tokens = args
        .tokens_file
        .as_deref()
        .map(auth::Tokens::read)
        .transpose()?;
    #[cfg(unix)]
    if let Some(path) = &args.tokens_file {
        use std::os::unix::fs::PermissionsExt;
        if let Ok(m) = std::fs::metadata(path)
            && m.permissions().mode() & 0o077 != 0
        {
            eprintln!(
                "warning: --tokens-file {}: other users may read it (chmod 600 it)",
                path.display()
            );
        }
    }
    let audit = args
        .audit_log
        .as_deref()
        .map(audit::AuditLog::open)
        .transpose()?;
    Ok(gate::Gate {
        tokens,
        public_read: args.public_read,
        rate: args.rate_limit.map(rate::RateLimiter::new),
        trust_proxy: args.trust_proxy,
        audit,
    })
}

/// The limits and access rules, as printed at start.
fn limits_line(args: &ServeArgs, gate: &gate::Gate) -> String {
    let access = match &gate.tokens {
        Some(t) => format!(
            "{} token(s) from {}{}",
            t.len(),
            args.tokens_file
                .as_deref()
                .map(|p| p.display().to_string())
                .unwrap_or_default(),
            if gate.public_read {
                ", reads public"
            } else {
                ""
            }
        ),
        None => "no tokens: every client may do everything".to_owned(),
    };
    let rate = match args.rate_limit {
        Some(n) => format!(
            "--rate-limit {n}/s per token, else per address{}",
            if args.trust_proxy {
                " (X-Forwarded-For trusted)"
            } else {
                ""
            }
        ),
        None => "no --rate-limit".to_owned(),
    };
    format!(
        "oxilearn serve: access: {access}; limits: {rate}, --max-concurrent {}, \
         --max-request-bytes {}, --query-timeout {} s, --max-learn-runtime {} s; audit log: {}",
        args.max_concurrent,
        args.max_request_bytes,
        args.query_timeout,
        args.max_learn_runtime,
        args.audit_log.as_deref().unwrap_or("none")
    )
}

/// The largest store whose updates the audit log counts quads for: counting scans the
/// store before and after, which costs what the store costs, not what the update costs.
const COUNT_QUADS_UP_TO: u64 = 1_000_000;

pub fn run(args: ServeArgs) -> anyhow::Result<()> {
    check_limits(&args)?;
    check_exposure(&args)?;
    let gate = Arc::new(gate_of(&args)?);
    let models = model_files(&args.model)?;
    let (store, triples) = kb_source::load_store(&args.kb, args.format.as_deref())?;
    let (loaded, warnings) = Loaded::open(&store, &models)?;
    for w in warnings {
        eprintln!("warning: {w}");
    }
    let state = Arc::new(State {
        store,
        loaded: RwLock::new(Arc::new(loaded)),
        models,
        allow_update: args.allow_update,
        union_default_graph: args.union_default_graph,
        query_timeout: Duration::from_secs_f64(args.query_timeout),
        max_learn_runtime: args.max_learn_runtime,
        count_quads: args.audit_log.is_some() && triples as u64 <= COUNT_QUADS_UP_TO,
        update_lock: std::sync::Mutex::new(()),
    });
    // Ctrl-C sets the flag learners stop on; installed before any request runs.
    let flag = super::learner::cancel_flag();
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .context("starting the tokio runtime")?;
    let result = runtime.block_on(async {
        let listener = tokio::net::TcpListener::bind(&args.bind)
            .await
            .with_context(|| format!("--bind {}: cannot listen", args.bind))?;
        let addr = listener.local_addr()?;
        if !addr.ip().is_loopback() && gate.tokens.is_none() {
            eprintln!(
                "warning: listening on {addr}, which is not a loopback address, without \
                 tokens (--insecure-no-auth): whoever reaches it can query the store{}",
                if args.allow_update {
                    " and change it (--allow-update)"
                } else {
                    ""
                }
            );
        }
        eprintln!("{}", limits_line(&args, &gate));
        let names = state
            .models
            .iter()
            .map(|m| m.name.as_str())
            .collect::<Vec<_>>();
        eprintln!(
            "oxilearn serve: listening on http://{addr}/sparql ({triples} triples, models: {}; \
             {})",
            if names.is_empty() {
                "none".to_owned()
            } else {
                names.join(", ")
            },
            if args.allow_update {
                "updates allowed"
            } else {
                "read-only"
            }
        );
        let app = router(state.clone(), gate, &args);
        axum::serve(
            listener,
            app.into_make_service_with_connect_info::<SocketAddr>(),
        )
        .with_graceful_shutdown(shutdown_signal(flag.clone()))
        .await
        .context("serving")
    });
    // A query past its time limit is cancelled but may take a moment to notice.
    runtime.shutdown_timeout(Duration::from_secs(5));
    eprintln!("oxilearn serve: stopped");
    result
}

/// The routes behind their limits; the gate (identity, rate, credentials, audit) is the
/// outermost layer, so the audit log sees every answer, 503 and 413 included.
fn router(state: Arc<State>, gate: Arc<gate::Gate>, args: &ServeArgs) -> Router {
    let slots = Arc::new(Semaphore::new(args.max_concurrent));
    Router::new()
        .route("/sparql", get(sparql::get).post(sparql::post))
        .route("/learn", post(learn::post))
        .route("/predict", post(predict::post))
        .layer(DefaultBodyLimit::max(args.max_request_bytes))
        .layer(axum::middleware::from_fn_with_state(
            slots,
            error::limit_concurrency,
        ))
        .layer(axum::middleware::from_fn_with_state(gate, gate::gate))
        .with_state(state)
}

/// Resolves on Ctrl-C (the learners' cancel flag) or SIGTERM (which sets the flag too, so
/// running learners stop early).
async fn shutdown_signal(flag: Arc<std::sync::atomic::AtomicBool>) {
    let interrupted = {
        let flag = flag.clone();
        async move {
            while !flag.load(Ordering::Relaxed) {
                tokio::time::sleep(Duration::from_millis(100)).await;
            }
        }
    };
    let terminated = async {
        #[cfg(unix)]
        if let Ok(mut s) = tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate())
        {
            s.recv().await;
            return;
        }
        std::future::pending::<()>().await
    };
    tokio::select! {
        () = interrupted => {}
        () = terminated => flag.store(true, Ordering::SeqCst),
    }
    eprintln!("oxilearn serve: shutting down (finishing the requests in flight)");
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn models_are_named_by_stem_or_name_and_names_are_unique() {
        let dir =
            std::env::temp_dir().join(format!("oxilearn-serve-models-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let a = dir.join("Uncle.json");
        std::fs::write(&a, "{}").unwrap();
        let a = a.to_str().unwrap().to_owned();
        let named = model_files(&[a.clone(), format!("aunt-2={a}")]).expect("reads both");
        let names: Vec<&str> = named.iter().map(|m| m.name.as_str()).collect();
        assert_eq!(names, ["Uncle", "aunt-2"]);
        assert_eq!(named[1].path, PathBuf::from(&a));
        let err = model_files(&[a.clone(), format!("Uncle={a}")])
            .err()
            .expect("a clash");
        assert!(err.to_string().contains("\"Uncle\""), "{err}");
        let err = model_files(&[dir.join("missing.json").to_str().unwrap().to_owned()])
            .err()
            .expect("no such file");
        assert!(format!("{err:#}").contains("missing.json"), "{err:#}");
        let _ = std::fs::remove_dir_all(&dir);
    }
}

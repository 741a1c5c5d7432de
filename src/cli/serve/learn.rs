//! `POST /learn`: `{"problems": …, "name"?: NAME, "options"?: {…}}` → the document of
//! `learn --json` (an array over problems).
//!
//! `problems` is a problem document in any format `--problems` reads: a JSON value
//! (Ontolearn or list JSON), or a string holding the text of a DL-Learner `.conf` file (or of
//! a JSON document). `name` is the file stem the problem takes its name from where the
//! format says so (`.conf`; default `problem`). `options` are `learn`'s flags without the
//! dashes, `{"algorithm": "celoe", "max-tests": 5000, "no-negation": true, "problem":
//! ["Uncle"]}`, parsed by the same parser and run by the same pipeline as the command
//! (through the learner registry), over the served store. `max-runtime` defaults to, and may
//! not exceed, `--max-learn-runtime`.

use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

use axum::body::Bytes;
use axum::extract::State;
use axum::http::StatusCode;
use axum::http::header::CONTENT_TYPE;
use axum::response::{IntoResponse, Response};
use clap::{CommandFactory, FromArgMatches};
use serde::Deserialize;

use super::super::args::{Cli, Command};
use super::super::learn::learn_one;
use super::super::learner::{cancelled, checked_examples, prepare_over_store};
use super::super::learners::LearnArgs;
use super::super::problems::load_selected;
use super::State as ServeState;
use super::error::{ApiError, blocking};

/// Flags a request may not set: the KB is the served one, the output is the answer.
const REFUSED: &[&str] = &[
    "kb",
    "format",
    "endpoint",
    "graph",
    "auth-file",
    "problems",
    "save-model",
    "log-queries",
    "json",
    "quiet",
];

/// `learn` options a request may not set either, with the reason.
const REFUSED_HERE: &[(&str, &str)] = &[
    (
        "test",
        "held-out examples are scored by POST /predict on the learned model, or by `learn --test`",
    ),
    (
        "label-column",
        "the request's problems are JSON, not a labelled TSV",
    ),
    (
        "report",
        "the server writes no files; `oxilearn report` renders the answer's JSON",
    ),
];

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct LearnRequest {
    problems: serde_json::Value,
    name: Option<String>,
    #[serde(default)]
    options: serde_json::Map<String, serde_json::Value>,
}

pub async fn post(
    State(state): State<Arc<ServeState>>,
    body: Result<Bytes, axum::extract::rejection::BytesRejection>,
) -> Response {
    let result = async {
        let body = body.map_err(|r| ApiError::from_rejection(r.status(), r.body_text()))?;
        let request: LearnRequest = serde_json::from_slice(&body).map_err(|e| {
            ApiError::bad_request(format!(
                "the body must be {{\"problems\": …, \"name\"?: NAME, \"options\"?: {{…}}}}: {e}"
            ))
        })?;
        let args = learn_args(&request, state.max_learn_runtime)?;
        // The learner stops at its max-runtime; the limit leaves it time to read the
        // signature and answer.
        let limit = Duration::from_secs_f64(args.search.max_runtime) + state.query_timeout;
        let text = blocking(limit, "the learning run", None, move || {
            learn(&state, &request, &args)
        })
        .await?;
        Ok::<_, ApiError>(([(CONTENT_TYPE, "application/json")], text).into_response())
    }
    .await;
    result.unwrap_or_else(IntoResponse::into_response)
}

/// `learn`'s arguments from the request's options, through the command's own parser.
fn learn_args(request: &LearnRequest, max_runtime: f64) -> Result<LearnArgs, ApiError> {
    let mut argv = vec![
        "oxilearn".to_owned(),
        "learn".to_owned(),
        "--problems".to_owned(),
        "(request)".to_owned(),
    ];
    for (key, value) in &request.options {
        if let Some((_, why)) = REFUSED_HERE.iter().find(|(k, _)| k == key) {
            return Err(ApiError::bad_request(format!(
                "option {key:?} cannot be set on /learn: {why}"
            )));
        }
        if REFUSED.contains(&key.as_str()) {
            return Err(ApiError::bad_request(format!(
                "option {key:?} cannot be set on /learn (the KB is the served one; the answer \
                 is the JSON of learn --json)"
            )));
        }
        let flag = format!("--{key}");
        let scalar = |v: &serde_json::Value| -> Result<Option<String>, ApiError> {
            match v {
                serde_json::Value::String(s) => Ok(Some(s.clone())),
                serde_json::Value::Number(n) => Ok(Some(n.to_string())),
                serde_json::Value::Bool(_) | serde_json::Value::Null => Ok(None),
                _ => Err(ApiError::bad_request(format!(
                    "option {key:?}: a string, number, boolean or list of those"
                ))),
            }
        };
        match value {
            serde_json::Value::Bool(true) => argv.push(flag),
            serde_json::Value::Bool(false) | serde_json::Value::Null => {}
            serde_json::Value::Array(items) => {
                for item in items {
                    if let Some(v) = scalar(item)? {
                        argv.push(flag.clone());
                        argv.push(v);
                    }
                }
            }
            other => {
                if let Some(v) = scalar(other)? {
                    argv.push(flag);
                    argv.push(v);
                }
            }
        }
    }
    let command = Cli::command();
    let matches = command
        .clone()
        .try_get_matches_from(&argv)
        .map_err(|e| ApiError::bad_request(format!("options: {}", e.render())))?;
    let explicit = super::super::explicit_flags(&command, &matches);
    let Cli {
        command: Command::Learn(mut args),
    } = Cli::from_arg_matches(&matches).map_err(|e| ApiError::bad_request(e.to_string()))?
    else {
        return Err(ApiError::bad_request("options: not learn's options"));
    };
    args.explicit = explicit;
    args.json = true;
    args.quiet = true;
    if args.explicit.iter().any(|f| f == "max-runtime") {
        let r = args.search.max_runtime;
        if !(r > 0.0 && r <= max_runtime) {
            return Err(ApiError::bad_request(format!(
                "max-runtime must be more than 0 and at most {max_runtime} s \
                 (the server's --max-learn-runtime), not {r}"
            )));
        }
    } else {
        args.search.max_runtime = max_runtime;
    }
    Ok(args)
}

/// Writes the problems where `load_selected` reads them, runs `learn`'s pipeline over the
/// served store, and returns the JSON of `learn --json`.
fn learn(state: &ServeState, request: &LearnRequest, args: &LearnArgs) -> Result<String, ApiError> {
    let file = ProblemFile::write(request)?;
    // The message names the request's problems, not the server's temporary file.
    let problems = load_selected(&file.path, &args.problem).map_err(|e| {
        let text = format!("{e:#}").replace(&file.path.display().to_string(), "(request)");
        ApiError::bad_request(text)
    })?;
    let prep = prepare_over_store(args, &problems, state.store.clone())
        .map_err(|e| ApiError::bad_request(format!("{e:#}")))?;
    let examples = checked_examples(&prep.kb, &problems)
        .map_err(|e| ApiError::bad_request(format!("{e:#}")))?;
    let mut results = Vec::new();
    for (p, ex) in problems.iter().zip(&examples) {
        if cancelled() {
            return Err(ApiError::new(
                StatusCode::SERVICE_UNAVAILABLE,
                "the server is shutting down",
            ));
        }
        let (json, _) = learn_one(&prep, args, p, ex).map_err(|e| {
            // Bad parameters are the request's fault; anything else is ours.
            let text = format!("{e:#}");
            if text.contains("invalid parameter") {
                ApiError::bad_request(text)
            } else {
                ApiError::internal(&e)
            }
        })?;
        results.push(json);
    }
    serde_json::to_string_pretty(&results)
        .map_err(|e| ApiError::internal(&anyhow::Error::from(e).context("writing the results")))
}

/// The request's problems in a file of their own (removed when dropped), named so that
/// `load_selected` reads the format and the problem name the request meant.
struct ProblemFile {
    dir: PathBuf,
    path: PathBuf,
}

impl ProblemFile {
    fn write(request: &LearnRequest) -> Result<Self, ApiError> {
        static NEXT: AtomicU64 = AtomicU64::new(0);
        let name = request.name.as_deref().unwrap_or("problem");
        if name.is_empty()
            || !name
                .chars()
                .all(|c| c.is_alphanumeric() || matches!(c, '_' | '-' | '.'))
            || name.starts_with('.')
        {
            return Err(ApiError::bad_request(format!(
                "name {name:?}: letters, digits, '_', '-' and '.' only"
            )));
        }
        let (text, ext) = match &request.problems {
            serde_json::Value::String(s) => {
                let json = s.trim_start().starts_with(['{', '[']);
                (s.clone(), if json { "json" } else { "conf" })
            }
            v @ (serde_json::Value::Object(_) | serde_json::Value::Array(_)) => {
                (v.to_string(), "json")
            }
            _ => {
                return Err(ApiError::bad_request(
                    "problems: a JSON problem document, or the text of a .conf file",
                ));
            }
        };
        let dir = std::env::temp_dir().join(format!(
            "oxilearn-serve-{}-{}",
            std::process::id(),
            NEXT.fetch_add(1, Ordering::Relaxed)
        ));
        let path = dir.join(format!("{name}.{ext}"));
        let io = |e: std::io::Error| {
            ApiError::internal(&anyhow::Error::from(e).context("writing the problems"))
        };
        std::fs::create_dir_all(&dir).map_err(io)?;
        let file = ProblemFile { dir, path };
        std::fs::write(&file.path, text).map_err(io)?;
        Ok(file)
    }
}

impl Drop for ProblemFile {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

//! SPARQL updates, all or nothing: an update runs in a transaction of the store that is
//! committed only when every operation succeeded, every function call had good arguments
//! and the time limit has not passed. A failed or timed-out update changes nothing.
//!
//! The time limit and the commit cannot both win: the worker commits holding [`Phase`]'s
//! lock after checking that the request was not given up; the request, past its limit,
//! takes the same lock and either gives up (the worker then drops its transaction) or,
//! when the commit already happened, waits for it and answers the truth.

use std::sync::{Arc, Mutex};

use axum::http::StatusCode;
use oxigraph::sparql::{CancellationToken, SparqlEvaluator};
use sha2::{Digest, Sha256};

use super::State as ServeState;
use super::error::{ApiError, function_error};

#[derive(Clone, Copy, PartialEq, Eq)]
enum Phase {
    Running,
    /// The request gave up (its time limit passed): the worker must not commit.
    GivenUp,
    /// The worker committed (or is committing).
    Committed,
}

/// The SHA-256 of an update's text, in hex: what the audit log keeps of it.
pub fn digest(text: &str) -> String {
    hex::encode(Sha256::digest(text.as_bytes()))
}

/// Runs `text` within the server's time limit; the net change in the number of quads when
/// `--audit-log` wants it (counting is a scan of the store).
pub async fn run(state: Arc<ServeState>, text: String) -> Result<Option<i64>, ApiError> {
    let limit = state.query_timeout;
    let token = CancellationToken::new();
    let phase = Arc::new(Mutex::new(Phase::Running));
    let mut handle = {
        let (token, phase) = (token.clone(), phase.clone());
        tokio::task::spawn_blocking(move || apply(&state, &text, token, &phase))
    };
    let joined = match tokio::time::timeout(limit, &mut handle).await {
        Ok(joined) => joined,
        Err(_) => {
            let committed = {
                let mut p = phase.lock().unwrap_or_else(|p| p.into_inner());
                if *p == Phase::Running {
                    *p = Phase::GivenUp;
                }
                *p == Phase::Committed
            };
            if !committed {
                token.cancel();
                return Err(ApiError::new(
                    StatusCode::GATEWAY_TIMEOUT,
                    format!(
                        "the update took longer than the server's time limit of {} s and was \
                         stopped; nothing was changed",
                        limit.as_secs_f64()
                    ),
                ));
            }
            handle.await
        }
    };
    joined.map_err(|e| {
        ApiError::new(
            StatusCode::INTERNAL_SERVER_ERROR,
            format!("the update failed: {e}"),
        )
    })?
}

/// The worker: prepares, runs in a transaction, commits unless anything failed, then
/// rebuilds the functions over the changed store.
fn apply(
    state: &ServeState,
    text: &str,
    token: CancellationToken,
    phase: &Mutex<Phase>,
) -> Result<Option<i64>, ApiError> {
    let _one_at_a_time = state.update_lock.lock().unwrap_or_else(|p| p.into_inner());
    let loaded = state.loaded();
    let prepared = loaded
        .functions
        .prepare_update(SparqlEvaluator::new().with_cancellation_token(token), text)
        .map_err(function_error)?;
    let errors = prepared.errors();
    let store_error = |e: oxigraph::store::StorageError| {
        ApiError::new(
            StatusCode::INTERNAL_SERVER_ERROR,
            format!("the store failed; nothing was changed: {e}"),
        )
    };
    let mut transaction = state.store.start_transaction().map_err(store_error)?;
    let before = if state.count_quads {
        Some(transaction.len().map_err(store_error)?)
    } else {
        None
    };
    prepared
        .update
        .on_transaction(&mut transaction)
        .execute()
        .map_err(|e| {
            ApiError::bad_request(format!("the update failed; nothing was changed: {e}"))
        })?;
    if errors.store_failed() {
        return Err(ApiError::new(
            StatusCode::INTERNAL_SERVER_ERROR,
            format!(
                "the store failed to answer some calls; nothing was changed:\n{}",
                errors.messages().join("\n")
            ),
        ));
    }
    let messages = errors.messages();
    if !messages.is_empty() {
        return Err(ApiError::bad_request(format!(
            "some calls had wrong arguments; nothing was changed:\n{}",
            messages.join("\n")
        )));
    }
    let changed = match before {
        Some(b) => Some(transaction.len().map_err(store_error)? as i64 - b as i64),
        None => None,
    };
    {
        let mut p = phase.lock().unwrap_or_else(|p| p.into_inner());
        if *p == Phase::GivenUp {
            return Err(ApiError::new(
                StatusCode::GATEWAY_TIMEOUT,
                "the update was given up; nothing was changed",
            ));
        }
        *p = Phase::Committed;
        transaction.commit().map_err(store_error)?;
    }
    let (rebuilt, _) = super::Loaded::open(&state.store, &state.models)
        .map_err(|e| ApiError::internal(&e.context("reopening the KB after the update")))?;
    *state.loaded.write().unwrap_or_else(|p| p.into_inner()) = Arc::new(rebuilt);
    Ok(changed)
}

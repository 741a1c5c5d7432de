//! Error responses (a status and a plain-text message) and the limits every request passes:
//! requests in flight, and the time of the blocking work behind a request.

use std::sync::Arc;
use std::time::Duration;

use axum::extract::{Request, State};
use axum::http::StatusCode;
use axum::http::header::CONTENT_TYPE;
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use oxigraph::sparql::CancellationToken;
use tokio::sync::Semaphore;

use crate::sparql_functions::FunctionError;

/// A refused or failed request: the status and a message for people.
#[derive(Debug)]
pub struct ApiError {
    pub status: StatusCode,
    pub message: String,
}

impl ApiError {
    pub fn new(status: StatusCode, message: impl Into<String>) -> Self {
        ApiError {
            status,
            message: message.into(),
        }
    }

    pub fn bad_request(message: impl Into<String>) -> Self {
        Self::new(StatusCode::BAD_REQUEST, message)
    }

    /// A failure of ours (the store, the oracle), with its causes.
    pub fn internal(e: &anyhow::Error) -> Self {
        Self::new(StatusCode::INTERNAL_SERVER_ERROR, format!("{e:#}"))
    }

    /// A body extractor's rejection: 413 names the limit, others keep their status.
    pub fn from_rejection(status: StatusCode, text: String) -> Self {
        if status == StatusCode::PAYLOAD_TOO_LARGE {
            return Self::new(
                status,
                "the request body is larger than the server accepts (--max-request-bytes)",
            );
        }
        Self::new(status, text)
    }
}

/// A function call's error: the store's is ours (500), the others the request's (400).
pub fn function_error(e: FunctionError) -> ApiError {
    match e {
        FunctionError::Oracle(m) => ApiError::new(StatusCode::INTERNAL_SERVER_ERROR, m),
        other => ApiError::bad_request(other.to_string()),
    }
}

impl IntoResponse for ApiError {
    /// A 401 says how to authenticate (`WWW-Authenticate`), as RFC 9110 asks.
    fn into_response(self) -> Response {
        let unauthorized = self.status == StatusCode::UNAUTHORIZED;
        let mut r = (
            self.status,
            [(CONTENT_TYPE, "text/plain; charset=utf-8")],
            format!("{}\n", self.message),
        )
            .into_response();
        if unauthorized {
            r.headers_mut().insert(
                axum::http::header::WWW_AUTHENTICATE,
                axum::http::HeaderValue::from_static("Bearer realm=\"oxilearn\""),
            );
        }
        r
    }
}

/// Refuses a request with 503 when `--max-concurrent` requests are already in flight.
pub async fn limit_concurrency(
    State(slots): State<Arc<Semaphore>>,
    request: Request,
    next: Next,
) -> Response {
    match slots.try_acquire_owned() {
        Ok(permit) => {
            let response = next.run(request).await;
            drop(permit);
            response
        }
        Err(_) => {
            let mut r = ApiError::new(
                StatusCode::SERVICE_UNAVAILABLE,
                "the server is busy: --max-concurrent requests are in flight; retry later",
            )
            .into_response();
            r.headers_mut()
                .insert("retry-after", axum::http::HeaderValue::from_static("1"));
            r
        }
    }
}

/// Runs `work` on a blocking thread for at most `limit`; past it the answer is 504 and
/// `token` (when given) cancels the query, which stops at its next step.
pub async fn blocking<T: Send + 'static>(
    limit: Duration,
    what: &str,
    token: Option<CancellationToken>,
    work: impl FnOnce() -> Result<T, ApiError> + Send + 'static,
) -> Result<T, ApiError> {
    let handle = tokio::task::spawn_blocking(work);
    match tokio::time::timeout(limit, handle).await {
        Ok(Ok(result)) => result,
        Ok(Err(join)) => Err(ApiError::new(
            StatusCode::INTERNAL_SERVER_ERROR,
            format!("{what} failed: {join}"),
        )),
        Err(_) => {
            if let Some(t) = token {
                t.cancel();
            }
            Err(ApiError::new(
                StatusCode::GATEWAY_TIMEOUT,
                format!(
                    "{what} took longer than the server's time limit of {} s and was stopped",
                    limit.as_secs_f64()
                ),
            ))
        }
    }
}

//! What every request passes before its route: who the client is (address, token), its
//! rate limit (429), its credentials (401 for a missing or unknown token, 403 for a token
//! without the route's scope), and after it, its line in the audit log.
//!
//! `/learn` and `/predict` have one scope each and are checked here, before their bodies
//! are read; `/sparql` is a query (`read`) or an update (`update`), which only its body
//! tells, so it is checked here for either and by the handler for the one it is.

use std::net::{IpAddr, SocketAddr};
use std::sync::Arc;
use std::time::{Duration, Instant};

use axum::body::HttpBody;
use axum::extract::{ConnectInfo, Request, State};
use axum::http::{HeaderMap, HeaderValue, StatusCode};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};

use super::audit::{AuditLog, Record, now_rfc3339};
use super::auth::{Scope, Scopes, Tokens, bearer};
use super::error::ApiError;
use super::rate::RateLimiter;

/// The server's access rules, shared by every request.
pub struct Gate {
    pub tokens: Option<Tokens>,
    pub public_read: bool,
    pub rate: Option<RateLimiter>,
    pub trust_proxy: bool,
    pub audit: Option<AuditLog>,
}

/// What the request's credentials allow; the handlers find it in the request's extensions.
#[derive(Clone, Debug)]
pub struct Access {
    pub scopes: Scopes,
    /// The name of the token presented and known (never the token itself).
    pub token: Option<String>,
}

impl Access {
    /// `Ok` if the credentials allow `scope`: else 401 without a token (the client should
    /// send one), 403 with one (another token is needed).
    pub fn authorize(&self, scope: Scope) -> Result<(), ApiError> {
        if self.scopes.contains(scope) {
            return Ok(());
        }
        if self.token.is_none() {
            return Err(ApiError::new(
                StatusCode::UNAUTHORIZED,
                format!(
                    "this request needs a token with the {scope} scope: send Authorization: \
                     Bearer TOKEN"
                ),
            ));
        }
        Err(ApiError::new(
            StatusCode::FORBIDDEN,
            format!("the token sent does not have the {scope} scope this request needs"),
        ))
    }
}

/// What a handler tells the audit log, in its response's extensions.
#[derive(Clone, Debug, Default)]
pub struct AuditNote {
    pub scope: Option<Scope>,
    /// The SHA-256 (hex) of an update's text.
    pub update_sha256: Option<String>,
    /// Quads after a committed update less before.
    pub quads_changed: Option<i64>,
}

/// A credential that is not one: an unknown token, or another scheme than Bearer.
struct BadCredentials;

impl Gate {
    /// The client's address: the connection's, or with `--trust-proxy` the last one of
    /// `X-Forwarded-For` (the one the proxy added; those before it are the client's word).
    fn client(&self, peer: &SocketAddr, headers: &HeaderMap) -> IpAddr {
        if self.trust_proxy
            && let Some(ip) = headers
                .get_all("x-forwarded-for")
                .iter()
                .filter_map(|v| v.to_str().ok())
                .flat_map(|v| v.split(','))
                .next_back()
                .and_then(|last| last.trim().parse::<IpAddr>().ok())
        {
            return ip;
        }
        peer.ip()
    }

    /// What the request's `Authorization` header allows.
    fn access(&self, headers: &HeaderMap) -> Result<Access, BadCredentials> {
        let Some(tokens) = &self.tokens else {
            return Ok(Access {
                scopes: Scopes::ALL,
                token: None,
            });
        };
        let Some(header) = headers.get(axum::http::header::AUTHORIZATION) else {
            let scopes = if self.public_read {
                Scopes::only(Scope::Read)
            } else {
                Scopes::NONE
            };
            return Ok(Access {
                scopes,
                token: None,
            });
        };
        let known = header
            .to_str()
            .ok()
            .and_then(bearer)
            .and_then(|t| tokens.check(t))
            .ok_or(BadCredentials)?;
        Ok(Access {
            scopes: known.scopes,
            token: Some(known.name),
        })
    }

    /// The rate limit, then the credentials, then the route's scope: the refusal, if any.
    fn refusal(
        &self,
        client: &str,
        access: &Result<Access, BadCredentials>,
        route: &str,
    ) -> Option<Response> {
        if let Some(rate) = &self.rate {
            let key = match access {
                Ok(Access { token: Some(t), .. }) => format!("token {t}"),
                _ => client.to_owned(),
            };
            if let Err(wait) = rate.take(&key) {
                return Some(too_many(wait));
            }
        }
        let Ok(access) = access else {
            let mut r = ApiError::new(
                StatusCode::UNAUTHORIZED,
                "the token is not valid (send Authorization: Bearer TOKEN with a token of the \
                 server's tokens file)",
            )
            .into_response();
            r.headers_mut().insert(
                axum::http::header::WWW_AUTHENTICATE,
                HeaderValue::from_static("Bearer realm=\"oxilearn\", error=\"invalid_token\""),
            );
            return Some(r);
        };
        let checked = match route {
            "/learn" => access.authorize(Scope::Learn),
            "/predict" => access.authorize(Scope::Read),
            "/sparql" if !access.scopes.contains(Scope::Update) => access.authorize(Scope::Read),
            _ => Ok(()),
        };
        checked.err().map(IntoResponse::into_response)
    }
}

/// 429 with the seconds until the client may send again.
fn too_many(wait: Duration) -> Response {
    let secs = wait.as_secs_f64().ceil().max(1.0) as u64;
    let mut r = ApiError::new(
        StatusCode::TOO_MANY_REQUESTS,
        format!("too many requests from this client (--rate-limit); retry in {secs} s"),
    )
    .into_response();
    r.headers_mut()
        .insert(axum::http::header::RETRY_AFTER, HeaderValue::from(secs));
    r
}

/// The middleware: identifies, limits and checks the request, runs it, and audits it.
pub async fn gate(
    State(gate): State<Arc<Gate>>,
    ConnectInfo(peer): ConnectInfo<SocketAddr>,
    mut request: Request,
    next: Next,
) -> Response {
    let start = Instant::now();
    let client = gate.client(&peer, request.headers()).to_string();
    let method = request.method().to_string();
    let route = request.uri().path().to_owned();
    let bytes_in = request
        .headers()
        .get(axum::http::header::CONTENT_LENGTH)
        .and_then(|v| v.to_str().ok()?.parse().ok());
    let access = gate.access(request.headers());
    let token = access.as_ref().ok().and_then(|a| a.token.clone());
    let response = match gate.refusal(&client, &access, &route) {
        Some(refused) => refused,
        None => {
            if let Ok(a) = access {
                request.extensions_mut().insert(a);
            }
            next.run(request).await
        }
    };
    if let Some(log) = &gate.audit {
        let note = response.extensions().get::<AuditNote>();
        let status = response.status();
        let update = note.and_then(|n| n.update_sha256.as_deref());
        log.write(&Record {
            time: now_rfc3339(),
            client: &client,
            token: token.as_deref(),
            method: &method,
            route: &route,
            scope: note
                .and_then(|n| n.scope)
                .or(match route.as_str() {
                    "/learn" => Some(Scope::Learn),
                    "/predict" => Some(Scope::Read),
                    _ => None,
                })
                .map(Scope::name),
            status: status.as_u16(),
            duration_ms: (start.elapsed().as_secs_f64() * 1e6).round() / 1e3,
            bytes_in,
            bytes_out: response.body().size_hint().exact(),
            update_sha256: update,
            quads_changed: note.and_then(|n| n.quads_changed),
            outcome: update.map(|_| if status.is_success() { "ok" } else { "failed" }),
        });
    }
    response
}

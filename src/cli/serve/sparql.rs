//! `/sparql`: the SPARQL 1.1 Protocol. Queries by GET (`?query=`), by POST as a form
//! (`query=`) or as `application/sparql-query`; updates by POST as a form (`update=`) or as
//! `application/sparql-update`, only with `--allow-update` (403 otherwise).
//! `default-graph-uri` and `named-graph-uri` set a query's dataset; without one (nor FROM),
//! `--union-default-graph` makes the default graph the union of all graphs. Results by content
//! negotiation: JSON (the default), XML, CSV, TSV; graphs (CONSTRUCT, DESCRIBE) in every
//! syntax the store writes: N-Triples (the default), Turtle, RDF/XML, JSON-LD, N3, and
//! N-Quads or TriG (the triples in the default graph).
//!
//! A query needs the `read` scope, an update the `update` scope ([`super::gate`]); updates
//! run all or nothing ([`super::update`]).

use std::sync::Arc;

use axum::Extension;
use axum::body::Bytes;
use axum::extract::{FromRequest, Query, Request, State};
use axum::http::header::{ACCEPT, CONTENT_TYPE};
use axum::http::{HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use oxigraph::io::{JsonLdProfileSet, RdfFormat, RdfSerializer};
use oxigraph::model::{GraphName, NamedNode, NamedOrBlankNode};
use oxigraph::sparql::results::{QueryResultsFormat, QueryResultsSerializer};
use oxigraph::sparql::{CancellationToken, QueryEvaluationError, QueryResults, SparqlEvaluator};

use super::auth::{Scope, Scopes};
use super::error::{ApiError, blocking, function_error};
use super::gate::{Access, AuditNote};
use super::{Loaded, State as ServeState};

/// What a request asks.
enum Operation {
    Query {
        text: String,
        default_graphs: Vec<String>,
        named_graphs: Vec<String>,
    },
    Update(String),
}

pub async fn get(
    State(state): State<Arc<ServeState>>,
    access: Option<Extension<Access>>,
    headers: HeaderMap,
    Query(params): Query<Vec<(String, String)>>,
) -> Response {
    match operation(params, None) {
        Ok(Operation::Update(_)) => ApiError::new(
            StatusCode::METHOD_NOT_ALLOWED,
            "updates are sent by POST, not GET",
        )
        .into_response(),
        Ok(op) => run(state, op, &headers, access.map(|a| a.0)).await,
        Err(e) => e.into_response(),
    }
}

pub async fn post(
    State(state): State<Arc<ServeState>>,
    Query(url_params): Query<Vec<(String, String)>>,
    request: Request,
) -> Response {
    let headers = request.headers().clone();
    let access = request.extensions().get::<Access>().cloned();
    let media = headers
        .get(CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .map(|v| {
            v.split(';')
                .next()
                .unwrap_or("")
                .trim()
                .to_ascii_lowercase()
        })
        .unwrap_or_default();
    let op = match media.as_str() {
        "application/x-www-form-urlencoded" => {
            match axum::Form::<Vec<(String, String)>>::from_request(request, &()).await {
                Ok(axum::Form(form)) => {
                    operation(url_params.into_iter().chain(form).collect(), None)
                }
                Err(r) => Err(ApiError::from_rejection(r.status(), r.body_text())),
            }
        }
        "application/sparql-query" | "application/sparql-update" => {
            match Bytes::from_request(request, &()).await {
                Ok(body) => match String::from_utf8(body.to_vec()) {
                    Ok(text) => operation(url_params, Some((media.as_str(), text))),
                    Err(_) => Err(ApiError::bad_request("the request body is not UTF-8")),
                },
                Err(r) => Err(ApiError::from_rejection(r.status(), r.body_text())),
            }
        }
        other => Err(ApiError::new(
            StatusCode::UNSUPPORTED_MEDIA_TYPE,
            format!(
                "Content-Type {:?} is not a SPARQL request: send \
                 application/x-www-form-urlencoded, application/sparql-query or \
                 application/sparql-update",
                other
            ),
        )),
    };
    match op {
        Ok(op) => run(state, op, &headers, access).await,
        Err(e) => e.into_response(),
    }
}

/// The operation of the request's parameters (and direct body, with its media type).
fn operation(
    params: Vec<(String, String)>,
    body: Option<(&str, String)>,
) -> Result<Operation, ApiError> {
    let mut query = None;
    let mut update = None;
    let mut default_graphs = Vec::new();
    let mut named_graphs = Vec::new();
    for (k, v) in params {
        let slot = match k.as_str() {
            "query" => &mut query,
            "update" => &mut update,
            "default-graph-uri" => {
                default_graphs.push(v);
                continue;
            }
            "named-graph-uri" => {
                named_graphs.push(v);
                continue;
            }
            "using-graph-uri" | "using-named-graph-uri" => {
                return Err(ApiError::bad_request(format!(
                    "{k} is not supported: name the graphs in the update's USING clause"
                )));
            }
            _ => continue,
        };
        if slot.replace(v).is_some() {
            return Err(ApiError::bad_request(format!(
                "more than one {k} parameter"
            )));
        }
    }
    match body {
        Some(("application/sparql-query", text)) => query = Some(text),
        Some((_, text)) => update = Some(text),
        None => {}
    }
    match (query, update) {
        (Some(text), None) => Ok(Operation::Query {
            text,
            default_graphs,
            named_graphs,
        }),
        (None, Some(text)) => Ok(Operation::Update(text)),
        (Some(_), Some(_)) => Err(ApiError::bad_request(
            "a request holds either a query or an update, not both",
        )),
        (None, None) => Err(ApiError::bad_request(
            "no query: pass query= (or update=), or POST application/sparql-query",
        )),
    }
}

/// Checks the operation's scope, runs it, and notes for the audit log what it was.
async fn run(
    state: Arc<ServeState>,
    op: Operation,
    headers: &HeaderMap,
    access: Option<Access>,
) -> Response {
    // Without the gate's word (never in `serve`), nothing is allowed.
    let access = access.unwrap_or(Access {
        scopes: Scopes::NONE,
        token: None,
    });
    let (note, result) = match op {
        Operation::Query {
            text,
            default_graphs,
            named_graphs,
        } => {
            let note = AuditNote {
                scope: Some(Scope::Read),
                ..AuditNote::default()
            };
            let result = match access.authorize(Scope::Read) {
                Ok(()) => run_query(state, text, default_graphs, named_graphs, headers).await,
                Err(e) => Err(e),
            };
            (note, result)
        }
        Operation::Update(text) => {
            let mut note = AuditNote {
                scope: Some(Scope::Update),
                update_sha256: Some(super::update::digest(&text)),
                quads_changed: None,
            };
            let counted = state.count_quads;
            let result = run_update(state, text, &access).await;
            // A refused or failed update changed nothing.
            note.quads_changed = match &result {
                Ok(changed) => *changed,
                Err(_) => counted.then_some(0),
            };
            let result = result.map(|_| StatusCode::NO_CONTENT.into_response());
            (note, result)
        }
    };
    let mut response = result.unwrap_or_else(IntoResponse::into_response);
    response.extensions_mut().insert(note);
    response
}

async fn run_query(
    state: Arc<ServeState>,
    text: String,
    default_graphs: Vec<String>,
    named_graphs: Vec<String>,
    headers: &HeaderMap,
) -> Result<Response, ApiError> {
    let accept = headers
        .get(ACCEPT)
        .and_then(|v| v.to_str().ok())
        .unwrap_or("*/*")
        .to_owned();
    let token = CancellationToken::new();
    let t = token.clone();
    let limit = state.query_timeout;
    let (media, body) = blocking(limit, "the query", Some(token), move || {
        let loaded = state.loaded();
        query(
            &state,
            &loaded,
            &text,
            &default_graphs,
            &named_graphs,
            &accept,
            t,
        )
    })
    .await?;
    Ok(([(CONTENT_TYPE, media)], body).into_response())
}

/// The scope, then `--allow-update`, then the update; the change in quads when counted.
async fn run_update(
    state: Arc<ServeState>,
    text: String,
    access: &Access,
) -> Result<Option<i64>, ApiError> {
    access.authorize(Scope::Update)?;
    if !state.allow_update {
        return Err(ApiError::new(
            StatusCode::FORBIDDEN,
            "updates are disabled: start serve with --allow-update",
        ));
    }
    super::update::run(state, text).await
}

fn evaluation_error(e: QueryEvaluationError) -> ApiError {
    match e {
        QueryEvaluationError::Cancelled => ApiError::new(
            StatusCode::GATEWAY_TIMEOUT,
            "the query took longer than the server's time limit and was stopped",
        ),
        QueryEvaluationError::Dataset(e) => ApiError::new(
            StatusCode::INTERNAL_SERVER_ERROR,
            format!("the store failed: {e}"),
        ),
        other => ApiError::bad_request(format!("the query failed: {other}")),
    }
}

fn iri(text: &str, param: &str) -> Result<NamedNode, ApiError> {
    NamedNode::new(text).map_err(|e| ApiError::bad_request(format!("{param} {text:?}: {e}")))
}

/// Runs a query and writes its results in the negotiated format.
fn query(
    state: &ServeState,
    loaded: &Loaded,
    text: &str,
    default_graphs: &[String],
    named_graphs: &[String],
    accept: &str,
    token: CancellationToken,
) -> Result<(&'static str, Vec<u8>), ApiError> {
    let evaluator = SparqlEvaluator::new().with_cancellation_token(token);
    let mut prepared = loaded
        .functions
        .prepare(evaluator, text)
        .map_err(function_error)?;
    if !default_graphs.is_empty() {
        let graphs = default_graphs
            .iter()
            .map(|g| iri(g, "default-graph-uri").map(GraphName::from))
            .collect::<Result<_, _>>()?;
        prepared.query_mut().dataset_mut().set_default_graph(graphs);
    }
    if default_graphs.is_empty()
        && state.union_default_graph
        && prepared.query_mut().dataset().is_default_dataset()
    {
        prepared
            .query_mut()
            .dataset_mut()
            .set_default_graph_as_union();
    }
    if !named_graphs.is_empty() {
        let graphs = named_graphs
            .iter()
            .map(|g| iri(g, "named-graph-uri").map(NamedOrBlankNode::from))
            .collect::<Result<_, _>>()?;
        prepared
            .query_mut()
            .dataset_mut()
            .set_available_named_graphs(graphs);
    }
    let results = prepared
        .on_store(&state.store)
        .execute()
        .map_err(evaluation_error)?;
    let written = write_results(results, accept)?;
    let errors = prepared.errors();
    if errors.store_failed() {
        return Err(ApiError::new(
            StatusCode::INTERNAL_SERVER_ERROR,
            errors.messages().join("\n"),
        ));
    }
    if !errors.is_empty() {
        return Err(ApiError::bad_request(errors.messages().join("\n")));
    }
    Ok(written)
}

/// The supported media types of solutions and booleans, the first the default.
const RESULTS: &[(&str, QueryResultsFormat)] = &[
    ("application/sparql-results+json", QueryResultsFormat::Json),
    ("application/json", QueryResultsFormat::Json),
    ("application/sparql-results+xml", QueryResultsFormat::Xml),
    ("application/xml", QueryResultsFormat::Xml),
    ("text/xml", QueryResultsFormat::Xml),
    ("text/csv", QueryResultsFormat::Csv),
    ("text/tab-separated-values", QueryResultsFormat::Tsv),
];

/// The supported media types of graphs, the first the default.
const GRAPHS: &[(&str, RdfFormat)] = &[
    ("application/n-triples", RdfFormat::NTriples),
    ("text/turtle", RdfFormat::Turtle),
    ("application/rdf+xml", RdfFormat::RdfXml),
    (
        "application/ld+json",
        RdfFormat::JsonLd {
            profile: JsonLdProfileSet::empty(),
        },
    ),
    ("text/n3", RdfFormat::N3),
    ("application/n-quads", RdfFormat::NQuads),
    ("application/trig", RdfFormat::TriG),
    ("text/plain", RdfFormat::NTriples),
];

/// The offered media type the `Accept` header prefers: each offer takes the q of the most
/// specific range matching it (exact, then `type/*`, then `*/*`); the highest q wins, ties go
/// to the earlier offer. `None` when every offer has q = 0.
pub(super) fn negotiate<T: Copy>(
    accept: &str,
    offers: &[(&'static str, T)],
) -> Option<(&'static str, T)> {
    let ranges: Vec<(String, f32)> = accept
        .split(',')
        .filter_map(|range| {
            let mut parts = range.split(';');
            let media = parts.next()?.trim().to_ascii_lowercase();
            let q = parts
                .filter_map(|p| p.trim().strip_prefix("q="))
                .find_map(|q| q.trim().parse::<f32>().ok())
                .unwrap_or(1.0);
            (!media.is_empty()).then_some((media, q))
        })
        .collect();
    let q_of = |offer: &str| -> f32 {
        let mut best: Option<(u8, f32)> = None;
        for (media, q) in &ranges {
            let specificity = if media == offer {
                2
            } else if media
                .strip_suffix("/*")
                .is_some_and(|t| t != "*" && offer.split('/').next() == Some(t))
            {
                1
            } else if media == "*/*" {
                0
            } else {
                continue;
            };
            if best.is_none_or(|(s, _)| specificity > s) {
                best = Some((specificity, *q));
            }
        }
        best.map_or(0.0, |(_, q)| q)
    };
    let mut chosen: Option<(f32, usize)> = None;
    for (i, (offer, _)) in offers.iter().enumerate() {
        let q = q_of(offer);
        if q > 0.0 && chosen.is_none_or(|(bq, _)| q > bq) {
            chosen = Some((q, i));
        }
    }
    chosen.map(|(_, i)| offers[i])
}

fn not_acceptable(offers: &[(&str, impl Copy)]) -> ApiError {
    ApiError::new(
        StatusCode::NOT_ACCEPTABLE,
        format!(
            "none of the accepted media types can be produced; this answer comes as {}",
            offers
                .iter()
                .map(|(m, _)| *m)
                .collect::<Vec<_>>()
                .join(", ")
        ),
    )
}

fn write_results(
    results: QueryResults<'_>,
    accept: &str,
) -> Result<(&'static str, Vec<u8>), ApiError> {
    let io = |e: std::io::Error| {
        ApiError::new(
            StatusCode::INTERNAL_SERVER_ERROR,
            format!("writing the results: {e}"),
        )
    };
    match results {
        QueryResults::Boolean(b) => {
            let (media, format) =
                negotiate(accept, RESULTS).ok_or_else(|| not_acceptable(RESULTS))?;
            let out = QueryResultsSerializer::from_format(format)
                .serialize_boolean_to_writer(Vec::new(), b)
                .map_err(io)?;
            Ok((media, out))
        }
        QueryResults::Solutions(solutions) => {
            let (media, format) =
                negotiate(accept, RESULTS).ok_or_else(|| not_acceptable(RESULTS))?;
            let mut writer = QueryResultsSerializer::from_format(format)
                .serialize_solutions_to_writer(Vec::new(), solutions.variables().to_vec())
                .map_err(io)?;
            for s in solutions {
                writer
                    .serialize(&s.map_err(evaluation_error)?)
                    .map_err(io)?;
            }
            Ok((media, writer.finish().map_err(io)?))
        }
        QueryResults::Graph(triples) => {
            let (media, format) =
                negotiate(accept, GRAPHS).ok_or_else(|| not_acceptable(GRAPHS))?;
            let mut writer = RdfSerializer::from_format(format).for_writer(Vec::new());
            for t in triples {
                writer
                    .serialize_triple(&t.map_err(evaluation_error)?)
                    .map_err(io)?;
            }
            Ok((media, writer.finish().map_err(io)?))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn negotiation_picks_the_highest_q_then_the_offer_order() {
        let pick = |a: &str| negotiate(a, RESULTS).map(|(m, _)| m);
        assert_eq!(pick("*/*"), Some("application/sparql-results+json"));
        assert_eq!(pick("text/csv"), Some("text/csv"));
        assert_eq!(
            pick("application/sparql-results+json;q=0.5, application/sparql-results+xml"),
            Some("application/sparql-results+xml")
        );
        assert_eq!(pick("text/*"), Some("text/xml"));
        assert_eq!(
            pick("text/tab-separated-values, */*;q=0.1"),
            Some("text/tab-separated-values")
        );
        assert_eq!(pick("image/png"), None);
        assert_eq!(pick("text/csv;q=0"), None);
        let graph = |a: &str| negotiate(a, GRAPHS).map(|(m, _)| m);
        assert_eq!(graph("*/*"), Some("application/n-triples"));
        assert_eq!(graph("text/turtle, */*;q=0.1"), Some("text/turtle"));
        // What SPARQLWrapper asks for RDF/XML, JSON-LD, Turtle and N3.
        assert_eq!(graph("application/rdf+xml"), Some("application/rdf+xml"));
        assert_eq!(
            graph("application/ld+json,application/x-json+ld"),
            Some("application/ld+json")
        );
        assert_eq!(graph("application/turtle,text/turtle"), Some("text/turtle"));
        assert_eq!(
            graph("application/turtle,text/turtle,text/rdf+n3,application/n-triples,text/n3"),
            Some("application/n-triples")
        );
        assert_eq!(graph("application/trig"), Some("application/trig"));
        assert_eq!(graph("application/sparql-results+json"), None);
    }
}

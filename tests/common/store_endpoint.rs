//! A SPARQL endpoint over an in-process Oxigraph store, on the mock HTTP server: queries
//! (`query=`) are answered from the store as SPARQL JSON, updates (`update=`) applied to
//! it, unless the test's `fail` says to answer that update with a 500. The store stays in
//! the test's hands, so what a failed run left behind is checked directly.

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

use oxigraph::sparql::{QueryResults, SparqlEvaluator};
use oxigraph::store::Store;
use sparesults::{QueryResultsFormat, QueryResultsSerializer};

use super::mock_endpoint::{MockEndpoint, Reply, Response};

/// Serves `store`; `fail(n, update)` is asked for the n-th update (0-based).
pub fn store_endpoint(
    store: Store,
    fail: impl Fn(usize, &str) -> bool + Send + Sync + 'static,
) -> MockEndpoint {
    capped_store_endpoint(store, None, fail)
}

/// [`store_endpoint`] that, like Virtuoso, answers at most `cap` rows of a SELECT and
/// names its cap in `X-SPARQL-MaxRows` (updates are not capped).
pub fn capped_store_endpoint(
    store: Store,
    cap: Option<usize>,
    fail: impl Fn(usize, &str) -> bool + Send + Sync + 'static,
) -> MockEndpoint {
    let updates = Arc::new(AtomicUsize::new(0));
    MockEndpoint::start(move |request| {
        let params = request.form_params();
        let get = |name: &str| {
            params
                .iter()
                .find(|(k, _)| k == name)
                .map(|(_, v)| v.clone())
        };
        if let Some(update) = get("update") {
            let n = updates.fetch_add(1, Ordering::SeqCst);
            if fail(n, &update) {
                return Response::text(500, "injected failure").into();
            }
            return match store.update(update.as_str()) {
                Ok(()) => Response::new(204, "text/plain", "").into(),
                Err(e) => Response::text(400, &e.to_string()).into(),
            };
        }
        let Some(query) = get("query").or_else(|| request.query_text()) else {
            return Response::text(400, "no query").into();
        };
        let response = answer(&store, &query, cap);
        Reply::Respond(match cap {
            Some(n) => response.header("X-SPARQL-MaxRows", &n.to_string()),
            None => response,
        })
    })
}

fn answer(store: &Store, query: &str, cap: Option<usize>) -> Response {
    let prepared = match SparqlEvaluator::new().parse_query(query) {
        Ok(p) => p,
        Err(e) => return Response::text(400, &e.to_string()),
    };
    let results = match prepared.on_store(store).execute() {
        Ok(r) => r,
        Err(e) => return Response::text(500, &e.to_string()),
    };
    let mut body = Vec::new();
    let serializer = QueryResultsSerializer::from_format(QueryResultsFormat::Json);
    match results {
        QueryResults::Solutions(solutions) => {
            let mut writer = serializer
                .serialize_solutions_to_writer(&mut body, solutions.variables().to_vec())
                .expect("writes to memory");
            for s in solutions.take(cap.unwrap_or(usize::MAX)) {
                match s {
                    Ok(s) => writer.serialize(&s).expect("writes to memory"),
                    Err(e) => return Response::text(500, &e.to_string()),
                }
            }
            writer.finish().expect("writes to memory");
        }
        QueryResults::Boolean(b) => {
            serializer
                .serialize_boolean_to_writer(&mut body, b)
                .expect("writes to memory");
        }
        QueryResults::Graph(_) => return Response::text(400, "graph results not served"),
    }
    Response::json(body)
}

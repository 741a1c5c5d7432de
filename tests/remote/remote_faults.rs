//! Fault injection for the HTTP SPARQL backend against a scripted endpoint on 127.0.0.1.
//!
//! Every test ends in a correct answer or a clear error, never in a silently wrong table, and
//! every wait is bounded: short request timeouts and backoffs, and a watchdog around each call.

use crate::common;

use std::collections::BTreeSet;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use common::mock_endpoint::{MockEndpoint, Reply, Request, Response, iris_json};
use oxilearn::oracle::OracleError;
use oxilearn::oracle::backend::{
    Auth, HttpBackend, HttpOptions, QueryMethod, ResultsSyntax, SolutionTable, SparqlBackend,
};
use spargebra::Query;

/// The longest any single backend call may take before the test fails instead of hanging.
const WATCHDOG: Duration = Duration::from_secs(15);

fn parse(text: &str) -> Query {
    spargebra::SparqlParser::new()
        .parse_query(text)
        .unwrap_or_else(|e| panic!("{text}: {e}"))
}

fn x_query() -> Query {
    parse("SELECT ?x WHERE { ?x ?p ?o }")
}

/// `http://ex/r00`, `http://ex/r01`, … (zero-padded so that string order is index order).
fn iris(n: usize) -> Vec<String> {
    (0..n).map(|i| format!("http://ex/r{i:02}")).collect()
}

fn ok_json(n: usize) -> Response {
    Response::json(iris_json(&iris(n)))
}

/// Fast, bounded settings: 300 ms timeout, 2 retries, 10–50 ms backoff.
fn fast(url: &str) -> HttpOptions {
    HttpOptions {
        timeout: Duration::from_millis(300),
        connect_timeout: Duration::from_millis(300),
        retries: 2,
        backoff: Duration::from_millis(10),
        max_backoff: Duration::from_millis(50),
        politeness: Duration::ZERO,
        concurrency: 2,
        ..HttpOptions::local(url)
    }
}

fn backend(options: HttpOptions) -> Arc<HttpBackend> {
    Arc::new(HttpBackend::new(options).expect("backend"))
}

/// Runs `f` on its own thread; panics if it does not return within `limit`.
fn bounded<T: Send + 'static>(limit: Duration, f: impl FnOnce() -> T + Send + 'static) -> T {
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let _ = tx.send(f());
    });
    match rx.recv_timeout(limit) {
        Ok(v) => v,
        Err(std::sync::mpsc::RecvTimeoutError::Timeout) => {
            panic!("the call did not return within {limit:?}")
        }
        Err(std::sync::mpsc::RecvTimeoutError::Disconnected) => {
            panic!("the call panicked")
        }
    }
}

fn select(b: &Arc<HttpBackend>, q: &Query) -> Result<SolutionTable, OracleError> {
    let b = Arc::clone(b);
    let q = q.clone();
    bounded(WATCHDOG, move || b.select(&q))
}

/// The `?x` values, in answer order.
fn xs(table: &SolutionTable) -> Vec<String> {
    table
        .column_values("x")
        .map(|t| match t {
            oxigraph::model::Term::NamedNode(n) => n.as_str().to_string(),
            other => other.to_string(),
        })
        .collect()
}

fn expect_rows(result: Result<SolutionTable, OracleError>, n: usize) {
    let table = result.unwrap_or_else(|e| panic!("expected {n} rows, got an error: {e}"));
    assert_eq!(xs(&table), iris(n), "wrong rows: {table:?}");
}

fn expect_err(result: Result<SolutionTable, OracleError>) -> String {
    match result {
        Ok(table) => panic!("expected an error, got a table: {table:?}"),
        Err(e) => e.to_string(),
    }
}

// 1. Timeouts ---------------------------------------------------------------------------------

#[test]
fn slow_first_answer_is_retried() {
    let mock = MockEndpoint::start(|r: &Request| {
        if r.index == 0 {
            ok_json(3).delay(Duration::from_millis(1000)).into()
        } else {
            ok_json(3).into()
        }
    });
    let b = backend(fast(&mock.url()));
    expect_rows(select(&b, &x_query()), 3);
    assert_eq!(b.requests_sent(), 2);
    assert_eq!(mock.request_count(), 2);
}

#[test]
fn always_slow_fails_after_every_attempt() {
    let mock =
        MockEndpoint::start(|_: &Request| ok_json(3).delay(Duration::from_millis(800)).into());
    let b = backend(fast(&mock.url()));
    let start = Instant::now();
    let message = expect_err(select(&b, &x_query()));
    assert!(
        message.contains("300ms") || message.contains("timeout"),
        "the error does not name the timeout: {message}"
    );
    assert!(message.contains("3 attempts"), "{message}");
    assert_eq!(b.requests_sent(), 3);
    assert!(
        start.elapsed() < Duration::from_secs(5),
        "{:?}",
        start.elapsed()
    );
}

#[test]
fn answer_stalling_mid_body_is_retried() {
    let mock = MockEndpoint::start(|r: &Request| {
        if r.index == 0 {
            ok_json(3)
                .pause_body(10, Duration::from_millis(1000))
                .into()
        } else {
            ok_json(3).into()
        }
    });
    let b = backend(fast(&mock.url()));
    expect_rows(select(&b, &x_query()), 3);
    assert_eq!(b.requests_sent(), 2);
}

// 2. Retry-After ------------------------------------------------------------------------------

#[test]
fn retry_after_zero_is_honoured() {
    // 429 then 503, both with `Retry-After: 0`; the configured backoff (1 s) would be slower.
    let mock = MockEndpoint::start(|r: &Request| match r.index {
        0 => Response::text(429, "slow down")
            .header("Retry-After", "0")
            .into(),
        1 => Response::text(503, "busy")
            .header("Retry-After", "0")
            .into(),
        _ => ok_json(2).into(),
    });
    let b = backend(HttpOptions {
        backoff: Duration::from_secs(1),
        max_backoff: Duration::from_secs(5),
        ..fast(&mock.url())
    });
    let start = Instant::now();
    expect_rows(select(&b, &x_query()), 2);
    assert_eq!(b.requests_sent(), 3);
    assert!(
        start.elapsed() < Duration::from_millis(900),
        "Retry-After: 0 was not honoured: {:?}",
        start.elapsed()
    );
}

#[test]
fn large_retry_after_is_capped_by_max_backoff() {
    let mock = MockEndpoint::start(|r: &Request| {
        if r.index == 0 {
            Response::text(503, "busy")
                .header("Retry-After", "100")
                .into()
        } else {
            ok_json(2).into()
        }
    });
    let b = backend(fast(&mock.url()));
    let start = Instant::now();
    expect_rows(select(&b, &x_query()), 2);
    assert_eq!(b.requests_sent(), 2);
    assert!(
        start.elapsed() < Duration::from_secs(2),
        "{:?}",
        start.elapsed()
    );
}

#[test]
fn persistent_503_gives_up_with_the_status() {
    let mock = MockEndpoint::start(|_: &Request| {
        Response::text(503, "maintenance window")
            .header("Retry-After", "0")
            .into()
    });
    let b = backend(fast(&mock.url()));
    let message = expect_err(select(&b, &x_query()));
    assert!(message.contains("503"), "{message}");
    assert!(message.contains("maintenance window"), "{message}");
    assert_eq!(b.requests_sent(), 3);
}

// 3. Server errors and client errors ----------------------------------------------------------

#[test]
fn server_error_then_success() {
    let mock = MockEndpoint::start(|r: &Request| {
        if r.index == 0 {
            Response::text(500, "oops").into()
        } else {
            ok_json(4).into()
        }
    });
    let b = backend(fast(&mock.url()));
    expect_rows(select(&b, &x_query()), 4);
    assert_eq!(b.requests_sent(), 2);
}

const VIRTUOSO_400: &str = "Virtuoso 37000 Error SP030: SPARQL compiler, line 1: \
     syntax error at 'WHERE' before '{'";

#[test]
fn client_error_fails_at_once_with_body_and_query() {
    let mock = MockEndpoint::start(|_: &Request| Response::text(400, VIRTUOSO_400).into());
    let b = backend(fast(&mock.url()));
    let q = x_query();
    let message = expect_err(select(&b, &q));
    assert_eq!(b.requests_sent(), 1, "a 400 must not be retried");
    assert_eq!(mock.request_count(), 1);
    assert!(message.contains(VIRTUOSO_400), "{message}");
    assert!(message.contains(&q.to_string()), "{message}");
    assert!(message.contains("400"), "{message}");
}

#[test]
fn not_found_fails_at_once() {
    let mock = MockEndpoint::start(|_: &Request| Response::text(404, "no such endpoint").into());
    let b = backend(fast(&mock.url()));
    let message = expect_err(select(&b, &x_query()));
    assert_eq!(b.requests_sent(), 1);
    assert!(message.contains("no such endpoint"), "{message}");
}

#[test]
fn endpoint_down_is_an_error_after_retries() {
    let port = {
        let l = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        l.local_addr().unwrap().port()
    };
    let b = backend(fast(&format!("http://127.0.0.1:{port}/sparql")));
    let message = expect_err(select(&b, &x_query()));
    assert!(message.contains("connection failed"), "{message}");
    assert!(message.contains("3 attempts"), "{message}");
    assert_eq!(b.requests_sent(), 3);
}

#[test]
fn temporary_redirect_keeps_the_query() {
    let mock = MockEndpoint::start(|r: &Request| {
        if r.path() == "/sparql" {
            Response::text(307, "moved")
                .header("Location", "/sparql/")
                .into()
        } else if r.query_text().as_deref() == Some(x_query().to_string().as_str()) {
            ok_json(2).into()
        } else {
            Response::text(400, "no query").into()
        }
    });
    let b = backend(fast(&mock.url()));
    expect_rows(select(&b, &x_query()), 2);
    assert_eq!(mock.requests()[1].method, "POST");
}

// 4. Connections closed without an answer -----------------------------------------------------

#[test]
fn connection_closed_without_answer_then_ok() {
    let mock = MockEndpoint::start(|r: &Request| {
        if r.index == 0 {
            Reply::Close
        } else {
            ok_json(3).into()
        }
    });
    let b = backend(fast(&mock.url()));
    expect_rows(select(&b, &x_query()), 3);
    assert_eq!(mock.request_count(), 2);
    assert_eq!(b.requests_sent(), 2);
}

#[test]
fn connection_dropped_at_accept_then_ok() {
    let mock = MockEndpoint::start_dropping(1, |_: &Request| ok_json(3).into());
    let b = backend(fast(&mock.url()));
    expect_rows(select(&b, &x_query()), 3);
    assert!(mock.connection_count() >= 2);
    assert_eq!(mock.request_count(), 1);
}

#[test]
fn connection_always_closed_is_an_error() {
    let mock = MockEndpoint::start(|_: &Request| Reply::Close);
    let b = backend(fast(&mock.url()));
    let message = expect_err(select(&b, &x_query()));
    assert!(message.contains("3 attempts"), "{message}");
    assert_eq!(b.requests_sent(), 3);
}

#[test]
fn closed_keep_alive_connection_between_queries_is_survived() {
    // The first answer closes the connection after it; the pooled connection is then dead.
    let mock = MockEndpoint::start(|r: &Request| {
        if r.index == 0 {
            ok_json(2).close().into()
        } else {
            ok_json(3).into()
        }
    });
    let b = backend(fast(&mock.url()));
    expect_rows(select(&b, &x_query()), 2);
    expect_rows(select(&b, &x_query()), 3);
}

// 5. Broken documents after 200 OK ------------------------------------------------------------

#[test]
fn truncated_json_every_time_is_an_error() {
    let full = iris_json(&iris(6));
    let broken: Vec<String> = vec![
        full[..full.len() / 2].to_string(),
        full[..full.len() - 3].to_string(),
        String::new(),
        r#"{"head":{"vars":["x"]}"#.into(),
        r#"{"head":{"vars":["x"]},"results":{"bindings":["#.into(),
        r#"{"head":{"vars":["x"]},"results":{"bindings":[{"x":{"type":"uri","value":"http://ex/r00"}},"#
            .into(),
    ];
    for body in broken {
        let served = body.clone();
        let mock = MockEndpoint::start(move |_: &Request| Response::json(served.clone()).into());
        let b = backend(fast(&mock.url()));
        match select(&b, &x_query()) {
            Ok(table) => panic!(
                "{body:?} was accepted as {} rows: {table:?}",
                table.rows.len()
            ),
            Err(e) => {
                let message = e.to_string();
                assert!(
                    message.contains("not valid SPARQL results"),
                    "{body:?}: {message}"
                );
                assert!(message.contains("3 attempts"), "{body:?}: {message}");
            }
        }
        assert_eq!(b.requests_sent(), 3, "{body:?}");
    }
}

#[test]
fn body_cut_short_every_time_is_an_error() {
    // `Content-Length` announces the whole document; the connection closes halfway.
    let full = iris_json(&iris(6));
    let half = full.len() / 2;
    let mock = MockEndpoint::start(move |_: &Request| ok_json(6).cut_body_at(half).into());
    let b = backend(fast(&mock.url()));
    let message = expect_err(select(&b, &x_query()));
    assert!(message.contains("3 attempts"), "{message}");
    assert_eq!(b.requests_sent(), 3);
}

#[test]
fn truncated_json_once_then_ok() {
    let full = iris_json(&iris(6));
    let half = full[..full.len() / 2].to_string();
    let mock = MockEndpoint::start(move |r: &Request| match r.index {
        0 => Response::json(half.clone()).into(),
        1 => ok_json(6).cut_body_at(20).into(),
        _ => ok_json(6).into(),
    });
    let b = backend(fast(&mock.url()));
    expect_rows(select(&b, &x_query()), 6);
    assert_eq!(b.requests_sent(), 3);
}

// 6. Row caps and paging ----------------------------------------------------------------------

/// An endpoint holding `total` rows of `?x` that honours `LIMIT`/`OFFSET`, answers at most
/// `cap` rows, and names `header_cap` in `X-SPARQL-MaxRows` when it cut an answer.
fn capped_endpoint(total: usize, cap: usize, header_cap: Option<usize>) -> MockEndpoint {
    let rows = iris(total);
    MockEndpoint::start(move |r: &Request| {
        let (limit, offset) = r.limit_offset();
        let offset = offset.unwrap_or(0).min(rows.len());
        let wanted = limit.map_or(rows.len() - offset, |l| l.min(rows.len() - offset));
        let cut = wanted > cap;
        let answer = &rows[offset..offset + wanted.min(cap)];
        let mut response = Response::json(iris_json(answer));
        if cut && let Some(h) = header_cap {
            response = response.header("X-SPARQL-MaxRows", &h.to_string());
        }
        response.into()
    })
}

fn assert_all_distinct(table: &SolutionTable, n: usize) {
    let got: BTreeSet<String> = xs(table).into_iter().collect();
    assert_eq!(table.rows.len(), n, "row count: {table:?}");
    assert_eq!(got, iris(n).into_iter().collect::<BTreeSet<_>>());
}

#[test]
fn capped_answer_with_header_is_paged_to_completion() {
    let mock = capped_endpoint(25, 10, Some(10));
    let b = backend(HttpOptions {
        max_rows: 10,
        ..fast(&mock.url())
    });
    let table = select(&b, &x_query()).unwrap_or_else(|e| panic!("{e}"));
    assert_all_distinct(&table, 25);
    let requests = mock.requests();
    // The first answer, then pages at offsets 0, 10, 20 (the last one short).
    assert_eq!(requests.len(), 4, "{requests:#?}");
    for r in &requests[1..] {
        let q = r.query_text().unwrap();
        assert!(q.contains("ORDER BY"), "{q}");
        assert_eq!(r.limit_offset().0, Some(10), "{q}");
    }
    let offsets: Vec<usize> = requests[1..]
        .iter()
        .map(|r| r.limit_offset().1.unwrap_or(0))
        .collect();
    assert_eq!(offsets, vec![0, 10, 20]);
}

/// A Virtuoso-like endpoint with a row cap of `cap` and a sort window of `cap` rows
/// (`MaxSortedTopRows`): `ORDER BY … OFFSET o LIMIT l` with `o + l > cap` fails with `SR353`.
/// Each example in the query's `VALUES` block (`http://ex/rNN`) has `per_example` rows.
fn sort_limited_endpoint(cap: usize, per_example: usize) -> MockEndpoint {
    MockEndpoint::start(move |r: &Request| {
        let text = r.query_text().unwrap_or_default();
        let examples: BTreeSet<String> = text
            .split('<')
            .filter_map(|t| t.split_once('>').map(|(iri, _)| iri.to_string()))
            .filter(|iri| iri.starts_with("http://ex/r"))
            .collect();
        let rows: Vec<Vec<Option<String>>> = examples
            .iter()
            .flat_map(|x| {
                (0..per_example).map(move |v| vec![Some(x.clone()), Some(format!("{x}/v{v}"))])
            })
            .collect();
        let (limit, offset) = r.limit_offset();
        let offset = offset.unwrap_or(0);
        if text.contains("ORDER BY") && offset + limit.unwrap_or(0) > cap {
            return Response::text(
                500,
                &format!(
                    "Virtuoso 22023 Error SR353: Sorted TOP clause specifies more then {} rows \
                     to sort. Only {cap} are allowed.",
                    offset + limit.unwrap_or(0)
                ),
            )
            .into();
        }
        let offset = offset.min(rows.len());
        let wanted = limit.map_or(rows.len() - offset, |l| l.min(rows.len() - offset));
        let answer = &rows[offset..offset + wanted.min(cap)];
        let mut response = Response::json(common::mock_endpoint::results_json(&["x", "v"], answer));
        if wanted > cap {
            response = response.header("X-SPARQL-MaxRows", &cap.to_string());
        }
        response.into()
    })
}

fn values_query(examples: &[String]) -> Query {
    let listed: Vec<String> = examples.iter().map(|e| format!("<{e}>")).collect();
    parse(&format!(
        "SELECT ?x ?v WHERE {{ VALUES ?x {{ {} }} ?x <urn:p> ?v }}",
        listed.join(" ")
    ))
}

#[test]
fn paging_past_the_sort_limit_splits_the_values_block() {
    let mock = sort_limited_endpoint(10, 1);
    let b = backend(HttpOptions {
        max_rows: 10,
        ..fast(&mock.url())
    });
    let table = select(&b, &values_query(&iris(40))).unwrap_or_else(|e| panic!("{e}"));
    let got: BTreeSet<String> = xs(&table).into_iter().collect();
    assert_eq!(table.rows.len(), 40, "{table:?}");
    assert_eq!(got, iris(40).into_iter().collect::<BTreeSet<_>>());
    // Refusals to sort are not retried: each SR353 cost one request.
    let refused = mock
        .requests()
        .iter()
        .filter(|r| {
            let (l, o) = r.limit_offset();
            o.unwrap_or(0) + l.unwrap_or(0) > 10
        })
        .count();
    assert!(refused > 0 && refused <= 8, "{refused} sort refusals");
}

#[test]
fn sort_limit_with_nothing_left_to_split_is_a_clear_error() {
    // One example with 25 rows: the cap cuts it, paging fails, and one binding cannot split.
    let mock = sort_limited_endpoint(10, 25);
    let b = backend(HttpOptions {
        max_rows: 10,
        ..fast(&mock.url())
    });
    let message = expect_err(select(&b, &values_query(&iris(1))));
    assert!(
        message.contains("no VALUES block left to split"),
        "{message}"
    );
    assert!(message.contains("SR353"), "{message}");
}

#[test]
fn header_cap_below_max_rows_sets_the_page_size() {
    let mock = capped_endpoint(25, 5, Some(5));
    let b = backend(HttpOptions {
        max_rows: 10,
        ..fast(&mock.url())
    });
    let table = select(&b, &x_query()).unwrap_or_else(|e| panic!("{e}"));
    assert_all_distinct(&table, 25);
    let requests = mock.requests();
    for r in &requests[1..] {
        assert_eq!(r.limit_offset().0, Some(5), "{:?}", r.query_text());
    }
    // The first answer, then pages at 0, 5, 10, 15, 20, 25 (the last one empty).
    assert_eq!(requests.len(), 7);
}

#[test]
fn silent_cap_equal_to_max_rows_is_paged() {
    let mock = capped_endpoint(20, 10, None);
    let b = backend(HttpOptions {
        max_rows: 10,
        ..fast(&mock.url())
    });
    let table = select(&b, &x_query()).unwrap_or_else(|e| panic!("{e}"));
    assert_all_distinct(&table, 20);
    assert_eq!(b.requests_sent(), 4);
}

#[test]
fn answer_below_the_cap_is_not_paged() {
    let mock = capped_endpoint(9, 10, Some(10));
    let b = backend(HttpOptions {
        max_rows: 10,
        ..fast(&mock.url())
    });
    expect_rows(select(&b, &x_query()), 9);
    assert_eq!(b.requests_sent(), 1);
}

/// An endpoint without a cap (an Oxigraph server) returns more rows than `--max-rows`: that
/// answer is whole, and paging it would only sort it again on the server.
#[test]
fn answer_longer_than_the_configured_cap_is_not_paged() {
    let mock = capped_endpoint(25, usize::MAX, None);
    let b = backend(HttpOptions {
        max_rows: 10,
        ..fast(&mock.url())
    });
    expect_rows(select(&b, &x_query()), 25);
    assert_eq!(b.requests_sent(), 1);
}

#[test]
fn cap_shrinking_while_paging_is_an_error() {
    // The first answer names a cap of 10; the pages then come back cut at 5.
    let rows = iris(25);
    let mock = MockEndpoint::start(move |r: &Request| {
        let (limit, offset) = r.limit_offset();
        let offset = offset.unwrap_or(0);
        let cap = if r.index == 0 { 10 } else { 5 };
        let n = limit
            .unwrap_or(usize::MAX)
            .min(cap)
            .min(rows.len() - offset);
        Response::json(iris_json(&rows[offset..offset + n]))
            .header("X-SPARQL-MaxRows", &cap.to_string())
            .into()
    });
    let b = backend(HttpOptions {
        max_rows: 10,
        ..fast(&mock.url())
    });
    let message = expect_err(select(&b, &x_query()));
    assert!(message.contains("row cap changed"), "{message}");
}

#[test]
fn budget_running_out_while_paging_is_not_a_partial_table() {
    let mock = capped_endpoint(25, 10, Some(10));
    let b = backend(HttpOptions {
        max_rows: 10,
        budget: Some(3),
        ..fast(&mock.url())
    });
    let message = expect_err(select(&b, &x_query()));
    assert!(message.contains("budget"), "{message}");
    assert_eq!(mock.request_count(), 3);
}

#[test]
fn endpoint_ignoring_offset_does_not_page_forever() {
    // Honours LIMIT but not OFFSET: every page is the same first 10 rows. After 200 requests
    // the mock refuses, so a looping backend still ends (with the mock's error, which fails
    // the test below).
    let rows = iris(25);
    let mock = MockEndpoint::start(move |r: &Request| {
        if r.index >= 200 {
            return Response::text(400, "mock: too many pages").into();
        }
        let n = r.limit_offset().0.unwrap_or(usize::MAX).min(10);
        Response::json(iris_json(&rows[..n]))
            .header("X-SPARQL-MaxRows", "10")
            .into()
    });
    let b = backend(HttpOptions {
        max_rows: 10,
        ..fast(&mock.url())
    });
    let result = select(&b, &x_query());
    let seen = mock.request_count();
    match result {
        Ok(table) => panic!(
            "a wrong table of {} rows after {seen} requests",
            table.rows.len()
        ),
        Err(e) => assert!(
            seen < 200,
            "the backend paged {seen} times without noticing the pages repeat: {e}"
        ),
    }
}

// 7. Partial (anytime) answers ----------------------------------------------------------------

#[test]
fn partial_answer_every_time_is_an_error() {
    let mock = MockEndpoint::start(|_: &Request| ok_json(2).header("X-SQL-State", "S1TAT").into());
    let b = backend(fast(&mock.url()));
    let message = expect_err(select(&b, &x_query()));
    assert!(message.contains("partial"), "{message}");
    assert_eq!(b.requests_sent(), 3);
}

#[test]
fn partial_answer_once_then_full() {
    let mock = MockEndpoint::start(|r: &Request| {
        if r.index == 0 {
            ok_json(2).header("X-SQL-State", "S1TAT").into()
        } else {
            ok_json(5).into()
        }
    });
    let b = backend(fast(&mock.url()));
    expect_rows(select(&b, &x_query()), 5);
    assert_eq!(b.requests_sent(), 2);
}

// 8. Query budget -----------------------------------------------------------------------------

#[test]
fn budget_stops_the_third_query() {
    let mock = MockEndpoint::start(|_: &Request| ok_json(1).into());
    let b = backend(HttpOptions {
        budget: Some(2),
        ..fast(&mock.url())
    });
    expect_rows(select(&b, &x_query()), 1);
    expect_rows(select(&b, &x_query()), 1);
    let message = expect_err(select(&b, &x_query()));
    assert!(message.contains("budget"), "{message}");
    assert_eq!(mock.request_count(), 2);
    assert_eq!(b.requests_sent(), 2);
}

#[test]
fn budget_counts_retries() {
    let mock = MockEndpoint::start(|_: &Request| Response::text(500, "down").into());
    let b = backend(HttpOptions {
        budget: Some(2),
        retries: 5,
        ..fast(&mock.url())
    });
    let message = expect_err(select(&b, &x_query()));
    assert!(message.contains("budget"), "{message}");
    assert_eq!(mock.request_count(), 2);
}

#[test]
fn budget_holds_under_concurrency() {
    let mock =
        MockEndpoint::start(|_: &Request| ok_json(1).delay(Duration::from_millis(50)).into());
    let b = backend(HttpOptions {
        budget: Some(3),
        concurrency: 2,
        ..fast(&mock.url())
    });
    let q = x_query();
    let results: Vec<Result<SolutionTable, OracleError>> = bounded(WATCHDOG, move || {
        std::thread::scope(|s| {
            let handles: Vec<_> = (0..8).map(|_| s.spawn(|| b.select(&q))).collect();
            handles.into_iter().map(|h| h.join().unwrap()).collect()
        })
    });
    let ok = results.iter().filter(|r| r.is_ok()).count();
    assert!(
        mock.request_count() <= 3,
        "budget of 3 requests, the endpoint saw {} ({ok} answers)",
        mock.request_count()
    );
    assert_eq!(ok, 3);
    for r in results.iter().filter_map(|r| r.as_ref().err()) {
        assert!(r.to_string().contains("budget"), "{r}");
    }
}

// 9. Authentication ---------------------------------------------------------------------------

const PASSWORD: &str = "s3cret-pw";
const TOKEN: &str = "tok-123-secret";

/// Records the `Authorization` header of each request, answering `reply`.
fn auth_recorder(
    reply: impl Fn(&Request) -> Reply + Send + Sync + 'static,
) -> (MockEndpoint, Arc<Mutex<Vec<Option<String>>>>) {
    let seen = Arc::new(Mutex::new(Vec::new()));
    let log = Arc::clone(&seen);
    let mock = MockEndpoint::start(move |r: &Request| {
        log.lock()
            .unwrap()
            .push(r.header("authorization").map(str::to_string));
        reply(r)
    });
    (mock, seen)
}

fn assert_secret_free(what: &str, text: &str) {
    for secret in [PASSWORD, TOKEN, "YWxpY2U6czNjcmV0LXB3"] {
        assert!(!text.contains(secret), "{what} leaks {secret:?}: {text}");
    }
}

#[test]
fn basic_auth_is_sent_and_never_shown() {
    let (mock, seen) = auth_recorder(|r: &Request| {
        if r.index == 0 {
            ok_json(1).into()
        } else {
            Response::text(400, "Virtuoso 37000 Error SP030: bad query").into()
        }
    });
    let options = HttpOptions {
        auth: Some(Auth::Basic {
            user: "alice".into(),
            password: PASSWORD.into(),
        }),
        ..fast(&mock.url())
    };
    assert_secret_free("HttpOptions Debug", &format!("{options:?}"));
    let b = backend(options);
    expect_rows(select(&b, &x_query()), 1);
    let err = select(&b, &x_query()).expect_err("400");
    assert_secret_free("error message", &err.to_string());
    assert_secret_free("error Debug", &format!("{err:?}"));
    assert_secret_free("backend name", &b.name());
    // base64("alice:s3cret-pw")
    let expected = Some("Basic YWxpY2U6czNjcmV0LXB3".to_string());
    assert_eq!(*seen.lock().unwrap(), vec![expected.clone(), expected]);
}

#[test]
fn bearer_auth_is_sent_and_never_shown() {
    let (mock, seen) = auth_recorder(|r: &Request| match r.index {
        0 => ok_json(1).into(),
        1 => Response::text(400, "bad query").into(),
        _ => Reply::Close,
    });
    let options = HttpOptions {
        auth: Some(Auth::Bearer(TOKEN.into())),
        ..fast(&mock.url())
    };
    assert_secret_free("HttpOptions Debug", &format!("{options:?}"));
    let b = backend(options);
    expect_rows(select(&b, &x_query()), 1);
    let err = select(&b, &x_query()).expect_err("400");
    assert_secret_free("error message", &err.to_string());
    assert_secret_free("error Debug", &format!("{err:?}"));
    // A connection-level failure with credentials set.
    let err = select(&b, &x_query()).expect_err("closed");
    assert_secret_free("error message", &err.to_string());
    assert_secret_free("error Debug", &format!("{err:?}"));
    let seen = seen.lock().unwrap();
    assert!(seen.len() >= 3);
    for h in seen.iter() {
        assert_eq!(h.as_deref(), Some("Bearer tok-123-secret"));
    }
}

#[test]
fn auth_file_credentials_are_sent_and_never_shown() {
    let dir = std::env::temp_dir().join(format!("oxilearn-auth-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("endpoint.auth");
    std::fs::write(
        &file,
        format!("# test credentials\nuser = alice\npassword = \"{PASSWORD}\"\n"),
    )
    .unwrap();
    let auth = Auth::from_file(&file).unwrap_or_else(|e| panic!("{e}"));
    assert_secret_free("Auth Debug", &format!("{auth:?}"));
    let (mock, seen) = auth_recorder(|r: &Request| match r.index {
        0 => ok_json(1).into(),
        _ => Response::text(400, "bad query").into(),
    });
    let b = backend(HttpOptions {
        auth: Some(auth),
        ..fast(&mock.url())
    });
    expect_rows(select(&b, &x_query()), 1);
    let err = select(&b, &x_query()).expect_err("400");
    assert_secret_free("error message", &err.to_string());
    assert_eq!(
        seen.lock().unwrap()[0].as_deref(),
        Some("Basic YWxpY2U6czNjcmV0LXB3")
    );
    // A broken file names itself and the line, not the secret.
    std::fs::write(&file, format!("user = alice\npasword = {PASSWORD}\n")).unwrap();
    let message = Auth::from_file(&file).unwrap_err().to_string();
    assert!(message.contains("endpoint.auth:2"), "{message}");
    assert_secret_free("auth file error", &message);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn credentials_in_the_url_are_never_shown() {
    let (mock, seen) = auth_recorder(|_: &Request| Response::text(400, "bad query").into());
    let url = format!("http://alice:{PASSWORD}@{}/sparql", mock.addr());
    let b = backend(fast(&url));
    let err = select(&b, &x_query()).expect_err("400");
    // reqwest turns the userinfo into a Basic header.
    assert_eq!(
        seen.lock().unwrap()[0].as_deref(),
        Some("Basic YWxpY2U6czNjcmV0LXB3")
    );
    assert_secret_free("error message", &err.to_string());
    assert_secret_free("error Debug", &format!("{err:?}"));
    assert_secret_free("backend name", &b.name());
}

// 10. What goes over the wire -----------------------------------------------------------------

#[test]
fn form_post_carries_query_and_graphs() {
    let mock = MockEndpoint::start(|_: &Request| ok_json(1).into());
    let mut options = fast(&mock.url())
        .with_default_graph("http://ex/g1")
        .with_default_graph("http://ex/g2?a=1&b=2");
    options.named_graphs.push("http://ex/named".into());
    let b = backend(options);
    let q = x_query();
    expect_rows(select(&b, &q), 1);
    let r = &mock.requests()[0];
    assert_eq!(r.method, "POST");
    assert_eq!(r.path(), "/sparql");
    assert!(
        r.header("content-type")
            .unwrap()
            .starts_with("application/x-www-form-urlencoded")
    );
    assert_eq!(r.header("accept"), Some("application/sparql-results+json"));
    assert!(r.url_params().is_empty(), "{}", r.target);
    let form = r.form_params();
    let values = |k: &str| -> Vec<String> {
        form.iter()
            .filter(|(n, _)| n == k)
            .map(|(_, v)| v.clone())
            .collect()
    };
    assert_eq!(
        values("default-graph-uri"),
        ["http://ex/g1", "http://ex/g2?a=1&b=2"]
    );
    assert_eq!(values("named-graph-uri"), ["http://ex/named"]);
    assert_eq!(values("query"), [q.to_string()]);
}

#[test]
fn get_puts_the_query_in_the_url() {
    let mock = MockEndpoint::start(|_: &Request| ok_json(1).into());
    let b = backend(HttpOptions {
        method: QueryMethod::Get,
        ..fast(&mock.url()).with_default_graph("http://ex/g1")
    });
    let q = parse("SELECT ?x WHERE { ?x <http://ex/p> \"a b&c=d+e\" }");
    expect_rows(select(&b, &q), 1);
    let r = &mock.requests()[0];
    assert_eq!(r.method, "GET");
    assert!(r.body.is_empty());
    assert_eq!(r.params("query"), [q.to_string()]);
    assert_eq!(r.params("default-graph-uri"), ["http://ex/g1"]);
}

#[test]
fn direct_post_sends_sparql_query_body() {
    let mock = MockEndpoint::start(|_: &Request| ok_json(1).into());
    let b = backend(HttpOptions {
        method: QueryMethod::DirectPost,
        ..fast(&mock.url()).with_default_graph("http://ex/g1")
    });
    let q = x_query();
    expect_rows(select(&b, &q), 1);
    let r = &mock.requests()[0];
    assert_eq!(r.method, "POST");
    assert_eq!(r.header("content-type"), Some("application/sparql-query"));
    assert_eq!(String::from_utf8_lossy(&r.body), q.to_string());
    assert_eq!(
        r.url_params(),
        [("default-graph-uri".to_string(), "http://ex/g1".to_string())]
    );
}

#[test]
fn xml_results_are_asked_for_and_read() {
    let mock = MockEndpoint::start(|_: &Request| {
        Response::new(
            200,
            "application/sparql-results+xml",
            r#"<?xml version="1.0"?>
<sparql xmlns="http://www.w3.org/2005/sparql-results#">
  <head><variable name="x"/></head>
  <results>
    <result><binding name="x"><uri>http://ex/r00</uri></binding></result>
    <result><binding name="x"><uri>http://ex/r01</uri></binding></result>
  </results>
</sparql>"#,
        )
        .into()
    });
    let b = backend(HttpOptions {
        results: ResultsSyntax::Xml,
        ..fast(&mock.url())
    });
    expect_rows(select(&b, &x_query()), 2);
    assert_eq!(
        mock.requests()[0].header("accept"),
        Some("application/sparql-results+xml")
    );
}

// 11. HTML instead of results -----------------------------------------------------------------

#[test]
fn html_answer_is_a_clear_error() {
    let mock = MockEndpoint::start(|_: &Request| {
        Response::new(
            200,
            "text/html; charset=utf-8",
            "<html><body><h1>Welcome to the SPARQL endpoint</h1></body></html>",
        )
        .into()
    });
    let b = backend(fast(&mock.url()));
    let message = expect_err(select(&b, &x_query()));
    assert!(message.contains("HTML"), "{message}");
    assert!(
        message.contains("Welcome to the SPARQL endpoint"),
        "{message}"
    );
    assert_eq!(b.requests_sent(), 1);
}

// 12. Many threads, bounded concurrency -------------------------------------------------------

#[test]
fn many_threads_share_two_connections_worth_of_concurrency() {
    // Each query names its own predicate; the endpoint echoes it as the only row, so a mixed-up
    // answer shows.
    let mock = MockEndpoint::start(|r: &Request| {
        let q = r.query_text().unwrap_or_default();
        let start = q.find("<http://ex/p").expect("predicate") + 1;
        let end = start + q[start..].find('>').unwrap();
        Response::json(iris_json(&[q[start..end].to_string()]))
            .delay(Duration::from_millis(15))
            .into()
    });
    let b = backend(HttpOptions {
        concurrency: 2,
        ..fast(&mock.url())
    });
    let done = Arc::new(AtomicUsize::new(0));
    let worker_backend = Arc::clone(&b);
    let worker_done = Arc::clone(&done);
    bounded(WATCHDOG, move || {
        std::thread::scope(|s| {
            for t in 0..8 {
                let b = &worker_backend;
                let done = &worker_done;
                s.spawn(move || {
                    for i in 0..5 {
                        let p = format!("http://ex/p{t}_{i}");
                        let q = parse(&format!("SELECT ?x WHERE {{ ?s <{p}> ?x }}"));
                        let table = b.select(&q).unwrap_or_else(|e| panic!("{e}"));
                        assert_eq!(xs(&table), [p]);
                        done.fetch_add(1, Ordering::SeqCst);
                    }
                });
            }
        })
    });
    assert_eq!(done.load(Ordering::SeqCst), 40);
    assert_eq!(mock.request_count(), 40);
    assert_eq!(b.requests_sent(), 40);
    assert!(
        mock.max_in_flight() <= 2,
        "{} requests in flight at once",
        mock.max_in_flight()
    );
}

// 13. Inside a tokio runtime ------------------------------------------------------------------

#[test]
fn select_from_spawn_blocking_inside_a_runtime() {
    let mock = MockEndpoint::start(|_: &Request| ok_json(2).into());
    let b = backend(fast(&mock.url()));
    let worker = Arc::clone(&b);
    let table = bounded(WATCHDOG, move || {
        let rt = tokio::runtime::Runtime::new().unwrap();
        rt.block_on(async move {
            tokio::task::spawn_blocking(move || worker.select(&x_query()))
                .await
                .unwrap()
        })
    });
    expect_rows(table, 2);
}

#[test]
fn select_directly_inside_a_current_thread_runtime() {
    let mock = MockEndpoint::start(|_: &Request| ok_json(2).into());
    let b = backend(fast(&mock.url()));
    let worker = Arc::clone(&b);
    let table = bounded(WATCHDOG, move || {
        let rt = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .unwrap();
        rt.block_on(async move { worker.select(&x_query()) })
    });
    expect_rows(table, 2);
}

#[test]
fn backend_made_and_dropped_inside_a_runtime() {
    let mock = MockEndpoint::start(|_: &Request| ok_json(2).into());
    let url = mock.url();
    let outcome = bounded(WATCHDOG, move || {
        std::panic::catch_unwind(move || {
            let rt = tokio::runtime::Runtime::new().unwrap();
            rt.block_on(async move {
                let b = backend(fast(&url));
                let worker = Arc::clone(&b);
                let table = tokio::task::spawn_blocking(move || worker.select(&x_query()))
                    .await
                    .unwrap();
                drop(b); // the last handle, dropped in async code
                table.map(|t| t.rows.len())
            })
        })
        .map_err(|p| {
            p.downcast_ref::<String>()
                .cloned()
                .or_else(|| p.downcast_ref::<&str>().map(|s| s.to_string()))
                .unwrap_or_default()
        })
    });
    match outcome {
        Ok(rows) => assert_eq!(rows.expect("answer"), 2),
        Err(panic) => panic!("dropping the backend inside a runtime panicked: {panic}"),
    }
}

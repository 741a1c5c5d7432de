//! The run's deadline and the adaptive politeness delay of the HTTP backend, against a
//! scripted endpoint on 127.0.0.1.
//!
//! Time bounds here are correctness bounds (a call must not outlive the deadline by more than
//! a generous slack, so a loaded CI machine passes), not speed claims.

use crate::common;

use std::sync::Arc;
use std::time::{Duration, Instant};

use common::mock_endpoint::{MockEndpoint, Request, Response, iris_json};
use oxilearn::oracle::backend::{
    HttpBackend, HttpOptions, PUBLIC_DEFAULT, SolutionTable, SparqlBackend,
};
use oxilearn::oracle::{BudgetExhausted, OracleError};
use spargebra::Query;

/// Slack allowed past a deadline before a call counts as having ignored it.
const SLACK: Duration = Duration::from_secs(2);

fn x_query() -> Query {
    spargebra::SparqlParser::new()
        .parse_query("SELECT ?x WHERE { ?x ?p ?o }")
        .unwrap()
}

fn ok_json(n: usize) -> Response {
    let iris: Vec<String> = (0..n).map(|i| format!("http://ex/r{i}")).collect();
    Response::json(iris_json(&iris))
}

/// Long timeouts and backoffs: only the deadline can end these calls quickly.
fn patient(url: &str) -> HttpOptions {
    HttpOptions {
        timeout: Duration::from_secs(30),
        connect_timeout: Duration::from_secs(5),
        retries: 3,
        backoff: Duration::from_secs(5),
        max_backoff: Duration::from_secs(20),
        ..HttpOptions::local(url)
    }
}

/// Runs the query on its own thread; panics if it has not returned after `limit`.
fn timed_select(
    b: &Arc<HttpBackend>,
    limit: Duration,
) -> (Result<SolutionTable, OracleError>, Duration) {
    let (tx, rx) = std::sync::mpsc::channel();
    let b = Arc::clone(b);
    std::thread::spawn(move || {
        let t0 = Instant::now();
        let r = b.select(&x_query());
        let _ = tx.send((r, t0.elapsed()));
    });
    rx.recv_timeout(limit)
        .unwrap_or_else(|_| panic!("the call did not return within {limit:?}"))
}

fn assert_deadline(result: &Result<SolutionTable, OracleError>) {
    match result {
        Ok(t) => panic!("expected the deadline to stop the call, got {t:?}"),
        Err(e) => assert_eq!(
            e.budget_exhausted(),
            Some(BudgetExhausted::Deadline),
            "expected BudgetExhausted::Deadline, got: {e}"
        ),
    }
}

#[test]
fn a_slow_answer_is_cut_at_the_deadline_and_not_retried() {
    let mock = MockEndpoint::start(|_: &Request| ok_json(1).delay(Duration::from_secs(10)).into());
    let b = Arc::new(HttpBackend::new(patient(&mock.url())).unwrap());
    let deadline = Duration::from_millis(500);
    b.set_deadline(Some(Instant::now() + deadline));
    let (result, took) = timed_select(&b, Duration::from_secs(15));
    assert_deadline(&result);
    assert!(took < deadline + SLACK, "returned after {took:?}");
    assert_eq!(mock.request_count(), 1, "a deadline timeout is not retried");
}

#[test]
fn nothing_is_sent_after_the_deadline() {
    let mock = MockEndpoint::start(|_: &Request| ok_json(1).into());
    let b = Arc::new(HttpBackend::new(patient(&mock.url())).unwrap());
    b.set_deadline(Some(Instant::now()));
    let (result, _) = timed_select(&b, Duration::from_secs(5));
    assert_deadline(&result);
    assert_eq!(mock.request_count(), 0);
    assert_eq!(b.requests_sent(), 0);
    // Lifting the deadline lets queries run again.
    b.set_deadline(None);
    let (result, _) = timed_select(&b, Duration::from_secs(5));
    assert_eq!(result.unwrap().rows.len(), 1);
}

#[test]
fn a_backoff_longer_than_the_time_left_ends_the_call_at_once() {
    let mock = MockEndpoint::start(|_: &Request| Response::text(500, "down").into());
    let b = Arc::new(HttpBackend::new(patient(&mock.url())).unwrap());
    let deadline = Duration::from_millis(800);
    b.set_deadline(Some(Instant::now() + deadline));
    let (result, took) = timed_select(&b, Duration::from_secs(15));
    assert_deadline(&result);
    assert!(took < deadline + SLACK, "returned after {took:?}");
    assert_eq!(mock.request_count(), 1);
}

#[test]
fn a_retry_after_past_the_deadline_ends_the_call_at_once() {
    let mock = MockEndpoint::start(|_: &Request| {
        Response::text(429, "slow down")
            .header("Retry-After", "10")
            .into()
    });
    let b = Arc::new(HttpBackend::new(patient(&mock.url())).unwrap());
    let deadline = Duration::from_secs(1);
    b.set_deadline(Some(Instant::now() + deadline));
    let (result, took) = timed_select(&b, Duration::from_secs(15));
    assert_deadline(&result);
    assert!(took < deadline + SLACK, "returned after {took:?}");
}

#[test]
fn a_far_deadline_changes_nothing() {
    // The first answer is slower than the request timeout: it is retried as without deadline.
    let mock = MockEndpoint::start(|r: &Request| {
        if r.index == 0 {
            ok_json(2).delay(Duration::from_millis(1500)).into()
        } else {
            ok_json(2).into()
        }
    });
    let b = Arc::new(
        HttpBackend::new(HttpOptions {
            timeout: Duration::from_millis(300),
            backoff: Duration::from_millis(10),
            ..patient(&mock.url())
        })
        .unwrap(),
    );
    b.set_deadline(Some(Instant::now() + Duration::from_secs(60)));
    let (result, _) = timed_select(&b, Duration::from_secs(15));
    assert_eq!(result.unwrap().rows.len(), 2);
    assert_eq!(mock.request_count(), 2);
}

#[test]
fn the_default_delay_follows_the_host() {
    assert_eq!(
        HttpOptions::new("http://127.0.0.1:7878/query").politeness,
        Duration::ZERO
    );
    assert_eq!(
        HttpOptions::new("http://192.168.0.7/sparql").politeness,
        Duration::ZERO
    );
    assert_eq!(
        HttpOptions::new("https://example.org/sparql").politeness,
        PUBLIC_DEFAULT
    );
}

#[test]
fn throttling_raises_the_delay_and_fast_answers_lower_it_again() {
    // One 429 (no Retry-After), then fast answers.
    let mock = MockEndpoint::start(|r: &Request| {
        if r.index == 0 {
            Response::text(429, "too many requests").into()
        } else {
            ok_json(1).into()
        }
    });
    let b = Arc::new(
        HttpBackend::new(HttpOptions {
            backoff: Duration::from_millis(10),
            max_backoff: Duration::from_secs(1),
            ..HttpOptions::local(mock.url())
        })
        .unwrap(),
    );
    assert_eq!(b.politeness().delay, Duration::ZERO, "loopback: no delay");
    let (result, _) = timed_select(&b, Duration::from_secs(10));
    assert_eq!(result.unwrap().rows.len(), 1);
    let raised = b.politeness().delay;
    assert!(raised > Duration::ZERO, "a 429 raises the delay");
    // The next requests wait their turn: the wait is recorded.
    let (result, _) = timed_select(&b, Duration::from_secs(10));
    result.unwrap();
    assert!(b.politeness().waited > Duration::ZERO);
    // A run of fast answers brings it back to the host default.
    for _ in 0..64 {
        timed_select(&b, Duration::from_secs(10)).0.unwrap();
        if b.politeness().delay.is_zero() {
            break;
        }
    }
    assert_eq!(b.politeness().delay, Duration::ZERO, "lowered again");
}

#[test]
fn retry_after_is_honoured_before_the_next_request() {
    let mock = MockEndpoint::start(|r: &Request| {
        if r.index == 0 {
            Response::text(503, "busy")
                .header("Retry-After", "1")
                .into()
        } else {
            ok_json(1).into()
        }
    });
    let b = Arc::new(
        HttpBackend::new(HttpOptions {
            backoff: Duration::from_millis(10),
            max_backoff: Duration::from_secs(5),
            ..HttpOptions::local(mock.url())
        })
        .unwrap(),
    );
    let (result, took) = timed_select(&b, Duration::from_secs(10));
    assert_eq!(result.unwrap().rows.len(), 1);
    assert!(took >= Duration::from_millis(900), "retried after {took:?}");
    let requests = mock.requests();
    assert_eq!(requests.len(), 2);
}

/// A store that reports fixed politeness figures, to follow them through the oracles.
struct Paced(oxilearn::oracle::backend::EmbeddedBackend);

impl SparqlBackend for Paced {
    fn select(&self, query: &Query) -> Result<SolutionTable, OracleError> {
        self.0.select(query)
    }

    fn name(&self) -> String {
        "paced".into()
    }

    fn politeness(&self) -> oxilearn::oracle::backend::PolitenessReport {
        oxilearn::oracle::backend::PolitenessReport {
            waited: Duration::from_millis(7),
            delay: Duration::from_millis(120),
        }
    }

    fn set_deadline(&self, deadline: Option<Instant>) {
        self.0.set_deadline(deadline)
    }
}

#[test]
fn politeness_figures_and_deadlines_pass_through_the_oracles() {
    use oxilearn::concept::{Concept, Iri};
    use oxilearn::oracle::{
        CacheOptions, Cached, IndividualSet, MembershipOracle, OracleOptions, SparqlOracle,
    };
    let store = oxigraph::store::Store::new().unwrap();
    store
        .load_from_reader(
            oxigraph::io::RdfFormat::Turtle,
            "<urn:a> a <urn:C> . <urn:b> a <urn:D> .".as_bytes(),
        )
        .unwrap();
    let backend = Paced(oxilearn::oracle::backend::EmbeddedBackend::new(store));
    let oracle = SparqlOracle::new(backend, OracleOptions::default()).unwrap();
    let cached = Cached::new(&oracle, CacheOptions::default());
    for stats in [oracle.stats(), cached.stats()] {
        assert_eq!(stats.politeness_wait_ns, 7_000_000);
        assert_eq!(stats.politeness_delay_ms, 120);
    }
    let all = IndividualSet::full(oracle.shared_signature().individual_count());
    let c = Concept::class(Iri::new("urn:C"));
    cached.covered(&c, &all).unwrap();
    cached.set_deadline(Some(Instant::now()));
    let e = oracle
        .covered(&Concept::class(Iri::new("urn:D")), &all)
        .unwrap_err();
    assert_eq!(e.budget_exhausted(), Some(BudgetExhausted::Deadline), "{e}");
}

//! `oxilearn serve` end to end on the family fixture: each test starts the server on a free
//! loopback port, talks HTTP/1.1 to it with timeouts, and stops it. The member filter
//! returns exactly `predict`'s members, `/predict` answers `predict --json`'s document,
//! `learn --endpoint` against the server and `POST /learn` find what embedded learning
//! finds; oversize bodies (413), updates without `--allow-update` (403), unknown models
//! (400/404), requests beyond `--max-concurrent` (503) and queries past `--query-timeout`
//! (504) are refused with a message; updates change the functions' answers (memoised ones
//! included);
//! `--union-default-graph` queries every graph; Ctrl-C and
//! SIGTERM stop the server cleanly.

use crate::common;

use std::collections::BTreeSet;
use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use common::cli_run::{json, learn_family_model};
use serde_json::Value;

const FAMILY: &str = "fixtures/family/family.ttl";
const PROBLEMS: &str = "fixtures/family/problems.json";
const FAM: &str = "http://example.org/family#";
const MEMBER_QUERY: &str =
    r#"SELECT ?x WHERE { ?x a ?t FILTER(<urn:oxilearn:member>(?x, "Uncle")) }"#;

/// A running `oxilearn serve`, killed when dropped.
pub(crate) struct Server {
    child: Child,
    pub(crate) addr: String,
    pub(crate) stderr: Arc<Mutex<String>>,
}

impl Server {
    pub(crate) fn start(args: &[&str]) -> Server {
        let mut child = Command::new(env!("CARGO_BIN_EXE_oxilearn"))
            .arg("serve")
            .args(args)
            .args(["--bind", "127.0.0.1:0"])
            .current_dir(env!("CARGO_MANIFEST_DIR"))
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .expect("starts oxilearn serve");
        let mut lines = BufReader::new(child.stderr.take().unwrap()).lines();
        let stderr = Arc::new(Mutex::new(String::new()));
        let mut addr = None;
        for line in lines.by_ref() {
            let line = line.unwrap();
            stderr.lock().unwrap().push_str(&format!("{line}\n"));
            if let Some(rest) = line.split("listening on http://").nth(1) {
                addr = Some(rest.split('/').next().unwrap().to_owned());
                break;
            }
        }
        let Some(addr) = addr else {
            let _ = child.kill();
            panic!("serve did not start:\n{}", stderr.lock().unwrap());
        };
        let sink = stderr.clone();
        std::thread::spawn(move || {
            for line in lines.map_while(Result::ok) {
                sink.lock().unwrap().push_str(&format!("{line}\n"));
            }
        });
        Server {
            child,
            addr,
            stderr,
        }
    }

    pub(crate) fn url(&self, path: &str) -> String {
        format!("http://{}{path}", self.addr)
    }

    /// One request; the status and the body.
    pub(crate) fn request(
        &self,
        method: &str,
        target: &str,
        headers: &[(&str, &str)],
        body: &[u8],
    ) -> (u16, String) {
        http(&self.addr, method, target, headers, body)
    }

    pub(crate) fn query(&self, query: &str, accept: &str) -> (u16, String) {
        let body = format!("query={}", encode(query));
        self.request(
            "POST",
            "/sparql",
            &[
                ("Content-Type", "application/x-www-form-urlencoded"),
                ("Accept", accept),
            ],
            body.as_bytes(),
        )
    }

    /// Sends `signal`, waits for the exit (at most 10 s); the exit code and stderr.
    fn stop_with(mut self, signal: i32) -> (Option<i32>, String) {
        // SAFETY: kill(2) on our own child's pid.
        unsafe { libc::kill(self.child.id() as i32, signal) };
        let deadline = Instant::now() + Duration::from_secs(10);
        let status = loop {
            if let Some(s) = self.child.try_wait().unwrap() {
                break s;
            }
            assert!(Instant::now() < deadline, "serve did not stop within 10 s");
            std::thread::sleep(Duration::from_millis(50));
        };
        std::thread::sleep(Duration::from_millis(100));
        let stderr = self.stderr.lock().unwrap().clone();
        (status.code(), stderr)
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// HTTP/1.1 with `Connection: close` and 30 s timeouts; the status and the body.
pub(crate) fn http(
    addr: &str,
    method: &str,
    target: &str,
    headers: &[(&str, &str)],
    body: &[u8],
) -> (u16, String) {
    let (status, _, body) = http_full(addr, method, target, headers, body);
    (status, body)
}

/// [`http`], with the response's header lines (names lower-cased).
pub(crate) fn http_full(
    addr: &str,
    method: &str,
    target: &str,
    headers: &[(&str, &str)],
    body: &[u8],
) -> (u16, Vec<(String, String)>, String) {
    let mut s = TcpStream::connect(addr).expect("connects");
    s.set_read_timeout(Some(Duration::from_secs(30))).unwrap();
    s.set_write_timeout(Some(Duration::from_secs(30))).unwrap();
    let mut head = format!("{method} {target} HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n");
    for (k, v) in headers {
        head.push_str(&format!("{k}: {v}\r\n"));
    }
    head.push_str(&format!("Content-Length: {}\r\n\r\n", body.len()));
    s.write_all(head.as_bytes()).unwrap();
    // The server may answer (413) before reading a large body: a failed write is fine then.
    let _ = s.write_all(body);
    let mut raw = Vec::new();
    let _ = s.read_to_end(&mut raw);
    let text = String::from_utf8_lossy(&raw).into_owned();
    let (head, body) = text.split_once("\r\n\r\n").unwrap_or((&text, ""));
    let status = head
        .split(' ')
        .nth(1)
        .and_then(|c| c.parse().ok())
        .unwrap_or_else(|| panic!("no status line in {text:?}"));
    let fields = head
        .lines()
        .skip(1)
        .filter_map(|l| l.split_once(':'))
        .map(|(k, v)| (k.trim().to_ascii_lowercase(), v.trim().to_owned()))
        .collect();
    (status, fields, body.to_owned())
}

pub(crate) fn encode(text: &str) -> String {
    text.bytes()
        .map(|b| match b {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'_' | b'.' | b'~' => {
                (b as char).to_string()
            }
            _ => format!("%{b:02X}"),
        })
        .collect()
}

fn temp(name: &str) -> PathBuf {
    common::temp_path("cli-serve", name)
}

/// Learns the family Uncle model with CELOE (5,000 tests) and saves it to `path`.
pub(crate) fn save_uncle_model(path: &str) {
    learn_family_model("Uncle", std::path::Path::new(path));
}

/// The `?x` values of SPARQL JSON results.
fn xs(body: &str) -> BTreeSet<String> {
    let v: Value = serde_json::from_str(body).unwrap_or_else(|e| panic!("{e}: {body}"));
    v["results"]["bindings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|b| b["x"]["value"].as_str().unwrap().to_owned())
        .collect()
}

#[test]
fn member_filter_and_predict_answer_what_predict_answers() {
    let model = temp("Uncle.json");
    let path = model.to_str().unwrap();
    save_uncle_model(path);
    // serve's /predict without individuals answers every individual: --whole-kb here.
    let predicted = json(&[
        "predict",
        "--kb",
        FAMILY,
        "--model",
        path,
        "--whole-kb",
        "--json",
    ]);
    let members: BTreeSet<String> = predicted["predictions"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|p| p["member"] == true)
        .map(|p| p["individual"].as_str().unwrap().to_owned())
        .collect();
    assert!(!members.is_empty());

    let server = Server::start(&["--kb", FAMILY, "--model", path]);
    let (status, body) = server.query(MEMBER_QUERY, "application/sparql-results+json");
    assert_eq!(status, 200, "{body}");
    assert_eq!(xs(&body), members);
    // GET, and the other result formats.
    let (status, body) = server.request(
        "GET",
        &format!("/sparql?query={}", encode(MEMBER_QUERY)),
        &[("Accept", "text/csv")],
        b"",
    );
    assert_eq!(status, 200);
    let csv: BTreeSet<String> = body.lines().skip(1).map(|l| l.trim().to_owned()).collect();
    assert_eq!(body.lines().next(), Some("x"), "{body}");
    assert_eq!(csv, members);
    let (_, tsv) = server.query(MEMBER_QUERY, "text/tab-separated-values");
    assert_eq!(tsv.lines().next(), Some("?x"), "{tsv}");
    let (_, xml) = server.query(MEMBER_QUERY, "application/sparql-results+xml");
    assert!(xml.contains("<sparql") && members.iter().all(|m| xml.contains(m.as_str())));
    let (status, _) = server.query(MEMBER_QUERY, "image/png");
    assert_eq!(status, 406);
    // A graph, in Turtle.
    let (status, ttl) = server.request(
        "POST",
        "/sparql",
        &[
            ("Content-Type", "application/sparql-query"),
            ("Accept", "text/turtle"),
        ],
        br#"CONSTRUCT { ?x a <urn:x:Uncle> } WHERE { ?x a ?t FILTER(<urn:oxilearn:member>(?x, "Uncle")) }"#,
    );
    assert_eq!(status, 200);
    assert_eq!(ttl.matches("urn:x:Uncle").count(), members.len(), "{ttl}");

    // An unknown model is an error naming it, not an empty answer.
    let (status, body) = server.query(
        r#"SELECT ?x WHERE { ?x a ?t FILTER(<urn:oxilearn:member>(?x, "Aunt")) }"#,
        "*/*",
    );
    assert_eq!(status, 400);
    assert!(
        body.contains("\"Aunt\"") && body.contains("Uncle"),
        "{body}"
    );

    // POST /predict answers predict --json's document.
    let (status, body) = server.request("POST", "/predict", &[], br#"{"model": "Uncle"}"#);
    assert_eq!(status, 200, "{body}");
    assert_eq!(serde_json::from_str::<Value>(&body).unwrap(), predicted);
    let one = format!(r#"{{"model": "Uncle", "individuals": ["{FAM}paul"]}}"#);
    let (_, body) = server.request("POST", "/predict", &[], one.as_bytes());
    let v: Value = serde_json::from_str(&body).unwrap();
    assert_eq!(v["predictions"].as_array().unwrap().len(), 1);
    let (status, body) = server.request("POST", "/predict", &[], br#"{"model": "Aunt"}"#);
    assert_eq!(status, 404);
    assert!(body.contains("\"Aunt\""), "{body}");
    let (status, body) = server.request(
        "POST",
        "/predict",
        &[],
        br#"{"model": "Uncle", "individuals": ["http://example.org/nobody"]}"#,
    );
    assert_eq!(status, 400);
    assert!(body.contains("http://example.org/nobody"), "{body}");
    let _ = std::fs::remove_file(&model);
}

/// The solutions of `learn --json` output: expression and counts.
fn solutions(v: &Value) -> Vec<(String, u64, u64)> {
    v[0]["solutions"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| {
            (
                s["manchester"].as_str().unwrap().to_owned(),
                s["tp"].as_u64().unwrap(),
                s["fp"].as_u64().unwrap(),
            )
        })
        .collect()
}

#[test]
fn learning_through_the_endpoint_finds_what_embedded_learning_finds() {
    let common = [
        "--problems",
        PROBLEMS,
        "--problem",
        "Uncle",
        "--max-tests",
        "5000",
        "--quiet",
        "--json",
    ];
    let embedded = json(&[&["learn", "--kb", FAMILY][..], &common].concat());
    let server = Server::start(&["--kb", FAMILY]);
    let url = server.url("/sparql");
    let remote = json(&[&["learn", "--endpoint", url.as_str()][..], &common].concat());
    assert!(!solutions(&embedded).is_empty());
    assert_eq!(solutions(&remote), solutions(&embedded));

    // POST /learn: the same options as JSON, the same answer.
    let problems = std::fs::read_to_string(common::repo_path(PROBLEMS)).unwrap();
    let body = format!(
        r#"{{"problems": {problems}, "options": {{"problem": ["Uncle"], "max-tests": 5000}}}}"#
    );
    let (status, text) = server.request("POST", "/learn", &[], body.as_bytes());
    assert_eq!(status, 200, "{text}");
    let served: Value = serde_json::from_str(&text).unwrap();
    assert_eq!(solutions(&served), solutions(&embedded));
    assert_eq!(served[0]["problem"], "Uncle");
    // A DL-Learner .conf file as text, its problem named by `name`.
    let conf = std::fs::read_to_string(common::repo_path("fixtures/family/family.conf")).unwrap();
    let body = serde_json::json!({
        "problems": conf,
        "name": "Father",
        "options": {"max-tests": 2000}
    });
    let (status, text) = server.request("POST", "/learn", &[], body.to_string().as_bytes());
    assert_eq!(status, 200, "{text}");
    let served: Value = serde_json::from_str(&text).unwrap();
    assert_eq!(served[0]["problem"], "Father");
    assert_eq!(served[0]["solutions"][0]["f1"], 1.0, "{text}");
    // Options learn refuses are refused here too, with learn's message.
    let body = format!(
        r#"{{"problems": {problems}, "options": {{"problem": ["Uncle"], "algorithm": "celoe", "beam-width": 3}}}}"#
    );
    let (status, text) = server.request("POST", "/learn", &[], body.as_bytes());
    assert_eq!(status, 400);
    assert!(text.contains("--beam-width"), "{text}");
    let (status, text) = server.request(
        "POST",
        "/learn",
        &[],
        br#"{"problems": [], "options": {"kb": "x.ttl"}}"#,
    );
    assert_eq!(status, 400);
    assert!(text.contains("\"kb\""), "{text}");
    // Options learn takes but /learn has no use for are refused, never ignored.
    for (key, value) in [
        ("test", "t.json"),
        ("report", "r.html"),
        ("label-column", "class"),
    ] {
        let body = serde_json::json!({"problems": [], "options": {key: value}});
        let (status, text) = server.request("POST", "/learn", &[], body.to_string().as_bytes());
        assert_eq!(status, 400, "{key}: {text}");
        assert!(
            text.contains(&format!("option \"{key}\" cannot be set")),
            "{text}"
        );
    }
    let (code, stderr) = server.stop_with(libc::SIGTERM);
    assert_eq!(code, Some(0), "{stderr}");
    assert!(stderr.contains("oxilearn serve: stopped"), "{stderr}");
}

#[test]
fn oversize_bodies_updates_busy_and_slow_requests_are_refused() {
    let server = Server::start(&[
        "--kb",
        FAMILY,
        "--max-request-bytes",
        "2000",
        "--max-concurrent",
        "1",
        "--query-timeout",
        "2",
    ]);
    let padding = " ".repeat(5000);
    let (status, body) = server.query(&format!("ASK {{}}{padding}"), "*/*");
    assert_eq!(status, 413, "{body}");
    assert!(body.contains("--max-request-bytes"), "{body}");
    let (status, body) = server.request(
        "POST",
        "/sparql",
        &[("Content-Type", "application/sparql-update")],
        b"INSERT DATA { <urn:a> <urn:b> <urn:c> }",
    );
    assert_eq!(status, 403);
    assert!(body.contains("--allow-update"), "{body}");
    let (status, _) = server.query("ASK { <urn:a> <urn:b> <urn:c> }", "text/csv");
    assert_eq!(status, 200);

    // A query far too large for 2 s, and meanwhile a second request.
    let addr = server.addr.clone();
    let slow = std::thread::spawn(move || {
        let q = "SELECT (COUNT(*) AS ?n) WHERE { ?a ?b ?c . ?d ?e ?f . ?g ?h ?i . ?j ?k ?l }";
        let body = format!("query={}", encode(q));
        http(
            &addr,
            "POST",
            "/sparql",
            &[("Content-Type", "application/x-www-form-urlencoded")],
            body.as_bytes(),
        )
    });
    std::thread::sleep(Duration::from_millis(700));
    let (status, body) = server.query("ASK {}", "*/*");
    assert_eq!(status, 503, "{body}");
    assert!(body.contains("--max-concurrent"), "{body}");
    let (status, body) = slow.join().unwrap();
    assert_eq!(status, 504, "{body}");
    assert!(body.contains("time limit"), "{body}");
    // The slot is free again.
    let (status, body) = server.query("ASK {}", "*/*");
    assert_eq!(status, 200, "{body}");
}

#[test]
fn updates_change_the_answers_and_ctrl_c_stops_the_server() {
    let server = Server::start(&["--kb", FAMILY, "--allow-update"]);
    let males = r#"SELECT ?x WHERE { ?x ?p ?o FILTER(<urn:oxilearn:covers>(?x, "Male")) }"#;
    let (_, before) = server.query(males, "application/json");
    let before = xs(&before);
    let newcomer = format!("{FAM}newcomer");
    assert!(!before.contains(&newcomer));
    // Answers memoised before the update (an individual's, and a non-individual's none).
    let one = |x: &str, expression: &str| {
        let q = format!(
            r#"SELECT ?v WHERE {{ BIND(<urn:oxilearn:covers>(<{x}>, "{expression}") AS ?v) }}"#
        );
        let (status, body) = server.query(&q, "application/json");
        assert_eq!(status, 200, "{body}");
        let v: Value = serde_json::from_str(&body).unwrap();
        v["results"]["bindings"][0]["v"]["value"]
            .as_str()
            .map(str::to_owned)
    };
    let paul = format!("{FAM}paul");
    assert_eq!(one(&paul, "Female").as_deref(), Some("false"));
    assert_eq!(one(&newcomer, "Male"), None);
    let update = format!("INSERT DATA {{ <{newcomer}> a <{FAM}Male> . <{paul}> a <{FAM}Female> }}");
    let (status, body) = server.request(
        "POST",
        "/sparql",
        &[("Content-Type", "application/x-www-form-urlencoded")],
        format!("update={}", encode(&update)).as_bytes(),
    );
    assert_eq!(status, 204, "{body}");
    let (_, after) = server.query(males, "application/json");
    let mut expected = before.clone();
    expected.insert(newcomer.clone());
    assert_eq!(xs(&after), expected);
    // The memo went with the old store.
    assert_eq!(one(&paul, "Female").as_deref(), Some("true"));
    assert_eq!(one(&newcomer, "Male").as_deref(), Some("true"));
    // An update whose functions' arguments are wrong is refused before it runs.
    let (status, body) = server.request(
        "POST",
        "/sparql",
        &[("Content-Type", "application/sparql-update")],
        br#"INSERT { ?x a <urn:x:U> } WHERE { ?x ?p ?o FILTER(<urn:oxilearn:member>(?x, "Uncle")) }"#,
    );
    assert_eq!(status, 400);
    assert!(body.contains("\"Uncle\""), "{body}");
    // Triples in a named graph: not in the default graph, unless --union-default-graph.
    let insert = b"INSERT DATA { GRAPH <urn:g> { <urn:s> <urn:p> <urn:o> } }";
    let sparql_update = [("Content-Type", "application/sparql-update")];
    let ask = "ASK { <urn:s> <urn:p> <urn:o> }";
    assert_eq!(
        server.request("POST", "/sparql", &sparql_update, insert).0,
        204
    );
    assert!(server.query(ask, "text/csv").1.contains("false"));
    let union = Server::start(&["--kb", FAMILY, "--allow-update", "--union-default-graph"]);
    assert_eq!(
        union.request("POST", "/sparql", &sparql_update, insert).0,
        204
    );
    assert!(union.query(ask, "text/csv").1.contains("true"));
    let (code, stderr) = server.stop_with(libc::SIGINT);
    assert_eq!(code, Some(0), "{stderr}");
    assert!(stderr.contains("oxilearn serve: stopped"), "{stderr}");
}

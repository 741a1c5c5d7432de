//! `oxilearn serve` beyond loopback, tried as an abuser and as a client would (issue 33):
//! tokens and scopes (401/401/403 and the store unchanged), `--public-read`, the refusal of
//! a non-loopback `--bind` without tokens, `--rate-limit` (429 with `Retry-After`, then
//! service again; per token, per address, `X-Forwarded-For` with `--trust-proxy`), 2 MB
//! bodies (413), slow queries and updates (504; the server answers on, the store unchanged),
//! IRIs with `>`, quotes and newlines in `/learn` and `/predict` (400, nothing injected), an
//! audit log without tokens, and SPARQLWrapper getting every result format.

use crate::cli_serve::{Server, encode, http_full, save_uncle_model};
use crate::common;

use std::path::PathBuf;
use std::process::Command;
use std::time::Duration;

use serde_json::Value;
use sha2::{Digest, Sha256};

const FAMILY: &str = "fixtures/family/family.ttl";
const FAM: &str = "http://example.org/family#";
const WRITER: &str = "w-0123456789abcdef0123";
const READER: &str = "r-0123456789abcdef0123";
const LEARNER: &str = "l-0123456789abcdef0123";

fn temp(name: &str) -> PathBuf {
    common::temp_path("cli-serve-auth", name)
}

/// A tokens file: the writer and reader in clear, the learner by its SHA-256.
fn tokens_file(name: &str) -> PathBuf {
    let path = temp(name);
    let learner = hex::encode(Sha256::digest(LEARNER.as_bytes()));
    std::fs::write(
        &path,
        format!(
            "# serve's tokens\nread,update {WRITER} # writer\nread {READER} # reader\n\
             learn sha256:{learner} # learner\n"
        ),
    )
    .unwrap();
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o600)).unwrap();
    }
    path
}

fn bearer(token: &str) -> String {
    format!("Bearer {token}")
}

/// A request with an optional token: status, header lines, body.
fn send(
    server: &Server,
    method: &str,
    target: &str,
    token: Option<&str>,
    headers: &[(&str, &str)],
    body: &[u8],
) -> (u16, Vec<(String, String)>, String) {
    let auth = token.map(bearer);
    let mut all: Vec<(&str, &str)> = headers.to_vec();
    if let Some(a) = &auth {
        all.push(("Authorization", a));
    }
    http_full(&server.addr, method, target, &all, body)
}

fn header<'a>(fields: &'a [(String, String)], name: &str) -> Option<&'a str> {
    fields
        .iter()
        .find(|(k, _)| k == name)
        .map(|(_, v)| v.as_str())
}

fn update(server: &Server, token: Option<&str>, text: &str) -> (u16, Vec<(String, String)>) {
    let (status, fields, _) = send(
        server,
        "POST",
        "/sparql",
        token,
        &[("Content-Type", "application/sparql-update")],
        text.as_bytes(),
    );
    (status, fields)
}

/// ASK with the writer's token.
fn ask(server: &Server, token: Option<&str>, query: &str) -> bool {
    let (status, _, body) = send(
        server,
        "POST",
        "/sparql",
        token,
        &[
            ("Content-Type", "application/x-www-form-urlencoded"),
            ("Accept", "text/csv"),
        ],
        format!("query={}", encode(query)).as_bytes(),
    );
    assert_eq!(status, 200, "{body}");
    body.contains("true")
}

#[test]
fn tokens_scopes_and_an_audit_log_without_tokens() {
    let tokens = tokens_file("tokens.txt");
    let audit = temp("audit.jsonl");
    let _ = std::fs::remove_file(&audit);
    let server = Server::start(&[
        "--kb",
        FAMILY,
        "--allow-update",
        "--tokens-file",
        tokens.to_str().unwrap(),
        "--audit-log",
        audit.to_str().unwrap(),
    ]);
    let insert = "INSERT DATA { <urn:t:a> <urn:t:p> <urn:t:b> }";
    let inserted = "ASK { <urn:t:a> <urn:t:p> <urn:t:b> }";
    // No token, a wrong token, a read-only token: 401, 401, 403; the store unchanged.
    let (status, fields) = update(&server, None, insert);
    assert_eq!(status, 401);
    assert!(header(&fields, "www-authenticate").is_some_and(|v| v.starts_with("Bearer")));
    let (status, fields) = update(&server, Some("not-a-token-of-the-file"), insert);
    assert_eq!(status, 401);
    assert!(header(&fields, "www-authenticate").is_some_and(|v| v.contains("invalid_token")));
    assert_eq!(update(&server, Some(READER), insert).0, 403);
    assert!(!ask(&server, Some(READER), inserted));
    // Reads need read; /learn needs learn (refused before its body is read), /predict read.
    let (status, _, body) = send(&server, "GET", "/sparql?query=ASK%7B%7D", None, &[], b"");
    assert_eq!(status, 401, "{body}");
    assert_eq!(send(&server, "POST", "/predict", None, &[], b"{}").0, 401);
    assert_eq!(
        send(&server, "POST", "/learn", Some(READER), &[], b"{}").0,
        403
    );
    assert_eq!(
        send(&server, "POST", "/learn", Some(WRITER), &[], b"{}").0,
        403
    );
    let (status, _, body) = send(&server, "POST", "/learn", Some(LEARNER), &[], b"{}");
    assert_eq!(
        status, 400,
        "the learner's token (by SHA-256) passes: {body}"
    );
    assert_eq!(
        send(&server, "POST", "/predict", Some(LEARNER), &[], b"{}").0,
        403
    );
    // The writer changes the store; a failed update changes nothing.
    assert_eq!(update(&server, Some(WRITER), insert).0, 204);
    assert!(ask(&server, Some(WRITER), inserted));
    let failing = "INSERT DATA { <urn:t:c> <urn:t:p> <urn:t:d> } ; CREATE GRAPH <urn:t:g> ; \
                   CREATE GRAPH <urn:t:g>";
    assert_eq!(update(&server, Some(WRITER), failing).0, 400);
    assert!(!ask(&server, Some(WRITER), "ASK { <urn:t:c> ?p ?o }"));
    // A Basic credential is not a token.
    let (status, _, _) = send(
        &server,
        "GET",
        "/sparql?query=ASK%7B%7D",
        None,
        &[("Authorization", "Basic dXNlcjpwYXNz")],
        b"",
    );
    assert_eq!(status, 401);

    let log = std::fs::read_to_string(&audit).unwrap();
    let stderr = server.stderr.lock().unwrap().clone();
    for secret in [WRITER, READER, LEARNER, "not-a-token-of-the-file"] {
        assert!(!log.contains(secret), "a token in the audit log:\n{log}");
        assert!(!stderr.contains(secret), "a token on stderr:\n{stderr}");
    }
    let lines: Vec<Value> = log
        .lines()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("{e}: {l}")))
        .collect();
    assert_eq!(lines.len(), 15, "a line per request:\n{log}");
    for l in &lines {
        for field in [
            "time",
            "client",
            "route",
            "status",
            "duration_ms",
            "bytes_out",
        ] {
            assert!(!l[field].is_null(), "{field} missing: {l}");
        }
        assert_eq!(l["client"], "127.0.0.1");
    }
    let updates: Vec<&Value> = lines
        .iter()
        .filter(|l| l["scope"] == "update" && l["token"] == "writer")
        .collect();
    assert_eq!(updates.len(), 2, "{log}");
    assert_eq!(updates[0]["status"], 204);
    assert_eq!(updates[0]["outcome"], "ok");
    assert_eq!(updates[0]["quads_changed"], 1);
    assert_eq!(
        updates[0]["update_sha256"],
        hex::encode(Sha256::digest(insert.as_bytes()))
    );
    assert_eq!(updates[1]["outcome"], "failed");
    assert_eq!(updates[1]["quads_changed"], 0);
    let names: Vec<&str> = lines.iter().filter_map(|l| l["token"].as_str()).collect();
    assert!(
        names.contains(&"reader") && names.contains(&"learner"),
        "{log}"
    );
    assert_eq!(lines[0]["status"], 401);
    assert!(lines[0]["token"].is_null());
}

#[test]
fn public_read_leaves_reads_open_and_nothing_else() {
    let tokens = tokens_file("tokens-public.txt");
    let server = Server::start(&[
        "--kb",
        FAMILY,
        "--allow-update",
        "--tokens-file",
        tokens.to_str().unwrap(),
        "--public-read",
    ]);
    assert!(ask(&server, None, &format!("ASK {{ ?x a <{FAM}Male> }}")));
    let (status, fields) = update(&server, None, "INSERT DATA { <urn:a> <urn:b> <urn:c> }");
    assert_eq!(status, 401);
    assert!(header(&fields, "www-authenticate").is_some());
    assert_eq!(send(&server, "POST", "/learn", None, &[], b"{}").0, 401);
    assert!(!ask(&server, None, "ASK { <urn:a> <urn:b> <urn:c> }"));
    assert!(server.stderr.lock().unwrap().contains("reads public"));
}

#[test]
fn a_non_loopback_bind_without_tokens_refuses_to_start() {
    let out = Command::new(env!("CARGO_BIN_EXE_oxilearn"))
        .args([
            "serve",
            "--kb",
            FAMILY,
            "--bind",
            "0.0.0.0:0",
            "--allow-update",
        ])
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2), "{out:?}");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("--tokens-file") && stderr.contains("--insecure-no-auth"),
        "{stderr}"
    );
    // A tokens file with a bad line: the file and the line are named.
    let bad = temp("bad-tokens.txt");
    std::fs::write(&bad, format!("read {READER}\nread,write {WRITER}\n")).unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_oxilearn"))
        .args([
            "serve",
            "--kb",
            FAMILY,
            "--tokens-file",
            bad.to_str().unwrap(),
        ])
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success());
    assert!(
        stderr.contains("bad-tokens.txt:2") && stderr.contains("\"write\""),
        "{stderr}"
    );
    assert!(!stderr.contains(WRITER), "{stderr}");
}

/// `n` GETs of `ASK {}` with `headers`: their statuses, and the last `Retry-After`.
fn burst(server: &Server, n: usize, headers: &[(&str, &str)]) -> (Vec<u16>, Option<u64>) {
    let mut statuses = Vec::new();
    let mut retry = None;
    for _ in 0..n {
        let (status, fields, _) =
            http_full(&server.addr, "GET", "/sparql?query=ASK%7B%7D", headers, b"");
        statuses.push(status);
        if let Some(r) = header(&fields, "retry-after") {
            retry = Some(r.parse().unwrap());
        }
    }
    (statuses, retry)
}

#[test]
fn past_the_rate_limit_429_then_service_again() {
    let server = Server::start(&["--kb", FAMILY, "--rate-limit", "2"]);
    assert!(
        server
            .stderr
            .lock()
            .unwrap()
            .contains("--rate-limit 2/s per token, else per address"),
        "the limits are printed at start"
    );
    // Without --trust-proxy, X-Forwarded-For does not make another client.
    // (The third comes well within the half second that refills one request; a slow
    // machine may let one more through, never fewer.)
    let (statuses, retry) = burst(&server, 5, &[("X-Forwarded-For", "10.0.0.9")]);
    assert_eq!(statuses[..2], [200, 200], "{statuses:?}");
    assert_eq!(statuses.last(), Some(&429), "{statuses:?}");
    let retry = retry.expect("Retry-After");
    assert!((1..=2).contains(&retry), "{retry}");
    std::thread::sleep(Duration::from_secs(retry));
    assert_eq!(burst(&server, 1, &[]).0, [200]);

    // Per token, and per forwarded address with --trust-proxy.
    let tokens = tokens_file("tokens-rate.txt");
    let server = Server::start(&[
        "--kb",
        FAMILY,
        "--rate-limit",
        "1",
        "--trust-proxy",
        "--tokens-file",
        tokens.to_str().unwrap(),
        "--public-read",
    ]);
    let (w, r) = (bearer(WRITER), bearer(READER));
    assert_eq!(burst(&server, 2, &[("Authorization", &w)]).0, [200, 429]);
    assert_eq!(burst(&server, 1, &[("Authorization", &r)]).0, [200]);
    let one = [("X-Forwarded-For", "203.0.113.5, 10.0.0.1")];
    assert_eq!(burst(&server, 2, &one).0, [200, 429]);
    assert_eq!(
        burst(&server, 1, &[("X-Forwarded-For", "10.0.0.2")]).0,
        [200]
    );
}

#[test]
fn big_bodies_slow_requests_and_injected_iris_are_refused() {
    let model = temp("Uncle.json");
    save_uncle_model(model.to_str().unwrap());
    let full = temp("tokens-abuse-all.txt");
    std::fs::write(&full, format!("read,update,learn {WRITER}\n")).unwrap();
    let server = Server::start(&[
        "--kb",
        FAMILY,
        "--model",
        model.to_str().unwrap(),
        "--allow-update",
        "--tokens-file",
        full.to_str().unwrap(),
        "--query-timeout",
        "1",
    ]);
    let token = Some(WRITER);
    let triples = |server: &Server| {
        let (status, _, body) = send(
            server,
            "POST",
            "/sparql",
            token,
            &[
                ("Content-Type", "application/sparql-query"),
                ("Accept", "text/csv"),
            ],
            b"SELECT (COUNT(*) AS ?n) WHERE { { GRAPH ?g { ?s ?p ?o } } UNION { ?s ?p ?o } }",
        );
        assert_eq!(status, 200, "{body}");
        body.lines().nth(1).unwrap().trim().to_owned()
    };
    let before = triples(&server);
    // 2 MB bodies: 413 on every route.
    let big = vec![b' '; 2 << 20];
    for (route, media) in [
        ("/sparql", "application/sparql-update"),
        ("/learn", "application/json"),
        ("/predict", "application/json"),
    ] {
        let (status, _, body) = send(
            &server,
            "POST",
            route,
            token,
            &[("Content-Type", media)],
            &big,
        );
        assert_eq!(status, 413, "{route}: {body}");
    }
    // A slow query and a slow update: 504, the server answers on, the update changed nothing.
    let (status, _, body) = send(
        &server,
        "POST",
        "/sparql",
        token,
        &[("Content-Type", "application/sparql-query")],
        b"SELECT (COUNT(*) AS ?n) WHERE { ?a ?b ?c . ?d ?e ?f . ?g ?h ?i . ?j ?k ?l }",
    );
    assert_eq!(status, 504, "{body}");
    let (status, _) = update(
        &server,
        token,
        "INSERT { ?a <urn:slow:p> ?g } WHERE { ?a ?b ?c . ?d ?e ?f . ?g ?h ?i . ?j ?k ?l }",
    );
    assert_eq!(status, 504);
    // The cancelled update stops at its next step; give it time to, then look.
    std::thread::sleep(Duration::from_millis(1500));
    assert!(!ask(&server, token, "ASK { ?a <urn:slow:p> ?g }"));
    assert_eq!(triples(&server), before);

    // IRIs that would close an IRI, a string or a line in a query: 400, nothing injected.
    let nasty = [
        format!("{FAM}paul> <urn:x:p> <urn:x:o"),
        format!("{FAM}paul\" . <urn:x:s> <urn:x:p> \""),
        format!("{FAM}paul\n<urn:x:s> <urn:x:p> <urn:x:o> ."),
        format!("{FAM}paul> }} ; DROP ALL ; INSERT DATA {{ <urn:x:s> <urn:x:p> <urn:x:o"),
    ];
    for iri in &nasty {
        let body = serde_json::json!({"model": "Uncle", "individuals": [iri]});
        let (status, _, text) = send(
            &server,
            "POST",
            "/predict",
            token,
            &[],
            body.to_string().as_bytes(),
        );
        assert_eq!(status, 400, "{iri:?}: {text}");
        assert!(text.contains("is not an IRI"), "{text}");
        let problems = serde_json::json!({"problems": {"problems": {"P": {
            "positive_examples": [iri, format!("{FAM}paul")],
            "negative_examples": [format!("{FAM}anna")]
        }}}, "options": {"max-tests": 50}});
        let (status, _, text) = send(
            &server,
            "POST",
            "/learn",
            token,
            &[],
            problems.to_string().as_bytes(),
        );
        assert_eq!(status, 400, "{iri:?}: {text}");
        assert!(text.contains("not an absolute IRI"), "{text}");
        assert!(
            !text.contains(&std::env::temp_dir().display().to_string()),
            "{text}"
        );
    }
    assert_eq!(triples(&server), before);
    assert!(!ask(&server, token, "ASK { ?s <urn:x:p> ?o }"));
    let _ = std::fs::remove_file(&model);
}

/// The venv of `.ci/python-clients.sh`: `OXILEARN_PYTHON_VENV`, else `target/venv`.
fn python_clients() -> Option<PathBuf> {
    let venv = std::env::var_os("OXILEARN_PYTHON_VENV")
        .filter(|v| !v.is_empty())
        .map(PathBuf::from)
        .unwrap_or_else(|| common::repo_path("target/venv"));
    let python = venv.join("bin/python");
    if python.exists() {
        return Some(python);
    }
    assert!(
        !common::datasets::in_ci(),
        "{} is missing: .ci/python-clients.sh installs SPARQLWrapper there",
        python.display()
    );
    use std::io::Write;
    let _ = writeln!(
        std::io::stderr(),
        "skipped sparqlwrapper_gets_every_result_format: no {} (run bash \
         .ci/python-clients.sh)",
        python.display()
    );
    None
}

#[test]
fn sparqlwrapper_gets_every_result_format() {
    let Some(python) = python_clients() else {
        return;
    };
    let tokens = tokens_file("tokens-client.txt");
    let server = Server::start(&["--kb", FAMILY, "--tokens-file", tokens.to_str().unwrap()]);
    let select = format!("SELECT ?x WHERE {{ ?x a <{FAM}Male> }}");
    let ask_query = format!("ASK {{ ?x a <{FAM}Male> }}");
    let construct = format!("CONSTRUCT {{ ?x a <urn:x:M> }} WHERE {{ ?x a <{FAM}Male> }}");
    let describe = format!("DESCRIBE <{FAM}paul>");
    // What the server itself says: rows of the SELECT, triples of the graphs (N-Triples).
    let count = |query: &str, accept: &str| -> usize {
        let (status, _, body) = send(
            &server,
            "POST",
            "/sparql",
            Some(READER),
            &[
                ("Content-Type", "application/sparql-query"),
                ("Accept", accept),
            ],
            query.as_bytes(),
        );
        assert_eq!(status, 200, "{body}");
        body.lines().filter(|l| !l.trim().is_empty()).count()
    };
    let rows = count(&select, "text/csv") - 1;
    let constructed = count(&construct, "application/n-triples");
    let described = count(&describe, "application/n-triples");
    assert!(rows > 0 && constructed == rows && described > 0);
    let out = Command::new(&python)
        .arg(common::repo_path("tests/cli/sparqlwrapper_formats.py"))
        .args([&server.url("/sparql"), READER])
        .args([&select, &ask_query, &construct, &describe])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let answers: Value = serde_json::from_slice(&out.stdout).unwrap();
    let answers = answers.as_object().unwrap();
    // 4 table formats × 2 forms + 5 graph formats × 2 forms, each by GET and POST.
    assert_eq!(answers.len(), 36, "{answers:?}");
    for (key, answer) in answers {
        let expected = match key.split('/').next().unwrap() {
            "select" => Value::from(rows),
            "ask" => Value::from(true),
            "construct" => Value::from(constructed),
            _ => Value::from(described),
        };
        assert_eq!(answer[0], expected, "{key}: {answer}");
    }
    assert_eq!(answers["construct/rdfxml/get"][1], "application/rdf+xml");
    assert_eq!(answers["describe/jsonld/post"][1], "application/ld+json");
}

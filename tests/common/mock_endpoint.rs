//! A scriptable SPARQL endpoint on `127.0.0.1:0` for fault-injection tests of the HTTP backend.
//!
//! One thread accepts connections, one thread per connection parses just enough HTTP/1.1
//! (request line, headers, `Content-Length` body) and asks the test's handler what to do with
//! each request: answer (optionally after a delay, optionally cutting the body short), close the
//! connection without answering, or drop the connection before reading anything. Keep-alive is
//! supported: a connection serves requests until the client closes it or the reply says close.
//! Every parsed request is logged; the number of requests being handled at once is tracked.

use std::collections::HashMap;
use std::io::{BufRead, BufReader, Read, Write};
use std::net::{Shutdown, TcpListener, TcpStream};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;
use std::time::Duration;

/// How long a connection thread waits for the next request before giving up on the connection.
const IDLE: Duration = Duration::from_secs(5);

/// One parsed HTTP request.
#[derive(Clone, Debug)]
pub struct Request {
    /// 0-based position among all requests this endpoint parsed (across connections).
    pub index: usize,
    pub method: String,
    /// The request target: path and query string, still percent-encoded.
    pub target: String,
    /// Header names lower-cased, in arrival order.
    pub headers: Vec<(String, String)>,
    pub body: Vec<u8>,
}

impl Request {
    /// The first header of that (case-insensitive) name.
    pub fn header(&self, name: &str) -> Option<&str> {
        let name = name.to_ascii_lowercase();
        self.headers
            .iter()
            .find(|(k, _)| *k == name)
            .map(|(_, v)| v.as_str())
    }

    pub fn path(&self) -> &str {
        self.target.split('?').next().unwrap_or("")
    }

    /// The decoded parameters of the URL query string.
    pub fn url_params(&self) -> Vec<(String, String)> {
        match self.target.split_once('?') {
            Some((_, q)) => parse_urlencoded(q),
            None => Vec::new(),
        }
    }

    /// The decoded parameters of a form-encoded body (empty for other bodies).
    pub fn form_params(&self) -> Vec<(String, String)> {
        let form = self
            .header("content-type")
            .is_some_and(|ct| ct.starts_with("application/x-www-form-urlencoded"));
        if form {
            parse_urlencoded(&String::from_utf8_lossy(&self.body))
        } else {
            Vec::new()
        }
    }

    /// Every value of a parameter, from the URL and then the form body.
    pub fn params(&self, name: &str) -> Vec<String> {
        self.url_params()
            .into_iter()
            .chain(self.form_params())
            .filter(|(k, _)| k == name)
            .map(|(_, v)| v)
            .collect()
    }

    /// The SPARQL query text, however it was sent (form body, URL, or direct POST body).
    pub fn query_text(&self) -> Option<String> {
        if let Some(q) = self.params("query").into_iter().next() {
            return Some(q);
        }
        let direct = self
            .header("content-type")
            .is_some_and(|ct| ct.starts_with("application/sparql-query"));
        direct.then(|| String::from_utf8_lossy(&self.body).into_owned())
    }

    /// `(LIMIT, OFFSET)` of the outermost solution modifier of the query (the last occurrences
    /// of the keywords), `None` where absent.
    pub fn limit_offset(&self) -> (Option<usize>, Option<usize>) {
        let q = self.query_text().unwrap_or_default();
        (number_after(&q, "LIMIT"), number_after(&q, "OFFSET"))
    }
}

/// The integer after the last occurrence of `keyword` (case-insensitive).
fn number_after(text: &str, keyword: &str) -> Option<usize> {
    let upper = text.to_ascii_uppercase();
    let at = upper.rfind(keyword)? + keyword.len();
    let digits: String = upper[at..]
        .trim_start()
        .chars()
        .take_while(|c| c.is_ascii_digit())
        .collect();
    digits.parse().ok()
}

/// `application/x-www-form-urlencoded` decoding (`+` is a space, `%XX` a byte).
pub fn parse_urlencoded(text: &str) -> Vec<(String, String)> {
    text.split('&')
        .filter(|pair| !pair.is_empty())
        .map(|pair| {
            let (k, v) = pair.split_once('=').unwrap_or((pair, ""));
            (percent_decode(k), percent_decode(v))
        })
        .collect()
}

pub fn percent_decode(text: &str) -> String {
    let bytes = text.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            b'+' => out.push(b' '),
            b'%' if i + 2 < bytes.len() => {
                let hex = std::str::from_utf8(&bytes[i + 1..i + 3])
                    .ok()
                    .and_then(|h| u8::from_str_radix(h, 16).ok());
                match hex {
                    Some(b) => {
                        out.push(b);
                        i += 3;
                        continue;
                    }
                    None => out.push(b'%'),
                }
            }
            b => out.push(b),
        }
        i += 1;
    }
    String::from_utf8_lossy(&out).into_owned()
}

/// An HTTP answer.
#[derive(Clone, Debug)]
pub struct Response {
    pub status: u16,
    pub headers: Vec<(String, String)>,
    pub body: Vec<u8>,
    /// Wait this long before writing anything.
    pub delay: Duration,
    /// Announce the full `Content-Length` but write only this many body bytes, then close.
    pub cut_body_at: Option<usize>,
    /// Write the head and this many body bytes, wait, then write the rest.
    pub pause_body: Option<(usize, Duration)>,
    /// Send `Connection: close` and close after the answer.
    pub close: bool,
}

impl Response {
    pub fn new(status: u16, content_type: &str, body: impl Into<Vec<u8>>) -> Self {
        Response {
            status,
            headers: vec![("Content-Type".into(), content_type.into())],
            body: body.into(),
            delay: Duration::ZERO,
            cut_body_at: None,
            pause_body: None,
            close: false,
        }
    }

    /// `200 OK` with SPARQL results JSON.
    pub fn json(body: impl Into<Vec<u8>>) -> Self {
        Response::new(200, "application/sparql-results+json", body)
    }

    /// An error status with a plain-text body.
    pub fn text(status: u16, body: &str) -> Self {
        Response::new(status, "text/plain", body)
    }

    pub fn header(mut self, name: &str, value: &str) -> Self {
        self.headers.push((name.into(), value.into()));
        self
    }

    pub fn delay(mut self, delay: Duration) -> Self {
        self.delay = delay;
        self
    }

    pub fn cut_body_at(mut self, n: usize) -> Self {
        self.cut_body_at = Some(n);
        self
    }

    pub fn pause_body(mut self, after: usize, pause: Duration) -> Self {
        self.pause_body = Some((after, pause));
        self
    }

    pub fn close(mut self) -> Self {
        self.close = true;
        self
    }
}

/// What the endpoint does with one request.
#[derive(Clone, Debug)]
pub enum Reply {
    Respond(Response),
    /// Close the connection without writing anything (the request was read).
    Close,
}

impl From<Response> for Reply {
    fn from(r: Response) -> Self {
        Reply::Respond(r)
    }
}

type Handler = dyn Fn(&Request) -> Reply + Send + Sync + 'static;

struct State {
    handler: Box<Handler>,
    log: Mutex<Vec<Request>>,
    next_index: Mutex<usize>,
    in_flight: AtomicUsize,
    max_in_flight: AtomicUsize,
    /// Connections still to drop right after `accept`, before reading anything.
    drop_connections: AtomicUsize,
    connections: AtomicUsize,
    stop: AtomicBool,
}

/// A running mock endpoint; stops accepting when dropped.
pub struct MockEndpoint {
    state: Arc<State>,
    addr: std::net::SocketAddr,
    acceptor: Option<JoinHandle<()>>,
}

impl MockEndpoint {
    /// Starts an endpoint answering every request with `handler`.
    pub fn start(handler: impl Fn(&Request) -> Reply + Send + Sync + 'static) -> Self {
        Self::start_dropping(0, handler)
    }

    /// Like [`MockEndpoint::start`], but the first `dropped` connections are closed as soon as
    /// they are accepted, before a byte is read.
    pub fn start_dropping(
        dropped: usize,
        handler: impl Fn(&Request) -> Reply + Send + Sync + 'static,
    ) -> Self {
        let listener = TcpListener::bind("127.0.0.1:0").expect("bind 127.0.0.1:0");
        let addr = listener.local_addr().expect("local address");
        let state = Arc::new(State {
            handler: Box::new(handler),
            log: Mutex::new(Vec::new()),
            next_index: Mutex::new(0),
            in_flight: AtomicUsize::new(0),
            max_in_flight: AtomicUsize::new(0),
            drop_connections: AtomicUsize::new(dropped),
            connections: AtomicUsize::new(0),
            stop: AtomicBool::new(false),
        });
        let accept_state = Arc::clone(&state);
        let acceptor = std::thread::Builder::new()
            .name("mock-endpoint-accept".into())
            .spawn(move || accept_loop(listener, accept_state))
            .expect("spawn the accept thread");
        MockEndpoint {
            state,
            addr,
            acceptor: Some(acceptor),
        }
    }

    /// The endpoint URL (`http://127.0.0.1:PORT/sparql`).
    pub fn url(&self) -> String {
        format!("http://{}/sparql", self.addr)
    }

    pub fn addr(&self) -> std::net::SocketAddr {
        self.addr
    }

    /// The requests parsed so far, in arrival order.
    pub fn requests(&self) -> Vec<Request> {
        let mut log = self.state.log.lock().unwrap().clone();
        log.sort_by_key(|r| r.index);
        log
    }

    pub fn request_count(&self) -> usize {
        self.state.log.lock().unwrap().len()
    }

    /// Connections accepted so far (dropped ones included).
    pub fn connection_count(&self) -> usize {
        self.state.connections.load(Ordering::SeqCst)
    }

    /// The most requests that were being handled at the same moment.
    pub fn max_in_flight(&self) -> usize {
        self.state.max_in_flight.load(Ordering::SeqCst)
    }
}

impl Drop for MockEndpoint {
    fn drop(&mut self) {
        self.state.stop.store(true, Ordering::SeqCst);
        // Wake the acceptor up; it sees `stop` and returns.
        let _ = TcpStream::connect_timeout(&self.addr, Duration::from_secs(1));
        if let Some(h) = self.acceptor.take() {
            let _ = h.join();
        }
    }
}

fn accept_loop(listener: TcpListener, state: Arc<State>) {
    for stream in listener.incoming() {
        if state.stop.load(Ordering::SeqCst) {
            return;
        }
        let Ok(stream) = stream else { continue };
        state.connections.fetch_add(1, Ordering::SeqCst);
        let drop_now = state
            .drop_connections
            .fetch_update(Ordering::SeqCst, Ordering::SeqCst, |n| n.checked_sub(1))
            .is_ok();
        if drop_now {
            let _ = stream.shutdown(Shutdown::Both);
            drop(stream);
            continue;
        }
        let conn_state = Arc::clone(&state);
        let _ = std::thread::Builder::new()
            .name("mock-endpoint-conn".into())
            .spawn(move || serve(stream, conn_state));
    }
}

/// Serves requests on one connection until it closes, idles out, or a reply closes it.
fn serve(stream: TcpStream, state: Arc<State>) {
    let _ = stream.set_read_timeout(Some(IDLE));
    let _ = stream.set_nodelay(true);
    let Ok(write_half) = stream.try_clone() else {
        return;
    };
    let mut writer = write_half;
    let mut reader = BufReader::new(stream);
    loop {
        if state.stop.load(Ordering::SeqCst) {
            return;
        }
        let Some(mut request) = read_request(&mut reader) else {
            return;
        };
        {
            let mut next = state.next_index.lock().unwrap();
            request.index = *next;
            *next += 1;
        }
        let now = state.in_flight.fetch_add(1, Ordering::SeqCst) + 1;
        state.max_in_flight.fetch_max(now, Ordering::SeqCst);
        state.log.lock().unwrap().push(request.clone());
        let reply = (state.handler)(&request);
        match reply {
            Reply::Close => {
                state.in_flight.fetch_sub(1, Ordering::SeqCst);
                let _ = writer.shutdown(Shutdown::Both);
                return;
            }
            Reply::Respond(response) => {
                if !response.delay.is_zero() {
                    std::thread::sleep(response.delay);
                }
                // Leave the in-flight count before the client can see the answer, so a
                // request the client sends after it never overlaps this one in the count.
                state.in_flight.fetch_sub(1, Ordering::SeqCst);
                let keep = write_response(&mut writer, &response).is_ok()
                    && !response.close
                    && response.cut_body_at.is_none();
                if !keep {
                    let _ = writer.shutdown(Shutdown::Both);
                    return;
                }
            }
        }
    }
}

fn reason(status: u16) -> &'static str {
    match status {
        200 => "OK",
        400 => "Bad Request",
        401 => "Unauthorized",
        404 => "Not Found",
        429 => "Too Many Requests",
        500 => "Internal Server Error",
        502 => "Bad Gateway",
        503 => "Service Unavailable",
        504 => "Gateway Timeout",
        _ => "Whatever",
    }
}

fn write_response(w: &mut TcpStream, r: &Response) -> std::io::Result<()> {
    let mut head = format!("HTTP/1.1 {} {}\r\n", r.status, reason(r.status));
    for (k, v) in &r.headers {
        head.push_str(&format!("{k}: {v}\r\n"));
    }
    head.push_str(&format!("Content-Length: {}\r\n", r.body.len()));
    if r.close || r.cut_body_at.is_some() {
        head.push_str("Connection: close\r\n");
    }
    head.push_str("\r\n");
    let body = match r.cut_body_at {
        Some(n) => &r.body[..n.min(r.body.len())],
        None => &r.body[..],
    };
    let (first, rest) = match r.pause_body {
        Some((n, _)) => body.split_at(n.min(body.len())),
        None => (body, &[][..]),
    };
    let mut all = head.into_bytes();
    all.extend_from_slice(first);
    w.write_all(&all)?;
    w.flush()?;
    if let Some((_, pause)) = r.pause_body {
        std::thread::sleep(pause);
        w.write_all(rest)?;
        w.flush()?;
    }
    Ok(())
}

/// Reads one request; `None` on EOF, timeout, or anything this mock does not understand.
fn read_request(reader: &mut BufReader<TcpStream>) -> Option<Request> {
    let mut line = String::new();
    if reader.read_line(&mut line).ok()? == 0 {
        return None;
    }
    let mut parts = line.split_whitespace();
    let method = parts.next()?.to_string();
    let target = parts.next()?.to_string();
    let mut headers = Vec::new();
    loop {
        let mut h = String::new();
        if reader.read_line(&mut h).ok()? == 0 {
            return None;
        }
        let h = h.trim_end_matches(['\r', '\n']);
        if h.is_empty() {
            break;
        }
        let (k, v) = h.split_once(':')?;
        headers.push((k.trim().to_ascii_lowercase(), v.trim().to_string()));
    }
    let by_name: HashMap<&str, &str> = headers
        .iter()
        .map(|(k, v)| (k.as_str(), v.as_str()))
        .collect();
    if by_name.contains_key("transfer-encoding") {
        // Not needed by these tests: reqwest sends `Content-Length` for the bodies used here.
        return None;
    }
    let length: usize = by_name
        .get("content-length")
        .map_or(Some(0), |v| v.parse().ok())?;
    let mut body = vec![0; length];
    reader.read_exact(&mut body).ok()?;
    Some(Request {
        index: 0,
        method,
        target,
        headers,
        body,
    })
}

/// SPARQL results JSON with IRI values (`None` = unbound).
pub fn results_json(vars: &[&str], rows: &[Vec<Option<String>>]) -> String {
    let bindings: Vec<serde_json::Value> = rows
        .iter()
        .map(|row| {
            let mut b = serde_json::Map::new();
            for (var, value) in vars.iter().zip(row) {
                if let Some(iri) = value {
                    b.insert(
                        (*var).to_string(),
                        serde_json::json!({"type": "uri", "value": iri}),
                    );
                }
            }
            serde_json::Value::Object(b)
        })
        .collect();
    serde_json::json!({"head": {"vars": vars}, "results": {"bindings": bindings}}).to_string()
}

/// One-column results: `?x` bound to each IRI.
pub fn iris_json(iris: &[String]) -> String {
    let rows: Vec<Vec<Option<String>>> = iris.iter().map(|i| vec![Some(i.clone())]).collect();
    results_json(&["x"], &rows)
}

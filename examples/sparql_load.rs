//! Requests per second of one SPARQL query against an endpoint (e.g. `oxilearn serve`):
//! THREADS keep-alive HTTP/1.1 connections each POST the query (form-encoded) in a loop
//! until REQUESTS answers in all; prints the rate and the median and 99th-percentile
//! latency. Every answer must be 200.
//!
//! ```sh
//! oxilearn serve --kb fixtures/family/family.ttl --model Uncle=uncle.json &
//! cargo run --release --example sparql_load -- http://127.0.0.1:7878/sparql 20000 4 'ASK {}'
//! ```

use std::error::Error;
use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::process::ExitCode;
use std::time::{Duration, Instant};

fn main() -> ExitCode {
    match run() {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::from(2)
        }
    }
}

fn run() -> Result<(), Box<dyn Error>> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [url, rest @ ..] = args.as_slice() else {
        return Err("usage: sparql_load URL [REQUESTS] [THREADS] [QUERY]".into());
    };
    let requests: usize = rest.first().map_or(Ok(10_000), |s| s.parse())?;
    let threads: usize = rest.get(1).map_or(Ok(4), |s| s.parse())?;
    let query = rest
        .get(2)
        .cloned()
        .unwrap_or_else(|| "SELECT ?s WHERE { ?s ?p ?o } LIMIT 10".to_owned());
    let rest = url.strip_prefix("http://").ok_or("only http:// URLs")?;
    let (host, path) = rest.split_once('/').unwrap_or((rest, ""));
    let body = format!("query={}", encode(&query));
    let request = format!(
        "POST /{path} HTTP/1.1\r\nHost: {host}\r\nContent-Type: \
         application/x-www-form-urlencoded\r\nAccept: application/sparql-results+json\r\n\
         Content-Length: {}\r\n\r\n{body}",
        body.len()
    );
    let per_thread = requests.div_ceil(threads.max(1));
    let start = Instant::now();
    let workers: Vec<_> = (0..threads.max(1))
        .map(|_| {
            let host = host.to_owned();
            let request = request.clone();
            std::thread::spawn(move || worker(&host, &request, per_thread))
        })
        .collect();
    let mut latencies = Vec::new();
    for w in workers {
        latencies.extend(w.join().map_err(|_| "a worker panicked")??);
    }
    let elapsed = start.elapsed();
    latencies.sort();
    let pct = |p: f64| latencies[((latencies.len() - 1) as f64 * p) as usize];
    println!(
        "{} requests over {} connections in {:.2} s: {:.0} requests/s; latency median {:.2} ms, \
         p99 {:.2} ms",
        latencies.len(),
        threads,
        elapsed.as_secs_f64(),
        latencies.len() as f64 / elapsed.as_secs_f64(),
        pct(0.5).as_secs_f64() * 1e3,
        pct(0.99).as_secs_f64() * 1e3
    );
    Ok(())
}

/// `n` requests on one keep-alive connection; their latencies.
fn worker(host: &str, request: &str, n: usize) -> Result<Vec<Duration>, String> {
    let stream = TcpStream::connect(host).map_err(|e| format!("connecting to {host}: {e}"))?;
    stream
        .set_read_timeout(Some(Duration::from_secs(30)))
        .map_err(|e| e.to_string())?;
    let mut writer = stream.try_clone().map_err(|e| e.to_string())?;
    let mut reader = BufReader::new(stream);
    let mut out = Vec::with_capacity(n);
    for _ in 0..n {
        let t = Instant::now();
        writer
            .write_all(request.as_bytes())
            .map_err(|e| e.to_string())?;
        let mut status = String::new();
        reader.read_line(&mut status).map_err(|e| e.to_string())?;
        if !status.starts_with("HTTP/1.1 200") {
            return Err(format!("answer: {}", status.trim()));
        }
        let mut length = 0usize;
        loop {
            let mut line = String::new();
            reader.read_line(&mut line).map_err(|e| e.to_string())?;
            let line = line.trim_end();
            if line.is_empty() {
                break;
            }
            if let Some((k, v)) = line.split_once(':')
                && k.eq_ignore_ascii_case("content-length")
            {
                length = v.trim().parse().map_err(|_| "a bad Content-Length")?;
            }
        }
        let mut body = vec![0; length];
        reader.read_exact(&mut body).map_err(|e| e.to_string())?;
        out.push(t.elapsed());
    }
    Ok(out)
}

fn encode(text: &str) -> String {
    text.bytes()
        .map(|b| match b {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'_' | b'.' | b'~' => {
                (b as char).to_string()
            }
            _ => format!("%{b:02X}"),
        })
        .collect()
}

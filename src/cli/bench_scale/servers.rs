//! The SPARQL servers a scale run measures against: an on-disk Oxigraph store served
//! read-only (and a copy of it served writable, for `enrich`), and Virtuoso started and
//! loaded by the `.ci/servers` scripts.

use std::io::{Read, Write};
use std::net::TcpStream;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use anyhow::{Context, bail};

/// A server we started; stopped when dropped.
pub struct Server {
    pub url: String,
    /// Its SPARQL Update endpoint, when it takes updates and it is not `url`.
    pub update_url: Option<String>,
    /// The graph holding the data (`None`: the default graph).
    pub graph: Option<String>,
    child: Option<Child>,
    /// Pid file written by `.ci/servers/start-virtuoso.sh`.
    pidfile: Option<PathBuf>,
    /// A store copied for this server, removed once it is stopped.
    scratch: Option<PathBuf>,
}

impl Drop for Server {
    fn drop(&mut self) {
        if let Some(c) = &mut self.child {
            let _ = c.kill();
            let _ = c.wait();
        }
        if let Some(p) = &self.pidfile {
            stop_pidfile(p);
        }
        if let Some(d) = &self.scratch {
            let _ = std::fs::remove_dir_all(d);
        }
    }
}

/// The Oxigraph CLI: `$OXIGRAPH_BIN`, else `target/servers/bin/oxigraph` (where
/// `.ci/servers/install-oxigraph.sh` puts it), else `oxigraph` on `PATH`.
pub fn oxigraph_bin() -> anyhow::Result<PathBuf> {
    if let Some(p) = std::env::var_os("OXIGRAPH_BIN") {
        return Ok(PathBuf::from(p));
    }
    let local = PathBuf::from("target/servers/bin/oxigraph");
    if local.is_file() {
        return Ok(local);
    }
    let on_path = std::env::var_os("PATH").and_then(|paths| {
        std::env::split_paths(&paths)
            .map(|d| d.join("oxigraph"))
            .find(|p| p.is_file())
    });
    on_path.context(
        "no Oxigraph server binary: run `bash .ci/servers/install-oxigraph.sh` in the \
         repository (it installs target/servers/bin/oxigraph), or set OXIGRAPH_BIN",
    )
}

/// Loads `data` into the on-disk store `dir` and compacts it, unless an earlier run completed
/// that (marked by `dir/.loaded` and `dir/.optimized`); returns the seconds spent (0 when
/// reused). A served store is normally compacted: straight after a bulk load RocksDB keeps
/// many overlapping files, and on carcinogenesis ×100 every point lookup cost 2.7× more.
pub fn oxigraph_load(bin: &Path, data: &Path, dir: &Path) -> anyhow::Result<f64> {
    let marker = dir.join(".loaded");
    if marker.is_file() {
        return oxigraph_optimize(bin, dir);
    }
    if dir.exists() {
        std::fs::remove_dir_all(dir)
            .with_context(|| format!("removing the incomplete store {}", dir.display()))?;
    }
    std::fs::create_dir_all(dir).with_context(|| format!("creating {}", dir.display()))?;
    let started = Instant::now();
    let out = Command::new(bin)
        .args(["load", "--location"])
        .arg(dir)
        .arg("--file")
        .arg(data)
        .args(["--format", "application/n-triples"])
        .stdin(Stdio::null())
        .output()
        .with_context(|| format!("running {} load", bin.display()))?;
    if !out.status.success() {
        bail!(
            "`{} load --location {} --file {}` failed: {}",
            bin.display(),
            dir.display(),
            data.display(),
            String::from_utf8_lossy(&out.stderr).trim()
        );
    }
    std::fs::write(&marker, b"").with_context(|| format!("writing {}", marker.display()))?;
    oxigraph_optimize(bin, dir)?;
    Ok(started.elapsed().as_secs_f64())
}

/// Compacts the store `dir` (`oxigraph optimize`) unless `dir/.optimized` says it was;
/// returns the seconds spent.
fn oxigraph_optimize(bin: &Path, dir: &Path) -> anyhow::Result<f64> {
    let marker = dir.join(".optimized");
    if marker.is_file() {
        return Ok(0.0);
    }
    let started = Instant::now();
    let out = Command::new(bin)
        .args(["optimize", "--location"])
        .arg(dir)
        .stdin(Stdio::null())
        .output()
        .with_context(|| format!("running {} optimize", bin.display()))?;
    if !out.status.success() {
        bail!(
            "`{} optimize --location {}` failed: {}",
            bin.display(),
            dir.display(),
            String::from_utf8_lossy(&out.stderr).trim()
        );
    }
    std::fs::write(&marker, b"").with_context(|| format!("writing {}", marker.display()))?;
    Ok(started.elapsed().as_secs_f64())
}

/// Serves the store `dir` read-only on 127.0.0.1:`port`, once it answers.
pub fn oxigraph_serve(bin: &Path, dir: &Path, port: u16) -> anyhow::Result<Server> {
    ensure_port_free(port)?;
    let child = Command::new(bin)
        .args(["serve-read-only", "--location"])
        .arg(dir)
        .args(["--bind", &format!("127.0.0.1:{port}")])
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .with_context(|| format!("starting {} serve-read-only", bin.display()))?;
    let server = Server {
        url: format!("http://127.0.0.1:{port}/query"),
        update_url: None,
        graph: None,
        child: Some(child),
        pidfile: None,
        scratch: None,
    };
    wait_ready(port, "/query", Duration::from_secs(120))
        .with_context(|| format!("Oxigraph serving {}", dir.display()))?;
    Ok(server)
}

/// Copies the store `dir` to `copy` (`cp -a --reflink=auto`; an earlier copy is replaced)
/// and serves the copy read-write (`oxigraph serve`) on 127.0.0.1:`port`, once it answers;
/// the copy is removed when the server is dropped.
pub fn oxigraph_serve_copy(
    bin: &Path,
    dir: &Path,
    copy: &Path,
    port: u16,
) -> anyhow::Result<Server> {
    ensure_port_free(port)?;
    if copy.exists() {
        std::fs::remove_dir_all(copy)
            .with_context(|| format!("removing the old copy {}", copy.display()))?;
    }
    let out = Command::new("cp")
        .args(["-a", "--reflink=auto"])
        .arg(dir)
        .arg(copy)
        .stdin(Stdio::null())
        .output()
        .context("running cp")?;
    if !out.status.success() {
        let _ = std::fs::remove_dir_all(copy);
        bail!(
            "copying {} to {} failed: {}",
            dir.display(),
            copy.display(),
            String::from_utf8_lossy(&out.stderr).trim()
        );
    }
    let child = Command::new(bin)
        .args(["serve", "--location"])
        .arg(copy)
        .args(["--bind", &format!("127.0.0.1:{port}")])
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn();
    let child = match child {
        Ok(c) => c,
        Err(e) => {
            let _ = std::fs::remove_dir_all(copy);
            return Err(e).with_context(|| format!("starting {} serve", bin.display()));
        }
    };
    let server = Server {
        url: format!("http://127.0.0.1:{port}/query"),
        update_url: Some(format!("http://127.0.0.1:{port}/update")),
        graph: None,
        child: Some(child),
        pidfile: None,
        scratch: Some(copy.to_owned()),
    };
    wait_ready(port, "/query", Duration::from_secs(120))
        .with_context(|| format!("Oxigraph serving {} writable", copy.display()))?;
    Ok(server)
}

/// Starts a fresh Virtuoso with `.ci/servers/start-virtuoso.sh` and bulk-loads `data` into
/// `graph` with `load-virtuoso.sh` (run from the repository root, where they live). The
/// data's directory is added to Virtuoso's `DirsAllowed`: a `--scale-dir` outside the
/// repository is refused by its loader otherwise.
pub fn virtuoso(data: &Path, graph: &str, http_port: u16, sql_port: u16) -> anyhow::Result<Server> {
    let scripts = Path::new(".ci/servers");
    if !scripts.join("start-virtuoso.sh").is_file() {
        bail!("--backends virtuoso needs .ci/servers/ (run bench scale from the repository root)");
    }
    ensure_port_free(http_port)?;
    ensure_port_free(sql_port)?;
    let data = std::fs::canonicalize(data)
        .with_context(|| format!("the KB to load into Virtuoso: {}", data.display()))?;
    let data_dir = data.parent().unwrap_or(Path::new("/")).to_owned();
    let script = |name: &str, args: &[&str]| -> anyhow::Result<()> {
        let out = Command::new("bash")
            .arg(scripts.join(name))
            .args(args)
            .env("VIRTUOSO_DIRS_ALLOWED", &data_dir)
            .stdin(Stdio::null())
            .output()
            .with_context(|| format!("running .ci/servers/{name}"))?;
        if !out.status.success() {
            bail!(
                ".ci/servers/{name} {} failed: {}",
                args.join(" "),
                String::from_utf8_lossy(&out.stderr).trim()
            );
        }
        Ok(())
    };
    let (h, s) = (http_port.to_string(), sql_port.to_string());
    let server = Server {
        url: format!("http://127.0.0.1:{http_port}/sparql"),
        update_url: None,
        graph: Some(graph.to_owned()),
        scratch: None,
        child: None,
        pidfile: Some(PathBuf::from(format!(
            "target/servers/virtuoso-{http_port}.pid"
        ))),
    };
    script("start-virtuoso.sh", &[&h, &s])?;
    let data = data.to_str().context("the KB path is not UTF-8")?;
    script("load-virtuoso.sh", &[&s, data, graph])?;
    Ok(server)
}

fn ensure_port_free(port: u16) -> anyhow::Result<()> {
    if TcpStream::connect_timeout(&([127, 0, 0, 1], port).into(), Duration::from_millis(300))
        .is_ok()
    {
        bail!("port {port} on 127.0.0.1 is already in use (choose others with --port)");
    }
    Ok(())
}

/// Polls `GET path?query=ASK{}` until the server answers 200.
fn wait_ready(port: u16, path: &str, timeout: Duration) -> anyhow::Result<()> {
    let deadline = Instant::now() + timeout;
    let request = format!(
        "GET {path}?query=ASK%7B%7D HTTP/1.0\r\nHost: 127.0.0.1\r\n\
         Accept: application/sparql-results+json\r\n\r\n"
    );
    while Instant::now() < deadline {
        let answered =
            TcpStream::connect_timeout(&([127, 0, 0, 1], port).into(), Duration::from_secs(1))
                .and_then(|mut s| {
                    s.set_read_timeout(Some(Duration::from_secs(5)))?;
                    s.write_all(request.as_bytes())?;
                    let mut head = [0u8; 12];
                    s.read_exact(&mut head)?;
                    Ok(head.ends_with(b"200"))
                });
        if answered.unwrap_or(false) {
            return Ok(());
        }
        std::thread::sleep(Duration::from_millis(100));
    }
    bail!(
        "no answer on 127.0.0.1:{port}{path} after {} s",
        timeout.as_secs()
    )
}

/// Stops the Virtuoso whose pid the start script wrote (only if it is a virtuoso-t).
fn stop_pidfile(pidfile: &Path) {
    let Some(pid) = std::fs::read_to_string(pidfile)
        .ok()
        .and_then(|s| s.trim().parse::<libc::pid_t>().ok())
    else {
        return;
    };
    let cmdline = std::fs::read(format!("/proc/{pid}/cmdline")).unwrap_or_default();
    if !String::from_utf8_lossy(&cmdline).contains("virtuoso-t") {
        return;
    }
    // SAFETY: plain signal delivery to a pid we started (checked by its command line).
    unsafe { libc::kill(pid, libc::SIGTERM) };
    let deadline = Instant::now() + Duration::from_secs(15);
    while Path::new(&format!("/proc/{pid}")).exists() && Instant::now() < deadline {
        std::thread::sleep(Duration::from_millis(100));
    }
    if Path::new(&format!("/proc/{pid}")).exists() {
        // SAFETY: as above.
        unsafe { libc::kill(pid, libc::SIGKILL) };
    }
    let _ = std::fs::remove_file(pidfile);
}

//! `oxilearn bench scale`: the same learning problem on a KB replicated k times (issue 9 §5).
//!
//! For each k the KB is replicated into `target/scale/` (reused when present), then every
//! backend runs `oxilearn learn … --json` as a child process with a fixed `--max-tests`, so
//! runs are deterministic and each child's peak RSS is its own. The table compares every k
//! with k = 1: time to the first tested concept, signature and search time, tests per
//! second, queries per test, peak RSS, and whether the best solution is unchanged. Over an
//! endpoint the run is made twice: with a cold signature cache (`--refresh-signature`), then
//! with it fresh (the cache lives in `<scale-dir>/signature-cache`).
//!
//! Then each backend applies models (issue 28 item 8, see [`apply`]): `predict --scope` of a
//! TBC model trained at k = 1, and `enrich` of each `--enrich-concept`, twice (the second
//! run in replace mode must leave the graph identical): into a dataset file for the
//! embedded store, through the update endpoint into a named graph for the servers (the
//! Oxigraph store is then served writable from a copy, removed afterwards). The counts must
//! be k times those of k = 1.

mod apply;
mod child;
mod servers;

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Duration;

use anyhow::{Context, bail};
use clap::{Args, ValueEnum};
use serde::Serialize;
use serde_json::Value;

use crate::files::replicate_file;

#[derive(Debug, Args)]
pub struct BenchScaleArgs {
    /// The real KB to replicate (any format `--kb` reads).
    #[arg(long, value_name = "FILE")]
    pub kb: PathBuf,
    /// The learning problems (their examples are the original individuals, copy 0).
    #[arg(long, value_name = "LPFILE")]
    pub problems: PathBuf,
    /// Only this problem (default: every problem of the file).
    #[arg(long, value_name = "NAME")]
    pub problem: Option<String>,
    /// Replication factors (comma-separated); k = 1 is the reference and always run.
    #[arg(
        long,
        value_name = "K,…",
        value_delimiter = ',',
        default_value = "1,10,100"
    )]
    pub k: Vec<usize>,
    /// Concepts tested per problem: a fixed budget makes the runs comparable across k.
    #[arg(long, value_name = "N", default_value_t = 10_000)]
    pub max_tests: u64,
    /// Backends to measure (comma-separated).
    #[arg(
        long,
        value_enum,
        value_delimiter = ',',
        default_value = "embedded,oxigraph"
    )]
    pub backends: Vec<Backend>,
    /// Where replicated KBs and on-disk stores are kept (and reused).
    #[arg(long, value_name = "DIR", default_value = "target/scale")]
    pub scale_dir: PathBuf,
    /// First port of the servers this benchmark starts (Oxigraph; Virtuoso HTTP and SQL
    /// use the next two, the writable Oxigraph `enrich` writes to the third).
    #[arg(long, value_name = "PORT", default_value_t = 17933)]
    pub port: u16,
    /// Kill a learner child after this many seconds.
    #[arg(long, value_name = "SECS", default_value_t = 1800)]
    pub child_timeout: u64,
    /// Class expressions applied by `enrich` at every k and backend (repeatable; the
    /// defaults are carcinogenesis's: 39 and 3,632 members at k = 1).
    #[arg(
        long,
        value_name = "EXPR",
        default_values_t = [
            "Compound and hasStructure some Nitro".to_owned(),
            "Hydrogen-3".to_owned(),
        ]
    )]
    pub enrich_concept: Vec<String>,
    /// `predict --scope EXPR` of the scored model at every k and backend (carcinogenesis's
    /// compounds by default).
    #[arg(long, value_name = "EXPR", default_value = "Compound")]
    pub predict_scope: String,
    /// The scored model `predict` applies (default: TBC trained on the k = 1 problem with
    /// `--predict-tests`, saved in the scale directory).
    #[arg(long, value_name = "FILE")]
    pub predict_model: Option<PathBuf>,
    /// Test budget of the TBC model trained for `predict` (carcinogenesis: 167 of the 340
    /// compounds predicted at k = 1 with 10,000).
    #[arg(long, value_name = "N", default_value_t = 10_000)]
    pub predict_tests: u64,
    /// Learning only: apply no models.
    #[arg(long)]
    pub no_apply: bool,
    /// Write the tables as markdown here.
    #[arg(long, value_name = "FILE")]
    pub out_md: Option<PathBuf>,
    /// Write every measurement as JSON here.
    #[arg(long, value_name = "FILE")]
    pub out_json: Option<PathBuf>,
    /// Write a self-contained HTML report here (time and RSS against KB size, log axes).
    #[arg(long, value_name = "FILE.html")]
    pub report: Option<PathBuf>,
    /// Further `learn` options, after `--` (e.g. `-- --noise 30 --no-numbers`); without
    /// `--max-runtime` there, the runs have no time limit (`--max-runtime 0`).
    #[arg(last = true, value_name = "LEARN-OPTIONS")]
    pub learn: Vec<String>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Backend {
    /// `learn --kb`: the replicated file loaded into the in-memory store.
    Embedded,
    /// `learn --endpoint` against `oxigraph serve-read-only` over an on-disk store.
    Oxigraph,
    /// `learn --endpoint` against Virtuoso started by `.ci/servers/start-virtuoso.sh`.
    Virtuoso,
}

impl Backend {
    pub(super) fn name(self) -> &'static str {
        match self {
            Self::Embedded => "embedded",
            Self::Oxigraph => "oxigraph",
            Self::Virtuoso => "virtuoso",
        }
    }
}

/// One learner run: the figures of the table.
#[derive(Debug, Clone, Serialize)]
struct Measure {
    k: usize,
    backend: Backend,
    triples: usize,
    wall_s: f64,
    /// Everything before the first test: the child's wall time minus the fit's
    /// (`elapsed_ms`: the search and what follows it, such as the length validation). Over
    /// an endpoint, with a cold signature cache (`--refresh-signature`).
    first_test_s: f64,
    /// The same over an endpoint with the signature cache fresh (a second identical run).
    cached_first_test_s: Option<f64>,
    /// `load_ms` of the learner's stats, when it reports it.
    load_s: Option<f64>,
    signature_s: Option<f64>,
    search_s: f64,
    concepts_tested: u64,
    queries_sent: u64,
    tests_per_s: f64,
    queries_per_test: f64,
    peak_rss_mb: f64,
    /// Peak RSS of a child that only loads the file (embedded only): the store's footprint.
    store_rss_mb: Option<f64>,
    /// Best solution (DL syntax) of each problem.
    best: Vec<String>,
    same_as_k1: Option<bool>,
    /// Why the run failed (killed after the timeout, a server error, …); the figures are 0.
    error: Option<String>,
    /// The models applied on this backend at this k.
    apply: Vec<apply::ApplyMeasure>,
}

impl Measure {
    fn failed(k: usize, backend: Backend, triples: usize, error: String) -> Self {
        Measure {
            k,
            backend,
            triples,
            wall_s: 0.0,
            first_test_s: 0.0,
            cached_first_test_s: None,
            load_s: None,
            signature_s: None,
            search_s: 0.0,
            concepts_tested: 0,
            queries_sent: 0,
            tests_per_s: 0.0,
            queries_per_test: 0.0,
            peak_rss_mb: 0.0,
            store_rss_mb: None,
            best: Vec::new(),
            same_as_k1: None,
            error: Some(error),
            apply: Vec::new(),
        }
    }
}

pub fn run(args: BenchScaleArgs) -> anyhow::Result<()> {
    if args
        .learn
        .iter()
        .any(|a| a == "--json" || a == "--kb" || a == "--endpoint")
    {
        bail!(
            "the options after `--` are passed to `learn`: leave out --json, --kb and --endpoint"
        );
    }
    let mut ks = args.k.clone();
    if !ks.contains(&1) {
        ks.insert(0, 1);
    }
    ks.sort_unstable();
    ks.dedup();
    if ks.contains(&0) {
        bail!("--k: replication factors start at 1");
    }
    apply::validate(&args)?;
    std::fs::create_dir_all(&args.scale_dir)
        .with_context(|| format!("creating {}", args.scale_dir.display()))?;
    let exe = std::env::current_exe().context("locating the oxilearn binary")?;
    let ox_bin = if args.backends.contains(&Backend::Oxigraph) {
        Some(servers::oxigraph_bin()?)
    } else {
        None
    };

    let mut all: Vec<Measure> = Vec::new();
    let mut markdown = String::new();
    let mut models = None;
    for &k in &ks {
        let (file, triples) = replicated(&args, k)?;
        if k == 1 && !args.no_apply {
            models = Some(apply::Models::prepare(&args, &exe, &file)?);
        }
        let mut rows = Vec::new();
        for &backend in &args.backends {
            eprintln!("bench scale: k = {k}, {} …", backend.name());
            let ctx = Ctx {
                args: &args,
                exe: &exe,
                ox_bin: ox_bin.as_deref(),
                models: models.as_ref(),
            };
            let (learned, applied) = measure_backend(&ctx, k, backend, &file, triples);
            let mut m = learned.unwrap_or_else(|e| {
                eprintln!("bench scale: k = {k}, {}: {e:#}", backend.name());
                Measure::failed(k, backend, triples, format!("{e:#}"))
            });
            let reference = all
                .iter()
                .find(|r| r.k == 1 && r.backend == backend && r.error.is_none())
                .or_else(|| all.iter().find(|r| r.k == 1 && r.error.is_none()));
            if m.error.is_none() {
                m.same_as_k1 = reference
                    .filter(|r| r.error.is_none())
                    .map(|r| r.best == m.best);
            }
            m.apply = applied;
            let k1_applied: Vec<apply::ApplyMeasure> = all
                .iter()
                .filter(|r| r.k == 1)
                .flat_map(|r| r.apply.iter().cloned())
                .collect();
            apply::check_against_k1(&mut m.apply, &k1_applied);
            rows.push(m.clone());
            all.push(m);
        }
        let table = table(k, &rows, &all);
        print!("{table}");
        markdown.push_str(&table);
        // Written after every k, so a long run that is cut off keeps what it measured.
        write_outputs(&args, &markdown, &all)?;
    }
    Ok(())
}

fn write_outputs(args: &BenchScaleArgs, markdown: &str, all: &[Measure]) -> anyhow::Result<()> {
    if let Some(path) = &args.out_md {
        std::fs::write(path, markdown).with_context(|| format!("writing {}", path.display()))?;
    }
    if let Some(path) = &args.out_json {
        let text = serde_json::to_string_pretty(all)?;
        std::fs::write(path, text).with_context(|| format!("writing {}", path.display()))?;
    }
    if let Some(path) = &args.report {
        super::report::write(path, &all)?;
    }
    Ok(())
}

/// What every backend's run needs.
struct Ctx<'a> {
    args: &'a BenchScaleArgs,
    exe: &'a Path,
    ox_bin: Option<&'a Path>,
    /// The models to apply (`None`: `--no-apply`).
    models: Option<&'a apply::Models>,
}

/// One backend's learner run at factor `k`, then the models applied to the same data
/// (servers started and stopped around them).
fn measure_backend(
    ctx: &Ctx<'_>,
    k: usize,
    backend: Backend,
    file: &Path,
    triples: usize,
) -> (anyhow::Result<Measure>, Vec<apply::ApplyMeasure>) {
    let mut applied = Vec::new();
    let learned = (|| match backend {
        Backend::Embedded => {
            let learned = (|| {
                let args = ctx.args;
                let mut m = learn(args, ctx.exe, k, backend, triples, &["--kb"], file, None)?;
                m.store_rss_mb = Some(store_rss(ctx.exe, file, args.child_timeout)?);
                Ok(m)
            })();
            if let Some(models) = ctx.models {
                let source = apply::Source::File(file);
                applied = apply::apply_all(ctx.args, ctx.exe, models, k, backend, &source);
            }
            learned
        }
        Backend::Oxigraph => {
            let args = ctx.args;
            let bin = ctx.ox_bin.context("no Oxigraph binary")?;
            let dir = args
                .scale_dir
                .join(format!("oxigraph-{}", stem_k(&args.kb, k)));
            servers::oxigraph_load(bin, file, &dir)?;
            let learned = {
                let server = servers::oxigraph_serve(bin, &dir, args.port)?;
                let learned = endpoint_run(args, ctx.exe, k, backend, triples, &server);
                if let Some(models) = ctx.models {
                    let source = apply::Source::Endpoint {
                        query: &server.url,
                        update: None,
                        data_graph: None,
                    };
                    applied.push(apply::predict_row(
                        args, ctx.exe, models, k, backend, &source,
                    ));
                }
                learned
            };
            if let Some(models) = ctx.models.filter(|m| !m.concepts.is_empty()) {
                // enrich writes: a writable server on a copy of the store, removed after.
                let copy = args
                    .scale_dir
                    .join(format!("oxigraph-{}-rw", stem_k(&args.kb, k)));
                match servers::oxigraph_serve_copy(bin, &dir, &copy, args.port + 3) {
                    Ok(server) => {
                        let source = apply::Source::Endpoint {
                            query: &server.url,
                            update: server.update_url.as_deref(),
                            data_graph: None,
                        };
                        applied.extend(apply::enrich_rows(
                            args, ctx.exe, models, k, backend, &source,
                        ));
                    }
                    Err(e) => {
                        eprintln!("bench scale: k = {k}, oxigraph (writable): {e:#}");
                        applied.extend(models.concepts.iter().map(|(expr, _)| {
                            apply::ApplyMeasure::failed(k, backend, "enrich", expr, &e)
                        }));
                    }
                }
            }
            learned
        }
        Backend::Virtuoso => {
            let args = ctx.args;
            let graph = format!("http://oxilearn.test/scale/{}", stem_k(&args.kb, k));
            let server = servers::virtuoso(file, &graph, args.port + 1, args.port + 2)?;
            let learned = endpoint_run(args, ctx.exe, k, backend, triples, &server);
            if let Some(models) = ctx.models {
                // The throw-away server takes the writes itself (its /sparql runs updates).
                let source = apply::Source::Endpoint {
                    query: &server.url,
                    update: Some(&server.url),
                    data_graph: server.graph.as_deref(),
                };
                applied = apply::apply_all(args, ctx.exe, models, k, backend, &source);
            }
            learned
        }
    })();
    (learned, applied)
}

/// `carcinogenesis-x10` for `carcinogenesis.nt.gz` and k = 10.
fn stem_k(kb: &Path, k: usize) -> String {
    let name = kb.file_name().and_then(|n| n.to_str()).unwrap_or("kb");
    let name = name.strip_suffix(".gz").unwrap_or(name);
    let stem = name.rsplit_once('.').map_or(name, |(s, _)| s);
    format!("{stem}-x{k}")
}

/// The replicated KB of factor `k` (written unless present) and its triple count.
fn replicated(args: &BenchScaleArgs, k: usize) -> anyhow::Result<(PathBuf, usize)> {
    let stem = stem_k(&args.kb, k);
    let file = args.scale_dir.join(format!("{stem}.nt.gz"));
    let count_file = args.scale_dir.join(format!("{stem}.triples"));
    if file.is_file()
        && let Some(n) = std::fs::read_to_string(&count_file)
            .ok()
            .and_then(|s| s.trim().parse().ok())
    {
        return Ok((file, n));
    }
    eprintln!(
        "bench scale: replicating {} × {k} into {}",
        args.kb.display(),
        file.display()
    );
    let report = replicate_file(&args.kb, &file, k)
        .with_context(|| format!("replicating {} {k} times", args.kb.display()))?;
    std::fs::write(&count_file, report.output_triples.to_string())
        .with_context(|| format!("writing {}", count_file.display()))?;
    Ok((file, report.output_triples))
}

fn endpoint_run(
    args: &BenchScaleArgs,
    exe: &Path,
    k: usize,
    backend: Backend,
    triples: usize,
    server: &servers::Server,
) -> anyhow::Result<Measure> {
    let mut extra = vec!["--politeness-ms".to_owned(), "0".to_owned()];
    if let Some(g) = &server.graph {
        extra.extend(["--graph".to_owned(), g.clone()]);
    }
    let url = PathBuf::from(&server.url);
    // Cold: the signature cache is ignored and rewritten; then the same run with it fresh.
    let mut cold_extra = extra.clone();
    cold_extra.push("--refresh-signature".to_owned());
    let cold_extra: Vec<&str> = cold_extra.iter().map(String::as_str).collect();
    let extra: Vec<&str> = extra.iter().map(String::as_str).collect();
    let run = |extra: &[&str]| {
        learn(
            args,
            exe,
            k,
            backend,
            triples,
            &["--endpoint"],
            &url,
            Some(extra),
        )
    };
    let mut cold = run(&cold_extra)?;
    let cached = run(&extra)?;
    cold.cached_first_test_s = Some(cached.first_test_s);
    Ok(cold)
}

/// Runs `oxilearn learn <source_flag> <source> … --json` as a child and reads its figures.
#[allow(clippy::too_many_arguments)]
fn learn(
    args: &BenchScaleArgs,
    exe: &Path,
    k: usize,
    backend: Backend,
    triples: usize,
    source_flag: &[&str],
    source: &Path,
    extra: Option<&[&str]>,
) -> anyhow::Result<Measure> {
    let mut cmd = Command::new(exe);
    cmd.arg("learn").args(source_flag).arg(source);
    cmd.arg("--problems").arg(&args.problems);
    if let Some(p) = &args.problem {
        cmd.args(["--problem", p]);
    }
    cmd.args([
        "--max-tests",
        &args.max_tests.to_string(),
        "--json",
        "--quiet",
    ]);
    if !args.learn.iter().any(|a| a.starts_with("--max-runtime")) {
        cmd.args(["--max-runtime", "0"]);
    }
    cmd.args(extra.unwrap_or_default()).args(&args.learn);
    // Endpoint signature caches of the benchmark stay beside its stores.
    cmd.env(
        crate::signature_cache::CACHE_DIR_VAR,
        args.scale_dir.join("signature-cache"),
    );
    let what = format!("learn ({}, k = {k})", backend.name());
    let done = child::run(cmd, &what, Duration::from_secs(args.child_timeout))?;
    let json: Value = serde_json::from_slice(&done.stdout)
        .with_context(|| format!("{what} did not print one JSON document"))?;
    measure(k, backend, triples, &done, &json)
        .with_context(|| format!("reading the JSON of {what}"))
}

/// Peak RSS (MB) of a child that only loads `file`: the embedded store's own footprint.
fn store_rss(exe: &Path, file: &Path, timeout: u64) -> anyhow::Result<f64> {
    let mut cmd = Command::new(exe);
    cmd.args(["bench", "load", "--repeat", "1", "--json", "--kb"])
        .arg(file);
    let done = child::run(cmd, "bench load", Duration::from_secs(timeout))?;
    Ok(mb(done.peak_rss))
}

pub(super) fn mb(bytes: u64) -> f64 {
    bytes as f64 / 1e6
}

fn stat(stats: &Value, name: &str) -> Option<f64> {
    stats.get(name).and_then(Value::as_f64)
}

/// The figures of one learn child, summed over its problems.
fn measure(
    k: usize,
    backend: Backend,
    triples: usize,
    done: &child::Finished,
    json: &Value,
) -> anyhow::Result<Measure> {
    let runs = json
        .as_array()
        .context("expected a JSON array over problems")?;
    let (mut tested, mut queries, mut search_ms, mut fit_ms) = (0u64, 0u64, 0.0, 0.0);
    let (mut signature_ms, mut load_ms) = (None::<f64>, None::<f64>);
    let mut best = Vec::new();
    for r in runs {
        let s = r.get("stats").context("a run without stats")?;
        tested += s
            .get("concepts_tested")
            .and_then(Value::as_u64)
            .unwrap_or(0);
        queries += s.get("queries_sent").and_then(Value::as_u64).unwrap_or(0);
        let elapsed = stat(s, "elapsed_ms").context("stats without elapsed_ms")?;
        search_ms += stat(s, "search_ms").unwrap_or(elapsed);
        fit_ms += elapsed;
        // Phases before the search happen once per command: take the first run's.
        signature_ms = signature_ms.or(stat(s, "signature_ms"));
        load_ms = load_ms.or(stat(s, "load_ms"));
        best.push(
            r.pointer("/solutions/0/dl")
                .and_then(Value::as_str)
                .unwrap_or("(no solution)")
                .to_owned(),
        );
    }
    let wall_ms = done.wall.as_secs_f64() * 1000.0;
    // Everything but the fits: process start, load, signature, split points, output. (Until
    // December 2026 the searches alone were subtracted, which counted the work after the
    // search, up to 10 s of validation on Virtuoso, as time before the first test.)
    let first_ms = (wall_ms - fit_ms).max(0.0);
    let search_s = search_ms / 1000.0;
    Ok(Measure {
        k,
        backend,
        triples,
        wall_s: wall_ms / 1000.0,
        first_test_s: first_ms / 1000.0,
        cached_first_test_s: None,
        load_s: load_ms.map(|v| v / 1000.0),
        signature_s: signature_ms.map(|v| v / 1000.0),
        search_s,
        concepts_tested: tested,
        queries_sent: queries,
        tests_per_s: tested as f64 / search_s.max(1e-9),
        queries_per_test: queries as f64 / tested.max(1) as f64,
        peak_rss_mb: mb(done.peak_rss),
        store_rss_mb: None,
        best,
        same_as_k1: None,
        error: None,
        apply: Vec::new(),
    })
}

/// The markdown table of factor `k`, with ratios against the same backend at k = 1.
fn table(k: usize, rows: &[Measure], all: &[Measure]) -> String {
    use std::fmt::Write;
    let mut t = String::new();
    let triples = rows.first().map_or(0, |r| r.triples);
    let _ = writeln!(t, "\n### k = {k} ({triples} triples)\n");
    let _ = writeln!(
        t,
        "| backend | first test s (×k1) | cached first test s | signature s (×k1) | search s | \
         tests/s (×k1) | search s/test ×k1 | queries/test (×k1) | peak RSS MB (×k1) | \
         load-only RSS MB | tests | same best as k=1 |"
    );
    let _ = writeln!(t, "|---|---|---|---|---|---|---|---|---|---|---|---|");
    for r in rows {
        if let Some(e) = &r.error {
            let first = e.lines().next().unwrap_or_default();
            let _ = writeln!(t, "| {} | failed: {first} |||||||||||", r.backend.name());
            continue;
        }
        let base = all
            .iter()
            .find(|b| b.k == 1 && b.backend == r.backend && b.error.is_none());
        let ratio = |f: fn(&Measure) -> Option<f64>| match (f(r), base.and_then(f)) {
            (Some(v), Some(b)) if b > 0.0 => format!(" ({:.2}×)", v / b),
            _ => String::new(),
        };
        let per_test = |m: &Measure| Some(m.search_s / m.concepts_tested.max(1) as f64);
        let _ = writeln!(
            t,
            "| {} | {:.2}{} | {} | {}{} | {:.2} | {:.0}{} | {} | {:.3}{} | {:.0}{} | {} | {} | {} |",
            r.backend.name(),
            r.first_test_s,
            ratio(|m| Some(m.first_test_s)),
            r.cached_first_test_s
                .map_or("—".to_owned(), |s| format!("{s:.2}")),
            r.signature_s.map_or("—".to_owned(), |s| format!("{s:.2}")),
            ratio(|m| m.signature_s),
            r.search_s,
            r.tests_per_s,
            ratio(|m| Some(m.tests_per_s)),
            base.and_then(per_test)
                .filter(|b| *b > 0.0)
                .map_or("—".to_owned(), |b| format!(
                    "{:.2}×",
                    per_test(r).unwrap_or(0.0) / b
                )),
            r.queries_per_test,
            ratio(|m| Some(m.queries_per_test)),
            r.peak_rss_mb,
            ratio(|m| Some(m.peak_rss_mb)),
            r.store_rss_mb.map_or("—".to_owned(), |s| format!("{s:.0}")),
            r.concepts_tested,
            match r.same_as_k1 {
                Some(true) => "yes",
                Some(false) => "**no**",
                None if r.k == 1 => "(reference)",
                None => "—",
            },
        );
    }
    for r in rows.iter().filter(|r| r.same_as_k1 == Some(false)) {
        let _ = writeln!(t, "\n{} best: {}", r.backend.name(), r.best.join(" ; "));
    }
    let applied: Vec<apply::ApplyMeasure> =
        rows.iter().flat_map(|r| r.apply.iter().cloned()).collect();
    let all_applied: Vec<apply::ApplyMeasure> =
        all.iter().flat_map(|r| r.apply.iter().cloned()).collect();
    t.push_str(&apply::table(&applied, &all_applied));
    t
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn replicated_names_keep_the_stem() {
        assert_eq!(
            stem_k(Path::new("/d/carcinogenesis.nt.gz"), 10),
            "carcinogenesis-x10"
        );
        assert_eq!(stem_k(Path::new("family.owl"), 1), "family-x1");
    }
}

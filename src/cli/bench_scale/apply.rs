//! Applying models at factor k (issue 28 item 8): `enrich` of crisp concept models and
//! `predict --scope` of a scored model, each a measured child like the learner runs.
//!
//! The models are made once, on the k = 1 file: a concept model document per
//! `--enrich-concept` (a one-solution CELOE model, so `enrich` applies the expression by its
//! own decision, inside the store where it can), and a TBC model trained on the k = 1
//! problem (`learn --algorithm tbc --save-model`) unless `--predict-model` names one. The
//! replicated KB holds k copies of every individual, so every count must be k times its
//! k = 1 value: that is checked per backend against the same backend's k = 1 run.

use std::collections::BTreeMap;
use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Duration;

use anyhow::{Context, bail};
use serde::Serialize;
use serde_json::Value;

use super::child;
use super::{Backend, BenchScaleArgs, mb};

/// The models every backend applies, made once from the k = 1 file.
pub struct Models {
    /// (expression, model document) per `--enrich-concept`.
    pub concepts: Vec<(String, PathBuf)>,
    /// The scored model `predict` applies, or why there is none.
    pub scored: Result<PathBuf, String>,
    /// How the scored model was made (its label in the table).
    pub scored_label: String,
}

/// The class the members of concept model `i` are typed with (also its problem's name).
fn target_class(i: usize) -> String {
    format!("http://oxilearn.test/scale/Concept{i}")
}

/// The named graph `enrich` writes concept model `i`'s members into.
fn target_graph(i: usize) -> String {
    format!("http://oxilearn.test/scale/enrich/concept{i}")
}

impl Models {
    /// Writes the concept model documents and trains (or takes) the scored model.
    pub fn prepare(args: &BenchScaleArgs, exe: &Path, k1_file: &Path) -> anyhow::Result<Self> {
        let mut concepts = Vec::new();
        for (i, expr) in args.enrich_concept.iter().enumerate() {
            let path = args.scale_dir.join(format!("apply-concept{i}.json"));
            std::fs::write(&path, concept_document(expr, &target_class(i))?)
                .with_context(|| format!("writing {}", path.display()))?;
            concepts.push((expr.clone(), path));
        }
        let (scored, scored_label) = match &args.predict_model {
            Some(p) => (
                Ok(p.clone()),
                p.file_name()
                    .map_or("model".into(), |n| n.to_string_lossy().into_owned()),
            ),
            None => (
                train_tbc(args, exe, k1_file).map_err(|e| format!("{e:#}")),
                format!("tbc (k = 1, {} tests)", args.predict_tests),
            ),
        };
        Ok(Models {
            concepts,
            scored,
            scored_label,
        })
    }
}

/// A saved-model document holding `expr` as a CELOE model's one solution, trained "for"
/// `class` (so `enrich` types its members with it).
fn concept_document(expr: &str, class: &str) -> anyhow::Result<String> {
    let doc = serde_json::json!({
        "format": "oxilearn-model",
        "version": 1,
        "algorithm": "celoe",
        "parameters": {},
        "problem": class,
        // Not trained: no fingerprint to compare (applying it warns, harmlessly).
        "signature_fingerprint": "fnv1a64:0",
        "model": {
            "quality": "f1",
            "semantics": "closed",
            "solutions": [{"concept": expr, "tp": 0, "fp": 0, "tn": 0, "fn": 0, "quality": 1.0}],
        },
    });
    Ok(serde_json::to_string_pretty(&doc)?)
}

/// `learn --algorithm tbc --save-model` on the k = 1 file with `--predict-tests`.
fn train_tbc(args: &BenchScaleArgs, exe: &Path, k1_file: &Path) -> anyhow::Result<PathBuf> {
    let path = args.scale_dir.join("apply-tbc.json");
    let mut cmd = Command::new(exe);
    cmd.arg("learn").arg("--kb").arg(k1_file);
    cmd.arg("--problems").arg(&args.problems);
    if let Some(p) = &args.problem {
        cmd.args(["--problem", p]);
    }
    cmd.args(["--algorithm", "tbc", "--max-runtime", "0", "--quiet"])
        .args(["--max-tests", &args.predict_tests.to_string()])
        .arg("--save-model")
        .arg(&path);
    eprintln!("bench scale: training the TBC model predict applies (k = 1) …");
    child::run(
        cmd,
        "learn --algorithm tbc --save-model",
        Duration::from_secs(args.child_timeout),
    )?;
    Ok(path)
}

/// Where a backend's models are applied.
pub enum Source<'a> {
    /// The replicated file, loaded in memory by each child.
    File(&'a Path),
    /// A SPARQL endpoint holding the replicated KB.
    Endpoint {
        query: &'a str,
        /// Its update endpoint (enrich); `None`: predict only.
        update: Option<&'a str>,
        /// The graph holding the data (`None`: the default graph).
        data_graph: Option<&'a str>,
    },
}

/// One application of a model: the figures of the "applying models" table.
#[derive(Debug, Clone, Serialize)]
pub struct ApplyMeasure {
    pub k: usize,
    pub backend: Backend,
    /// `enrich` or `predict`.
    pub command: &'static str,
    /// The class expression (enrich) or the scored model's label (predict).
    pub model: String,
    /// The child's wall time (first run for enrich).
    pub seconds: f64,
    /// The replace-mode rerun of enrich.
    pub rerun_seconds: Option<f64>,
    /// Individuals the model was asked about (`None` where the store evaluated it).
    pub individuals: Option<u64>,
    /// Members written (enrich) or predicted (predict).
    pub members: u64,
    /// Members per second (enrich) or individuals per second (predict).
    pub per_second: f64,
    /// Highest peak RSS of the command's children (MB).
    pub peak_rss_mb: f64,
    /// enrich: the store evaluated the expression (`INSERT … WHERE`).
    pub evaluated_in_store: Option<bool>,
    /// Triples in the target graph after the first run (enrich).
    pub in_graph: Option<u64>,
    /// Members (and individuals) are k times those of the same backend at k = 1.
    pub k_times_k1: Option<bool>,
    /// predict: the members are exactly the k copies of the k = 1 members.
    pub copies_of_k1: Option<bool>,
    /// enrich: the replace-mode rerun left the graph identical (endpoints: 0 triples added
    /// or removed, counted by the store, and the same size; files: the same bytes).
    pub rerun_identical: Option<bool>,
    pub error: Option<String>,
    /// predict: the members' IRIs with their copy suffix stripped, sorted (the reference
    /// for `copies_of_k1`).
    #[serde(skip)]
    pub member_bases: Vec<String>,
}

impl ApplyMeasure {
    fn new(k: usize, backend: Backend, command: &'static str, model: &str) -> Self {
        ApplyMeasure {
            k,
            backend,
            command,
            model: model.to_owned(),
            seconds: 0.0,
            rerun_seconds: None,
            individuals: None,
            members: 0,
            per_second: 0.0,
            peak_rss_mb: 0.0,
            evaluated_in_store: None,
            in_graph: None,
            k_times_k1: None,
            copies_of_k1: None,
            rerun_identical: None,
            error: None,
            member_bases: Vec::new(),
        }
    }

    /// A row for an application that could not run.
    pub fn failed(
        k: usize,
        backend: Backend,
        command: &'static str,
        model: &str,
        error: &anyhow::Error,
    ) -> Self {
        let mut row = ApplyMeasure::new(k, backend, command, model);
        row.error = Some(format!("{error:#}"));
        row
    }

    /// Whether `self` and `other` apply the same model with the same command.
    pub fn same_application(&self, other: &ApplyMeasure) -> bool {
        self.command == other.command && self.model == other.model
    }
}

/// Every model applied to `source`: the scored one by `predict`, then each concept by
/// `enrich` (where there is somewhere to write). Failures become rows with an error.
pub fn apply_all(
    args: &BenchScaleArgs,
    exe: &Path,
    models: &Models,
    k: usize,
    backend: Backend,
    source: &Source<'_>,
) -> Vec<ApplyMeasure> {
    let mut rows = vec![predict_row(args, exe, models, k, backend, source)];
    rows.extend(enrich_rows(args, exe, models, k, backend, source));
    rows
}

/// `predict --scope` of the scored model (rows only where `--predict-scope` is set).
pub fn predict_row(
    args: &BenchScaleArgs,
    exe: &Path,
    models: &Models,
    k: usize,
    backend: Backend,
    source: &Source<'_>,
) -> ApplyMeasure {
    let mut row = ApplyMeasure::new(k, backend, "predict", &models.scored_label);
    let result = models
        .scored
        .as_ref()
        .map_err(|e| anyhow::anyhow!("no scored model: {e}"))
        .and_then(|model| predict(args, exe, k, backend, source, model, &mut row));
    if let Err(e) = result {
        eprintln!("bench scale: k = {k}, {} predict: {e:#}", backend.name());
        row.error = Some(format!("{e:#}"));
    }
    row
}

/// `enrich` of each concept model, then the same again in replace mode.
pub fn enrich_rows(
    args: &BenchScaleArgs,
    exe: &Path,
    models: &Models,
    k: usize,
    backend: Backend,
    source: &Source<'_>,
) -> Vec<ApplyMeasure> {
    models
        .concepts
        .iter()
        .enumerate()
        .map(|(i, (expr, model))| {
            let mut row = ApplyMeasure::new(k, backend, "enrich", expr);
            if let Err(e) = enrich(args, exe, k, backend, source, i, model, &mut row) {
                eprintln!(
                    "bench scale: k = {k}, {} enrich {expr}: {e:#}",
                    backend.name()
                );
                row.error = Some(format!("{e:#}"));
            }
            row
        })
        .collect()
}

/// The source options of an applying command (`--kb FILE` or `--endpoint URL …`); `graph`
/// is the name of the option naming the data graph (`--graph`, `--read-graph` for enrich).
fn source_args(cmd: &mut Command, source: &Source<'_>, graph_option: &str) {
    match source {
        Source::File(file) => {
            cmd.arg("--kb").arg(file);
        }
        Source::Endpoint {
            query, data_graph, ..
        } => {
            // A long timeout per request: one `INSERT … WHERE` over 363,200 members took
            // 53 s on carcinogenesis ×100 (docs/experiments/2026-12-07-apply-at-scale.md).
            cmd.args([
                "--endpoint",
                query,
                "--politeness-ms",
                "0",
                "--timeout",
                "600",
            ]);
            if let Some(g) = data_graph {
                cmd.args([graph_option, g]);
            }
        }
    }
}

fn predict(
    args: &BenchScaleArgs,
    exe: &Path,
    k: usize,
    backend: Backend,
    source: &Source<'_>,
    model: &Path,
    row: &mut ApplyMeasure,
) -> anyhow::Result<()> {
    let mut cmd = Command::new(exe);
    cmd.arg("predict");
    source_args(&mut cmd, source, "--graph");
    cmd.arg("--model").arg(model);
    cmd.args(["--scope", &args.predict_scope]);
    let what = format!("predict ({}, k = {k})", backend.name());
    let done = child::run(cmd, &what, Duration::from_secs(args.child_timeout))?;
    let text = String::from_utf8_lossy(&done.stdout);
    let (mut individuals, mut bases) = (0u64, Vec::new());
    for line in text.lines().filter(|l| !l.is_empty()) {
        individuals += 1;
        let mut fields = line.split('\t');
        let iri = fields.next().unwrap_or_default();
        if fields.next() == Some("member") {
            bases.push(strip_copy(iri).to_owned());
        }
    }
    bases.sort_unstable();
    row.seconds = done.wall.as_secs_f64();
    row.individuals = Some(individuals);
    row.members = bases.len() as u64;
    row.per_second = individuals as f64 / row.seconds.max(1e-9);
    row.peak_rss_mb = mb(done.peak_rss);
    row.member_bases = bases;
    Ok(())
}

/// `iri` without the `_copyN` suffix the replication gave it (copy 0 has none).
fn strip_copy(iri: &str) -> &str {
    match iri.rsplit_once("_copy") {
        Some((base, n)) if !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()) => base,
        _ => iri,
    }
}

#[allow(clippy::too_many_arguments)]
fn enrich(
    args: &BenchScaleArgs,
    exe: &Path,
    k: usize,
    backend: Backend,
    source: &Source<'_>,
    i: usize,
    model: &Path,
    row: &mut ApplyMeasure,
) -> anyhow::Result<()> {
    // Files: each run writes its own dataset, compared byte for byte, then removed.
    let outs: Vec<PathBuf> = ["", "-rerun"]
        .iter()
        .map(|tail| {
            args.scale_dir
                .join(format!("apply-{}-k{k}-concept{i}{tail}.nq", backend.name()))
        })
        .collect();
    let run = |out: &Path| -> anyhow::Result<(child::Finished, Value)> {
        let mut cmd = Command::new(exe);
        cmd.arg("enrich");
        source_args(&mut cmd, source, "--read-graph");
        match source {
            Source::File(_) => {
                cmd.arg("--out").arg(out);
            }
            Source::Endpoint { update, .. } => {
                let update = update.context("no update endpoint")?;
                cmd.args(["--update-endpoint", update]);
            }
        }
        cmd.arg("--model").arg(model);
        cmd.args([
            "--graph",
            &target_graph(i),
            "--target-class",
            &target_class(i),
        ]);
        cmd.args(["--mode", "replace", "--json"]);
        let what = format!("enrich ({}, k = {k}, concept {i})", backend.name());
        let done = child::run(cmd, &what, Duration::from_secs(args.child_timeout))?;
        let json: Value = serde_json::from_slice(&done.stdout)
            .with_context(|| format!("{what} did not print one JSON document"))?;
        Ok((done, json))
    };
    let result = (|| {
        let (first, summary) = run(&outs[0])?;
        let (again, resummary) = run(&outs[1])?;
        let count = |v: &Value, name: &str| v.pointer(name).and_then(Value::as_u64);
        row.seconds = first.wall.as_secs_f64();
        row.rerun_seconds = Some(again.wall.as_secs_f64());
        row.individuals = count(&summary, "/individuals_in_scope");
        row.members =
            count(&summary, "/predicted_members").context("no predicted_members in the summary")?;
        row.per_second = row.members as f64 / row.seconds.max(1e-9);
        row.peak_rss_mb = mb(first.peak_rss.max(again.peak_rss));
        row.evaluated_in_store = summary.get("evaluated_in_store").and_then(Value::as_bool);
        row.in_graph = count(&summary, "/written/in_graph");
        row.rerun_identical = Some(match source {
            Source::File(_) => file_digest(&outs[0])? == file_digest(&outs[1])?,
            Source::Endpoint { .. } => {
                count(&resummary, "/written/added") == Some(0)
                    && count(&resummary, "/written/removed") == Some(0)
                    && count(&resummary, "/written/in_graph") == row.in_graph
                    && count(&resummary, "/predicted_members") == Some(row.members)
            }
        });
        anyhow::Ok(())
    })();
    for out in &outs {
        let _ = std::fs::remove_file(out);
    }
    result
}

/// Size and FNV-1a 64 of a file's bytes.
fn file_digest(path: &Path) -> anyhow::Result<(u64, u64)> {
    let mut file =
        std::fs::File::open(path).with_context(|| format!("opening {}", path.display()))?;
    let (mut hash, mut size) = (0xcbf2_9ce4_8422_2325u64, 0u64);
    let mut buf = vec![0u8; 1 << 20];
    loop {
        let n = file
            .read(&mut buf)
            .with_context(|| format!("reading {}", path.display()))?;
        if n == 0 {
            break;
        }
        size += n as u64;
        for &b in &buf[..n] {
            hash = (hash ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3);
        }
    }
    Ok((size, hash))
}

/// Compares each row with the same application on the same backend at k = 1.
pub fn check_against_k1(rows: &mut [ApplyMeasure], reference: &[ApplyMeasure]) {
    for row in rows.iter_mut().filter(|r| r.error.is_none()) {
        let Some(base) = reference.iter().find(|b| {
            b.k == 1 && b.backend == row.backend && b.error.is_none() && b.same_application(row)
        }) else {
            continue;
        };
        let k = row.k as u64;
        let individuals_ok = match (row.individuals, base.individuals) {
            (Some(n), Some(b)) => n == k * b,
            _ => true,
        };
        row.k_times_k1 = Some(row.members == k * base.members && individuals_ok);
        if row.command == "predict" {
            row.copies_of_k1 = Some(copies_of(&row.member_bases, &base.member_bases, k));
        }
    }
}

/// Whether `bases` (sorted) holds every one of `reference` exactly `k` times and nothing
/// else.
fn copies_of(bases: &[String], reference: &[String], k: u64) -> bool {
    let mut counts: BTreeMap<&str, u64> = BTreeMap::new();
    for b in bases {
        *counts.entry(b.as_str()).or_default() += 1;
    }
    let expected: BTreeMap<&str, u64> = reference.iter().map(|r| (r.as_str(), k)).collect();
    counts == expected
}

/// The markdown table of the models applied at factor `k`.
pub fn table(rows: &[ApplyMeasure], all: &[ApplyMeasure]) -> String {
    use std::fmt::Write;
    let mut t = String::new();
    if rows.is_empty() {
        return t;
    }
    let _ = writeln!(t, "\nApplying models:\n");
    let _ = writeln!(
        t,
        "| backend | command | model | s (×k1) | replace rerun s | individuals | members | \
         per s (×k1) | peak RSS MB (×k1) | = k × k1 | rerun identical |"
    );
    let _ = writeln!(t, "|---|---|---|---|---|---|---|---|---|---|---|");
    for r in rows {
        if let Some(e) = &r.error {
            let first = e.lines().next().unwrap_or_default();
            let _ = writeln!(
                t,
                "| {} | {} | {} | failed: {first} ||||||||",
                r.backend.name(),
                r.command,
                r.model
            );
            continue;
        }
        let base = all.iter().find(|b| {
            b.k == 1 && b.backend == r.backend && b.error.is_none() && b.same_application(r)
        });
        let ratio = |f: fn(&ApplyMeasure) -> f64| match base.map(f) {
            Some(b) if b > 0.0 && r.k > 1 => format!(" ({:.2}×)", f(r) / b),
            _ => String::new(),
        };
        let check = |v: Option<bool>| match v {
            Some(true) => "yes",
            Some(false) => "**no**",
            None if r.k == 1 => "(reference)",
            None => "—",
        };
        let k_check = match (r.k_times_k1, r.copies_of_k1) {
            (Some(true), Some(true)) => "yes (the k copies)".to_owned(),
            (Some(true), Some(false)) => "counts only: **other members**".to_owned(),
            (v, _) => check(v).to_owned(),
        };
        let _ = writeln!(
            t,
            "| {} | {} | {} | {:.2}{} | {} | {} | {}{} | {:.0}{} | {:.0}{} | {} | {} |",
            r.backend.name(),
            r.command,
            r.model,
            r.seconds,
            ratio(|m| m.seconds),
            r.rerun_seconds
                .map_or("—".to_owned(), |s| format!("{s:.2}")),
            r.individuals
                .map_or("(in store)".to_owned(), |n| n.to_string()),
            r.members,
            r.in_graph
                .map_or(String::new(), |g| format!(" ({g} triples in graph)")),
            r.per_second,
            ratio(|m| m.per_second),
            r.peak_rss_mb,
            ratio(|m| m.peak_rss_mb),
            k_check,
            match r.rerun_identical {
                Some(true) => "yes",
                Some(false) => "**no**",
                None => "—",
            },
        );
    }
    t
}

/// Fails early on options that cannot work.
pub fn validate(args: &BenchScaleArgs) -> anyhow::Result<()> {
    if let Some(p) = &args.predict_model
        && !p.is_file()
    {
        bail!("--predict-model {}: no such file", p.display());
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn copy_suffixes_are_stripped() {
        assert_eq!(strip_copy("http://x/d1_copy12"), "http://x/d1");
        assert_eq!(strip_copy("http://x/d1"), "http://x/d1");
        assert_eq!(strip_copy("http://x/d1_copy"), "http://x/d1_copy");
        assert_eq!(strip_copy("http://x/d1_copyA"), "http://x/d1_copyA");
    }

    #[test]
    fn members_are_the_k_copies() {
        let s = |v: &[&str]| v.iter().map(|x| x.to_string()).collect::<Vec<_>>();
        assert!(copies_of(&s(&["a", "a", "b", "b"]), &s(&["a", "b"]), 2));
        assert!(!copies_of(&s(&["a", "a", "a", "b"]), &s(&["a", "b"]), 2));
        assert!(!copies_of(&s(&["a", "a", "c", "c"]), &s(&["a", "b"]), 2));
    }
}

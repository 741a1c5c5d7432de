//! `oxilearn enrich`: a saved model's predictions written into one named graph, of a dataset
//! file (`--kb … --out`) or of a store behind a SPARQL Update endpoint (`--endpoint …
//! --update-endpoint`). See [`crate::enrich`] for what is written and how it stays atomic.

use std::io::IsTerminal;
use std::time::Instant;

use anyhow::{Context, bail};
use indicatif::{ProgressBar, ProgressStyle};
use oxigraph::model::{NamedNode, Quad};
use serde::Serialize;

use super::args::{EnrichArgs, ModeArg};
use super::predict::{scope_for, selected};
use super::{kb_source, model_file, print_json};
use crate::KnowledgeBase;
use crate::enrich::endpoint::UpdateEndpoint;
use crate::enrich::{
    Enrichment, Mode, ModelIdentity, WriteReport, enrichment_quads, file, is_predicted_member,
    store,
};
use crate::learn::Prediction;
use crate::oracle::IndividualSet;

/// Individuals per oracle call (the progress bar moves per chunk).
const CHUNK: usize = 1000;
/// Triples shown by `--dry-run`.
const SAMPLE: usize = 10;

#[derive(Serialize)]
struct Summary {
    graph: String,
    target_class: String,
    model: String,
    mode: &'static str,
    dry_run: bool,
    individuals_in_scope: usize,
    predicted_members: usize,
    /// This run's triples (typings, predictions, provenance).
    triples: usize,
    /// What the write changed (absent for a dry run).
    #[serde(skip_serializing_if = "Option::is_none")]
    written: Option<WriteReport>,
    destination: String,
    /// Wall time in all, and of its two main steps.
    seconds: f64,
    seconds_predicting: f64,
    seconds_writing: f64,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    sample: Vec<String>,
}

pub fn run(args: EnrichArgs) -> anyhow::Result<()> {
    let started = Instant::now();
    model_file::refuse_multiclass(
        &args.model,
        "enrich",
        "types the predicted members of one class (--target-class), and the labels of a \
         multi-class model are names, not class IRIs",
    )?;
    let graph = NamedNode::new(&args.target_graph)
        .with_context(|| format!("--graph {}: expected an absolute IRI", args.target_graph))?;
    if let Some(t) = args.threshold
        && !t.is_finite()
    {
        bail!("--threshold must be a number, not {t}");
    }
    if args.out.is_none() && args.update_endpoint.is_none() && !args.dry_run {
        bail!(
            "say where to write: --out FILE (with --kb), --update-endpoint URL (with --endpoint), or --dry-run"
        );
    }
    let scope = scope_for(&args.kb, args.individuals.as_deref())?;
    let kb = kb_source::open_kb(&args.kb, None, scope)?;
    let (loaded, text) = model_file::load_with_text(&args.model, &kb)?;
    let identity = ModelIdentity::of(&text, &loaded, kb.vocabulary());
    let class = target_class(args.target_class.as_deref(), &identity)?;
    let individuals = selected(&kb, args.individuals.as_deref(), args.scope.as_deref())?;
    let predicting = Instant::now();
    let predictions = predict(&kb, loaded.model.as_ref(), &individuals)?;
    let seconds_predicting = predicting.elapsed().as_secs_f64();
    let members = predicted_members(&kb, predictions, args.threshold)?;
    let run = Enrichment {
        model: &identity,
        class: class.clone(),
        graph: graph.clone(),
        threshold: args.threshold,
        ended_at: args.record_time.then(now_xsd_datetime),
    };
    let scored = loaded.model.is_scored();
    let quads = enrichment_quads(&run, &members, scored);
    let mode = match args.mode {
        ModeArg::Replace => Mode::Replace,
        ModeArg::Append => Mode::Append,
    };
    let writing = Instant::now();
    let (destination, written) = if args.dry_run {
        (dry_run_destination(&args), None)
    } else {
        write(&args, &kb, &graph, &quads, mode)?
    };
    let summary = Summary {
        graph: graph.as_str().to_owned(),
        target_class: class.as_str().to_owned(),
        model: identity.fingerprint.clone(),
        mode: match mode {
            Mode::Replace => "replace",
            Mode::Append => "append",
        },
        dry_run: args.dry_run,
        individuals_in_scope: individuals.len(),
        predicted_members: members.len(),
        triples: quads.len(),
        written,
        destination,
        seconds: started.elapsed().as_secs_f64(),
        seconds_predicting,
        seconds_writing: writing.elapsed().as_secs_f64(),
        sample: if args.dry_run {
            quads
                .iter()
                .take(SAMPLE)
                .map(|q| format!("{q} ."))
                .collect()
        } else {
            Vec::new()
        },
    };
    print_summary(&summary, args.json)
}

/// `--target-class`, else the model's trained class, else a clear error.
fn target_class(given: Option<&str>, identity: &ModelIdentity) -> anyhow::Result<NamedNode> {
    if let Some(text) = given {
        return NamedNode::new(text)
            .with_context(|| format!("--target-class {text}: expected an absolute IRI"));
    }
    match identity.trained_class() {
        Some(class) => Ok(NamedNode::new_unchecked(class)),
        None => bail!(
            "the model was trained for problem {}, which is not a class IRI: pass \
             --target-class IRI",
            identity
                .problem
                .as_deref()
                .map_or("(unnamed)".to_owned(), |p| format!("{p:?}"))
        ),
    }
}

/// The model's predictions, asked a chunk at a time with a progress bar on long runs.
fn predict(
    kb: &KnowledgeBase,
    model: &dyn crate::learn::Model,
    individuals: &IndividualSet,
) -> anyhow::Result<Vec<Prediction>> {
    let ids: Vec<_> = individuals.iter().collect();
    let bar = progress_bar(ids.len(), "predicting");
    let mut out = Vec::with_capacity(ids.len());
    for chunk in ids.chunks(CHUNK) {
        let part = IndividualSet::from_ids(individuals.universe(), chunk.iter().copied());
        out.extend(model.predict_within(kb.oracle(), &part, individuals)?);
        bar.inc(chunk.len() as u64);
    }
    bar.finish_and_clear();
    Ok(out)
}

/// The predicted members with their IRIs.
fn predicted_members(
    kb: &KnowledgeBase,
    predictions: Vec<Prediction>,
    threshold: Option<f64>,
) -> anyhow::Result<Vec<(NamedNode, Prediction)>> {
    let sig = kb.signature();
    predictions
        .into_iter()
        .filter(|p| is_predicted_member(p, threshold))
        .map(|p| {
            let iri = sig
                .individual_iri(p.individual)
                .with_context(|| format!("individual {:?} has no IRI in the KB", p.individual))?;
            Ok((NamedNode::new_unchecked(iri.as_str()), p))
        })
        .collect()
}

/// Writes to the file or the endpoint; the destination and what changed.
fn write(
    args: &EnrichArgs,
    kb: &KnowledgeBase,
    graph: &NamedNode,
    quads: &[Quad],
    mode: Mode,
) -> anyhow::Result<(String, Option<WriteReport>)> {
    if let Some(out) = &args.out {
        // Refuse a bad file name before touching anything.
        file::dataset_format(out)?;
        let kb_store = kb
            .store()
            .context("--out needs the KB loaded from files (--kb)")?;
        let report = store::write_to_store(kb_store, graph, quads, mode, args.force)?;
        file::write_dataset_file(kb_store, out)?;
        return Ok((out.display().to_string(), Some(report)));
    }
    let (Some(url), Some(query)) = (&args.update_endpoint, &args.kb.endpoint) else {
        bail!("give --out FILE (with --kb) or --update-endpoint URL (with --endpoint)");
    };
    let mut endpoint = UpdateEndpoint::new(kb_source::http_options(&args.kb, query)?, url)?;
    endpoint.chunk = args.chunk_size.max(1);
    let bar = progress_bar(quads.len(), "writing");
    let report = endpoint.write(graph, quads, mode, args.force, &|done, _| {
        bar.set_position(done as u64)
    })?;
    bar.finish_and_clear();
    Ok((url.clone(), Some(report)))
}

fn dry_run_destination(args: &EnrichArgs) -> String {
    match (&args.out, &args.update_endpoint) {
        (Some(out), _) => out.display().to_string(),
        (None, Some(url)) => url.clone(),
        (None, None) => "(dry run)".into(),
    }
}

fn print_summary(s: &Summary, json: bool) -> anyhow::Result<()> {
    if json {
        return print_json(s);
    }
    let verb = if s.dry_run { "would write" } else { "wrote" };
    outln!(
        "{} individuals in scope, {} predicted members of <{}>",
        s.individuals_in_scope,
        s.predicted_members,
        s.target_class
    );
    match &s.written {
        Some(w) => outln!(
            "{verb} {} triples into <{}> at {} ({} added, {} removed, {} in the graph) in {:.2} s",
            s.triples,
            s.graph,
            s.destination,
            w.added,
            w.removed,
            w.in_graph,
            s.seconds
        ),
        None => outln!(
            "{verb} {} triples into <{}> at {} (mode {}); nothing was written",
            s.triples,
            s.graph,
            s.destination,
            s.mode
        ),
    }
    for line in &s.sample {
        outln!("  {line}");
    }
    Ok(())
}

/// A bar on stderr for runs of more than a chunk, when stderr is a terminal.
fn progress_bar(total: usize, what: &str) -> ProgressBar {
    if total <= CHUNK || !std::io::stderr().is_terminal() {
        return ProgressBar::hidden();
    }
    let bar = ProgressBar::new(total as u64);
    if let Ok(style) = ProgressStyle::with_template("{spinner} {elapsed} {msg} {pos}/{len}") {
        bar.set_style(style);
    }
    bar.set_message(what.to_owned());
    bar
}

/// Now as `xsd:dateTime` in UTC (`2026-12-03T10:04:05Z`).
fn now_xsd_datetime() -> String {
    let secs = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_secs())
        .unwrap_or(0);
    let (days, rest) = (secs / 86_400, secs % 86_400);
    let (y, m, d) = civil_from_days(days as i64);
    format!(
        "{y:04}-{m:02}-{d:02}T{:02}:{:02}:{:02}Z",
        rest / 3600,
        rest % 3600 / 60,
        rest % 60
    )
}

/// Days since 1970-01-01 to a proleptic Gregorian date (Howard Hinnant's algorithm).
fn civil_from_days(z: i64) -> (i64, u32, u32) {
    let z = z + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = (doy - (153 * mp + 2) / 5 + 1) as u32;
    let m = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
    let y = yoe + era * 400 + i64::from(m <= 2);
    (y, m, d)
}

#[cfg(test)]
mod tests {
    use super::civil_from_days;

    #[test]
    fn days_become_dates() {
        assert_eq!(civil_from_days(0), (1970, 1, 1));
        assert_eq!(civil_from_days(19_723), (2024, 1, 1));
        assert_eq!(civil_from_days(20_790), (2026, 12, 3));
        assert_eq!(civil_from_days(11_016), (2000, 2, 29));
    }
}

//! `oxilearn enrich`: a saved model's predictions written into one named graph, of a dataset
//! file (`--kb … --out`) or of a store behind a SPARQL Update endpoint (`--endpoint …
//! --update-endpoint`). See [`crate::enrich`] for what is written and how it stays atomic.

use std::time::Instant;

use anyhow::{Context, bail};
use oxigraph::model::NamedNode;
use serde::Serialize;

use super::args::EnrichArgs;
use super::{apply_scope, kb_source, model_file, print_json};
use crate::enrich::apply::{self, ApplyOptions};
use crate::enrich::build::{member_quads, provenance_quads};
use crate::enrich::endpoint::UpdateEndpoint;
use crate::enrich::refresh::{RefreshReport, refresh};
use crate::enrich::staged::{Staged, UpdateTarget};
use crate::enrich::store::StoreTarget;
use crate::enrich::{
    Enrichment, Mode, ModelIdentity, WriteReport, file, is_predicted_member, writes_scores,
};
use crate::learn::{Model, Prediction};
use crate::oracle::{MembershipOracle, Semantics};
use crate::{Candidates, KnowledgeBase, ScopeQuery};

/// Triples shown by `--dry-run`.
const SAMPLE: usize = 10;

#[derive(Serialize)]
struct Summary {
    graph: String,
    target_class: String,
    model: String,
    mode: &'static str,
    dry_run: bool,
    /// Individuals the model was asked about (`null` where the store evaluated the model
    /// itself and only its members were counted).
    individuals_in_scope: Option<usize>,
    predicted_members: usize,
    /// The crisp model was evaluated by the store (`INSERT … WHERE`), not page by page here.
    evaluated_in_store: bool,
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

/// What applying the model staged.
struct Staging {
    individuals: Option<usize>,
    members: usize,
    in_store: bool,
    /// This run's triples (known here for a dry run; counted by the store otherwise).
    triples: usize,
    sample: Vec<String>,
}

pub fn run(args: EnrichArgs) -> anyhow::Result<()> {
    let started = Instant::now();
    let graph = checked_destination(&args)?;
    let kb = apply_scope::open(&args.kb, &args.apply)?;
    let (loaded, text) = model_file::load_with_text(&args.model, &kb)?;
    let identity = ModelIdentity::of(&text, &loaded);
    let class = target_class(args.target_class.as_deref(), &identity)?;
    let model = loaded.model.as_ref();
    let candidates =
        apply_scope::candidates(&kb, &args.apply, args.kb.whole_kb, model, args.threshold)?;
    let run = Enrichment {
        model: &identity,
        class: class.clone(),
        graph: graph.clone(),
        threshold: args.threshold,
        ended_at: args.record_time.then(now_xsd_datetime),
    };
    let mode = args.mode;
    let cancel = super::learner::cancel_flag();
    let bar = apply_scope::progress_bar(
        apply_scope::estimated_total(&kb, &candidates),
        "applying the model",
    );
    let progress = |done: usize| bar.set_position(done as u64);
    let options = ApplyOptions {
        page_size: apply_scope::page_size(&args.kb, &args.apply),
        store_page_size: args.apply.store_page_size.max(1),
        deadline: apply_scope::deadline(&args.apply)?,
        cancel: Some(&cancel),
        progress: &progress,
    };
    kb.oracle().set_deadline(options.deadline);
    let target = target(&args, &kb)?;
    let applying = Applying {
        kb: &kb,
        model,
        run: &run,
        candidates: &candidates,
        options: &options,
    };
    if let Some(changed) = &args.changed_query {
        let report = applying.refresh(target.as_deref(), changed)?;
        bar.finish_and_clear();
        let destination = finish_destination(&args, &kb)?;
        return print_refresh(&args, &run, report, destination, started);
    }
    let predicting = Instant::now();
    let (staging, written) = applying.write(target.as_deref(), mode, &args)?;
    bar.finish_and_clear();
    let seconds_predicting = predicting.elapsed().as_secs_f64();
    let writing = Instant::now();
    let destination = finish_destination(&args, &kb)?;
    let summary = Summary {
        graph: graph.as_str().to_owned(),
        target_class: class.as_str().to_owned(),
        model: identity.fingerprint.clone(),
        mode: match mode {
            Mode::Replace => "replace",
            Mode::Append => "append",
        },
        dry_run: args.dry_run,
        individuals_in_scope: staging.individuals,
        predicted_members: staging.members,
        evaluated_in_store: staging.in_store,
        triples: written.map_or(staging.triples, |w| w.this_run),
        written,
        destination,
        seconds: started.elapsed().as_secs_f64(),
        seconds_predicting,
        seconds_writing: writing.elapsed().as_secs_f64(),
        sample: staging.sample,
    };
    print_summary(&summary, args.json)
}

/// The target graph, after refusing what cannot be written before anything is read: a
/// multi-class model, a graph or threshold that is not one, no destination, a bad file name.
fn checked_destination(args: &EnrichArgs) -> anyhow::Result<NamedNode> {
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
    if let Some(out) = &args.out {
        file::dataset_format(out)?;
    }
    Ok(graph)
}

/// One application of the model: what it is asked about, and how.
struct Applying<'a> {
    kb: &'a KnowledgeBase,
    model: &'a dyn Model,
    run: &'a Enrichment<'a>,
    candidates: &'a Candidates,
    options: &'a ApplyOptions<'a>,
}

impl Applying<'_> {
    /// Stages the run's triples at `target` and puts them onto the graph (`None`: a dry
    /// run, counted only).
    fn write(
        &self,
        target: Option<&dyn UpdateTarget>,
        mode: Mode,
        args: &EnrichArgs,
    ) -> anyhow::Result<(Staging, Option<WriteReport>)> {
        let (kb, model, run) = (self.kb, self.model, self.run);
        let (candidates, options) = (self.candidates, self.options);
        let Some(target) = target else {
            return Ok((dry_run(kb, model, candidates, run, options)?, None));
        };
        let mut staged = Staged::begin(target, &run.graph, mode, args.force, args.chunk_size)?;
        let staging = stage(kb, model, candidates, run, options, &mut staged, args)?;
        // Last: on a store whose default graph shows every graph, the run's own resources
        // stay out of what the pages read.
        staged.insert(&provenance_quads(run))?;
        let report = staged.finish()?;
        Ok((staging, Some(report)))
    }

    /// Lists the changed individuals (`changed`: a query or @FILE) and patches the graph.
    fn refresh(
        &self,
        target: Option<&dyn UpdateTarget>,
        changed: &str,
    ) -> anyhow::Result<RefreshReport> {
        let query = ScopeQuery::from_argument(changed).context("--changed-query")?;
        let mut iris = Vec::new();
        for page in self
            .kb
            .candidate_pages(&Candidates::Query(query), self.options.page_size)?
        {
            iris.extend(page?);
        }
        Ok(refresh(
            self.kb,
            self.model,
            target,
            self.run,
            self.candidates,
            &iris,
            self.options,
        )?)
    }
}

#[derive(Serialize)]
struct RefreshSummary {
    graph: String,
    target_class: String,
    model: String,
    dry_run: bool,
    #[serde(flatten)]
    refreshed: RefreshReport,
    destination: String,
    seconds: f64,
}

fn print_refresh(
    args: &EnrichArgs,
    run: &Enrichment<'_>,
    refreshed: RefreshReport,
    destination: String,
    started: Instant,
) -> anyhow::Result<()> {
    let s = RefreshSummary {
        graph: run.graph.as_str().to_owned(),
        target_class: run.class.as_str().to_owned(),
        model: run.model.fingerprint.clone(),
        dry_run: args.dry_run,
        refreshed,
        destination,
        seconds: started.elapsed().as_secs_f64(),
    };
    if args.json {
        return print_json(&s);
    }
    let r = &s.refreshed;
    outln!(
        "{} changed individuals, {} within {} role steps of a change, {} in scope: {} \
         predicted members of <{}> among them",
        r.changed,
        r.affected,
        r.depth,
        r.in_scope,
        r.members,
        s.target_class
    );
    match (r.gained, r.lost) {
        (Some(gained), Some(lost)) => outln!(
            "patched <{}> at {}: {gained} members gained, {lost} lost, in {:.2} s",
            s.graph,
            s.destination,
            s.seconds
        ),
        _ => outln!("nothing was written (dry run)"),
    }
    Ok(())
}

/// Writes the dataset file of `--out` (the store holds the new graph by now); the
/// destination's name.
fn finish_destination(args: &EnrichArgs, kb: &KnowledgeBase) -> anyhow::Result<String> {
    Ok(match (&args.out, &args.update_endpoint) {
        (Some(out), _) if !args.dry_run => {
            let store = kb
                .store()
                .context("--out needs the KB loaded from files (--kb)")?;
            file::write_dataset_file(store, out)?;
            out.display().to_string()
        }
        (Some(out), _) => out.display().to_string(),
        (None, Some(url)) => url.clone(),
        (None, None) => "(dry run)".into(),
    })
}

/// Where the triples go: the in-memory store of `--kb` (then the file), the update
/// endpoint, or nowhere (a dry run).
fn target(args: &EnrichArgs, kb: &KnowledgeBase) -> anyhow::Result<Option<Box<dyn UpdateTarget>>> {
    if args.dry_run {
        return Ok(None);
    }
    if args.out.is_some() {
        let store = kb
            .store()
            .context("--out needs the KB loaded from files (--kb)")?;
        return Ok(Some(Box::new(StoreTarget(store.clone()))));
    }
    let (Some(url), Some(query)) = (&args.update_endpoint, &args.kb.endpoint) else {
        bail!("give --out FILE (with --kb) or --update-endpoint URL (with --endpoint)");
    };
    let mut endpoint = UpdateEndpoint::new(kb_source::http_options(&args.kb, query)?, url)?;
    endpoint.chunk = args.chunk_size.max(1);
    if let Some(path) = &args.kb.log_queries {
        endpoint.log_to(path)?;
    }
    Ok(Some(Box::new(endpoint)))
}

/// Stages the members: a crisp closed-world concept at an endpoint is evaluated by the
/// store itself; everything else page by page here.
fn stage(
    kb: &KnowledgeBase,
    model: &dyn Model,
    candidates: &Candidates,
    run: &Enrichment<'_>,
    options: &ApplyOptions<'_>,
    staged: &mut Staged<'_>,
    args: &EnrichArgs,
) -> anyhow::Result<Staging> {
    let in_store = model.concept().filter(|c| {
        run.threshold.is_none()
            && model.semantics() == Semantics::Closed
            && args.update_endpoint.is_some()
            && !matches!(candidates, Candidates::Listed(_))
            && apply::can_stage_in_store(kb, c)
    });
    if let Some(concept) = in_store {
        apply::stage_in_store(kb, staged, concept, candidates, &run.class, options)?;
        return Ok(Staging {
            individuals: None,
            members: staged.typed(&run.class)?,
            in_store: true,
            triples: 0,
            sample: Vec::new(),
        });
    }
    let scored = writes_scores(model, run.threshold);
    let mut members = 0;
    let individuals = apply::apply_paged(kb, model, candidates, options, &mut |page| {
        let chosen = chosen(page, run.threshold);
        members += chosen.len();
        staged.insert(&member_quads(run, &chosen, scored))
    })?;
    Ok(Staging {
        individuals: Some(individuals),
        members,
        in_store: false,
        triples: 0,
        sample: Vec::new(),
    })
}

/// Counts what a run would write, keeping the first triples as a sample.
fn dry_run(
    kb: &KnowledgeBase,
    model: &dyn Model,
    candidates: &Candidates,
    run: &Enrichment<'_>,
    options: &ApplyOptions<'_>,
) -> anyhow::Result<Staging> {
    let scored = writes_scores(model, run.threshold);
    let provenance = provenance_quads(run);
    let mut sample: Vec<String> = provenance
        .iter()
        .take(SAMPLE)
        .map(|q| format!("{q} ."))
        .collect();
    let (mut members, mut triples) = (0, provenance.len());
    let individuals = apply::apply_paged(kb, model, candidates, options, &mut |page| {
        let chosen = chosen(page, run.threshold);
        members += chosen.len();
        let quads = member_quads(run, &chosen, scored);
        triples += quads.len();
        let room = SAMPLE.saturating_sub(sample.len());
        sample.extend(quads.iter().take(room).map(|q| format!("{q} .")));
        Ok(())
    })?;
    Ok(Staging {
        individuals: Some(individuals),
        members,
        in_store: false,
        triples,
        sample,
    })
}

/// The predicted members of a page.
fn chosen(
    page: Vec<(NamedNode, Prediction)>,
    threshold: Option<f64>,
) -> Vec<(NamedNode, Prediction)> {
    page.into_iter()
        .filter(|(_, p)| is_predicted_member(p, threshold))
        .collect()
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

fn print_summary(s: &Summary, json: bool) -> anyhow::Result<()> {
    if json {
        return print_json(s);
    }
    let verb = if s.dry_run { "would write" } else { "wrote" };
    match s.individuals_in_scope {
        Some(n) => outln!(
            "{n} individuals in scope, {} predicted members of <{}>",
            s.predicted_members,
            s.target_class
        ),
        None => outln!(
            "{} members of <{}> (the store evaluated the model)",
            s.predicted_members,
            s.target_class
        ),
    }
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

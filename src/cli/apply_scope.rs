//! What `predict` and `enrich` share: opening the KB without reading its individuals, the
//! individuals the flags name (or the model's own support), the page size an endpoint
//! allows, the time budget, and a progress bar in individuals per second.

use std::io::IsTerminal;
use std::path::Path;
use std::time::{Duration, Instant};

use anyhow::{Context, bail};
use indicatif::{ProgressBar, ProgressStyle};

use super::kb_source;
use super::options::{ApplyArgs, KbArgs};
use super::problems::load_selected;
use crate::concept::Iri;
use crate::learn::Model;
use crate::oracle::IndividualScope;
use crate::{Candidates, KnowledgeBase, ScopeQuery};

/// Opens the KB for applying a model: with `--individuals`, their neighbourhood (as a
/// learning run over them would); otherwise the schema alone, since the store lists the
/// individuals itself, a page at a time.
pub fn open(kb: &KbArgs, apply: &ApplyArgs) -> anyhow::Result<KnowledgeBase> {
    let scope = match &apply.individuals {
        Some(path) => kb_source::learning_scope(kb, &load_selected(path, &[])?, false),
        None => IndividualScope::Schema,
    };
    kb_source::open_kb(kb, None, scope)
}

/// The individuals the flags name; without one, the model's support at `threshold`, or a
/// refusal naming the flags that would do.
pub fn candidates(
    kb: &KnowledgeBase,
    apply: &ApplyArgs,
    whole_kb: bool,
    model: &dyn Model,
    threshold: Option<f64>,
) -> anyhow::Result<Candidates> {
    if let Some(path) = &apply.individuals {
        return examples(kb, path);
    }
    if let Some(text) = &apply.scope {
        return Ok(Candidates::Instances(
            kb.parse_concept(text)
                .with_context(|| format!("--scope {text}"))?,
        ));
    }
    if let Some(text) = &apply.scope_query {
        return Ok(Candidates::Query(ScopeQuery::from_argument(text)?));
    }
    if whole_kb {
        return Ok(Candidates::WholeKb);
    }
    match model.support(threshold) {
        Some(support) => Ok(Candidates::Instances(support)),
        None => bail!(
            "this {} model may predict individuals the KB says nothing about, so it has no \
             support to list: say which individuals to ask about with --scope EXPR (e.g. \
             --scope Compound), --scope-query 'SELECT ?x WHERE {{ … }}', --individuals \
             LPFILE, or --whole-kb to scan every individual of the KB",
            model.algorithm()
        ),
    }
}

/// The examples of the problems in `path`, each checked to be an individual of the KB.
fn examples(kb: &KnowledgeBase, path: &Path) -> anyhow::Result<Candidates> {
    let mut iris: Vec<Iri> = Vec::new();
    for p in &load_selected(path, &[])? {
        let (pos, neg) = kb.example_sets(p)?;
        iris.extend(kb.iris(&pos).cloned());
        iris.extend(kb.iris(&neg).cloned());
    }
    Ok(Candidates::Listed(iris))
}

/// `--page-size`, kept below an endpoint's row cap (a page of exactly the cap would look
/// truncated).
pub fn page_size(kb: &KbArgs, apply: &ApplyArgs) -> usize {
    let size = apply.page_size.max(1);
    if kb.endpoint.is_some() {
        size.min(kb.max_rows.saturating_sub(1).max(1))
    } else {
        size
    }
}

/// The deadline of `--max-runtime` (0: none).
pub fn deadline(apply: &ApplyArgs) -> anyhow::Result<Option<Instant>> {
    let secs = apply.max_runtime;
    if !secs.is_finite() || secs < 0.0 {
        bail!("--max-runtime must be a number of seconds ≥ 0, not {secs}");
    }
    Ok((secs > 0.0).then(|| Instant::now() + Duration::from_secs_f64(secs)))
}

/// A bar on stderr (a terminal only) counting candidates, with their rate and, when the
/// store could count them, an ETA; `total` is an upper bound (before membership checks).
pub fn progress_bar(total: Option<u64>, what: &str) -> ProgressBar {
    if super::progress::is_quiet() || !std::io::stderr().is_terminal() {
        return ProgressBar::hidden();
    }
    let (bar, template) = match total {
        Some(n) => (
            ProgressBar::new(n),
            "{spinner} {elapsed} {msg} {pos}/~{len} ({per_sec}, ETA {eta})",
        ),
        None => (
            ProgressBar::new_spinner(),
            "{spinner} {elapsed} {msg} {pos} ({per_sec})",
        ),
    };
    if let Ok(style) = ProgressStyle::with_template(template) {
        bar.set_style(style);
    }
    bar.set_message(what.to_owned());
    bar.enable_steady_tick(Duration::from_millis(200));
    bar
}

/// The candidates' count for the bar, when it matters (a terminal) and the store answers.
pub fn estimated_total(kb: &KnowledgeBase, candidates: &Candidates) -> Option<u64> {
    if !std::io::stderr().is_terminal() {
        return None;
    }
    kb.count_candidates(candidates).ok()
}

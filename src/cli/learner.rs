//! The one pipeline behind `learn`, `cv` and `bench learn`: pick the learner from the
//! registry (refusing flags it cannot use), open the KB (timing load and signature), check
//! every problem's examples before running any, build the operator once, and run the
//! learner under a [`RunControl`] built from the shared flags (budgets, Ctrl-C, progress).
//! It also holds the JSON shapes those commands share.

use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, OnceLock};
use std::time::{Duration, Instant};

use anyhow::{Context, bail};
use serde::Serialize;

use super::kb_source;
use super::learners::LearnArgs;
use super::learners::{LearnerEntry, entry_for};
use super::options::KbArgs;
use super::progress::SearchProgress;
use crate::KnowledgeBase;
use crate::concept::length;
use crate::learn::{Examples, FitResult, RunControl, RunStats, Solution, TrainingSet};
use crate::oracle::IndividualScope;
use crate::problem::LearningProblem;
use crate::refine::rho::Rho;

/// An opened KB with the learner's entry and operator, ready to run problems.
pub struct Prepared {
    pub kb: KnowledgeBase,
    pub entry: &'static LearnerEntry,
    pub rho: Rho,
    pub load_ms: u64,
    pub signature_ms: u64,
    /// Setup time (signature, split points) not yet charged to a run's `--max-runtime`:
    /// the first run pays it, so that a one-problem `learn --max-runtime 20` ends by about
    /// 20 s after the KB is loaded, not 20 s after a signature that may take seconds.
    unpaid_setup_ms: AtomicU64,
}

fn ms(d: Duration) -> u64 {
    u64::try_from(d.as_millis()).unwrap_or(u64::MAX)
}

/// Opens the KB over `scope`, timing the load and the signature separately where they are
/// separate (files; an endpoint's open is all signature).
pub fn open_timed(
    kb: &KbArgs,
    fallback: Option<PathBuf>,
    scope: IndividualScope,
) -> anyhow::Result<(KnowledgeBase, u64, u64)> {
    if kb.endpoint.is_some() {
        let t = Instant::now();
        let opened = kb_source::open_kb(kb, fallback, scope)?;
        return Ok((opened, 0, ms(t.elapsed())));
    }
    let files = kb_source::kb_files(kb, fallback);
    let t = Instant::now();
    let (store, reports) = kb_source::load_files(&files, kb.format.as_deref())?;
    let load_ms = ms(t.elapsed());
    let t = Instant::now();
    let opened = kb_source::open_loaded(store, reports, kb, scope)?;
    Ok((opened, load_ms, ms(t.elapsed())))
}

/// Everything a learner command does before its first run. `kb` overrides the arguments'
/// KB (`bench learn --compare`).
pub fn prepare(
    args: &LearnArgs,
    problems: &[LearningProblem],
    kb: Option<&KbArgs>,
) -> anyhow::Result<Prepared> {
    prepare_on(args, problems, kb, None)
}

/// [`prepare`] over a store that is already loaded (`serve`'s), with the arguments'
/// scope and oracle options.
pub fn prepare_over_store(
    args: &LearnArgs,
    problems: &[LearningProblem],
    store: oxigraph::store::Store,
) -> anyhow::Result<Prepared> {
    prepare_on(args, problems, None, Some(store))
}

fn prepare_on(
    args: &LearnArgs,
    problems: &[LearningProblem],
    kb: Option<&KbArgs>,
    store: Option<oxigraph::store::Store>,
) -> anyhow::Result<Prepared> {
    let entry = entry_for(args)?;
    check_budgets(args)?;
    let fallback = problems.iter().find_map(|p| p.kb_file.clone());
    let operator = (entry.operator)(args);
    let (kb, fallback) = match kb {
        Some(kb) => (kb, None),
        None => (&args.kb, fallback),
    };
    let scope = kb_source::learning_scope(kb, problems, operator.use_inverse);
    let (kb, load_ms, signature_ms) = match store {
        // `serve`: the store is loaded already; opening reads the run's signature only.
        Some(store) => {
            let t = Instant::now();
            let opened = kb_source::open_loaded(store, Vec::new(), kb, scope)?;
            (opened, 0, ms(t.elapsed()))
        }
        None => open_timed(kb, fallback, scope)?,
    };
    let t = Instant::now();
    let use_has_value = operator.use_has_value;
    // Every problem's examples, without labels: one operator serves every fold.
    let seeds = example_seeds(&kb, problems);
    let mut rho = kb
        .rho_for(operator, &seeds)
        .context("reading the numeric values of the data properties")?;
    if use_has_value {
        rho = rho.with_has_value_candidates(
            crate::learn::has_value::has_value_candidates(
                kb.oracle(),
                &seeds,
                args.values.frequency_threshold,
            )
            .context("listing the examples' successors for --has-value")?,
        );
    }
    let signature_ms = signature_ms + ms(t.elapsed());
    Ok(Prepared {
        kb,
        entry,
        rho,
        load_ms,
        signature_ms,
        unpaid_setup_ms: AtomicU64::new(signature_ms),
    })
}

/// Every problem's examples, without their labels.
fn example_seeds(
    kb: &crate::KnowledgeBase,
    problems: &[LearningProblem],
) -> crate::oracle::IndividualSet {
    let sig = kb.signature();
    let mut seeds = sig.empty_set();
    for p in problems {
        let iris = p.positives.iter().chain(&p.negatives);
        for id in iris.filter_map(|iri| sig.individual_id(iri)) {
            seeds.insert(id);
        }
    }
    seeds
}

impl Prepared {
    /// `budget` less the setup time no earlier run has paid (at most once per command), but
    /// never less than a quarter of it: a slow endpoint's signature must not leave the
    /// search no time at all (the run then overruns by what the setup took past 3/4).
    fn budget_after_setup(&self, budget: Option<Duration>) -> Option<Duration> {
        let unpaid = Duration::from_millis(self.unpaid_setup_ms.swap(0, Ordering::Relaxed));
        budget.map(|b| b.saturating_sub(unpaid).max(b / 4))
    }
}

fn check_budgets(args: &LearnArgs) -> anyhow::Result<()> {
    max_runtime(args).map(|_| ())
}

/// `secs` seconds as a [`Duration`], or an error naming `flag` when it is negative, not a
/// number, or too large to represent (`Duration::from_secs_f64` would panic on those).
pub fn secs_flag(flag: &str, secs: f64) -> anyhow::Result<Duration> {
    Duration::try_from_secs_f64(secs).map_err(|e| {
        anyhow::anyhow!("{flag} must be a representable number of seconds, not {secs} ({e})")
    })
}

/// The `--max-runtime` budget (0 = no limit), refused when it is negative, not finite or
/// too large to represent.
pub fn max_runtime(args: &LearnArgs) -> anyhow::Result<Option<Duration>> {
    let r = args.search.max_runtime;
    if !(r.is_finite() && r >= 0.0) {
        bail!("--max-runtime must be a non-negative number of seconds (0 = no limit), not {r}");
    }
    if r == 0.0 {
        return Ok(None);
    }
    secs_flag("--max-runtime", r).map(Some)
}

/// Every problem's examples, checked before any run; all problems that are wrong are
/// reported at once.
pub fn checked_examples(
    kb: &KnowledgeBase,
    problems: &[LearningProblem],
) -> anyhow::Result<Vec<Examples>> {
    let mut out = Vec::new();
    let mut errors = Vec::new();
    for p in problems {
        match kb.examples(p) {
            Ok(e) => out.push(e),
            Err(e) => errors.push(format!("{:#}", anyhow::Error::from(e))),
        }
    }
    // One problem: its reason is the message's first line.
    if let [only] = errors.as_slice()
        && problems.len() == 1
    {
        bail!("{only}");
    }
    if !errors.is_empty() {
        bail!(
            "{} of {} problems cannot be run:\n  {}",
            errors.len(),
            problems.len(),
            errors.join("\n  ")
        );
    }
    Ok(out)
}

/// The process-wide cancellation flag, set by Ctrl-C (installed on first use). A second
/// Ctrl-C exits at once.
pub fn cancel_flag() -> Arc<AtomicBool> {
    static FLAG: OnceLock<Arc<AtomicBool>> = OnceLock::new();
    FLAG.get_or_init(|| {
        let flag = Arc::new(AtomicBool::new(false));
        let handler_flag = flag.clone();
        // Failing to install (e.g. a handler already exists) only loses Ctrl-C handling.
        let _ = ctrlc::set_handler(move || {
            if handler_flag.swap(true, Ordering::SeqCst) {
                std::process::exit(130);
            }
            eprintln!(
                "\ninterrupted: stopping and reporting the best so far (Ctrl-C again to quit)"
            );
        });
        flag
    })
    .clone()
}

/// Whether Ctrl-C was pressed (later problems are then not started).
pub fn cancelled() -> bool {
    cancel_flag().load(Ordering::Relaxed)
}

/// The run's control from the shared flags: the checked `--max-runtime` ([`max_runtime`]),
/// `--max-tests`, Ctrl-C, and a progress line.
pub fn control(
    args: &LearnArgs,
    max_runtime: Option<Duration>,
    progress: &Arc<SearchProgress>,
) -> RunControl {
    let p = progress.clone();
    RunControl {
        max_runtime,
        max_tests: args.search.max_tests,
        max_queries: None,
        cancel: Some(cancel_flag()),
        progress: None,
    }
    .with_progress(move |x| p.update(x))
}

/// One run of the prepared learner on `examples` (asking the oracle over `context` when
/// given), with the command's load and signature timings in its stats.
pub fn fit(
    prep: &Prepared,
    args: &LearnArgs,
    examples: &Examples,
    context: Option<&Examples>,
    label: &str,
) -> anyhow::Result<FitResult> {
    let mut training = TrainingSet::from_examples(examples.clone());
    if let Some(c) = context {
        training = training.with_context(c.all().clone());
    }
    fit_training(prep, args, training, label)
}

/// [`fit`] on `problem`'s graded examples when it has some and the learner takes them
/// (`owl-boost`, `wfoil-dl`); on its binary examples otherwise.
pub fn fit_problem(
    prep: &Prepared,
    args: &LearnArgs,
    problem: &LearningProblem,
    examples: &Examples,
    label: &str,
) -> anyhow::Result<FitResult> {
    if problem.degrees.is_empty()
        || !super::learners::boost::TAKES_GRADED.contains(&prep.entry.name)
    {
        return fit(prep, args, examples, None, label);
    }
    let training = super::learners::boost::graded_training(&prep.kb, problem, examples)?;
    fit_training(prep, args, training, label)
}

/// One run of the prepared learner on `training` (any kind the learner takes).
pub fn fit_training(
    prep: &Prepared,
    args: &LearnArgs,
    training: TrainingSet,
    label: &str,
) -> anyhow::Result<FitResult> {
    let learner = (prep.entry.build)(args, &prep.kb, &prep.rho)?;
    let progress = Arc::new(SearchProgress::new(label, args.quiet));
    let run = learner.fit(
        prep.kb.oracle(),
        &training,
        &control(args, prep.budget_after_setup(max_runtime(args)?), &progress),
    );
    progress.finish();
    let mut run = run.with_context(|| format!("learning {label}"))?;
    run.stats.load_ms = prep.load_ms;
    run.stats.signature_ms = prep.signature_ms;
    if let Some(series) = progress.series_json() {
        run.stats.details.insert("progress".into(), series);
    }
    Ok(run)
}

/// A solution as printed in JSON (names are stable).
#[derive(Serialize)]
pub struct SolutionJson {
    pub manchester: String,
    pub dl: String,
    pub length: usize,
    pub tp: usize,
    pub fp: usize,
    pub tn: usize,
    #[serde(rename = "fn")]
    pub fn_: usize,
    pub f1: f64,
    pub accuracy: f64,
}

impl SolutionJson {
    pub fn of(kb: &KnowledgeBase, s: &Solution) -> Self {
        let c = s.confusion;
        SolutionJson {
            manchester: kb.manchester(&s.concept),
            dl: kb.dl(&s.concept),
            length: length(&s.concept),
            tp: c.tp,
            fp: c.fp,
            tn: c.tn,
            fn_: c.fn_,
            f1: c.f1(),
            accuracy: c.accuracy(),
        }
    }
}

/// The statistics line of the text output (a rate only when the time is measurable).
pub fn stats_line(stats: &RunStats) -> String {
    let lookups = stats.cache_hits + stats.cache_misses;
    let hit_rate = if lookups == 0 {
        0.0
    } else {
        100.0 * stats.cache_hits as f64 / lookups as f64
    };
    let rate = stats
        .tests_per_second()
        .map_or_else(String::new, |r| format!(" ({r:.0}/s)"));
    let nodes = stats
        .detail_u64("nodes")
        .map_or_else(String::new, |n| format!(", {n} search-tree nodes"));
    let time = if stats.elapsed_ms == 0 {
        "under 1 ms".to_owned()
    } else {
        format!("{} ms", stats.elapsed_ms)
    };
    format!(
        "{} concepts tested{rate}, {} queries sent, cache hit rate {:.1}%, {time}{nodes}, \
         termination: {}",
        stats.concepts_tested,
        stats.queries_sent,
        hit_rate,
        stats.termination.name()
    )
}

//! Turning the command line into a learner run: parameters, the refinement operator (with
//! numeric split points from the training examples), the run itself, and the JSON shapes
//! every learner command shares.

use std::time::Duration;

use anyhow::{Context, bail};
use serde::Serialize;

use super::args::{LearnArgs, QualityArg, RhoArgs};
use super::kb_source::Session;
use super::progress::SearchProgress;
use crate::concept::{Concept, length};
use crate::learn::celoe::{Celoe, CeloeParams, CeloeRun};
use crate::learn::search::{Budget, OeHeuristic};
use crate::learn::{Examples, QualityMeasure, RunStats, Solution, splits};
use crate::refine::rho::{Rho, RhoOptions};

pub fn quality_of(q: QualityArg) -> QualityMeasure {
    match q {
        QualityArg::F1 => QualityMeasure::F1,
        QualityArg::Accuracy => QualityMeasure::Accuracy,
    }
}

pub fn rho_options(a: &RhoArgs) -> RhoOptions {
    RhoOptions {
        use_negation: !a.no_negation,
        use_all: !a.no_all,
        use_exists: !a.no_exists,
        use_cardinality: !a.no_cardinality,
        cardinality_limit: a.cardinality_limit,
        use_boolean_data: !a.no_booleans,
        use_numeric_data: !a.no_numbers,
        max_numeric_splits: a.numeric_splits,
        use_inverse: a.inverse,
        use_self: a.has_self,
        use_disjunction: !a.no_disjunction,
        ..RhoOptions::default()
    }
}

/// CELOE's parameters from the command line.
pub fn celoe_params(args: &LearnArgs, session: &Session) -> anyhow::Result<CeloeParams> {
    let s = &args.search;
    if !(s.max_runtime.is_finite() && s.max_runtime >= 0.0) {
        bail!(
            "--max-runtime must be a non-negative number of seconds, not {}",
            s.max_runtime
        );
    }
    let start = match &s.start_class {
        Some(text) => session.parse_concept(text)?,
        None => Concept::Top,
    };
    let params = CeloeParams {
        quality: quality_of(s.quality),
        noise_percentage: s.noise,
        max_depth: s.max_depth,
        max_length: s.max_length,
        max_results: s.max_results,
        start,
        budget: Budget {
            max_runtime: (s.max_runtime > 0.0).then(|| Duration::from_secs_f64(s.max_runtime)),
            max_tests: s.max_tests,
            cancel: None,
        },
        heuristic: OeHeuristic {
            start_node_bonus: s.start_bonus,
            gain_bonus_factor: s.gain_bonus,
            expansion_penalty_factor: s.expansion_penalty,
            node_refinement_penalty: s.refinement_penalty,
        },
        stop_on_perfect: !s.keep_searching,
        minimize: !s.no_minimize,
        semantics: args.semantics.into(),
        ..CeloeParams::default()
    };
    params
        .validate()
        .context("invalid learner parameters (see --help)")?;
    Ok(params)
}

/// The operator over the session's signature, with split points from the KB's values
/// (built once per command: it does not depend on the examples).
pub fn build_rho(session: &Session, args: &RhoArgs) -> anyhow::Result<Rho> {
    splits::rho_over_kb(&session.oracle, session.signature(), rho_options(args))
        .context("reading the numeric values of the data properties")
}

/// One CELOE run on `examples`, with a progress line labelled `label`.
pub fn run_celoe(
    session: &Session,
    args: &LearnArgs,
    rho: &Rho,
    examples: &Examples,
    label: &str,
) -> anyhow::Result<CeloeRun> {
    let params = celoe_params(args, session)?;
    let celoe = Celoe::new(params, rho)?;
    let progress = SearchProgress::new(label, args.quiet);
    let run = celoe.fit_with_progress(&session.oracle, examples, &|p| progress.update(p));
    progress.finish();
    Ok(run?)
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
    pub fn of(session: &Session, s: &Solution) -> Self {
        let c = s.confusion;
        SolutionJson {
            manchester: session.manchester(&s.concept),
            dl: session.dl(&s.concept),
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

/// The statistics line of the text output.
pub fn stats_line(stats: &RunStats) -> String {
    let lookups = stats.cache_hits + stats.cache_misses;
    let hit_rate = if lookups == 0 {
        0.0
    } else {
        100.0 * stats.cache_hits as f64 / lookups as f64
    };
    format!(
        "{} concepts tested ({:.0}/s), {} queries sent, cache hit rate {:.1}%, {} ms, \
         {} search-tree nodes, termination: {}",
        stats.concepts_tested,
        stats.tests_per_second(),
        stats.queries_sent,
        hit_rate,
        stats.elapsed_ms,
        stats.nodes,
        stats.termination.name()
    )
}

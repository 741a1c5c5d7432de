//! `oxilearn learn`: one run of the chosen learner per problem; the best expressions with
//! their counts and the run's statistics, as text or as one JSON document (an array over
//! problems). `--save-model` writes the fitted model as a versioned JSON document.

use anyhow::{Context, bail};
use serde::Serialize;

use super::describe_class;
use super::held_out;
use super::learner::{
    Prepared, SolutionJson, cancelled, checked_examples, fit_problem, prepare, stats_line,
};
use super::learners::LearnArgs;
use super::print_json;
use crate::learn::{Examples, FitResult, QualityMeasure, RunStats, document};
use crate::oracle::Semantics;
use crate::problem::LearningProblem;

/// The documented JSON shape of one problem's run: the common fields, then the learner's
/// own (flattened).
#[derive(Serialize)]
pub struct LearnJson {
    pub problem: String,
    pub algorithm: &'static str,
    pub quality: QualityMeasure,
    pub semantics: Semantics,
    pub positives: usize,
    pub negatives: usize,
    /// Best first.
    pub solutions: Vec<SolutionJson>,
    pub stats: RunStats,
    /// The model's errors on the training examples (for the report's lists).
    pub errors: ErrorsJson,
    /// Version, command line, KB, backend, signature size and budget (the report's summary).
    pub run: super::report::run_info::RunInfo,
    /// `--test`: the fitted model on the held-out examples.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub test: Option<super::held_out::TestJson>,
    #[serde(flatten)]
    pub extras: serde_json::Map<String, serde_json::Value>,
    /// For the text output only.
    #[serde(skip)]
    pub description: Option<String>,
}

/// The training examples the model gets wrong, full IRIs in the KB's order.
#[derive(Serialize, Default)]
pub struct ErrorsJson {
    pub missed_positives: Vec<String>,
    pub covered_negatives: Vec<String>,
}

impl ErrorsJson {
    fn of(kb: &crate::KnowledgeBase, run: &FitResult, examples: &Examples) -> anyhow::Result<Self> {
        let all = examples.all();
        let predictions = run
            .model
            .predict_within(kb.oracle(), all, all)
            .context("predicting the training examples for the error lists")?;
        let mut out = ErrorsJson::default();
        let sig = kb.signature();
        for p in predictions {
            let positive = examples.positives().contains(p.individual);
            let list = match (positive, p.member) {
                (true, false) => &mut out.missed_positives,
                (false, true) => &mut out.covered_negatives,
                _ => continue,
            };
            if let Some(iri) = sig.individual_iri(p.individual) {
                list.push(iri.as_str().to_owned());
            }
        }
        Ok(out)
    }
}

pub(super) fn learn_one(
    prep: &Prepared,
    args: &LearnArgs,
    p: &LearningProblem,
    examples: &Examples,
) -> anyhow::Result<(LearnJson, FitResult)> {
    let run = fit_problem(prep, args, p, examples, &p.name)?;
    let kb = &prep.kb;
    let mut extras = (prep.entry.extras)(kb, &run, examples, false)?;
    if let Some(bins) = super::report::curves::calibration_of_predictions(&extras) {
        extras.insert("calibration".into(), serde_json::to_value(bins)?);
    }
    let json = LearnJson {
        problem: p.name.clone(),
        algorithm: prep.entry.name,
        quality: run.quality,
        semantics: run.semantics,
        positives: examples.positives().len(),
        negatives: examples.negatives().len(),
        solutions: run
            .solutions
            .iter()
            .map(|s| SolutionJson::of(kb, s))
            .collect(),
        stats: run.stats.clone(),
        errors: ErrorsJson::of(kb, &run, examples)?,
        run: super::report::run_info::RunInfo::of(&args.kb, kb, args),
        test: None,
        extras,
        description: run
            .model
            .concept()
            .is_none()
            .then(|| run.model.describe(kb.vocabulary())),
    };
    Ok((json, run))
}

pub fn run(mut args: LearnArgs) -> anyhow::Result<()> {
    // Multi-class problems (by the problems file, or the rule learner's) are not
    // positive/negative ones: their own pipeline, for every learner that fits them.
    if super::multiclass_run::wanted(&args) {
        return super::multiclass_run::learn(args);
    }
    let mut problems = describe_class::load(&args)?;
    super::conf_defaults::apply(&mut args, &problems);
    let drawn = describe_class::draw(&args, &mut problems)?;
    if args.save_model.is_some() && problems.len() != 1 {
        bail!(
            "--save-model saves one model: select one of the {} problems with --problem",
            problems.len()
        );
    }
    let tests = match &args.test_file {
        Some(path) => held_out::test_problems(path, args.label_column.as_deref(), &problems)?,
        None => Vec::new(),
    };
    // The test examples are read with the training ones (one scope, one cache).
    let scope: Vec<LearningProblem> = problems.iter().chain(&tests).cloned().collect();
    let mut prep = prepare(&args, &scope, None)?;
    drawn.hide(&mut prep);
    let examples = checked_examples(&prep.kb, &problems)?;
    let test_examples = checked_examples(&prep.kb, &tests)?;
    let mut results = Vec::new();
    for (i, (p, ex)) in problems.iter().zip(&examples).enumerate() {
        if cancelled() {
            break;
        }
        let (mut r, run) = learn_one(&prep, &args, p, ex)?;
        drawn.annotate(&mut r);
        if let Some(t) = test_examples.get(i) {
            r.test = Some(
                held_out::score(&prep.kb, run.model.as_ref(), t, ex)
                    .with_context(|| format!("scoring {} on {}", p.name, t_name(&args)))?,
            );
        }
        if let Some(path) = &args.save_model {
            let learner = (prep.entry.build)(&args, &prep.kb, &prep.rho)?;
            let text = document::to_json(
                run.model.as_ref(),
                learner.parameters(),
                Some(&p.name),
                prep.kb.signature(),
            )
            .with_context(|| format!("saving the model of {} to {}", p.name, path.display()))?;
            crate::enrich::file::write_atomically(path, text.as_bytes())?;
        }
        if !args.json {
            print_text(&r)?;
        }
        results.push(r);
    }
    if let Some(path) = &args.report {
        super::report::write(path, &results)?;
    }
    if args.json {
        print_json(&results)?;
    }
    // The answer is out; the process ends here. Tearing down the KB and the oracle's cache
    // took up to 8 s after the answer (a 7.4M-triple embedded store), time a budgeted run
    // had promised not to take: the exit returns the memory instead.
    std::mem::forget(prep);
    Ok(())
}

fn t_name(args: &LearnArgs) -> String {
    args.test_file
        .as_ref()
        .map_or_else(String::new, |p| p.display().to_string())
}

fn print_text(r: &LearnJson) -> anyhow::Result<()> {
    outln!(
        "problem {} ({} positives, {} negatives), {}, quality {}",
        r.problem,
        r.positives,
        r.negatives,
        r.algorithm,
        r.quality.name()
    );
    if let Some(d) = &r.description {
        for line in d.lines() {
            outln!("  {line}");
        }
    }
    if r.solutions.is_empty() && r.description.is_none() {
        outln!("  no solution (the start class misses more positives than the noise allows)");
    }
    if r.description.is_some() && !r.solutions.is_empty() {
        outln!("  feature concepts as classifiers on their own, best first:");
    }
    for (i, s) in r.solutions.iter().enumerate() {
        outln!("  {:>2}. {}", i + 1, s.manchester);
        outln!(
            "      DL: {}   length {}, tp {} fp {} tn {} fn {}, F1 {:.4}, accuracy {:.4}",
            s.dl,
            s.length,
            s.tp,
            s.fp,
            s.tn,
            s.fn_,
            s.f1,
            s.accuracy
        );
    }
    if let (Some(pr), Some(roc)) = (
        r.extras.get("auc_pr").and_then(|v| v.as_f64()),
        r.extras.get("auc_roc").and_then(|v| v.as_f64()),
    ) {
        outln!("  training ranking: AUC-PR {pr:.4}, AUC-ROC {roc:.4}");
    }
    if let Some(score) = r.extras.get("score") {
        let num = |k: &str| score.get(k).and_then(|v| v.as_f64()).unwrap_or(f64::NAN);
        outln!(
            "  training score: CLL {:.4}, BIC {:.4} (|Θ| = {})",
            num("cll"),
            num("bic"),
            num("parameters")
        );
    }
    describe_class::print_text(r)?;
    if let Some(t) = &r.test {
        outln!("  {}", held_out::line(t));
    }
    outln!("  stats: {}", stats_line(&r.stats));
    Ok(())
}

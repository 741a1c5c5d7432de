//! `oxilearn evaluate --model MC.json` for a saved multi-class model (the rule learner's,
//! or a tree's fitted on a multi-class problem): its multi-class measures on labelled
//! examples (any multi-class input of `learn`, `--label-column` for a TSV file), with the
//! keys of `learn --test`. The rule model is scored with its rules (which one-vs-rest
//! theories fire), any other through its predictions.

use std::collections::BTreeMap;
use std::path::Path;

use anyhow::{Context, bail};
use serde::Serialize;

use super::args::EvaluateArgs;
use super::multiclass_run::{confusion_lines, scores_line};
use super::{kb_source, model_file, print_json_one_or_many};
use crate::KnowledgeBase;
use crate::learn::experiment::multiclass::{Classifier, Predicted, evaluate, labelled};
use crate::learn::multiclass::ALGORITHM;
use crate::learn::multiclass::measures::Scores;
use crate::learn::semantics_name;
use crate::oracle::{IndividualSet, Semantics};
use crate::problem::{LearningProblem, MultiClassProblem, load_multiclass};

/// One problem's multi-class scores (the `test` object of `learn --test`, plus context).
#[derive(Serialize)]
struct MultiClassEvaluationJson {
    problem: String,
    algorithm: String,
    /// The rule model's combination method.
    #[serde(skip_serializing_if = "Option::is_none")]
    combine: Option<&'static str>,
    semantics: Semantics,
    classes: Vec<String>,
    /// Examples evaluated, per class.
    examples: BTreeMap<String, usize>,
    #[serde(flatten)]
    scores: Scores,
}

/// The problems of `--problems` (only `--problem`'s), their labels mapped onto the model's
/// classes: a label the model does not know is an error naming the file.
fn problems(args: &EvaluateArgs, classes: &[String]) -> anyhow::Result<Vec<MultiClassProblem>> {
    let path = &args.problems;
    let all = load_multiclass(path, args.label_column.as_deref())
        .with_context(|| format!("reading labelled examples from {}", path.display()))?;
    let selected: Vec<MultiClassProblem> = all
        .iter()
        .filter(|p| args.problem.is_empty() || args.problem.contains(&p.name))
        .cloned()
        .collect();
    if selected.is_empty() {
        bail!(
            "no problem of {} is named {:?}; available: {}",
            path.display(),
            args.problem,
            all.iter()
                .map(|p| p.name.as_str())
                .collect::<Vec<_>>()
                .join(", ")
        );
    }
    selected
        .iter()
        .map(|p| {
            let binary = p.classes == ["negative", "positive"];
            p.relabel(path, classes).with_context(|| {
                if binary {
                    format!(
                        "{} is a binary problem (positive/negative examples); the multi-class \
                         model's classes are {}: give examples labelled with them (a TSV file \
                         with --label-column, JSON `classes`, one .conf per class, or lp/<class>/)",
                        path.display(),
                        classes.join(", ")
                    )
                } else {
                    format!("evaluating on {}", path.display())
                }
            })
        })
        .collect()
}

/// `evaluate --model` with a multi-class model of `algorithm` and `classes`
/// ([`model_file::multiclass_of`]).
pub fn run(
    args: &EvaluateArgs,
    path: &Path,
    algorithm: &str,
    classes: &[String],
) -> anyhow::Result<()> {
    // The model's classes are read without a KB: they label the examples.
    let problems = problems(args, classes)?;
    let binary: Vec<LearningProblem> = problems.iter().flat_map(|p| p.one_vs_rest()).collect();
    let scope = kb_source::learning_scope(&args.kb, &binary, false);
    let fallback = problems.iter().find_map(|p| p.kb_file.clone());
    let kb = kb_source::open_kb(&args.kb, fallback, scope)?;
    let (classifier, combine) = load(args, path, &kb, algorithm, classes)?;
    let mut results = Vec::new();
    for p in &problems {
        let examples = labelled(kb.signature(), p)?;
        let set = IndividualSet::from_ids(
            kb.signature().individual_count(),
            examples.iter().map(|e| e.0),
        );
        let (scores, _) = evaluate(kb.oracle(), classifier.as_ref(), &examples, &set)?;
        results.push(MultiClassEvaluationJson {
            problem: p.name.clone(),
            algorithm: algorithm.to_owned(),
            combine,
            semantics: classifier.model().semantics(),
            classes: classes.to_vec(),
            examples: classes
                .iter()
                .enumerate()
                .map(|(i, c)| (c.clone(), p.examples.iter().filter(|e| e.1 == i).count()))
                .collect(),
            scores,
        });
    }
    if args.json {
        return print_json_one_or_many(&results);
    }
    let name = match combine {
        Some(c) => format!("{algorithm} {c}"),
        None => algorithm.to_owned(),
    };
    outln!(
        "model: {} ({name}, {} world)",
        path.display(),
        semantics_name(classifier.model().semantics())
    );
    for r in &results {
        let counts: Vec<String> = r.examples.iter().map(|(c, n)| format!("{c} {n}")).collect();
        outln!("problem {} ({})", r.problem, counts.join(", "));
        outln!("  {}", scores_line(&r.scores));
        outln!("  confusion (rows actual, columns predicted):");
        for line in confusion_lines(&r.scores, "    ") {
            outln!("{line}");
        }
    }
    Ok(())
}

/// The saved model under `--semantics` when given, with the rule model's combination.
fn load(
    args: &EvaluateArgs,
    path: &Path,
    kb: &KnowledgeBase,
    algorithm: &str,
    classes: &[String],
) -> anyhow::Result<(Box<dyn Classifier>, Option<&'static str>)> {
    if algorithm == ALGORITHM {
        let mut model = model_file::load_multiclass(path, kb)?;
        if let Some(s) = args.semantics {
            model.semantics = s;
        }
        let combine = model.combination.method.name();
        return Ok((Box::new(model), Some(combine)));
    }
    let mut model = model_file::load(path, kb)?.model;
    if let Some(s) = args.semantics {
        model = model
            .with_semantics(s)
            .with_context(|| format!("the model {}", path.display()))?;
    }
    let classes = classes.to_vec();
    Ok((Box::new(Predicted { model, classes }), None))
}

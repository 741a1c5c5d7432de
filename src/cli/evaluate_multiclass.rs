//! `oxilearn evaluate --model MC.json` for a saved multi-class model: its multi-class
//! measures on labelled examples (any multi-class input of `learn --algorithm multiclass`,
//! `--label-column` for a TSV file), with the keys of `learn --test`.

use std::collections::BTreeMap;
use std::path::Path;

use anyhow::{Context, bail};
use serde::Serialize;

use super::args::EvaluateArgs;
use super::{kb_source, model_file, print_json_one_or_many};
use crate::learn::multiclass::MultiClassModel;
use crate::learn::multiclass::experiment::{labelled, outcomes};
use crate::learn::multiclass::measures::{Scores, score};
use crate::learn::semantics_name;
use crate::oracle::{IndividualSet, Semantics};
use crate::problem::{LearningProblem, MultiClassProblem, load_multiclass};

/// One problem's multi-class scores (the `test` object of `learn --test`, plus context).
#[derive(Serialize)]
struct MultiClassEvaluationJson {
    problem: String,
    algorithm: &'static str,
    combine: &'static str,
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

/// `evaluate --model` with a multi-class model.
pub fn run(args: &EvaluateArgs, path: &Path) -> anyhow::Result<()> {
    // The model's classes are needed to read the labels: read them without a KB first.
    let classes = model_classes(path)?;
    let problems = problems(args, &classes)?;
    let binary: Vec<LearningProblem> = problems.iter().flat_map(|p| p.one_vs_rest()).collect();
    let scope = kb_source::learning_scope(&args.kb, &binary, false);
    let fallback = problems.iter().find_map(|p| p.kb_file.clone());
    let kb = kb_source::open_kb(&args.kb, fallback, scope)?;
    let mut model = model_file::load_multiclass(path, &kb)?;
    if let Some(s) = args.semantics {
        model.semantics = s;
    }
    let mut results = Vec::new();
    for p in &problems {
        let examples = labelled(kb.signature(), p)?;
        let set = IndividualSet::from_ids(
            kb.signature().individual_count(),
            examples.iter().map(|e| e.0),
        );
        let outcomes = outcomes(kb.oracle(), &model, &examples, &set)?;
        results.push(result(p, &model, score(model.classes(), &outcomes)));
    }
    if args.json {
        return print_json_one_or_many(&results);
    }
    outln!(
        "model: {} (multiclass {}, {} world)",
        path.display(),
        model.combination.method.name(),
        semantics_name(model.semantics)
    );
    for r in &results {
        let s = &r.scores;
        let counts: Vec<String> = r.examples.iter().map(|(c, n)| format!("{c} {n}")).collect();
        outln!("problem {} ({})", r.problem, counts.join(", "));
        outln!(
            "  accuracy {:.4}, multi-model accuracy {:.4}, average recall {:.4}, weighted AUC {}",
            s.accuracy,
            s.multi_model_accuracy,
            s.average_recall,
            s.weighted_auc
                .map_or_else(|| "n/a".to_owned(), |a| format!("{a:.4}"))
        );
        outln!("  confusion (rows actual, columns predicted):");
        for (c, row) in s.confusion.classes.iter().zip(&s.confusion.matrix) {
            let cells: Vec<String> = row.iter().map(|n| format!("{n:>4}")).collect();
            outln!("    {c:>12} {}", cells.join(""));
        }
    }
    Ok(())
}

fn result(
    p: &MultiClassProblem,
    model: &MultiClassModel,
    scores: Scores,
) -> MultiClassEvaluationJson {
    let classes = model.classes().to_vec();
    let examples = classes
        .iter()
        .enumerate()
        .map(|(i, c)| (c.clone(), p.examples.iter().filter(|e| e.1 == i).count()))
        .collect();
    MultiClassEvaluationJson {
        problem: p.name.clone(),
        algorithm: crate::learn::multiclass::ALGORITHM,
        combine: model.combination.method.name(),
        semantics: model.semantics,
        classes,
        examples,
        scores,
    }
}

/// The `classes` of a saved multi-class model's body.
fn model_classes(path: &Path) -> anyhow::Result<Vec<String>> {
    let text =
        std::fs::read_to_string(path).with_context(|| format!("reading {}", path.display()))?;
    let doc: serde_json::Value = serde_json::from_str(&text)
        .with_context(|| format!("{}: not a model document", path.display()))?;
    serde_json::from_value(doc["model"]["classes"].clone())
        .with_context(|| format!("{}: a multiclass model without its classes", path.display()))
}

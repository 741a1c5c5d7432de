//! `--test FILE` for every learner (issue 31 item 5): the model fitted on the training
//! problem is scored on held-out examples, reported under `test` as multi-class runs do.
//! For a binary learner the test file is any problem file (`--problems` formats) holding a
//! problem of the training problem's name (or only one problem), or a TSV of labelled
//! examples (`--label-column`), whose one-vs-rest problem of that class is taken.

use std::path::Path;

use anyhow::{Context, bail};
use serde::Serialize;

use crate::KnowledgeBase;
use crate::eval::{Confusion, auc_pr, auc_roc};
use crate::learn::{Examples, Model};
use crate::problem::{LearningProblem, load_multiclass};

/// Refuses the learner options that `command` (e.g. `bench learn`) parses with the shared
/// learner flags but has no use for, so that none is silently ignored. (`--test` and
/// `--label-column` it takes: each row is scored on the held-out examples.)
pub fn refuse_unused(command: &str, args: &super::learners::LearnArgs) -> anyhow::Result<()> {
    let set: Vec<&str> = [
        ("--report", args.report.is_some()),
        ("--save-model", args.save_model.is_some()),
    ]
    .into_iter()
    .filter_map(|(flag, given)| given.then_some(flag))
    .collect();
    if !set.is_empty() {
        bail!(
            "{command} does not take {}: it measures learning runs on --problems (use `learn` \
             to write a report or save a model)",
            set.join(", ")
        );
    }
    Ok(())
}

/// The held-out problem of each training problem, in their order.
pub fn test_problems(
    path: &Path,
    label_column: Option<&str>,
    training: &[LearningProblem],
) -> anyhow::Result<Vec<LearningProblem>> {
    let read = || format!("reading the test examples {}", path.display());
    let is_tsv = path.extension().is_some_and(|e| e == "tsv");
    let all: Vec<LearningProblem> = if is_tsv || label_column.is_some() {
        load_multiclass(path, label_column)
            .with_context(read)?
            .iter()
            .flat_map(|p| p.one_vs_rest())
            .collect()
    } else {
        crate::problem::load_problems(path).with_context(read)?
    };
    training
        .iter()
        .map(|t| {
            let class = format!("/{}", t.name);
            let found = all
                .iter()
                .find(|p| p.name == t.name || p.name.ends_with(&class))
                .or(match (all.len(), training.len()) {
                    (1, 1) => all.first(),
                    _ => None,
                });
            match found {
                Some(p) => Ok(p.clone()),
                None => bail!(
                    "{} holds no test problem for {} (its problems: {})",
                    path.display(),
                    t.name,
                    all.iter()
                        .map(|p| p.name.as_str())
                        .collect::<Vec<_>>()
                        .join(", ")
                ),
            }
        })
        .collect()
}

/// How a model did on held-out examples.
#[derive(Clone, Debug, Serialize)]
pub struct TestJson {
    pub positives: usize,
    pub negatives: usize,
    pub tp: usize,
    pub fp: usize,
    pub tn: usize,
    #[serde(rename = "fn")]
    pub fn_: usize,
    pub accuracy: f64,
    pub f1: f64,
    /// For scored models (a ranking value per prediction).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub auc_pr: Option<f64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub auc_roc: Option<f64>,
}

/// `model`'s measures on `test` (the oracle is asked over `test` and `train` together, the
/// cache the fit used).
pub fn score(
    kb: &KnowledgeBase,
    model: &dyn Model,
    test: &Examples,
    train: &Examples,
) -> anyhow::Result<TestJson> {
    let among = test.all().union(train.all());
    let preds = model.predict_within(kb.oracle(), test.all(), &among)?;
    let mut covered = kb.signature().empty_set();
    for p in preds.iter().filter(|p| p.member) {
        covered.insert(p.individual);
    }
    let c: Confusion = test.confusion(&covered);
    let scored: Option<Vec<(f64, bool)>> = model.is_scored().then(|| {
        preds
            .iter()
            .map(|p| {
                let v = p.ranking_value().unwrap_or(0.0);
                (v, test.positives().contains(p.individual))
            })
            .collect()
    });
    Ok(TestJson {
        positives: test.positives().len(),
        negatives: test.negatives().len(),
        tp: c.tp,
        fp: c.fp,
        tn: c.tn,
        fn_: c.fn_,
        accuracy: c.accuracy(),
        f1: c.f1(),
        auc_pr: scored.as_deref().and_then(auc_pr),
        auc_roc: scored.as_deref().and_then(auc_roc),
    })
}

/// The text line of a test result.
pub fn line(t: &TestJson) -> String {
    let auc = match (t.auc_pr, t.auc_roc) {
        (Some(pr), Some(roc)) => format!(", AUC-PR {pr:.4}, AUC-ROC {roc:.4}"),
        _ => String::new(),
    };
    format!(
        "test ({} positives, {} negatives): tp {} fp {} tn {} fn {}, accuracy {:.4}, F1 {:.4}{auc}",
        t.positives, t.negatives, t.tp, t.fp, t.tn, t.fn_, t.accuracy, t.f1
    )
}

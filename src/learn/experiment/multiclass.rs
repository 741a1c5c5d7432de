//! Multi-class experiments for any model of a multi-class training set: a problem's
//! labelled examples, each example's outcome (predicted class and class distribution), the
//! multi-class measures ([`crate::eval::multiclass`]) and stratified k-fold
//! cross-validation. A fold's fit may give several classifiers, all scored on the same test
//! part: the rule learner combines one rule table several ways and compares them so.
//!
//! A model is scored through its predictions' `label` and `distribution`
//! ([`Predicted`]); a model that knows more (the rule model: which one-vs-rest theories
//! fire, what decided) implements [`Classifier`] itself.

use serde::Serialize;

use crate::eval::multiclass::{ConfusionMatrix, DecidedBy, Outcome, Scores, score};
use crate::eval::{FoldError, Summary, stratified_deal};
use crate::learn::{LearnError, Model, RunStats, TrainingSet};
use crate::oracle::{IndividualId, IndividualSet, MembershipOracle, Signature};
use crate::problem::MultiClassProblem;

/// Examples of a problem that are not individuals of the KB (all of them, the message
/// showing the first ten).
#[derive(Debug, thiserror::Error)]
#[error(
    "problem {problem}: {} example(s) are not individuals of the KB: {}{}",
    missing.len(),
    missing.iter().take(10).cloned().collect::<Vec<_>>().join(", "),
    if missing.len() > 10 { ", …" } else { "" }
)]
pub struct UnknownExamples {
    pub problem: String,
    pub missing: Vec<String>,
}

/// The examples of `problem` as (individual, class) in individual order.
pub fn labelled(
    signature: &Signature,
    problem: &MultiClassProblem,
) -> Result<Vec<(IndividualId, usize)>, UnknownExamples> {
    let mut out = Vec::new();
    let mut missing = Vec::new();
    for (iri, c) in &problem.examples {
        match signature.individual_id(iri) {
            Some(id) => out.push((id, *c)),
            None => missing.push(iri.as_str().to_owned()),
        }
    }
    if !missing.is_empty() {
        return Err(UnknownExamples {
            problem: problem.name.clone(),
            missing,
        });
    }
    out.sort_by_key(|(id, _)| *id);
    Ok(out)
}

/// A fitted multi-class model as the experiments score it.
pub trait Classifier: Send + Sync {
    /// The model (to save, describe or predict with).
    fn model(&self) -> &dyn Model;

    /// Its classes, in the order of the examples' class indices.
    fn classes(&self) -> &[String];

    /// Each example's outcome in individual order (the oracle asked over `among`).
    fn outcomes(
        &self,
        oracle: &dyn MembershipOracle,
        examples: &[(IndividualId, usize)],
        among: &IndividualSet,
    ) -> Result<Vec<Outcome>, LearnError>;
}

/// Any model whose predictions carry a label and a class distribution (tdt, trf): its
/// one-vs-rest theories are its predicted class (one-hot `binary`), decided by the model.
#[derive(Debug)]
pub struct Predicted {
    pub model: Box<dyn Model>,
    pub classes: Vec<String>,
}

impl Classifier for Predicted {
    fn model(&self) -> &dyn Model {
        self.model.as_ref()
    }

    fn classes(&self) -> &[String] {
        &self.classes
    }

    fn outcomes(
        &self,
        oracle: &dyn MembershipOracle,
        examples: &[(IndividualId, usize)],
        among: &IndividualSet,
    ) -> Result<Vec<Outcome>, LearnError> {
        let set = IndividualSet::from_ids(among.universe(), examples.iter().map(|e| e.0));
        let among = among.union(&set);
        let index = |label: &str| self.classes.iter().position(|c| c == label);
        let no_label = || {
            LearnError::InvalidTraining(format!(
                "a {} model that gives no class label of {} cannot be scored as a \
                 multi-class model",
                self.model.algorithm(),
                self.classes.join(", ")
            ))
        };
        let mut out = Vec::with_capacity(examples.len());
        for p in self.model.predict_within(oracle, &set, &among)? {
            let predicted = p.label.as_deref().and_then(index).ok_or_else(no_label)?;
            let mut distribution = vec![0.0; self.classes.len()];
            for (label, q) in p.distribution.iter().flatten() {
                let i = index(label).ok_or_else(no_label)?;
                distribution[i] = *q;
            }
            let mut binary = vec![false; self.classes.len()];
            binary[predicted] = true;
            let truth = examples
                .binary_search_by_key(&p.individual, |e| e.0)
                .map_or(0, |i| examples[i].1);
            out.push(Outcome {
                truth,
                predicted,
                distribution,
                binary,
                by: DecidedBy::Model,
            });
        }
        Ok(out)
    }
}

/// The measures of `classifier` on `examples` (sorted by individual, as [`labelled`]
/// gives them) and the outcomes behind them.
pub fn evaluate(
    oracle: &dyn MembershipOracle,
    classifier: &dyn Classifier,
    examples: &[(IndividualId, usize)],
    among: &IndividualSet,
) -> Result<(Scores, Vec<Outcome>), LearnError> {
    let outcomes = classifier.outcomes(oracle, examples, among)?;
    Ok((score(classifier.classes(), &outcomes), outcomes))
}

/// What a cross-validation runs on.
pub struct FoldSetup<'a> {
    pub classes: &'a [String],
    /// The labelled examples ([`labelled`]).
    pub examples: &'a [(IndividualId, usize)],
    /// Individuals of the KB (the universe of the example sets).
    pub universe: usize,
    pub folds: usize,
    pub seed: u64,
}

/// One fold's fit: its classifiers (each scored on the fold's test part) and its cost.
pub struct FoldFit {
    pub classifiers: Vec<Box<dyn Classifier>>,
    pub stats: RunStats,
}

/// The out-of-fold results of one classifier of the folds' fits (the `i`-th of each).
#[derive(Default)]
pub struct ClassifierCv {
    pub folds: Vec<Scores>,
    /// Every fold's test outcomes together (the pooled measures of small data sets).
    pub pooled: Vec<Outcome>,
}

/// One problem's cross-validation: per classifier, per fold; and each fold's statistics.
pub struct MultiClassCv {
    pub classes: Vec<String>,
    pub class_counts: Vec<usize>,
    pub classifiers: Vec<ClassifierCv>,
    pub fold_stats: Vec<RunStats>,
    pub folds: usize,
    pub completed: usize,
}

/// Stratified `k`-fold cross-validation: `fit(fold, training)` fits a fold (`None`:
/// cancelled, no later fold starts); each of its classifiers is scored on the fold's test
/// part. Every fold's training set has all examples as its context.
pub fn cross_validate<E: From<LearnError>>(
    oracle: &dyn MembershipOracle,
    setup: &FoldSetup<'_>,
    fit: &mut dyn FnMut(usize, TrainingSet) -> Result<Option<FoldFit>, E>,
) -> Result<MultiClassCv, E> {
    let (examples, k) = (setup.examples, setup.folds);
    let labels: Vec<usize> = examples.iter().map(|e| e.1).collect();
    if labels.len() < k {
        return Err(LearnError::from(FoldError::TooFewItems {
            folds: k,
            items: labels.len(),
        })
        .into());
    }
    let folds = stratified_deal(&labels, k, setup.seed).map_err(LearnError::from)?;
    let all = IndividualSet::from_ids(setup.universe, examples.iter().map(|e| e.0));
    let mut out = MultiClassCv {
        classes: setup.classes.to_vec(),
        class_counts: (0..setup.classes.len())
            .map(|c| labels.iter().filter(|&&l| l == c).count())
            .collect(),
        classifiers: Vec::new(),
        fold_stats: Vec::new(),
        folds: k,
        completed: 0,
    };
    for (i, test_idx) in folds.iter().enumerate() {
        let test: Vec<(IndividualId, usize)> = test_idx.iter().map(|&j| examples[j]).collect();
        let train: Vec<(IndividualId, usize)> = (0..examples.len())
            .filter(|j| test_idx.binary_search(j).is_err())
            .map(|j| examples[j])
            .collect();
        let training =
            TrainingSet::multi_class(setup.classes.to_vec(), train)?.with_context(all.clone());
        let Some(fitted) = fit(i, training)? else {
            break;
        };
        if out.classifiers.len() < fitted.classifiers.len() {
            out.classifiers
                .resize_with(fitted.classifiers.len(), ClassifierCv::default);
        }
        for (c, cv) in fitted.classifiers.iter().zip(&mut out.classifiers) {
            let (scores, outcomes) = evaluate(oracle, c.as_ref(), &test, &all)?;
            cv.folds.push(scores);
            cv.pooled.extend(outcomes);
        }
        out.fold_stats.push(fitted.stats);
        out.completed += 1;
    }
    Ok(out)
}

/// `{mean, sd, folds}` of each measure over the folds, the summed confusion and the pooled
/// weighted AUC.
#[derive(Serialize)]
pub struct CvSummary {
    pub accuracy: Summary,
    pub multi_model_accuracy: Summary,
    pub average_recall: Summary,
    /// Over the folds where it is defined (a fold needs a class with members and
    /// non-members among its test examples).
    pub weighted_auc: Summary,
    /// Over every fold's test predictions together.
    pub pooled_weighted_auc: Option<f64>,
    /// Shares of all folds' test examples decided by the default rule, and by MRSI's
    /// majority fallback (empty intersection); 0 for models without rules.
    pub default_rule_share: f64,
    pub majority_share: f64,
    pub confusion: ConfusionMatrix,
}

/// The summary of one classifier's cross-validation: its per-fold scores and its pooled
/// test outcomes.
pub fn summarize(classes: &[String], folds: &[Scores], pooled: &[Outcome]) -> CvSummary {
    let of = |f: fn(&Scores) -> f64| Summary::of(folds.iter().map(f).collect());
    let pooled = score(classes, pooled);
    CvSummary {
        default_rule_share: pooled.default_rule_share,
        majority_share: pooled.majority_share,
        accuracy: of(|s| s.accuracy),
        multi_model_accuracy: of(|s| s.multi_model_accuracy),
        average_recall: of(|s| s.average_recall),
        weighted_auc: Summary::of(folds.iter().filter_map(|s| s.weighted_auc).collect()),
        pooled_weighted_auc: pooled.weighted_auc,
        confusion: ConfusionMatrix::sum(classes, folds.iter().map(|s| &s.confusion)),
    }
}

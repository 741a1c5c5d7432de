//! Multi-class examples over a knowledge base, their measures, and stratified k-fold
//! cross-validation of the rule learner: each fold learns one rule table on its training
//! part and combines it with every method asked for, so the methods are compared on the
//! same rules. The folds come from [`crate::eval::stratified_deal`], the one deal of every
//! split in the crate; the caller fits each fold (progress, budget, cancellation are its
//! business) and this module does the folds, the combination and the scoring.

use std::collections::BTreeMap;

use serde::Serialize;

use super::measures::{ConfusionMatrix, Outcome, Scores, score};
use super::{Combine, MultiClassModel, RulesRun};
use crate::eval::{FoldError, Summary, stratified_deal};
use crate::learn::{LearnError, RunStats, TrainingSet};
use crate::oracle::{IndividualId, IndividualSet, MembershipOracle, Semantics, Signature};
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

/// Each example's outcome under `model` (the oracle asked over `among`).
pub fn outcomes(
    oracle: &dyn MembershipOracle,
    model: &MultiClassModel,
    examples: &[(IndividualId, usize)],
    among: &IndividualSet,
) -> Result<Vec<Outcome>, LearnError> {
    let set = IndividualSet::from_ids(among.universe(), examples.iter().map(|e| e.0));
    let truth: BTreeMap<IndividualId, usize> = examples.iter().copied().collect();
    let k = model.classes().len();
    Ok(model
        .classify(oracle, &set, among)?
        .into_iter()
        .map(|c| {
            let mut binary = vec![false; k];
            for r in c.firing.ones() {
                binary[model.table.rules[r].class] = true;
            }
            Outcome {
                truth: truth.get(&c.individual).copied().unwrap_or(0),
                predicted: c.decision.class,
                distribution: c.decision.distribution,
                binary,
                by: c.decision.by,
            }
        })
        .collect())
}

/// The measures of `model` on `examples` and the outcomes behind them.
pub fn evaluate(
    oracle: &dyn MembershipOracle,
    model: &MultiClassModel,
    examples: &[(IndividualId, usize)],
    among: &IndividualSet,
) -> Result<(Scores, Vec<Outcome>), LearnError> {
    let outcomes = outcomes(oracle, model, examples, among)?;
    Ok((score(model.classes(), &outcomes), outcomes))
}

/// The out-of-fold results of one combination method.
pub struct MethodCv {
    pub method: Combine,
    pub folds: Vec<Scores>,
    /// Every fold's test outcomes together (the pooled measures of small data sets).
    pub pooled: Vec<Outcome>,
}

/// One problem's cross-validation: per method, per fold; and each fold's rule statistics.
pub struct ProblemCv {
    pub classes: Vec<String>,
    pub class_counts: Vec<usize>,
    pub methods: Vec<MethodCv>,
    pub fold_stats: Vec<RunStats>,
    pub folds: usize,
    pub completed: usize,
}

/// What a cross-validation runs on and how its models combine the rules.
pub struct CvSetup<'a> {
    pub classes: &'a [String],
    /// The labelled examples ([`labelled`]).
    pub examples: &'a [(IndividualId, usize)],
    /// Individuals of the KB (the universe of the example sets).
    pub universe: usize,
    pub folds: usize,
    pub seed: u64,
    pub methods: &'a [Combine],
    pub combine_seed: u64,
    pub semantics: Semantics,
}

/// Stratified `k`-fold cross-validation: `fit(fold, training)` learns a fold's rule table
/// (`None`: cancelled, no later fold starts), each method combines it and is scored on the
/// fold's test part. Every fold's training set has all examples as its context.
pub fn cross_validate<E: From<LearnError>>(
    oracle: &dyn MembershipOracle,
    setup: &CvSetup<'_>,
    fit: &mut dyn FnMut(usize, TrainingSet) -> Result<Option<RulesRun>, E>,
) -> Result<ProblemCv, E> {
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
    let mut out = ProblemCv {
        classes: setup.classes.to_vec(),
        class_counts: (0..setup.classes.len())
            .map(|c| labels.iter().filter(|&&l| l == c).count())
            .collect(),
        methods: setup
            .methods
            .iter()
            .map(|&method| MethodCv {
                method,
                folds: Vec::new(),
                pooled: Vec::new(),
            })
            .collect(),
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
        let Some(run) = fit(i, training)? else { break };
        for m in &mut out.methods {
            let model = MultiClassModel::new(
                run.table.clone(),
                m.method,
                setup.combine_seed,
                setup.semantics,
            );
            let (scores, outcomes) = evaluate(oracle, &model, &test, &all)?;
            m.folds.push(scores);
            m.pooled.extend(outcomes);
        }
        out.fold_stats.push(run.stats);
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
    /// majority fallback (empty intersection).
    pub default_rule_share: f64,
    pub majority_share: f64,
    pub confusion: ConfusionMatrix,
}

/// The summary of one method's cross-validation.
pub fn summarize(classes: &[String], m: &MethodCv) -> CvSummary {
    let of = |f: fn(&Scores) -> f64| Summary::of(m.folds.iter().map(f).collect());
    let pooled = score(classes, &m.pooled);
    CvSummary {
        default_rule_share: pooled.default_rule_share,
        majority_share: pooled.majority_share,
        accuracy: of(|s| s.accuracy),
        multi_model_accuracy: of(|s| s.multi_model_accuracy),
        average_recall: of(|s| s.average_recall),
        weighted_auc: Summary::of(m.folds.iter().filter_map(|s| s.weighted_auc).collect()),
        pooled_weighted_auc: pooled.weighted_auc,
        confusion: ConfusionMatrix::sum(classes, m.folds.iter().map(|s| &s.confusion)),
    }
}

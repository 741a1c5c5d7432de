//! The rule learner's multi-class experiments, on the learner-generic ones
//! ([`crate::learn::experiment::multiclass`]): its model's outcomes say which one-vs-rest
//! theories fire and what decided (the rule model is a [`Classifier`] of its own), and
//! its cross-validation learns one rule table per fold and combines it with every method
//! asked for, so the methods are compared on the same rules. The caller fits each fold
//! (progress, budget, cancellation are its business).

use std::collections::BTreeMap;

use super::measures::{Outcome, Scores};
use super::{Combine, MultiClassModel, RulesRun};
use crate::learn::experiment::multiclass::{
    self as generic, Classifier, ClassifierCv, FoldFit, FoldSetup, MultiClassCv,
};
use crate::learn::{LearnError, Model, TrainingSet};
use crate::oracle::{IndividualId, IndividualSet, MembershipOracle, Semantics};

pub use crate::learn::experiment::multiclass::{CvSummary, UnknownExamples, labelled};

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
    generic::evaluate(oracle, model, examples, among)
}

/// The rule model scores with its rules: which one-vs-rest theories fire, what decided.
impl Classifier for MultiClassModel {
    fn model(&self) -> &dyn Model {
        self
    }

    fn classes(&self) -> &[String] {
        MultiClassModel::classes(self)
    }

    fn outcomes(
        &self,
        oracle: &dyn MembershipOracle,
        examples: &[(IndividualId, usize)],
        among: &IndividualSet,
    ) -> Result<Vec<Outcome>, LearnError> {
        outcomes(oracle, self, examples, among)
    }
}

/// One problem's cross-validation: the generic folds' results, whose `i`-th classifier is
/// the combination `methods[i]` of each fold's rule table.
pub struct ProblemCv {
    pub methods: Vec<Combine>,
    pub cv: MultiClassCv,
}

impl ProblemCv {
    /// Each method with its out-of-fold results.
    pub fn per_method(&self) -> impl Iterator<Item = (Combine, &ClassifierCv)> {
        self.methods.iter().copied().zip(&self.cv.classifiers)
    }
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

/// Stratified `k`-fold cross-validation ([`generic::cross_validate`]): `fit(fold,
/// training)` learns a fold's rule table (`None`: cancelled, no later fold starts), each
/// method combines it and is scored on the fold's test part.
pub fn cross_validate<E: From<LearnError>>(
    oracle: &dyn MembershipOracle,
    setup: &CvSetup<'_>,
    fit: &mut dyn FnMut(usize, TrainingSet) -> Result<Option<RulesRun>, E>,
) -> Result<ProblemCv, E> {
    let folds = FoldSetup {
        classes: setup.classes,
        examples: setup.examples,
        universe: setup.universe,
        folds: setup.folds,
        seed: setup.seed,
    };
    let cv = generic::cross_validate(oracle, &folds, &mut |i, training| -> Result<_, E> {
        let Some(run) = fit(i, training)? else {
            return Ok(None);
        };
        let classifiers = setup
            .methods
            .iter()
            .map(|&method| {
                let model = MultiClassModel::new(
                    run.table.clone(),
                    method,
                    setup.combine_seed,
                    setup.semantics,
                );
                Box::new(model) as Box<dyn Classifier>
            })
            .collect();
        Ok(Some(FoldFit {
            classifiers,
            stats: run.stats,
        }))
    })?;
    Ok(ProblemCv {
        methods: setup.methods.to_vec(),
        cv,
    })
}

/// The summary of one method's cross-validation.
pub fn summarize(classes: &[String], m: &ClassifierCv) -> CvSummary {
    generic::summarize(classes, &m.folds, &m.pooled)
}

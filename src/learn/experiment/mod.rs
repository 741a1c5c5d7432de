//! Learner-generic experiments: stratified k-fold cross-validation of any [`Learner`].
//!
//! Each fold's learner sees only the training examples; its model then predicts the
//! training and the test examples. Membership gives the confusion counts (F1, accuracy);
//! models whose predictions carry a ranking value (a score or a probability) also get the
//! test fold's AUC-PR and AUC-ROC.
//!
//! A run cancelled through the [`RunControl`]'s flag (Ctrl-C in the CLI) ends early: the
//! fold that was running is kept with `completed: false` (its fit stopped with
//! [`Termination::Cancelled`]), later folds are not started, and the summaries are over the
//! completed folds only.
//!
//! Multi-class problems have their own measures and folds ([`multiclass`]), for any model
//! of a multi-class training set.

pub mod multiclass;

use super::{
    Examples, FitResult, LearnError, Learner, Model, RunControl, Termination, TrainingSet,
};
use crate::eval::{Confusion, Fold, Summary, auc_pr, auc_roc, stratified_folds};
use crate::oracle::{IndividualId, IndividualSet, MembershipOracle};

/// One fold's outcome.
#[derive(Debug)]
pub struct FoldOutcome {
    pub train: Confusion,
    pub test: Confusion,
    /// Test-fold ranking measures (scored models only).
    pub auc_pr: Option<f64>,
    pub auc_roc: Option<f64>,
    /// The held-out examples' `(individual, score, is_positive)` (scored models only; empty
    /// otherwise): the points behind `auc_pr`/`auc_roc`, for curves and calibration.
    pub test_scores: Vec<(IndividualId, f64, bool)>,
    pub fit: FitResult,
    /// Queries sent for the test predictions (the fit's own are in `fit.stats`).
    pub predict_queries: u64,
    /// `false` when the fit was cancelled ([`Termination::Cancelled`]): its figures are
    /// those of a partial search and stay out of the summaries.
    pub completed: bool,
}

/// All folds of one cross-validation: every fold when it ran to the end, else the folds
/// started before the cancellation (the last one possibly not completed).
#[derive(Debug)]
pub struct CvOutcome {
    pub folds: Vec<FoldOutcome>,
    /// The folds the cross-validation was set up with (k).
    pub planned: usize,
    pub elapsed_ms: u64,
}

impl CvOutcome {
    /// The folds whose fit ran to the end.
    pub fn completed(&self) -> impl Iterator<Item = &FoldOutcome> {
        self.folds.iter().filter(|f| f.completed)
    }

    pub fn folds_completed(&self) -> usize {
        self.completed().count()
    }

    /// Whether a cancellation cut the cross-validation short.
    pub fn cancelled(&self) -> bool {
        self.folds_completed() < self.planned
    }

    /// Mean ± sd of a per-fold value over the completed folds (`None` when none completed).
    pub fn summary(&self, f: impl Fn(&FoldOutcome) -> f64) -> Option<Summary> {
        let values: Vec<f64> = self.completed().map(f).collect();
        (!values.is_empty()).then(|| Summary::of(values))
    }

    /// Mean ± sd of a per-fold ranking measure over the completed folds (`None` when the
    /// model is not scored or no fold completed).
    pub fn ranking_summary(&self, f: impl Fn(&FoldOutcome) -> Option<f64>) -> Option<Summary> {
        let values: Option<Vec<f64>> = self.completed().map(f).collect();
        values.filter(|v| !v.is_empty()).map(Summary::of)
    }
}

/// Seeded stratified k-fold cross-validation of `learner` on `examples`; `control`
/// applies to each fold's fit. Every fold asks the oracle over all of `examples` (one
/// cache for all folds).
pub fn cross_validate(
    learner: &dyn Learner,
    oracle: &dyn MembershipOracle,
    examples: &Examples,
    folds: usize,
    seed: u64,
    control: &RunControl,
) -> Result<CvOutcome, LearnError> {
    cross_validate_with(learner, oracle, examples, folds, seed, &mut |_, _| {
        control.clone()
    })
}

/// [`cross_validate`] with a control per fold (`control_for(fold, folds)`, 0-based), e.g.
/// a progress display labelled with the fold. A fold whose control is already cancelled
/// is not started, and none after a fold whose fit was cancelled: the outcome then holds
/// the folds done so far.
pub fn cross_validate_with(
    learner: &dyn Learner,
    oracle: &dyn MembershipOracle,
    examples: &Examples,
    folds: usize,
    seed: u64,
    control_for: &mut dyn FnMut(usize, usize) -> RunControl,
) -> Result<CvOutcome, LearnError> {
    let start = std::time::Instant::now();
    let splits = stratified_folds(examples.positives(), examples.negatives(), folds, seed)?;
    let mut out = Vec::with_capacity(splits.len());
    for (i, fold) in splits.iter().enumerate() {
        let control = control_for(i, splits.len());
        if control
            .cancel
            .as_ref()
            .is_some_and(|c| c.load(std::sync::atomic::Ordering::Relaxed))
        {
            break;
        }
        let outcome = run_fold(learner, oracle, examples, fold, &control)?;
        let stop = !outcome.completed;
        out.push(outcome);
        if stop {
            break;
        }
    }
    Ok(CvOutcome {
        folds: out,
        planned: splits.len(),
        elapsed_ms: u64::try_from(start.elapsed().as_millis()).unwrap_or(u64::MAX),
    })
}

/// Fits on one fold's training part and scores both parts.
pub fn run_fold(
    learner: &dyn Learner,
    oracle: &dyn MembershipOracle,
    examples: &Examples,
    fold: &Fold,
    control: &RunControl,
) -> Result<FoldOutcome, LearnError> {
    let train = Examples::new(fold.train_positives.clone(), fold.train_negatives.clone())?;
    let test = Examples::new(fold.test_positives.clone(), fold.test_negatives.clone())?;
    let training = TrainingSet::from_examples(train.clone()).with_context(examples.all().clone());
    let fit = learner.fit(oracle, &training, control)?;
    let before = oracle.stats().queries_sent;
    let train_counts = confusion(fit.model.as_ref(), oracle, &train, examples.all())?;
    let test_predictions = fit
        .model
        .predict_within(oracle, test.all(), examples.all())?;
    let member = IndividualSet::from_ids(
        test.all().universe(),
        test_predictions
            .iter()
            .filter(|p| p.member)
            .map(|p| p.individual),
    );
    let test_counts = test.confusion(&member);
    let test_scores: Vec<(IndividualId, f64, bool)> = if fit.model.is_scored() {
        test_predictions
            .iter()
            .map(|p| {
                (
                    p.individual,
                    p.ranking_value().unwrap_or(0.0),
                    test.positives().contains(p.individual),
                )
            })
            .collect()
    } else {
        Vec::new()
    };
    let (pr, roc) = if fit.model.is_scored() {
        let scored: Vec<(f64, bool)> = test_scores.iter().map(|&(_, s, p)| (s, p)).collect();
        (auc_pr(&scored), auc_roc(&scored))
    } else {
        (None, None)
    };
    Ok(FoldOutcome {
        train: train_counts,
        test: test_counts,
        auc_pr: pr,
        auc_roc: roc,
        test_scores,
        predict_queries: oracle.stats().queries_sent.saturating_sub(before),
        completed: fit.stats.termination != Termination::Cancelled,
        fit,
    })
}

/// The model's confusion counts on `examples`.
pub fn confusion(
    model: &dyn Model,
    oracle: &dyn MembershipOracle,
    examples: &Examples,
    among: &IndividualSet,
) -> Result<Confusion, LearnError> {
    let predictions = model.predict_within(oracle, examples.all(), among)?;
    let member = IndividualSet::from_ids(
        examples.all().universe(),
        predictions
            .iter()
            .filter(|p| p.member)
            .map(|p| p.individual),
    );
    Ok(examples.confusion(&member))
}

//! Glue written once for the learners of one class from positive and negative examples
//! (CELOE, Forest Mixing, TBC). Such a learner implements [`BinaryLearner`]: its name, its
//! parameters and one fit on [`Examples`]; the blanket [`Learner`] impl does the rest —
//! refusing other kinds of training data, passing the training set's context (the
//! superset the oracle may be asked over, so cross-validation folds share a cache),
//! recording the parameters, and boxing the model with its typed [`Report`]. linfa's
//! `Fit` is the model: parameters in, fitted model out, composition by blanket impls.

use serde::Serialize;

use super::{
    Examples, FitResult, LearnError, Learner, Model, QualityMeasure, Report, RunControl, RunStats,
    Solution, TrainingSet,
};
use crate::oracle::{IndividualSet, MembershipOracle, Semantics};

/// A learner of one class from positive and negative examples.
pub trait BinaryLearner {
    /// Its validated parameters, as recorded in saved models.
    type Params: Serialize;
    type Model: Model + 'static;
    /// What a run reports besides the model (`()` for nothing).
    type Report: Serialize + Send + Sync + 'static;

    /// The algorithm's stable name, as in JSON output and model files.
    fn name(&self) -> &'static str;

    fn params(&self) -> &Self::Params;

    /// One fit on `examples`, asking the oracle over `among` (a superset of them).
    fn fit_binary(
        &self,
        oracle: &dyn MembershipOracle,
        examples: &Examples,
        among: &IndividualSet,
        control: &RunControl,
    ) -> Result<BinaryFit<Self::Model, Self::Report>, LearnError>;
}

/// A binary learner's finished run (see [`FitResult`], whose fields these become).
#[derive(Debug)]
pub struct BinaryFit<M, R> {
    pub model: M,
    pub solutions: Vec<Solution>,
    pub quality: QualityMeasure,
    pub semantics: Semantics,
    pub stats: RunStats,
    pub report: R,
}

impl<T: BinaryLearner> Learner for T {
    fn name(&self) -> &'static str {
        BinaryLearner::name(self)
    }

    fn parameters(&self) -> serde_json::Value {
        serde_json::to_value(self.params()).unwrap_or_default()
    }

    fn fit(
        &self,
        oracle: &dyn MembershipOracle,
        training: &TrainingSet,
        control: &RunControl,
    ) -> Result<FitResult, LearnError> {
        let examples = training.as_binary(BinaryLearner::name(self))?;
        let among = training.context(examples.all().universe());
        let fit = self.fit_binary(oracle, examples, &among, control)?;
        Ok(FitResult {
            model: Box::new(fit.model),
            solutions: fit.solutions,
            quality: fit.quality,
            semantics: fit.semantics,
            stats: fit.stats,
            report: Report::new(fit.report),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::super::Report;

    #[derive(serde::Serialize)]
    struct Counts {
        b: u32,
        a: f64,
    }

    /// A report is read back as the type it was made of, and written as its fields in
    /// serde_json's (sorted) key order; no report writes nothing.
    #[test]
    fn a_report_is_typed_and_writes_its_fields() {
        let r = Report::new(Counts { b: 2, a: 0.5 });
        assert_eq!(r.get::<Counts>().map(|c| c.b), Some(2));
        assert!(r.get::<u32>().is_none());
        let keys: Vec<String> = r.to_json().keys().cloned().collect();
        assert_eq!(keys, ["a", "b"]);
        assert!(Report::new(()).to_json().is_empty());
        assert!(Report::none().to_json().is_empty());
    }
}

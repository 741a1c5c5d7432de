//! The learner interface, in the style of linfa: parameters are validated when a learner is
//! built, [`Learner::fit`] turns a [`TrainingSet`] into a fitted [`Model`], and the model
//! works without the learner (predicts through any oracle, saves to and loads from a
//! versioned JSON document, see [`super::document`]).

use std::fmt::Debug;

use serde::Serialize;

use super::{LearnError, QualityMeasure, RunControl, RunStats, Solution, TrainingSet};
use crate::concept::{Concept, Vocabulary};
use crate::oracle::{IndividualId, IndividualSet, MembershipOracle, Semantics};

/// The name of a semantics in messages and saved models (`closed`, `open`).
pub fn semantics_name(s: Semantics) -> &'static str {
    match s {
        Semantics::Closed => "closed",
        Semantics::Open => "open",
    }
}

/// A configured learner (its parameters already validated).
pub trait Learner {
    /// The algorithm's stable name (`celoe`, `tbc`), as in JSON output and model files.
    fn name(&self) -> &'static str;

    /// The parameters, as recorded in a saved model.
    fn parameters(&self) -> serde_json::Value;

    fn fit(
        &self,
        oracle: &dyn MembershipOracle,
        training: &TrainingSet,
        control: &RunControl,
    ) -> Result<FitResult, LearnError>;
}

/// A finished run.
#[derive(Debug)]
pub struct FitResult {
    pub model: Box<dyn Model>,
    /// The class expressions the run found with their training counts, best first (TBC:
    /// its feature concepts, each scored as a classifier on its own).
    pub solutions: Vec<Solution>,
    /// The measure `solutions` are ranked by.
    pub quality: QualityMeasure,
    pub semantics: Semantics,
    pub stats: RunStats,
    /// What the learner found besides its model, typed by the learner (TBC:
    /// [`crate::learn::tbc::TbcReport`]); see [`Report`].
    pub report: Report,
}

/// A learner's own account of a run (its parameters, training scores, …), kept as the
/// learner's type: a caller asks for the type it knows ([`Report::get`]) instead of
/// parsing JSON back, and output writes it as JSON ([`Report::to_json`]).
#[derive(Default)]
pub struct Report {
    data: Option<Box<dyn std::any::Any + Send + Sync>>,
    to_json: Option<fn(&(dyn std::any::Any + Send + Sync)) -> serde_json::Value>,
}

impl Report {
    /// No report (CELOE, Forest Mixing: the model and solutions say it all).
    pub fn none() -> Self {
        Report::default()
    }

    pub fn new<R: Serialize + Send + Sync + 'static>(report: R) -> Self {
        Report {
            data: Some(Box::new(report)),
            to_json: Some(|any| {
                any.downcast_ref::<R>()
                    .and_then(|r| serde_json::to_value(r).ok())
                    .unwrap_or_default()
            }),
        }
    }

    /// The report, when it is an `R`.
    pub fn get<R: 'static>(&self) -> Option<&R> {
        self.data.as_ref()?.downcast_ref::<R>()
    }

    /// The report's fields as a JSON object (empty without a report; a report that is not
    /// a struct is under `report`), in serde_json's key order.
    pub fn to_json(&self) -> serde_json::Map<String, serde_json::Value> {
        let (Some(data), Some(to_json)) = (&self.data, self.to_json) else {
            return serde_json::Map::new();
        };
        match to_json(data.as_ref()) {
            serde_json::Value::Object(map) => map,
            serde_json::Value::Null => serde_json::Map::new(),
            other => serde_json::Map::from_iter([("report".to_owned(), other)]),
        }
    }
}

impl Debug for Report {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Report({})", serde_json::Value::Object(self.to_json()))
    }
}

/// One individual's prediction. `member` is always there; the rest depends on the model:
/// a ranking score (CELOE: the training quality of the best solution covering it), a
/// probability and interval (TBC), a degree (fuzzy models), a label with its distribution
/// (multi-class models).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Prediction {
    #[serde(skip)]
    pub individual: IndividualId,
    pub member: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub score: Option<f64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub probability: Option<f64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub interval: Option<(f64, f64)>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub degree: Option<f64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub label: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub distribution: Option<Vec<(String, f64)>>,
}

impl Prediction {
    /// A plain membership.
    pub fn member(individual: IndividualId, member: bool) -> Self {
        Prediction {
            individual,
            member,
            score: None,
            probability: None,
            interval: None,
            degree: None,
            label: None,
            distribution: None,
        }
    }

    /// The value a ranking uses: score, else probability, else degree.
    pub fn ranking_value(&self) -> Option<f64> {
        self.score.or(self.probability).or(self.degree)
    }
}

/// A fitted model.
pub trait Model: Debug + Send + Sync {
    /// The algorithm that fitted it (`celoe`, `tbc`).
    fn algorithm(&self) -> &'static str;

    /// The class expression membership means, when the model is one (CELOE's best
    /// solution); `None` for probabilistic models.
    fn concept(&self) -> Option<&Concept>;

    /// For people: the expression in Manchester and DL syntax where it is a concept, a
    /// readable summary otherwise.
    fn describe(&self, vocabulary: &Vocabulary) -> String;

    /// Predictions for every individual of `individuals`, in id order.
    fn predict(
        &self,
        oracle: &dyn MembershipOracle,
        individuals: &IndividualSet,
    ) -> Result<Vec<Prediction>, LearnError> {
        self.predict_within(oracle, individuals, individuals)
    }

    /// [`Model::predict`], asking the oracle over `among` (a superset; answers do not
    /// depend on it, only which cache is used).
    fn predict_within(
        &self,
        oracle: &dyn MembershipOracle,
        individuals: &IndividualSet,
        among: &IndividualSet,
    ) -> Result<Vec<Prediction>, LearnError>;

    /// Whether predictions carry a ranking value (then AUC-PR/AUC-ROC are meaningful).
    fn is_scored(&self) -> bool;

    /// A class expression whose closed-world instances include every individual this model
    /// predicts a member (with `threshold` on the ranking value, else by its own decision):
    /// applying the model then needs only those candidates, which the store lists by index.
    /// `None` when an individual about which the KB says nothing may be predicted a member
    /// (a prior, a default rule, a cluster every individual falls in): then the caller must
    /// say which individuals to ask about.
    fn support(&self, _threshold: Option<f64>) -> Option<Concept> {
        None
    }

    /// The class expressions a prediction asks the oracle about (fuzzy parts as crisp
    /// skeletons with the same roles), so a caller can tell how far from an individual its
    /// prediction looks (see [`crate::enrich::refresh`]). `None` when the model cannot say.
    fn concepts_asked(&self) -> Option<Vec<Concept>> {
        None
    }

    /// The semantics membership is read under.
    fn semantics(&self) -> Semantics;

    /// The same model predicting under `semantics`, or
    /// [`LearnError::SemanticsMismatch`] when it cannot (a model fitted on what the oracle
    /// answered under one semantics).
    fn with_semantics(&self, semantics: Semantics) -> Result<Box<dyn Model>, LearnError>;

    /// The algorithm-specific part of a saved model (entities as full IRIs); fails with
    /// [`LearnError::ModelWrite`] rather than write what cannot be read back (see
    /// [`body_json`]).
    fn body(&self) -> Result<serde_json::Value, LearnError>;

    /// How the model did on its training examples, for provenance (`enrich`); `None` when
    /// the model keeps no such record.
    fn training_measures(&self) -> Option<serde_json::Value> {
        None
    }
}

/// Reads one algorithm's model body back (`vocabulary` resolves the full IRIs).
pub trait ModelLoader {
    fn algorithm(&self) -> &'static str;
    fn load(
        &self,
        body: &serde_json::Value,
        vocabulary: &Vocabulary,
    ) -> Result<Box<dyn Model>, LearnError>;
}

/// A model body as JSON, refusing any non-finite number among `numbers` (the body's
/// floating-point fields): serde_json would silently write it as `null`, which no loader
/// reads back as the number it was.
pub(crate) fn body_json<T: Serialize>(
    body: &T,
    what: &str,
    numbers: impl IntoIterator<Item = f64>,
) -> Result<serde_json::Value, LearnError> {
    if let Some(x) = numbers.into_iter().find(|x| !x.is_finite()) {
        return Err(LearnError::ModelWrite(format!(
            "{what} holds the non-finite number {x}, which JSON cannot represent"
        )));
    }
    serde_json::to_value(body).map_err(|e| LearnError::ModelWrite(format!("{what}: {e}")))
}

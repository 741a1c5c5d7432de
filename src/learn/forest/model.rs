//! Forest Mixing's fitted model: like CELOE's, the best class expressions with their
//! training counts ([`ConceptModel`]); only the algorithm it records differs, so a saved
//! model says which learner found it and loads back as one.

use crate::concept::{Concept, Vocabulary};
use crate::learn::{ConceptModel, LearnError, Model, ModelLoader, Prediction};
use crate::oracle::{IndividualSet, MembershipOracle, Semantics};

/// The `algorithm` of Forest Mixing models.
pub const ALGORITHM: &str = "forest-mixing";

#[derive(Clone, Debug, PartialEq)]
pub struct ForestModel(pub ConceptModel);

impl Model for ForestModel {
    fn algorithm(&self) -> &'static str {
        ALGORITHM
    }

    fn concept(&self) -> Option<&Concept> {
        self.0.concept()
    }

    fn describe(&self, vocabulary: &Vocabulary) -> String {
        self.0.describe(vocabulary)
    }

    fn predict_within(
        &self,
        oracle: &dyn MembershipOracle,
        individuals: &IndividualSet,
        among: &IndividualSet,
    ) -> Result<Vec<Prediction>, LearnError> {
        self.0.predict_within(oracle, individuals, among)
    }

    fn is_scored(&self) -> bool {
        self.0.is_scored()
    }

    fn support(&self, threshold: Option<f64>) -> Option<Concept> {
        self.0.support(threshold)
    }

    fn concepts_asked(&self) -> Option<Vec<Concept>> {
        self.0.concepts_asked()
    }

    fn semantics(&self) -> Semantics {
        self.0.semantics
    }

    fn with_semantics(&self, semantics: Semantics) -> Result<Box<dyn Model>, LearnError> {
        Ok(Box::new(ForestModel(ConceptModel {
            semantics,
            ..self.0.clone()
        })))
    }

    fn body(&self) -> Result<serde_json::Value, LearnError> {
        self.0.body()
    }
}

/// Reads Forest Mixing's model body (CELOE's format).
pub(crate) struct ForestModelLoader;

impl ModelLoader for ForestModelLoader {
    fn algorithm(&self) -> &'static str {
        ALGORITHM
    }

    fn load(
        &self,
        body: &serde_json::Value,
        vocabulary: &Vocabulary,
    ) -> Result<Box<dyn Model>, LearnError> {
        Ok(Box::new(ForestModel(ConceptModel::from_body(
            body, vocabulary,
        )?)))
    }
}

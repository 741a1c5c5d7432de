//! A fitted concept model: the best class expressions with their training counts. It
//! predicts through any oracle, without the learner that found it.

use crate::concept::Concept;
use crate::eval::Confusion;
use crate::learn::{Examples, QualityMeasure};
use crate::oracle::{IndividualSet, MembershipOracle, OracleError, Semantics};

/// One learned class expression and how it did on the training examples.
#[derive(Clone, Debug, PartialEq)]
pub struct Solution {
    pub concept: Concept,
    pub confusion: Confusion,
    /// The training quality under the model's measure.
    pub quality: f64,
}

/// The best solutions of a run, best first.
#[derive(Clone, Debug, PartialEq)]
pub struct ConceptModel {
    pub quality_measure: QualityMeasure,
    pub semantics: Semantics,
    pub solutions: Vec<Solution>,
}

impl ConceptModel {
    pub fn best(&self) -> Option<&Solution> {
        self.solutions.first()
    }

    /// The individuals of `among` the best solution classifies as members (none without a
    /// solution).
    pub fn predict<O: MembershipOracle + ?Sized>(
        &self,
        oracle: &O,
        among: &IndividualSet,
    ) -> Result<IndividualSet, OracleError> {
        match self.best() {
            Some(s) => oracle.members(&s.concept, among, self.semantics),
            None => Ok(IndividualSet::empty(among.universe())),
        }
    }

    /// The best solution's counts on other examples (a test fold).
    pub fn confusion_on<O: MembershipOracle + ?Sized>(
        &self,
        oracle: &O,
        examples: &Examples,
    ) -> Result<Confusion, OracleError> {
        Ok(examples.confusion(&self.predict(oracle, examples.all())?))
    }
}

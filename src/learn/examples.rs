//! The examples a learner separates, as sets over the signature's individuals.

use super::LearnError;
use crate::eval::Confusion;
use crate::oracle::IndividualSet;

/// Positive and negative examples (disjoint; at least one positive).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Examples {
    positives: IndividualSet,
    negatives: IndividualSet,
    all: IndividualSet,
}

impl Examples {
    pub fn new(positives: IndividualSet, negatives: IndividualSet) -> Result<Self, LearnError> {
        if positives.is_empty() {
            return Err(LearnError::NoPositives);
        }
        let overlap = positives.intersection_count(&negatives);
        if overlap > 0 {
            return Err(LearnError::OverlappingExamples { count: overlap });
        }
        let all = positives.union(&negatives);
        Ok(Examples {
            positives,
            negatives,
            all,
        })
    }

    pub fn positives(&self) -> &IndividualSet {
        &self.positives
    }

    pub fn negatives(&self) -> &IndividualSet {
        &self.negatives
    }

    /// Positives and negatives together: the individuals the oracle is asked about.
    pub fn all(&self) -> &IndividualSet {
        &self.all
    }

    /// How a covered set scores against these examples.
    pub fn confusion(&self, covered: &IndividualSet) -> Confusion {
        Confusion::from_sets(covered, &self.positives, &self.negatives)
    }
}

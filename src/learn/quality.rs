//! The quality measure a search optimises, a pure function of confusion counts.

use serde::Serialize;

use crate::eval::Confusion;

/// F1 is Ontolearn's default and the issue's; accuracy is DL-Learner's.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "cli", derive(clap::ValueEnum))]
#[serde(rename_all = "lowercase")]
pub enum QualityMeasure {
    /// F1 of the positives (Ontolearn's measure).
    #[default]
    F1,
    /// Accuracy over positives and negatives (DL-Learner's default).
    Accuracy,
}

impl QualityMeasure {
    pub fn score(self, c: &Confusion) -> f64 {
        match self {
            QualityMeasure::F1 => c.f1(),
            QualityMeasure::Accuracy => c.accuracy(),
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            QualityMeasure::F1 => "f1",
            QualityMeasure::Accuracy => "accuracy",
        }
    }
}

//! TBC as a [`Learner`]: binary examples in, a [`TbcModel`] out, with its feature concepts
//! reported as the run's solutions (each scored on the training examples as a classifier
//! on its own, by F1).

use super::params::{TbcParams, semantics_of};
use super::search::fit;
use crate::learn::{
    FitResult, LearnError, Learner, QualityMeasure, RunControl, Solution, TrainingSet,
};
use crate::oracle::MembershipOracle;
use crate::refine::Refinement;

/// A terminological Bayesian classifier learner over a refinement operator.
pub struct Tbc<'r> {
    params: TbcParams,
    refinement: &'r dyn Refinement,
}

impl<'r> Tbc<'r> {
    pub fn new(params: TbcParams, refinement: &'r dyn Refinement) -> Result<Self, LearnError> {
        params.validate()?;
        Ok(Tbc { params, refinement })
    }

    pub fn params(&self) -> &TbcParams {
        &self.params
    }
}

impl Learner for Tbc<'_> {
    fn name(&self) -> &'static str {
        "tbc"
    }

    fn parameters(&self) -> serde_json::Value {
        serde_json::to_value(&self.params).unwrap_or_default()
    }

    fn fit(
        &self,
        oracle: &dyn MembershipOracle,
        training: &TrainingSet,
        control: &RunControl,
    ) -> Result<FitResult, LearnError> {
        let examples = training.as_binary("tbc")?;
        let among = training.context(examples.all().universe());
        let run = fit(
            oracle,
            examples.positives(),
            examples.negatives(),
            &among,
            self.refinement,
            &self.params,
            control,
        )?;
        let semantics = semantics_of(self.params.semantics);
        let quality = QualityMeasure::F1;
        let mut solutions = Vec::new();
        for f in &run.model.features {
            // Cached answers: the search asked about every feature over the same set.
            let covered = match oracle.members(f, &among, semantics) {
                Ok(c) => c,
                Err(e) if e.budget_exhausted().is_some() => break,
                Err(e) => return Err(e.into()),
            };
            let confusion = examples.confusion(&covered);
            solutions.push(Solution {
                concept: f.clone(),
                confusion,
                quality: quality.score(&confusion),
            });
        }
        solutions.sort_by(|a, b| b.quality.total_cmp(&a.quality));
        let mut extras = serde_json::Map::new();
        extras.insert("params".into(), self.parameters());
        extras.insert(
            "score".into(),
            serde_json::to_value(run.score).unwrap_or_default(),
        );
        extras.insert(
            "model".into(),
            serde_json::to_value(&run.model).unwrap_or_default(),
        );
        Ok(FitResult {
            model: Box::new(run.model),
            solutions,
            quality,
            semantics,
            stats: run.stats,
            extras,
        })
    }
}

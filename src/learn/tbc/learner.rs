//! TBC as a [`BinaryLearner`](crate::learn::BinaryLearner): binary examples in, a [`TbcModel`] out, with its feature concepts
//! reported as the run's solutions (each scored on the training examples as a classifier
//! on its own, by F1).

use super::params::{TbcParams, semantics_of};
use super::search::fit;
use serde::Serialize;

use super::model::TbcModel;
use super::search::TrainingScore;
use crate::learn::{
    BinaryFit, BinaryLearner, Examples, LearnError, QualityMeasure, RunControl, Solution,
};
use crate::oracle::{IndividualSet, MembershipOracle};
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

/// What a TBC run reports besides its model (the JSON fields `params`, `score`, `model`).
#[derive(Clone, Debug, Serialize)]
pub struct TbcReport {
    pub params: TbcParams,
    /// The final network's training score.
    pub score: TrainingScore,
    /// The fitted model as JSON output shows it (the saved model is its body).
    pub model: TbcModel,
}

impl BinaryLearner for Tbc<'_> {
    type Params = TbcParams;
    type Model = TbcModel;
    type Report = TbcReport;

    fn name(&self) -> &'static str {
        "tbc"
    }

    fn params(&self) -> &TbcParams {
        &self.params
    }

    fn fit_binary(
        &self,
        oracle: &dyn MembershipOracle,
        examples: &Examples,
        among: &IndividualSet,
        control: &RunControl,
    ) -> Result<BinaryFit<TbcModel, TbcReport>, LearnError> {
        let run = fit(
            oracle,
            examples.positives(),
            examples.negatives(),
            among,
            self.refinement,
            &self.params,
            control,
        )?;
        let semantics = semantics_of(self.params.semantics);
        let quality = QualityMeasure::F1;
        let mut solutions = Vec::new();
        for f in &run.model.features {
            // Cached answers: the search asked about every feature over the same set.
            let covered = match oracle.members(f, among, semantics) {
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
        let report = TbcReport {
            params: self.params.clone(),
            score: run.score,
            model: run.model.clone(),
        };
        Ok(BinaryFit {
            model: run.model,
            solutions,
            quality,
            semantics,
            stats: run.stats,
            report,
        })
    }
}

//! Terminological cluster trees as a [`Learner`]: unlabelled individuals in, a
//! [`super::ClusterModel`] out. The run's clusters (concept and size) are in its [`ClusterReport`]; the
//! richer [`super::fit`] also returns every training individual's cluster.

use serde::Serialize;

use super::committee::{CommitteeSource, committee};
use super::grow::fit;
use super::model::{TreeNode, cluster_name};
use super::params::ClusterParams;
use crate::concept::{Concept, to_manchester_full};
use crate::learn::{
    FitResult, LearnError, Learner, QualityMeasure, Report, RunControl, TrainingKind, TrainingSet,
};
use crate::oracle::{MembershipOracle, Semantics};
use crate::refine::Refinement;

/// What a clustering run reports besides its model (JSON fields `params`, `clusters`).
#[derive(Clone, Debug, Serialize)]
pub struct ClusterReport {
    pub params: ClusterParams,
    /// The leaves, in tree order.
    pub clusters: Vec<ClusterSummary>,
}

/// One leaf of the tree: its name, the class expression describing it (full IRIs), its
/// medoid and how many training individuals fell in it.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ClusterSummary {
    pub cluster: String,
    pub concept: String,
    pub medoid: String,
    pub size: usize,
}

/// A cluster-tree learner over a refinement operator.
pub struct ClusterTrees<'r> {
    params: ClusterParams,
    refinement: &'r dyn Refinement,
    committee: CommitteeSource,
    start: Concept,
}

impl<'r> ClusterTrees<'r> {
    /// Clusters from ⊤ with the KB's classes as the committee.
    pub fn new(params: ClusterParams, refinement: &'r dyn Refinement) -> Result<Self, LearnError> {
        params.validate()?;
        Ok(ClusterTrees {
            params,
            refinement,
            committee: CommitteeSource::Classes,
            start: Concept::Top,
        })
    }

    pub fn with_committee(mut self, committee: CommitteeSource) -> Self {
        self.committee = committee;
        self
    }

    /// The concept every individual to cluster is known to belong to (the root's).
    pub fn with_start(mut self, start: Concept) -> Self {
        self.start = start;
        self
    }

    pub fn params(&self) -> &ClusterParams {
        &self.params
    }
}

impl Learner for ClusterTrees<'_> {
    fn name(&self) -> &'static str {
        "cluster"
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
        let TrainingKind::Unlabelled(individuals) = training.kind() else {
            return Err(LearnError::UnsupportedTraining {
                learner: "cluster",
                needs: "unlabelled",
                given: training.kind_name(),
            });
        };
        let among = training.context(individuals.universe());
        let features = committee(oracle.signature(), self.refinement, &self.committee);
        let run = fit(
            oracle,
            individuals,
            &among,
            self.refinement,
            &features,
            &self.start,
            &self.params,
            control,
        )?;
        let clusters: Vec<ClusterSummary> = run
            .model
            .root
            .leaves()
            .into_iter()
            .filter_map(|l| match l {
                TreeNode::Leaf {
                    cluster,
                    concept,
                    size,
                    medoid,
                } => Some(ClusterSummary {
                    cluster: cluster_name(*cluster),
                    concept: to_manchester_full(concept),
                    medoid: medoid.iri.as_str().to_owned(),
                    size: *size,
                }),
                TreeNode::Split { .. } => None,
            })
            .collect();
        let report = ClusterReport {
            params: self.params.clone(),
            clusters,
        };
        Ok(FitResult {
            model: Box::new(run.model),
            solutions: Vec::new(),
            quality: QualityMeasure::F1,
            semantics: Semantics::Open,
            stats: run.stats,
            report: Report::new(report),
        })
    }
}

//! What a learner adds to the multi-class pipeline (`cli::multiclass_run`): how it
//! fits a problem's labelled examples, and its own JSON fields and titles.

use serde::Serialize;

use super::learner::Prepared;
use super::learners::LearnArgs;
use crate::KnowledgeBase;
use crate::learn::experiment::multiclass::Classifier;
use crate::learn::{RunStats, TrainingSet};
use crate::problem::MultiClassProblem;

/// A fitted classifier with its cost and the learner's parameters (for `--save-model`).
pub struct Fit<F> {
    pub fitted: F,
    pub stats: RunStats,
    pub parameters: serde_json::Value,
}

/// What a learner adds to the multi-class pipeline.
pub trait MultiClassCli {
    type Fitted: Classifier + 'static;
    /// Its own JSON fields after `algorithm` (the rule learner: its combination).
    type Head: Serialize;
    /// Its own JSON fields after `examples` (the rule learner: its rules, default class).
    type Body: Serialize;

    /// Fits `training` (labelled with `problem`'s classes), `label` naming the run.
    fn fit(
        &self,
        args: &LearnArgs,
        prep: &Prepared,
        problem: &MultiClassProblem,
        training: TrainingSet,
        label: &str,
    ) -> anyhow::Result<Fit<Self::Fitted>>;

    fn head(&self, args: &LearnArgs) -> Self::Head;

    fn body(&self, kb: &KnowledgeBase, fitted: &Self::Fitted) -> Self::Body;

    /// How the text output names the learner: `learn`'s headline, then `cv`'s.
    fn titles(&self, args: &LearnArgs) -> (String, String);
}

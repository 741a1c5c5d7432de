//! The learners and what they share.
//!
//! Every learner implements [`Learner`]: built from validated parameters, it fits a
//! [`TrainingSet`] under a [`RunControl`] (budgets, progress, cancellation) and returns a
//! [`FitResult`] whose [`Model`] predicts without the learner and saves to a versioned JSON
//! document ([`document`]); what else the run found is the learner's typed [`Report`]. A
//! learner of one class from positives and negatives implements [`BinaryLearner`] instead
//! and gets [`Learner`] from a blanket impl. One [`Termination`] and one [`RunStats`] serve
//! all learners, and
//! [`experiment::cross_validate`] cross-validates any of them. Learners see the
//! [`MembershipOracle`](crate::oracle::MembershipOracle) trait and a
//! [`Refinement`](crate::refine::Refinement) operator, never SPARQL or a backend.
//!
//! Parts later learners reuse live beside them: [`search`] (the search tree, node scoring,
//! batch evaluation, the best-solutions set), [`quality`] (F1 or accuracy), [`minimize`]
//! (removing redundant parts of a solution), [`model`] (CELOE's fitted concept model) and
//! [`targets`] (seeded random target concepts for experiments).

mod binary;
pub mod boost;
pub mod celoe;
pub mod cluster;
mod control;
pub mod document;
mod error;
mod examples;
pub mod experiment;
pub mod features;
pub mod forest;
pub mod has_value;
mod learner;
pub mod minimize;
pub mod model;
pub mod multiclass;
pub mod quality;
pub mod search;
pub mod splits;
mod stats;
pub mod targets;
pub mod tbc;
pub mod tdt;
mod training;
pub mod trf;

pub use binary::{BinaryFit, BinaryLearner};
pub use control::{Progress, ProgressFn, QueryBudgeted, RunClock, RunControl};
pub use error::LearnError;
pub use examples::Examples;
pub(crate) use learner::body_json;
pub use learner::{FitResult, Learner, Model, ModelLoader, Prediction, Report, semantics_name};
pub use model::{ConceptModel, Solution};
pub use quality::QualityMeasure;
pub use stats::{RunStats, Termination};
pub use training::{TrainingKind, TrainingSet};

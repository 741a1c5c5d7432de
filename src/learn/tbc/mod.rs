//! Terminological Bayesian classifiers (naive and tree-augmented naive Bayes over learned
//! feature concepts), after "Learning Terminological Bayesian Classifiers".
//!
//! A feature concept `F` is True for `a` when `K ⊨ F(a)`, False when `K ⊨ ¬F(a)` and
//! missing otherwise (the oracle's three-valued `truth`). The learner ([`fit`]) grows the
//! set of features with FSBE (Alg. 2), each new feature found by a beam search over
//! refinements from ⊤ (Alg. 1), every candidate network scored by BIC-penalised
//! conditional log-likelihood. Missing memberships are handled by ACA, EM, structural EM,
//! IM3, IM2 or robust Bayesian estimation ([`Missing`]). The result is a [`TbcModel`] that
//! predicts through any oracle.
//!
//! ```no_run
//! # use oxilearn::learn::tbc::{TbcParams, fit, operator::BooleanExistential};
//! # fn demo(oracle: &dyn oxilearn::oracle::MembershipOracle,
//! #         pos: &oxilearn::oracle::IndividualSet, neg: &oxilearn::oracle::IndividualSet)
//! #         -> Result<(), oxilearn::learn::tbc::TbcError> {
//! let rho = BooleanExistential::new(oracle.signature());
//! let run = fit(oracle, pos, neg, &rho, &TbcParams::default())?;
//! let predictions = run.model.predict(oracle, &pos.union(neg))?;
//! # Ok(()) }
//! ```

pub mod arborescence;
pub mod build;
pub mod estimate;
pub mod experiment;
pub mod features;
pub mod inference;
pub mod model;
pub mod network;
pub mod operator;
pub mod params;
pub mod score;
pub mod search;
pub mod sem;
pub mod tan;

pub use model::{Prediction, TbcModel};
pub use params::{FeatureSemantics, Missing, Selection, Structure, TbcParams};
pub use search::{TbcRun, TbcStats, Termination, TrainingScore, fit, fit_within};

use crate::oracle::OracleError;

/// What can go wrong while learning or predicting.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum TbcError {
    #[error("invalid parameters: {0}")]
    InvalidParams(String),
    #[error(
        "the learning problem needs positive and negative examples ({positives} positive, {negatives} negative)"
    )]
    NoExamples { positives: usize, negatives: usize },
    #[error("{0} examples are both positive and negative")]
    Overlap(usize),
    #[error(transparent)]
    Oracle(#[from] OracleError),
    #[error(transparent)]
    Folds(#[from] crate::eval::FoldError),
    /// From the CELOE baseline of the experiments.
    #[error(transparent)]
    Learn(#[from] crate::learn::LearnError),
}

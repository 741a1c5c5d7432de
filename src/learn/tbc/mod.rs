//! Terminological Bayesian classifiers (naive and tree-augmented naive Bayes over learned
//! feature concepts), after "Learning Terminological Bayesian Classifiers".
//!
//! A feature concept `F` is True for `a` when `K ⊨ F(a)`, False when `K ⊨ ¬F(a)` and
//! missing otherwise (the oracle's three-valued `truth`). The learner ([`Tbc`], or the
//! function [`fit`]) grows the set of features with FSBE (Alg. 2), each new feature found
//! by a beam search over refinements from ⊤ (Alg. 1), every candidate network scored by
//! BIC-penalised conditional log-likelihood. By default the beam's first level also holds
//! candidates proposed by a short CELOE run (`TbcParams::proposals`; 0 is the paper's
//! search). Missing memberships are handled by ACA, EM, structural EM, IM3, IM2 or robust Bayesian estimation ([`Missing`]). The result is a
//! [`TbcModel`] that predicts through any oracle.
//!
//! The feature language is the paper's (⊓, ⊔, ¬, ∃): pass ρ restricted to it, as the CLI
//! does.
//!
//! ```no_run
//! # use oxilearn::learn::{Learner, Model, RunControl, TrainingSet};
//! # use oxilearn::learn::tbc::{Tbc, TbcParams};
//! # use oxilearn::refine::rho::{Rho, RhoOptions};
//! # use std::sync::Arc;
//! # fn demo(oracle: &dyn oxilearn::oracle::MembershipOracle,
//! #         pos: oxilearn::oracle::IndividualSet, neg: oxilearn::oracle::IndividualSet)
//! #         -> Result<(), oxilearn::learn::LearnError> {
//! let rho = Rho::new(Arc::new(oracle.signature().clone()), RhoOptions::boolean_existential());
//! let all = pos.union(&neg);
//! let training = TrainingSet::binary(pos, neg)?;
//! let run = Tbc::new(TbcParams::default(), &rho)?.fit(oracle, &training, &RunControl::default())?;
//! let predictions = run.model.predict(oracle, &all)?;
//! # Ok(()) }
//! ```

mod arborescence;
mod build;
mod estimate;
mod features;
mod inference;
mod learner;
mod model;
mod network;
mod params;
mod propose;
mod score;
mod search;
mod sem;
mod tan;

pub use build::fit as fit_network;
pub use features::{Dataset, Obs, Truth, arity, column, encode_column};
pub use inference::posterior;
pub use learner::{Tbc, TbcReport};
pub(crate) use model::TbcModelLoader;
pub use model::{TbcModel, TbcPrediction};

/// The old name of [`TbcPrediction`], which reads apart from the generic
/// [`crate::learn::Prediction`].
#[deprecated(
    note = "renamed TbcPrediction (one name per thing: learn::Prediction is the generic one)"
)]
pub type Prediction = TbcPrediction;
pub use network::{Intervals, Network, Shape};
pub use params::{FeatureSemantics, Missing, Selection, Structure, TbcParams, semantics_of};
pub use score::{Fitted, bic_penalty, conditional_log_likelihood};
pub use search::{TbcRun, TrainingScore, fit};

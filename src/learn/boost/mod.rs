//! Fuzzy OWL-Boost (Cardillo & Straccia): boosted fuzzy EL(D) concept inclusions.
//!
//! Real AdaBoost ([`adaboost`]) over the weak learner wFoil-DL ([`wfoil`]), which learns
//! sets of fuzzy GCIs `C ⊑ T` by sequential covering over an EL(D) operator ([`operator`])
//! whose numeric atoms are fuzzy datatypes ([`fuzzy_set`]) built from the values reachable
//! from the examples. Degrees of membership ([`degrees`]) go through the oracle and its
//! cache under a Gödel or Łukasiewicz t-norm ([`tnorm`]); [`mod@reference`] recomputes them
//! from first principles for tests. The fitted [`BoostModel`] predicts a score (Real
//! AdaBoost's sum of the rounds' votes; by default each round's covered and uncovered
//! blocks vote for themselves, see [`adaboost`]) and a degree (the Fuzzy OWL 2
//! weighted-sum concept's value), prints as text and as Fuzzy OWL 2, and saves like every
//! model.
//!
//! Choices the defaults make, each switchable:
//!
//! - **One axiom a round** (`max_axioms` 1 for OWL-Boost; wFoil-DL alone keeps 5): as in
//!   rule-boosting (SLIPPER), the weak learner learns one rule and boosting combines them.
//! - **An axiom must lower Z.** With the confidence-rated vote, sequential covering keeps an
//!   axiom (the first one too) only if it lowers Schapire–Singer's Z, the factor the round
//!   multiplies the training-error bound by.
//! - **Threshold sets.** Each numeric property also gets, for every inner fuzzy set F,
//!   `F or lower` and `F or higher`: the shoulders that are the bounded-sum unions of
//!   neighbouring sets, the "at least"/"at most" tests propositional learners split on,
//!   which a triangle cannot say.
//! - **Closed world only.** Under open-world semantics a missing value is unknown rather
//!   than degree 0, so degrees and the vote of an uncovered individual would not be sound:
//!   both learners refuse to run.
//!
//! ```no_run
//! # use oxilearn::learn::{Learner, Model, RunControl, TrainingSet};
//! # use oxilearn::learn::boost::{BoostParams, OwlBoost};
//! # fn demo(oracle: &dyn oxilearn::oracle::MembershipOracle,
//! #         pos: oxilearn::oracle::IndividualSet, neg: oxilearn::oracle::IndividualSet)
//! #         -> Result<(), oxilearn::learn::LearnError> {
//! let all = pos.union(&neg);
//! let training = TrainingSet::binary(pos, neg)?;
//! let run = OwlBoost::new(BoostParams::default())?.fit(oracle, &training, &RunControl::default())?;
//! let predictions = run.model.predict(oracle, &all)?; // score and degree per individual
//! # Ok(()) }
//! ```

pub mod adaboost;
pub mod concept;
pub mod degrees;
pub mod fuzzy_set;
mod learner;
mod model;
pub mod operator;
mod params;
pub mod reference;
pub mod tnorm;
pub mod validation;
pub mod wfoil;

pub use adaboost::AlphaForm;
pub use concept::FuzzyConcept;
pub use degrees::DegreeEvaluator;
pub use fuzzy_set::{FuzzySet, Partition, Shape};
pub use learner::{BoostReport, BoostRun, OwlBoost};
pub use model::{BoostModel, Graded, Round};
pub(crate) use model::{BoostModelLoader, WfoilModelLoader};
pub use params::BoostParams;
pub use tnorm::TNorm;

/// `--algorithm owl-boost`.
pub const OWL_BOOST: &str = "owl-boost";
/// `--algorithm wfoil-dl`: the weak learner alone.
pub const WFOIL_DL: &str = "wfoil-dl";

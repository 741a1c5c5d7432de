//! Terminological cluster trees (Rizzo, Fanizzi, d'Amato, Esposito: "Conceptual clustering
//! by terminological cluster trees"): unsupervised, a binary tree whose inner nodes hold
//! tests (class expressions found by refining the node's concept) and whose leaves are
//! clusters, each described by the tests along its path (negated on right branches).
//!
//! * [`projection`]: the committee's three-valued projections `π_i(a) ∈ {1, 0, ½}` (or a
//!   prior for ½), computed once per run; [`committee`] chooses the features;
//! * [`distance`]: `d_p`; [`medoid`]: the argmin medoid, exact or sampled;
//! * [`grow`]: the tree (Alg. 1); [`model`]: the fitted tree, which assigns new
//!   individuals to clusters and saves like every model; [`axioms`]: candidate disjointness
//!   and subsumption axioms (and [`owl`], OWL functional syntax through horned-owl);
//! * [`evaluate`]: disjointness against the asserted axioms and a baseline, silhouette.
//!
//! ```no_run
//! # use oxilearn::learn::{Learner, RunControl, TrainingSet};
//! # use oxilearn::learn::cluster::{ClusterParams, ClusterTrees};
//! # use oxilearn::refine::rho::{Rho, RhoOptions};
//! # use std::sync::Arc;
//! # fn demo(oracle: &dyn oxilearn::oracle::MembershipOracle) -> Result<(), oxilearn::learn::LearnError> {
//! let rho = Rho::new(Arc::new(oracle.signature().clone()), RhoOptions::default());
//! let training = TrainingSet::unlabelled(oracle.signature().all_individuals());
//! let run = ClusterTrees::new(ClusterParams::default(), &rho)?
//!     .fit(oracle, &training, &RunControl::default())?;
//! # Ok(()) }
//! ```

pub mod axioms;
pub mod committee;
pub mod distance;
pub mod evaluate;
pub mod grow;
mod learner;
pub mod medoid;
pub mod model;
#[cfg(feature = "owl")]
pub mod owl;
pub mod params;
pub mod projection;

pub use axioms::{AxiomPair, disjointness, subsumptions};
pub use committee::CommitteeSource;
pub use distance::Metric;
pub use grow::{ClusterRun, fit};
pub use learner::{ClusterReport, ClusterSummary, ClusterTrees};
pub use medoid::Sampling;
pub(crate) use model::ClusterModelLoader;
pub use model::{ClusterModel, Medoid, TreeNode, cluster_name};
pub use params::ClusterParams;
pub use projection::{Patterns, Projections, UnknownValue};

//! The learners. Each is a folder with its parameters, its search and its fitted model; they
//! see the [`MembershipOracle`](crate::oracle::MembershipOracle) trait and a
//! [`Refinement`](crate::refine::Refinement) operator, never SPARQL or a backend.
//!
//! Parts later learners reuse live beside them: [`search`] (budgets, the search tree, node
//! scoring, batch evaluation, the best-solutions set), [`quality`] (F1 or accuracy),
//! [`minimize`] (removing redundant parts of a solution), [`model`] (a fitted concept
//! model that predicts without the learner) and [`targets`] (seeded random target concepts
//! for experiments).

pub mod celoe;
mod error;
mod examples;
pub mod minimize;
pub mod model;
pub mod quality;
pub mod search;
pub mod splits;
mod stats;
pub mod targets;
pub mod tbc;

pub use error::LearnError;
pub use examples::Examples;
pub use model::{ConceptModel, Solution};
pub use quality::QualityMeasure;
pub use stats::RunStats;

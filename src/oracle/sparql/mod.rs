//! From concepts to SPARQL algebra, and the fixed queries of `queries/`.

mod build;
mod compile;
mod fixed;
mod successors;
mod truth;

pub use compile::{ClassAtoms, Compiler, Polarity};
pub use fixed::{FIXED_QUERIES, fill_values, fixed_query};
pub(crate) use truth::vocabulary_constant;

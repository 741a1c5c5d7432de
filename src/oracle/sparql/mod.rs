//! From concepts to SPARQL algebra, and the fixed queries of `queries/`.

mod build;
mod compile;
mod fixed;
mod generate;
pub mod pages;
mod shapes;
mod successors;
mod truth;

pub(crate) use build::{and_all, filter};
pub use compile::{ClassAtoms, Compiler, Polarity, SUBJECT};
pub use fixed::{FIXED_QUERIES, fill_in_list, fill_values, fixed_query};
pub use generate::CandidateSource;
pub use shapes::{BooleanShape, CountingShape, QueryShapes, TransitiveShape};
pub(crate) use truth::vocabulary_constant;

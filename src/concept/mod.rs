//! The class-expression language: model, parsing, printing, normal form, length.
mod display;
mod lexical;
mod metrics;
mod model;
mod normalize;
#[cfg(feature = "owl")]
pub mod owl_axiom;
pub mod parse;
#[cfg(test)]
mod test_vocab;
mod vocabulary;

pub use display::{to_dl, to_dl_full, to_manchester, to_manchester_full};
#[cfg(feature = "cli")]
pub(crate) use lexical::edit_distance;
pub use metrics::{depth, length, role_depth, roles};
pub use model::*;
pub use normalize::normalize;
pub use parse::{ParseError, Position, parse, parse_dl, parse_manchester};
pub use vocabulary::{EntityKind, NameError, PropertyKind, Vocabulary};

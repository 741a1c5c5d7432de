//! The class-expression language: model, parsing, printing, normal form, length.
mod model;
pub use model::*;

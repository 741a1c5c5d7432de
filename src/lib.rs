#![doc = include_str!("../README.md")]
//! Layers (arrows point down only): `cli` → learners → `oracle` (membership oracle over an
//! embedded Oxigraph store or a SPARQL endpoint) → `concept` (the class-expression language).

#[cfg(feature = "cli")]
pub mod cli;
pub mod concept;
pub mod eval;
pub mod kb;
mod knowledge_base;
pub mod learn;
pub mod oracle;
pub mod problem;
pub mod refine;

pub use knowledge_base::{KbOracle, KnowledgeBase, KnowledgeBaseBuilder, KnowledgeBaseError};

// The store and algebra types of the public API, so a caller passes values of the very
// versions oxilearn was built with (`oxilearn::oxigraph::store::Store`).
pub use oxigraph;
pub use spargebra;

#![doc = include_str!("../README.md")]
//!
//! # Layers
//!
//! Learners never see SPARQL: they ask a membership oracle which examples a candidate class
//! expression covers, and the oracle compiles the question to SPARQL for an embedded store or
//! an endpoint, caching answers under the expression's normal form. Arrows point down only:
//!
//! ```text
//! cli ──► learn (celoe, tbc; search, minimize, model) ──► refine (rho, random: read only the Signature)
//!  │  │         │                                            │
//!  │  │         └──► eval (confusion, F1/accuracy, AUC, folds)│
//!  │  └──► knowledge_base (the front door: KnowledgeBase)     │
//!  │            │       └──► kb (loading files), problem (learning-problem formats)
//!  └────────────┴───────► oracle ◄────────────────────────────┘
//!                           │  MembershipOracle (trait) ◄── Cached<O> (moka)
//!                           ├── sparql: Concept → spargebra algebra (and queries/*.rq)
//!                           ├── backend: EmbeddedBackend (oxigraph::Store) | HttpBackend (feature `http`)
//!                           └── schema: Signature (classes, roles, hierarchy, domains/ranges, …)
//! concept: the class-expression model, parsers, printers, normal form — depends on nothing above
//! ```
//!
//! `concept` knows nothing of SPARQL; `refine` knows the [`oracle::Signature`], never the
//! oracle; learners know the [`oracle::MembershipOracle`] trait, never a backend. An
//! embedding program usually needs only [`KnowledgeBase`] and a learner (see "Use as a
//! library" above); the layers below are public for programs that bring their own store,
//! transport or operator.

#[cfg(feature = "cli")]
pub mod cli;
pub mod concept;
pub mod enrich;
pub mod eval;
pub mod kb;
mod knowledge_base;
pub mod learn;
pub mod oracle;
pub mod problem;
pub mod refine;
pub mod sparql_functions;
pub mod vocab;

/// Endpoint signature caches on disk (`KnowledgeBaseBuilder::signature_cache`).
#[cfg(feature = "http")]
pub use knowledge_base::signature_cache;
pub use knowledge_base::{
    CandidatePages, Candidates, KbOracle, KnowledgeBase, KnowledgeBaseBuilder, KnowledgeBaseError,
    Page, ScopeQuery,
};

// The store and algebra types of the public API, so a caller passes values of the very
// versions oxilearn was built with (`oxilearn::oxigraph::store::Store`).
pub use oxigraph;
pub use spargebra;

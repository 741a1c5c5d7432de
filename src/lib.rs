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
pub mod files;
mod knowledge_base;
pub mod learn;
pub mod oracle;
pub mod oxl;
pub mod problem;
pub mod refine;
pub mod sparql_functions;

/// The former name of [`files`] (loading KB files), renamed so that `kb` no longer
/// stands both for that module and for a [`KnowledgeBase`].
#[deprecated(note = "renamed `oxilearn::files`")]
pub mod kb {
    pub use crate::files::*;
}

/// The former name of [`oxl`] (oxilearn's own RDF terms), renamed so that it is not
/// mistaken for [`concept::Vocabulary`] (the KB's names).
#[deprecated(note = "renamed `oxilearn::oxl`")]
pub mod vocab {
    pub use crate::oxl::*;
}

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

#[cfg(test)]
mod renamed {
    /// Programs written against the old module names still build (with a deprecation
    /// warning) and get the same items.
    #[test]
    #[allow(deprecated)]
    fn the_old_module_names_still_resolve() {
        use std::any::type_name;
        assert_eq!(
            type_name::<crate::kb::KbFormat>(),
            type_name::<crate::files::KbFormat>()
        );
        assert_eq!(crate::vocab::NS, crate::oxl::NS);
    }
}

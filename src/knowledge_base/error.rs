//! The one error type of the front door: what was being done, with the cause as `source`.

use std::path::PathBuf;

use oxigraph::store::StorageError;

use crate::concept::ParseError;
use crate::files::LoadError;
use crate::learn::LearnError;
use crate::oracle::OracleError;
use crate::problem::ProblemError;

/// Why a knowledge base could not be opened or asked. Each variant says what was being done;
/// the cause is the [`source`](std::error::Error::source).
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum KnowledgeBaseError {
    #[error("no knowledge-base file given")]
    NoFiles,
    #[error("creating the in-memory store")]
    Store(#[source] StorageError),
    /// A file failed to load (the error names it).
    #[error(transparent)]
    Load(#[from] LoadError),
    #[error("reading the signature from {backend}")]
    Signature {
        backend: String,
        #[source]
        source: OracleError,
    },
    /// The endpoint's client could not be set up (an invalid URL or option).
    #[error("setting up the endpoint {endpoint}")]
    Endpoint {
        endpoint: String,
        #[source]
        source: OracleError,
    },
    /// The endpoint could not be reached, or answered the capability probe wrongly.
    #[error("probing {endpoint}")]
    Probe {
        endpoint: String,
        #[source]
        source: OracleError,
    },
    #[error("parsing concept `{text}`")]
    Concept {
        text: String,
        #[source]
        source: ParseError,
    },
    /// Reading, selecting or checking learning problems.
    #[error(transparent)]
    Problem(#[from] ProblemError),
    #[error("problem {problem}")]
    Examples {
        problem: String,
        #[source]
        source: LearnError,
    },
    /// A `--scope-query` that is not a SELECT of one variable.
    #[error("the scope query: {message}\n{query}")]
    ScopeQuery { query: String, message: String },
    /// A class expression whose instances only a full scan of the KB could list.
    #[error(
        "the instances of `{concept}` cannot be listed from the store's indexes (its top level \
         is ⊤, a negation, a universal or an at-most restriction, which hold of individuals \
         without any assertion): give the individuals with --scope EXPR or --scope-query \
         SPARQL, or pass --whole-kb to scan every individual of the KB"
    )]
    Unbounded { concept: String },
    #[error("asking the knowledge base")]
    Oracle(#[source] OracleError),
    #[error("creating the query log {}", path.display())]
    QueryLog {
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },
}

//! Errors of the oracle layer.

use thiserror::Error;

/// Why an oracle call failed. Every variant carries enough to act on: the concept or query and
/// the backend's own message.
#[derive(Debug, Error)]
#[non_exhaustive]
pub enum OracleError {
    /// The backend failed to run a query.
    #[error("query failed on {backend}: {message}\nquery:\n{query}")]
    Backend {
        backend: String,
        message: String,
        query: String,
    },
    /// A fixed query in `queries/` does not parse (a bug, reported with the file name).
    #[error("built-in query {name} does not parse: {message}")]
    BuiltinQuery { name: String, message: String },
    /// The concept uses a construct the oracle cannot evaluate under the chosen semantics.
    #[error("unsupported construct: {0}")]
    Unsupported(String),
    /// The backend answered with something the oracle did not ask for.
    #[error("unexpected answer from {backend}: {message}")]
    UnexpectedAnswer { backend: String, message: String },
    /// An individual that the oracle was asked about is not in the signature's active domain.
    #[error("not an individual of the knowledge base: {0}")]
    UnknownIndividual(String),
}

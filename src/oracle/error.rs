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
    /// A budget the caller set ran out (the query budget, or the run's deadline). Learners
    /// stop on it cleanly and keep what they found so far.
    #[error("{0}")]
    BudgetExhausted(BudgetExhausted),
}

/// Which budget ran out (see [`OracleError::BudgetExhausted`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Error)]
#[non_exhaustive]
pub enum BudgetExhausted {
    /// `--query-budget`: this many requests were allowed and all were sent.
    #[error("query budget of {limit} requests used up")]
    Queries { limit: u64 },
    /// The run's deadline (`--max-runtime`) passed before the query could be answered.
    #[error("the run's time budget ran out before the query was answered")]
    Deadline,
}

impl OracleError {
    /// The budget that ran out, if that is what this error is.
    pub fn budget_exhausted(&self) -> Option<BudgetExhausted> {
        match self {
            OracleError::BudgetExhausted(b) => Some(*b),
            _ => None,
        }
    }
}

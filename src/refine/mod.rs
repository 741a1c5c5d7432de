//! Refinement and concept generation over a signature (never the oracle).

pub mod random;

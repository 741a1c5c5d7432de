//! Learners: each one a folder with its parameters, its fitted model and its search.

pub mod tbc;

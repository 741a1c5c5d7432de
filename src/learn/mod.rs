//! Learners: each one a folder with its parameters, its fitted model and its search; and
//! the seeded target generator the experiments share.

pub mod targets;
pub mod tbc;

//! The CLI side of each learner: one [`LearnerEntry`](super::registry::LearnerEntry) per
//! learner (parameters from the arguments, the flags it takes, its extra JSON fields).

pub mod boost;
pub mod celoe;
pub mod forest;
pub mod multiclass;
pub mod tbc;

//! The learners end to end (CELOE, Forest Mixing, TBC, OWL-Boost, clustering), cross-validation
//! and saved models: one test binary, a module per topic (`tests/learners/<name>.rs`).
//! Modules run in one process: files they write are named by module (`common::temp_path`).

mod common;

// `#[path]`: a crate root's `mod x;` is looked for beside it, in tests/, not in tests/learners/.

#[path = "learners/boost.rs"]
mod boost;
#[cfg(all(feature = "cli", feature = "owl"))]
#[path = "learners/cluster.rs"]
mod cluster;
#[path = "learners/cross_validation.rs"]
mod cross_validation;
#[path = "learners/deep_targets.rs"]
mod deep_targets;
#[path = "learners/features.rs"]
mod features;
#[path = "learners/forest_mixing.rs"]
mod forest_mixing;
#[path = "learners/learn_celoe.rs"]
mod learn_celoe;
#[path = "learners/model_roundtrip.rs"]
mod model_roundtrip;
#[path = "learners/multiclass_any.rs"]
mod multiclass_any;
#[path = "learners/multiclass_cv.rs"]
mod multiclass_cv;
#[cfg(feature = "cli")]
#[path = "learners/tbc.rs"]
mod tbc;
#[path = "learners/trees.rs"]
mod trees;

//! The `oxilearn` program end to end (each test runs the binary), and the SPARQL functions
//! `serve` and callers' stores use: one test binary, a module per topic (`tests/cli/<name>.rs`).
//! Modules run in one process: files they write are named by module (`common::temp_path`).

mod common;

// `#[path]`: a crate root's `mod x;` is looked for beside it, in tests/, not in tests/cli/.

#[cfg(feature = "cli")]
#[path = "cli/cli.rs"]
mod cli;
#[cfg(feature = "cli")]
#[path = "cli/cli_forest.rs"]
mod cli_forest;
#[cfg(feature = "cli")]
#[path = "cli/cli_generate.rs"]
mod cli_generate;
#[cfg(feature = "cli")]
#[path = "cli/cli_instances.rs"]
mod cli_instances;
#[cfg(feature = "cli")]
#[path = "cli/cli_learn.rs"]
mod cli_learn;
#[cfg(feature = "cli")]
#[path = "cli/cli_predict.rs"]
mod cli_predict;
#[cfg(feature = "cli")]
#[path = "cli/cli_serve.rs"]
mod cli_serve;
#[cfg(feature = "cli")]
#[path = "cli/cli_serve_auth.rs"]
mod cli_serve_auth;
#[path = "cli/cli_test_split.rs"]
mod cli_test_split;
#[path = "cli/cli_trees.rs"]
mod cli_trees;
#[path = "cli/describe_class.rs"]
mod describe_class;
#[cfg(feature = "cli")]
#[path = "cli/generated.rs"]
mod generated;
#[path = "cli/multiclass_learners.rs"]
mod multiclass_learners;
#[cfg(feature = "cli")]
#[path = "cli/report.rs"]
mod report;
#[path = "cli/sparql_functions.rs"]
mod sparql_functions;

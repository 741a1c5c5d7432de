//! The oracle, the concept language and ρ, the knowledge base and its loaders, problem files
//! and the dataset gate: one test binary, a module per topic (`tests/oracle/<name>.rs`).
//! Modules run in one process: files they write are named by module (`common::temp_path`).

mod common;

// `#[path]`: a crate root's `mod x;` is looked for beside it, in tests/, not in tests/oracle/.

#[path = "oracle/concept_props.rs"]
mod concept_props;
#[path = "oracle/datasets_gate.rs"]
mod datasets_gate;
#[path = "oracle/instances_in_kb.rs"]
mod instances_in_kb;
#[path = "oracle/kb_bench.rs"]
mod kb_bench;
#[path = "oracle/kb_loading.rs"]
mod kb_loading;
#[cfg(feature = "http")]
#[path = "oracle/knowledge_base.rs"]
mod knowledge_base;
#[path = "oracle/oracle_differential.rs"]
mod oracle_differential;
#[path = "oracle/oracle_fixtures.rs"]
mod oracle_fixtures;
#[path = "oracle/oracle_open_world.rs"]
mod oracle_open_world;
#[path = "oracle/problem_formats.rs"]
mod problem_formats;
#[path = "oracle/refine_props.rs"]
mod refine_props;
#[path = "oracle/scope.rs"]
mod scope;
#[cfg(feature = "cli")]
#[path = "oracle/signature_cache.rs"]
mod signature_cache;

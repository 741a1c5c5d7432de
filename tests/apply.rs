//! Applying models: `enrich` (predictions written into a store or files) and the scale tests
//! (replicated KBs, the examples' neighbourhood): one test binary, a module per topic
//! (`tests/apply/<name>.rs`). Modules run in one process: files they write are named by module.

mod common;

// `#[path]`: a crate root's `mod x;` is looked for beside it, in tests/, not in tests/apply/.

#[cfg(feature = "cli")]
#[path = "apply/enrich.rs"]
mod enrich;
#[path = "apply/scale.rs"]
mod scale;

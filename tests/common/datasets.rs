//! The public benchmark data at `../shared/datasets` (never copied into the repository):
//! tests that need it call [`datasets_or_skip`] and return early on `None`.
//!
//! What happens when a dataset is missing depends on where the tests run:
//! - in CI (`CI` set to anything but empty, `0` or `false`; `.ci/run` sets it) the test
//!   **fails**, with the missing path in the panic message: a CI run without the data must not
//!   look green;
//! - elsewhere the test returns early and passes, and says so on the test process's standard
//!   error. libtest captures what `print!`/`eprint!` write (and shows it only for failing
//!   tests), but not what is written to the `std::io::stderr()` handle itself, so the line
//!   `skipped <test>: …` appears in the `cargo test` output next to the test's `ok`.
//!
//! `#[ignore]` was the other choice; it is decided at compile time, so a test would be ignored
//! with the data present too, or need a build script to look for it.
//!
//! `OXILEARN_DATASETS=DIR` points the tests at another copy (or, set to a path that does not
//! exist, shows what a machine without the data sees).
#![allow(dead_code)]

use std::io::Write as _;
use std::path::{Path, PathBuf};

/// What a test does about one dataset.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Gate {
    /// The data is there: run.
    Run,
    /// Missing outside CI: return early, visibly.
    Skip,
    /// Missing in CI: fail.
    Fail,
}

/// The decision, from the two facts it depends on.
pub fn gate(present: bool, in_ci: bool) -> Gate {
    match (present, in_ci) {
        (true, _) => Gate::Run,
        (false, false) => Gate::Skip,
        (false, true) => Gate::Fail,
    }
}

/// Whether the tests run in CI: `CI` set and not empty, `0` or `false` (as CI services set it).
pub fn in_ci() -> bool {
    std::env::var("CI").is_ok_and(|v| !matches!(v.trim(), "" | "0" | "false"))
}

/// The datasets directory: `OXILEARN_DATASETS`, else `../shared/datasets` beside the crate.
pub fn datasets_dir() -> PathBuf {
    match std::env::var_os("OXILEARN_DATASETS") {
        Some(dir) if !dir.is_empty() => PathBuf::from(dir),
        _ => Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/datasets"),
    }
}

/// `<datasets>/<rel>` (`rel = ""`: the directory itself) when it exists; otherwise `None`
/// after a visible skip message, or a panic in CI (see the module docs).
pub fn datasets_or_skip(rel: &str) -> Option<PathBuf> {
    let dir = datasets_dir();
    let path = if rel.is_empty() { dir } else { dir.join(rel) };
    match gate(path.exists(), in_ci()) {
        Gate::Run => Some(path),
        Gate::Fail => panic!(
            "{} is missing, and CI is set: the dataset-dependent tests must run in CI \
             (provide ../shared/datasets, or set OXILEARN_DATASETS to its location)",
            path.display()
        ),
        Gate::Skip => {
            announce_skip(&path);
            None
        }
    }
}

/// Writes past libtest's capture (see the module docs); the test's name comes from its
/// thread, which libtest names after the test.
fn announce_skip(path: &Path) {
    let thread = std::thread::current();
    let test = thread.name().unwrap_or("a test");
    let _ = writeln!(
        std::io::stderr().lock(),
        "skipped {test}: {} is absent (outside CI a missing dataset skips; with CI set it fails)",
        path.display()
    );
}

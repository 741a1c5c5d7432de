//! Running the `oxilearn` binary from tests.

use std::process::{Command, Output};

use serde_json::Value;

pub fn oxilearn(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_oxilearn"))
        .args(args)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .expect("runs the binary")
}

/// Runs a command that must succeed and print one JSON document.
pub fn json(args: &[&str]) -> Value {
    let out = oxilearn(args);
    assert!(
        out.status.success(),
        "{args:?} failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).expect("stdout is one JSON document")
}

/// Runs a command that must fail with exit code 2 and nothing on stdout; its stderr.
pub fn fails_with(args: &[&str]) -> String {
    let out = oxilearn(args);
    assert_eq!(out.status.code(), Some(2), "{args:?} should exit with 2");
    assert!(out.stdout.is_empty(), "nothing on stdout when failing");
    String::from_utf8_lossy(&out.stderr).into_owned()
}

/// `learn` CELOE on one problem of the bundled family fixture (5,000 tests), saving the model
/// to `model`; the learn JSON.
pub fn learn_family_model(problem: &str, model: &std::path::Path) -> Value {
    learn_family_model_with(problem, model, &[])
}

/// [`learn_family_model`] with more `learn` options.
pub fn learn_family_model_with(problem: &str, model: &std::path::Path, extra: &[&str]) -> Value {
    let path = model.to_str().expect("UTF-8 temporary path");
    let base = [
        "learn",
        "--kb",
        "fixtures/family/family.ttl",
        "--problems",
        "fixtures/family/problems.json",
        "--problem",
        problem,
        "--max-tests",
        "5000",
        "--quiet",
        "--json",
        "--save-model",
        path,
    ];
    json(&[&base[..], extra].concat())
}

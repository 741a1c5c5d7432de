//! Reading a saved model (`learn --save-model`) for `predict` and `evaluate --model`.

use std::path::Path;

use anyhow::Context;

use crate::KnowledgeBase;
use crate::learn::document::{self, LoadedModel};

/// Loads the model at `path` against the KB; warnings (another signature fingerprint) go
/// to stderr.
pub fn load(path: &Path, kb: &KnowledgeBase) -> anyhow::Result<LoadedModel> {
    Ok(load_with_text(path, kb)?.0)
}

/// [`load`], with the document's text (its fingerprint is provenance).
pub fn load_with_text(path: &Path, kb: &KnowledgeBase) -> anyhow::Result<(LoadedModel, String)> {
    let text =
        std::fs::read_to_string(path).with_context(|| format!("reading {}", path.display()))?;
    let loaded = document::from_json(&text, kb.signature())
        .with_context(|| format!("loading the model {}", path.display()))?;
    for w in &loaded.warnings {
        eprintln!("warning: {}: {w}", path.display());
    }
    Ok((loaded, text))
}

/// The `algorithm` a saved model document names, read before any KB is opened (commands
/// whose handling depends on it, e.g. multi-class models, decide what to open from it).
/// `None` when the file is not a model document: loading it later gives the precise error.
pub fn algorithm_of(path: &Path) -> anyhow::Result<Option<String>> {
    let text =
        std::fs::read_to_string(path).with_context(|| format!("reading {}", path.display()))?;
    let doc: serde_json::Value = match serde_json::from_str(&text) {
        Ok(v) => v,
        Err(_) => return Ok(None),
    };
    Ok(doc
        .get("algorithm")
        .and_then(|a| a.as_str())
        .map(str::to_owned))
}

/// A saved multi-class model as its concrete type (its rules and classes), warnings to stderr.
pub fn load_multiclass(
    path: &Path,
    kb: &KnowledgeBase,
) -> anyhow::Result<crate::learn::multiclass::MultiClassModel> {
    let (loaded, text) = load_with_text(path, kb)?;
    if loaded.header.algorithm != crate::learn::multiclass::ALGORITHM {
        anyhow::bail!(
            "{} holds a {} model, not a multi-class one",
            path.display(),
            loaded.header.algorithm
        );
    }
    let doc: serde_json::Value =
        serde_json::from_str(&text).with_context(|| format!("reading {}", path.display()))?;
    crate::learn::multiclass::MultiClassModel::from_body(&doc["model"], kb.vocabulary())
        .with_context(|| format!("loading the model {}", path.display()))
}

/// Refuses a multi-class model in a command that needs a model of one class (`export`,
/// `enrich`), before any KB is read, saying why and what to use instead.
pub fn refuse_multiclass(path: &Path, command: &str, why: &str) -> anyhow::Result<()> {
    if algorithm_of(path)?.as_deref() == Some(crate::learn::multiclass::ALGORITHM) {
        anyhow::bail!(
            "{} is a multi-class model (algorithm multiclass: one-vs-rest rules of several \
             classes, combined into one classifier that gives each individual a label), not a \
             model of one class: {command} {why}. Use `oxilearn predict --kb KB --model {} --json` for \
             each individual's label, probability and class distribution, and `oxilearn \
             evaluate --kb KB --model {} --problems LABELLED` for its multi-class measures",
            path.display(),
            path.display(),
            path.display()
        );
    }
    Ok(())
}

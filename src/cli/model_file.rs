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

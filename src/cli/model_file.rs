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

/// A saved model document as JSON, read before any KB is opened (commands whose handling
/// depends on the model, e.g. multi-class models, decide what to open from it). `None`
/// when the file is not JSON: loading it later gives the precise error.
fn document_of(path: &Path) -> anyhow::Result<Option<serde_json::Value>> {
    let text =
        std::fs::read_to_string(path).with_context(|| format!("reading {}", path.display()))?;
    Ok(serde_json::from_str(&text).ok())
}

/// The `algorithm` a saved model document names (`None`: not a model document).
pub fn algorithm_of(path: &Path) -> anyhow::Result<Option<String>> {
    Ok(document_of(path)?.and_then(|doc| {
        doc.get("algorithm")
            .and_then(|a| a.as_str())
            .map(str::to_owned)
    }))
}

/// A saved multi-class model's algorithm and classes: the rule learner's, or a tree's
/// (tdt, trf) fitted on a multi-class problem. `None` for a model of one class (a binary
/// tree included) or a file that is not a model document.
pub fn multiclass_of(path: &Path) -> anyhow::Result<Option<(String, Vec<String>)>> {
    let Some(doc) = document_of(path)? else {
        return Ok(None);
    };
    let Some(algorithm) = doc.get("algorithm").and_then(|a| a.as_str()) else {
        return Ok(None);
    };
    let body = &doc["model"];
    let rules = algorithm == crate::learn::multiclass::ALGORITHM;
    if !rules && (body.get("classes").is_none() || body["binary"].as_bool() != Some(false)) {
        return Ok(None);
    }
    let classes = serde_json::from_value(body["classes"].clone()).with_context(|| {
        format!(
            "{}: a {algorithm} model without its classes",
            path.display()
        )
    })?;
    Ok(Some((algorithm.to_owned(), classes)))
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
    let Some((algorithm, _)) = multiclass_of(path)? else {
        return Ok(());
    };
    let what = if algorithm == crate::learn::multiclass::ALGORITHM {
        "one-vs-rest rules of several classes, combined into one classifier that gives each \
         individual a label"
    } else {
        "a classifier of several classes that gives each individual a label"
    };
    anyhow::bail!(
        "{} is a multi-class model (algorithm {algorithm}: {what}), not a model of one \
         class: {command} {why}. Use `oxilearn predict --kb KB --model {} --json` for each \
         individual's label, probability and class distribution, and `oxilearn evaluate --kb \
         KB --model {} --problems LABELLED` for its multi-class measures",
        path.display(),
        path.display(),
        path.display()
    );
}

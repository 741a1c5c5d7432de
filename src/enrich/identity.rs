//! What a saved model is, as provenance: its fingerprint and what it says of itself.

use serde::Serialize;

use crate::concept::Vocabulary;
use crate::learn::document::LoadedModel;
use crate::oxl::fnv1a64;

/// A saved model as the triples of an enrichment describe it.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ModelIdentity {
    /// `fnv1a64:…` of the model document (its JSON, keys sorted): the same file, the same
    /// fingerprint, whatever its whitespace.
    pub fingerprint: String,
    pub algorithm: String,
    pub parameters: serde_json::Value,
    pub problem: Option<String>,
    pub signature_fingerprint: String,
    /// A concept model's expression in Manchester syntax with full IRIs; otherwise
    /// [`crate::learn::Model::describe`] with full IRIs too: the triples must not depend
    /// on the prefixes a store happens to know.
    pub definition: String,
    /// [`crate::learn::Model::training_measures`].
    pub training: Option<serde_json::Value>,
}

impl ModelIdentity {
    /// The identity of `loaded`, read from the document `text` it was loaded from.
    pub fn of(text: &str, loaded: &LoadedModel) -> Self {
        let canonical = serde_json::from_str::<serde_json::Value>(text)
            .map(|v| v.to_string())
            .unwrap_or_else(|_| text.to_owned());
        ModelIdentity {
            fingerprint: format!("fnv1a64:{:016x}", fnv1a64(&[&canonical])),
            algorithm: loaded.header.algorithm.clone(),
            parameters: loaded.header.parameters.clone(),
            problem: loaded.header.problem.clone(),
            signature_fingerprint: loaded.header.signature_fingerprint.clone(),
            definition: match loaded.model.concept() {
                Some(c) => crate::concept::to_manchester_full(c),
                None => loaded.model.describe(&Vocabulary::new()),
            },
            training: loaded.model.training_measures(),
        }
    }

    /// The class the model was trained for, when its problem is named by an absolute IRI.
    pub fn trained_class(&self) -> Option<&str> {
        self.problem
            .as_deref()
            .filter(|p| oxigraph::model::NamedNode::new(*p).is_ok() && p.contains(':'))
    }
}

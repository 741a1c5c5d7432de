//! Saved models: a versioned JSON document that names entities by full IRI (never by the
//! store's internal ids), records the algorithm, its parameters, the training problem and
//! a fingerprint of the KB's signature.
//!
//! ```json
//! {"format": "oxilearn-model", "version": 1, "algorithm": "celoe",
//!  "parameters": {…}, "problem": "Uncle", "signature_fingerprint": "fnv1a64:…",
//!  "model": {…algorithm-specific…}}
//! ```
//!
//! The fingerprint ([`signature_fingerprint`]) covers the schema a model's expressions
//! refer to: the classes the schema names (declared or in the hierarchy) and their asserted subclass, equivalence and disjointness
//! axioms, the declared object properties with their super-properties, inverses and characteristics,
//! and the declared data properties with their super-properties. It does not cover individuals or
//! assertions, so a model can be applied to other data over the same schema. Loading
//! against a KB with another fingerprint warns; it does not fail (the expressions may still
//! make sense there).

use serde::{Deserialize, Serialize};

pub use super::ModelLoader;
use super::boost::{BoostModelLoader, WfoilModelLoader};
use super::cluster::ClusterModelLoader;
use super::forest::ForestModelLoader;
use super::model::ConceptModelLoader;
use super::multiclass::MultiClassModelLoader;
use super::tbc::TbcModelLoader;
use super::tdt::TreeModelLoader;
use super::{LearnError, Model};
use crate::oracle::Signature;

/// The `format` value of every model document.
pub const FORMAT: &str = "oxilearn-model";
/// The document version this build writes and reads.
pub const VERSION: u32 = 1;

/// The document without the model body.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ModelHeader {
    pub format: String,
    pub version: u32,
    pub algorithm: String,
    pub parameters: serde_json::Value,
    /// The learning problem the model was trained on (`None` when it had no name).
    pub problem: Option<String>,
    pub signature_fingerprint: String,
}

#[derive(Serialize, Deserialize)]
struct Document {
    #[serde(flatten)]
    header: ModelHeader,
    model: serde_json::Value,
}

/// Every model format this build can read: adding a learner adds one line here.
fn loaders() -> [&'static dyn ModelLoader; 9] {
    [
        &ConceptModelLoader,
        &TbcModelLoader,
        &ForestModelLoader,
        &BoostModelLoader,
        &WfoilModelLoader,
        &ClusterModelLoader,
        &MultiClassModelLoader,
        &TreeModelLoader(super::tdt::ALGORITHM),
        &TreeModelLoader(super::trf::ALGORITHM),
    ]
}

/// A loaded model with its header and what did not match the KB.
#[derive(Debug)]
pub struct LoadedModel {
    pub header: ModelHeader,
    pub model: Box<dyn Model>,
    /// E.g. a fingerprint that differs from the KB's.
    pub warnings: Vec<String>,
}

/// The document for `model` (pretty-printed JSON); fails when the body cannot be written
/// faithfully (a non-finite number, a serialisation error).
pub fn to_json(
    model: &dyn Model,
    parameters: serde_json::Value,
    problem: Option<&str>,
    signature: &Signature,
) -> Result<String, LearnError> {
    let doc = Document {
        header: ModelHeader {
            format: FORMAT.to_owned(),
            version: VERSION,
            algorithm: model.algorithm().to_owned(),
            parameters,
            problem: problem.map(str::to_owned),
            signature_fingerprint: signature_fingerprint(signature),
        },
        model: model.body()?,
    };
    serde_json::to_string_pretty(&doc)
        .map_err(|e| LearnError::ModelWrite(format!("the model document: {e}")))
}

/// Reads a document written by [`to_json`] against the KB of `signature`.
pub fn from_json(text: &str, signature: &Signature) -> Result<LoadedModel, LearnError> {
    let doc: Document = serde_json::from_str(text)
        .map_err(|e| LearnError::ModelFormat(format!("not a model document: {e}")))?;
    let h = &doc.header;
    if h.format != FORMAT {
        return Err(LearnError::ModelFormat(format!(
            "format is {:?}, expected {FORMAT:?}",
            h.format
        )));
    }
    if h.version != VERSION {
        return Err(LearnError::ModelFormat(format!(
            "version {} is not supported (this build reads version {VERSION})",
            h.version
        )));
    }
    let loader = loaders()
        .into_iter()
        .find(|l| l.algorithm() == h.algorithm)
        .ok_or_else(|| LearnError::ModelFormat(format!("unknown algorithm {:?}", h.algorithm)))?;
    let model = loader.load(&doc.model, &signature.vocabulary())?;
    let mut warnings = Vec::new();
    let here = signature_fingerprint(signature);
    if here != h.signature_fingerprint {
        warnings.push(format!(
            "the model was trained on a KB with signature fingerprint {}, this KB has {here}: \
             its classes or properties differ",
            h.signature_fingerprint
        ));
    }
    Ok(LoadedModel {
        header: doc.header,
        model,
        warnings,
    })
}

/// A stable 64-bit FNV-1a hash of the schema part of `signature` (see the module docs for
/// what it covers), as `fnv1a64:<16 hex digits>`. Everything is visited in sorted order.
pub fn signature_fingerprint(signature: &Signature) -> String {
    let mut h = Fnv::new();
    for c in &signature.schema_classes {
        h.line(&["C", c.as_str()]);
    }
    for (sub, sups) in &signature.superclasses {
        for sup in sups {
            h.line(&["S", sub.as_str(), sup.as_str()]);
        }
    }
    for (a, b) in &signature.equivalent_classes {
        h.line(&["E", a.as_str(), b.as_str()]);
    }
    for (a, bs) in &signature.disjoint_classes {
        for b in bs {
            h.line(&["X", a.as_str(), b.as_str()]);
        }
    }
    // Only what the schema declares: classes and properties known from their use in the
    // data depend on which individuals were read (the whole KB, or a run's neighbourhood).
    for (p, info) in signature
        .object_properties
        .iter()
        .filter(|(_, i)| i.declared)
    {
        let flags = [
            info.functional,
            info.inverse_functional,
            info.transitive,
            info.symmetric,
        ]
        .map(|f| if f { "1" } else { "0" })
        .concat();
        h.line(&["O", p.as_str(), &flags]);
        for s in &info.super_properties {
            h.line(&["OS", p.as_str(), s.as_str()]);
        }
        for i in &info.inverses {
            h.line(&["OI", p.as_str(), i.as_str()]);
        }
    }
    for (p, info) in signature.data_properties.iter().filter(|(_, i)| i.declared) {
        h.line(&["D", p.as_str()]);
        for s in &info.super_properties {
            h.line(&["DS", p.as_str(), s.as_str()]);
        }
    }
    format!("fnv1a64:{:016x}", h.0)
}

struct Fnv(u64);

impl Fnv {
    fn new() -> Self {
        Fnv(0xcbf2_9ce4_8422_2325)
    }

    fn bytes(&mut self, b: &[u8]) {
        for &x in b {
            self.0 ^= u64::from(x);
            self.0 = self.0.wrapping_mul(0x0100_0000_01b3);
        }
    }

    /// Fields separated by a tab, ended by a newline (IRIs contain neither).
    fn line(&mut self, fields: &[&str]) {
        for (i, f) in fields.iter().enumerate() {
            if i > 0 {
                self.bytes(b"\t");
            }
            self.bytes(f.as_bytes());
        }
        self.bytes(b"\n");
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::concept::Iri;

    #[test]
    fn fingerprint_is_stable_and_sees_the_schema_not_the_data() {
        let mut s = Signature::default();
        s.schema_classes.insert(Iri::new("http://e/A"));
        let a = signature_fingerprint(&s);
        assert_eq!(a, signature_fingerprint(&s.clone()));
        assert!(a.starts_with("fnv1a64:") && a.len() == 24, "{a}");
        // FNV-1a of the one line "C\thttp://e/A\n", by the algorithm's definition.
        let mut h = Fnv::new();
        h.bytes(b"C\thttp://e/A\n");
        assert_eq!(a, format!("fnv1a64:{:016x}", h.0));
        s.schema_classes.insert(Iri::new("http://e/B"));
        assert_ne!(a, signature_fingerprint(&s));
        // A class known only from the data (a type of some individual) is not schema.
        s.classes.insert(Iri::new("http://e/C"));
        assert_ne!(a, signature_fingerprint(&s));
        let b = signature_fingerprint(&s);
        s.classes.insert(Iri::new("http://e/D"));
        assert_eq!(b, signature_fingerprint(&s));
    }

    #[test]
    fn documents_of_other_formats_and_versions_are_refused() {
        let s = Signature::default();
        for text in [
            "[]",
            r#"{"format":"x","version":1,"algorithm":"celoe","parameters":{},"problem":null,"signature_fingerprint":"","model":{}}"#,
            r#"{"format":"oxilearn-model","version":9,"algorithm":"celoe","parameters":{},"problem":null,"signature_fingerprint":"","model":{}}"#,
            r#"{"format":"oxilearn-model","version":1,"algorithm":"nope","parameters":{},"problem":null,"signature_fingerprint":"","model":{}}"#,
        ] {
            assert!(
                matches!(from_json(text, &s), Err(LearnError::ModelFormat(_))),
                "{text}"
            );
        }
    }
}

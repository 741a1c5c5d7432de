//! oxilearn's own RDF vocabulary: what `enrich` writes into a store, and how a graph of
//! predictions is recognised so that learning never reads its own output back.
//!
//! Every term is a plain IRI under [`NS`] (or PROV-O), with no RDF 1.2 triple terms, so
//! any SPARQL 1.1 store keeps it (Virtuoso 7 included). A graph `G` that oxilearn wrote
//! holds the marker triple `G rdf:type oxl:PredictionGraph`; the rest is documented on
//! each constant and in `docs/enrich.md` ("Writing predictions back").

/// The namespace of the vocabulary (`oxl:`).
pub const NS: &str = "https://w3id.org/oxilearn/ns#";
/// The prefix of the IRIs oxilearn mints (models, runs, predictions, staging graphs): never
/// individuals of a KB.
pub const OWN_PREFIX: &str = "urn:oxilearn:";
/// PROV-O.
pub const PROV: &str = "http://www.w3.org/ns/prov#";

/// Class of a named graph written by `enrich`: `G a oxl:PredictionGraph` inside `G`.
pub const PREDICTION_GRAPH: &str = "https://w3id.org/oxilearn/ns#PredictionGraph";
/// Class of one scored prediction (individual, class, score).
pub const PREDICTION: &str = "https://w3id.org/oxilearn/ns#Prediction";
/// Class of a saved model, identified by its fingerprint.
pub const MODEL: &str = "https://w3id.org/oxilearn/ns#Model";
/// Class of one enrichment run (also a `prov:Activity`).
pub const ENRICHMENT: &str = "https://w3id.org/oxilearn/ns#Enrichment";

/// Prediction → the individual it is about.
pub const INDIVIDUAL: &str = "https://w3id.org/oxilearn/ns#individual";
/// Prediction / enrichment → the class predicted.
pub const CLASS: &str = "https://w3id.org/oxilearn/ns#class";
/// Prediction → whether the model predicts membership (`xsd:boolean`).
pub const MEMBER: &str = "https://w3id.org/oxilearn/ns#member";
/// Prediction → the model's ranking score (`xsd:double`).
pub const SCORE: &str = "https://w3id.org/oxilearn/ns#score";
/// Prediction → a probability (`xsd:double`).
pub const PROBABILITY: &str = "https://w3id.org/oxilearn/ns#probability";
/// Prediction → the lower end of a probability interval (`xsd:double`).
pub const LOWER: &str = "https://w3id.org/oxilearn/ns#lowerBound";
/// Prediction → the upper end of a probability interval (`xsd:double`).
pub const UPPER: &str = "https://w3id.org/oxilearn/ns#upperBound";
/// Prediction → a fuzzy membership degree (`xsd:double`).
pub const DEGREE: &str = "https://w3id.org/oxilearn/ns#degree";
/// Model → the learning algorithm (`celoe`, `tbc`, …).
pub const ALGORITHM: &str = "https://w3id.org/oxilearn/ns#algorithm";
/// Model → its parameters, as a JSON string.
pub const PARAMETERS: &str = "https://w3id.org/oxilearn/ns#parameters";
/// Model → the name of the learning problem it was trained on.
pub const PROBLEM: &str = "https://w3id.org/oxilearn/ns#problem";
/// Model → what it predicts, for people (Manchester syntax for a class expression).
pub const DEFINITION: &str = "https://w3id.org/oxilearn/ns#definition";
/// Model → its training measures, as a JSON string.
pub const TRAINING_MEASURES: &str = "https://w3id.org/oxilearn/ns#trainingMeasures";
/// Model → its fingerprint (`fnv1a64:…` of the saved document).
pub const FINGERPRINT: &str = "https://w3id.org/oxilearn/ns#fingerprint";
/// Model → the fingerprint of the schema it was trained on.
pub const SIGNATURE_FINGERPRINT: &str = "https://w3id.org/oxilearn/ns#signatureFingerprint";
/// Enrichment → the score threshold applied (`xsd:double`), when one was.
pub const THRESHOLD: &str = "https://w3id.org/oxilearn/ns#threshold";

/// `prov:Activity`.
pub const PROV_ACTIVITY: &str = "http://www.w3.org/ns/prov#Activity";
/// `prov:Entity`.
pub const PROV_ENTITY: &str = "http://www.w3.org/ns/prov#Entity";
/// `prov:used`.
pub const PROV_USED: &str = "http://www.w3.org/ns/prov#used";
/// `prov:wasGeneratedBy`.
pub const PROV_WAS_GENERATED_BY: &str = "http://www.w3.org/ns/prov#wasGeneratedBy";
/// `prov:endedAtTime` (only with `--record-time`: it makes reruns differ).
pub const PROV_ENDED_AT_TIME: &str = "http://www.w3.org/ns/prov#endedAtTime";

/// The model resource for a model fingerprint (`fnv1a64:0123…` → `urn:oxilearn:model:0123…`).
pub fn model_iri(fingerprint: &str) -> String {
    format!("urn:oxilearn:model:{}", fingerprint_digits(fingerprint))
}

/// The enrichment run of a model into a graph for a class: the same inputs, the same IRI.
pub fn enrichment_iri(fingerprint: &str, graph: &str, class: &str) -> String {
    format!(
        "urn:oxilearn:enrichment:{}:{:016x}",
        fingerprint_digits(fingerprint),
        fnv1a64(&[graph, class])
    )
}

/// The prediction resource of a model for an individual and class.
pub fn prediction_iri(fingerprint: &str, individual: &str, class: &str) -> String {
    format!(
        "urn:oxilearn:prediction:{}:{:016x}",
        fingerprint_digits(fingerprint),
        fnv1a64(&[individual, class])
    )
}

fn fingerprint_digits(fingerprint: &str) -> &str {
    fingerprint.rsplit(':').next().unwrap_or(fingerprint)
}

/// 64-bit FNV-1a over the fields, each followed by a tab (IRIs hold no tab).
pub fn fnv1a64(fields: &[&str]) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for f in fields {
        for &b in f.as_bytes().iter().chain(b"\t") {
            h ^= u64::from(b);
            h = h.wrapping_mul(0x0100_0000_01b3);
        }
    }
    h
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn derived_iris_are_stable_and_distinct() {
        let fp = "fnv1a64:00ff00ff00ff00ff";
        assert_eq!(model_iri(fp), "urn:oxilearn:model:00ff00ff00ff00ff");
        let a = prediction_iri(fp, "http://x/a", "http://x/C");
        assert_eq!(a, prediction_iri(fp, "http://x/a", "http://x/C"));
        assert_ne!(a, prediction_iri(fp, "http://x/b", "http://x/C"));
        assert_ne!(a, prediction_iri(fp, "http://x/a", "http://x/D"));
        // Field boundaries count: ("ab", "c") and ("a", "bc") differ.
        assert_ne!(fnv1a64(&["ab", "c"]), fnv1a64(&["a", "bc"]));
        assert!(a.starts_with("urn:oxilearn:prediction:00ff00ff00ff00ff:"));
    }
}

//! The answers of the schema queries: what a signature knows of the TBox, read once per
//! store with queries whose cost is that of the schema, not of the ABox.
//!
//! They are kept apart from the rest of the signature for two reasons. Every scope (the
//! active domain, the schema alone, an examples' neighbourhood) reads the same ones, so one
//! set of answers serves them all. And they are the part of a signature that can be cached on
//! disk for an endpoint (see `knowledge_base::signature_cache`): they depend on the schema
//! only, which a fingerprint query checks cheaply ([`SCHEMA_FINGERPRINT`]), whereas the
//! neighbourhood depends on the examples and on data that changes without the schema.

use std::collections::BTreeMap;

use rayon::prelude::*;

use crate::oracle::OracleError;
use crate::oracle::backend::{SolutionTable, SparqlBackend};
use crate::oracle::sparql::{FIXED_QUERIES, fixed_query};

/// The fixed queries (`queries/NAME.rq`) whose answers depend on the schema only. Not here:
/// `scope_blank_types` (whether a blank-node class types anything is a fact about the
/// data) and every query over individuals.
pub const SCHEMA_QUERIES: &[&str] = &[
    "property_declarations",
    "schema_predicates",
    "inverses",
    "schema_classes",
    "sub_properties",
    "domains",
    "ranges",
    "subclasses",
    "equivalent_classes",
    "class_edges",
    "disjoint_classes",
    "complement_classes",
];

/// The fixed query whose answer changes when the answers of [`SCHEMA_QUERIES`] may change:
/// per schema predicate and declaration type, a triple count and an order-independent
/// checksum of the triples' terms (see `queries/schema_fingerprint.rq`).
pub const SCHEMA_FINGERPRINT: &str = "schema_fingerprint";

/// The answer of every query of [`SCHEMA_QUERIES`], by name.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct SchemaAnswers {
    tables: BTreeMap<String, SolutionTable>,
}

impl SchemaAnswers {
    /// Runs every schema query on `backend` (in parallel: an endpoint answers up to its
    /// concurrency at once).
    pub fn load(backend: &dyn SparqlBackend) -> Result<Self, OracleError> {
        let tables = SCHEMA_QUERIES
            .par_iter()
            .map(|name| Ok((name.to_string(), backend.select(&fixed_query(name)?)?)))
            .collect::<Result<BTreeMap<_, _>, OracleError>>()?;
        Ok(SchemaAnswers { tables })
    }

    /// Answers read elsewhere (a cache file); `None` unless every schema query has one.
    pub fn from_tables(tables: BTreeMap<String, SolutionTable>) -> Option<Self> {
        SCHEMA_QUERIES
            .iter()
            .all(|name| tables.contains_key(*name))
            .then_some(SchemaAnswers { tables })
    }

    /// The answers, by query name.
    pub fn tables(&self) -> &BTreeMap<String, SolutionTable> {
        &self.tables
    }

    /// The answer of the schema query `name`.
    pub fn table(&self, name: &str) -> Result<&SolutionTable, OracleError> {
        self.tables
            .get(name)
            .ok_or_else(|| OracleError::BuiltinQuery {
                name: format!("queries/{name}.rq"),
                message: "not one of the schema queries whose answers are kept".into(),
            })
    }
}

/// A digest of the text of the schema queries and of the fingerprint query: answers cached
/// by another version of oxilearn, whose queries differ, are not taken for this one's.
pub fn schema_queries_digest() -> String {
    let mut hash = Fnv64::default();
    for (name, text) in FIXED_QUERIES {
        if SCHEMA_QUERIES.contains(name) || *name == SCHEMA_FINGERPRINT {
            hash.write(name.as_bytes());
            hash.write(&[0]);
            hash.write(text.as_bytes());
            hash.write(&[0]);
        }
    }
    format!("{:016x}", hash.finish())
}

/// FNV-1a, 64 bits: a digest that is the same on every platform and Rust version (unlike
/// the standard library's hasher), for cache keys and file names. Not cryptographic.
#[derive(Clone, Copy, Debug)]
pub struct Fnv64(u64);

impl Default for Fnv64 {
    fn default() -> Self {
        Fnv64(0xcbf2_9ce4_8422_2325)
    }
}

impl Fnv64 {
    pub fn write(&mut self, bytes: &[u8]) {
        for b in bytes {
            self.0 ^= u64::from(*b);
            self.0 = self.0.wrapping_mul(0x0000_0100_0000_01b3);
        }
    }

    pub fn finish(&self) -> u64 {
        self.0
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::oracle::backend::EmbeddedBackend;

    #[test]
    fn every_schema_query_is_answered_and_kept() {
        let store = oxigraph::store::Store::new().unwrap();
        store
            .load_from_reader(
                oxigraph::io::RdfFormat::Turtle,
                "@prefix owl: <http://www.w3.org/2002/07/owl#> .
                 @prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .
                 <urn:A> a owl:Class ; rdfs:subClassOf <urn:B> .
                 <urn:x> a <urn:A> ."
                    .as_bytes(),
            )
            .unwrap();
        let answers = SchemaAnswers::load(&EmbeddedBackend::new(store)).unwrap();
        assert_eq!(answers.tables().len(), SCHEMA_QUERIES.len());
        assert_eq!(answers.table("subclasses").unwrap().rows.len(), 1);
        assert!(answers.table("scope_blank_types").is_err());
        let tables = answers.tables().clone();
        assert_eq!(SchemaAnswers::from_tables(tables.clone()), Some(answers));
        let mut partial = tables;
        partial.remove("domains");
        assert_eq!(SchemaAnswers::from_tables(partial), None);
    }

    #[test]
    fn the_digests_are_stable() {
        let mut h = Fnv64::default();
        h.write(b"a");
        // The published FNV-1a test vector for "a".
        assert_eq!(h.finish(), 0xaf63_dc4c_8601_ec8c);
        assert_eq!(schema_queries_digest(), schema_queries_digest());
        assert_eq!(schema_queries_digest().len(), 16);
    }
}

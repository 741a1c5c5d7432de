//! The answers of the schema queries: what a signature knows of the TBox, read once per
//! store with queries whose cost is that of the schema, not of the ABox.
//!
//! They are kept apart from the rest of the signature for two reasons. Every scope (the
//! active domain, the schema alone, an examples' neighbourhood) reads the same ones, so one
//! set of answers serves them all. And they are the part of a signature that can be cached on
//! disk for an endpoint (see `knowledge_base::signature_cache`): they depend on the schema
//! only, which fingerprint queries check cheaply ([`schema_fingerprint`]), whereas the
//! neighbourhood depends on the examples and on data that changes without the schema.

use std::collections::{BTreeMap, BTreeSet};

use oxigraph::model::{NamedNode, Term};
use rayon::prelude::*;
use spargebra::term::{GroundTerm, Variable};

use crate::oracle::OracleError;
use crate::oracle::backend::{SolutionTable, SparqlBackend};
use crate::oracle::sparql::{FIXED_QUERIES, fill_values, fixed_query};

/// The schema answers a signature keeps, by name: the answers of the fixed queries
/// (`queries/NAME.rq`) of the same name, and [`SCHEMA_PREDICATES`]. Not here:
/// `scope_blank_types` (whether a blank-node class types anything is a fact about the data)
/// and every query over individuals.
pub const SCHEMA_QUERIES: &[&str] = &[
    "property_declarations",
    SCHEMA_PREDICATES,
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

/// The predicates used on schema entities (one column `?p`): the union of
/// `entity_predicates.rq` over the entities of `schema_entities.rq`, asked in two steps
/// (see that file for why).
pub const SCHEMA_PREDICATES: &str = "schema_predicates";

/// The fixed queries of the schema fingerprint besides `entity_fingerprint.rq`, with the
/// tag of their rows (see [`schema_fingerprint`]).
const FINGERPRINT_QUERIES: &[(&str, &str)] = &[
    ("p", "fingerprint_predicates"),
    ("t", "fingerprint_types"),
    ("l", "fingerprint_lists"),
];

/// The fixed queries the schema answers and their fingerprint are read with (their text
/// is part of a cache entry's identity, see [`schema_queries_digest`]).
const QUERY_FILES: &[&str] = &[
    "property_declarations",
    "schema_entities",
    "entity_predicates",
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
    "fingerprint_predicates",
    "fingerprint_types",
    "fingerprint_lists",
    "entity_fingerprint",
];

/// Schema entities per `VALUES` block.
const CHUNK: usize = 500;

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
            .map(|name| {
                let table = match *name {
                    SCHEMA_PREDICATES => entity_predicates(backend)?,
                    _ => backend.select(&fixed_query(name)?)?,
                };
                Ok((name.to_string(), table))
            })
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

/// The schema entities named by IRIs (`schema_entities.rq`), as `VALUES` chunks.
fn entity_chunks(backend: &dyn SparqlBackend) -> Result<Vec<Vec<GroundTerm>>, OracleError> {
    let table = backend.select(&fixed_query("schema_entities")?)?;
    let entities: BTreeSet<&str> = table
        .column_values("s")
        .filter_map(|t| match t {
            Term::NamedNode(n) => Some(n.as_str()),
            _ => None,
        })
        .collect();
    let all: Vec<GroundTerm> = entities
        .into_iter()
        .map(|s| GroundTerm::NamedNode(NamedNode::new_unchecked(s)))
        .collect();
    Ok(all.chunks(CHUNK).map(<[GroundTerm]>::to_vec).collect())
}

/// Runs the fixed query `name` over each chunk of schema entities (filled into `?s`).
fn per_entity_chunk(
    backend: &dyn SparqlBackend,
    name: &str,
) -> Result<Vec<SolutionTable>, OracleError> {
    entity_chunks(backend)?
        .into_par_iter()
        .map(|chunk| {
            let mut q = fixed_query(name)?;
            fill_values(&mut q, "s", chunk)?;
            backend.select(&q)
        })
        .collect()
}

/// [`SCHEMA_PREDICATES`]: the predicates of the schema entities, sorted.
fn entity_predicates(backend: &dyn SparqlBackend) -> Result<SolutionTable, OracleError> {
    let mut predicates: BTreeSet<NamedNode> = BTreeSet::new();
    for table in per_entity_chunk(backend, "entity_predicates")? {
        predicates.extend(table.column_values("p").filter_map(|t| match t {
            Term::NamedNode(n) => Some(n.clone()),
            _ => None,
        }));
    }
    Ok(SolutionTable {
        variables: vec![Variable::new_unchecked("p")],
        rows: predicates
            .into_iter()
            .map(|p| vec![Some(Term::NamedNode(p))])
            .collect(),
    })
}

/// The fingerprint of the schema `backend` holds now: per schema predicate, declaration
/// type, member of `owl:AllDisjointClasses` lists and predicate used on schema entities, a
/// triple count and two checksums of the triples' terms, computed by the store over the
/// schema only (`fingerprint_*.rq`, and `entity_fingerprint.rq` over the entities of
/// `schema_entities.rq`, summed over chunks); the rows digested, sorted, so that the
/// endpoint's row order does not matter. It changes whenever the answers of
/// [`SCHEMA_QUERIES`] may have. The four parts are asked in parallel.
pub fn schema_fingerprint(backend: &dyn SparqlBackend) -> Result<String, OracleError> {
    let row = |tag: &str, cells: &[Option<Term>]| {
        let cells: Vec<String> = cells
            .iter()
            .map(|cell| cell.as_ref().map(Term::to_string).unwrap_or_default())
            .collect();
        format!("{tag}\t{}", cells.join("\t"))
    };
    let parts = (0..=FINGERPRINT_QUERIES.len())
        .into_par_iter()
        .map(|i| match FINGERPRINT_QUERIES.get(i) {
            Some((tag, name)) => Ok(backend
                .select(&fixed_query(name)?)?
                .rows
                .iter()
                .map(|r| row(tag, r))
                .collect()),
            None => entity_fingerprint(backend),
        })
        .collect::<Result<Vec<Vec<String>>, OracleError>>()?;
    let mut rows: Vec<String> = parts.into_iter().flatten().collect();
    rows.sort();
    let mut hash = Fnv64::default();
    for r in &rows {
        hash.write(r.as_bytes());
        hash.write(b"\n");
    }
    Ok(format!("{}:{:016x}", rows.len(), hash.finish()))
}

/// The rows of the fingerprint's entity part: per predicate used on schema entities, the
/// triple count and checksums summed over the entity chunks.
fn entity_fingerprint(backend: &dyn SparqlBackend) -> Result<Vec<String>, OracleError> {
    let mut entities: BTreeMap<String, [u64; 3]> = BTreeMap::new();
    for table in per_entity_chunk(backend, "entity_fingerprint")? {
        let columns = ["n", "a", "b"].map(|c| table.column(c));
        let Some(key) = table.column("key") else {
            continue;
        };
        for r in &table.rows {
            let Some(Some(Term::NamedNode(p))) = r.get(key) else {
                continue;
            };
            let sums = entities.entry(p.as_str().to_owned()).or_default();
            for (sum, column) in sums.iter_mut().zip(columns) {
                if let Some(Some(Term::Literal(l))) = column.and_then(|i| r.get(i)) {
                    *sum += l.value().parse::<u64>().unwrap_or(u64::MAX / 4);
                }
            }
        }
    }
    Ok(entities
        .into_iter()
        .map(|(p, [n, a, b])| format!("e\t{p}\t{n}\t{a}\t{b}"))
        .collect())
}

/// A digest of the text of the schema queries and of the fingerprint query: answers cached
/// by another version of oxilearn, whose queries differ, are not taken for this one's.
pub fn schema_queries_digest() -> String {
    let mut hash = Fnv64::default();
    for (name, text) in FIXED_QUERIES {
        if QUERY_FILES.contains(name) {
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
        // The predicates of the one declared entity, <urn:A>.
        let predicates: Vec<String> = answers
            .table(SCHEMA_PREDICATES)
            .unwrap()
            .column_values("p")
            .map(|t| t.to_string())
            .collect();
        assert_eq!(
            predicates,
            [
                "<http://www.w3.org/1999/02/22-rdf-syntax-ns#type>",
                "<http://www.w3.org/2000/01/rdf-schema#subClassOf>"
            ]
        );
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

//! The signature of a knowledge base: its classes, properties, hierarchy, disjointness and
//! individuals, read once from the store by the fixed queries in `queries/`.

mod answers;
mod edges;
mod facts;
mod load;
mod model;
mod roles;
mod scope;
mod typings;
mod values;
mod vocabulary;

pub use answers::{
    Fnv64, SCHEMA_PREDICATES, SCHEMA_QUERIES, SchemaAnswers, schema_fingerprint,
    schema_queries_digest,
};
pub use edges::UniverseEdges;
pub use model::*;
pub use roles::{RoleEdge, RoleExpansion, RoleTerm};
pub use scope::{IndividualScope, Neighbourhood};
pub use typings::AssertedTypes;
pub use values::UniverseValues;

use oxigraph::model::NamedNode;
use spargebra::term::GroundTerm;

use crate::concept::Iri;
use crate::oracle::OracleError;
use crate::oracle::backend::SparqlBackend;

const OWL: &str = "http://www.w3.org/2002/07/owl#";
const RDF: &str = "http://www.w3.org/1999/02/22-rdf-syntax-ns#";
const RDFS: &str = "http://www.w3.org/2000/01/rdf-schema#";
const XSD: &str = "http://www.w3.org/2001/XMLSchema#";

/// IRIs of the RDF, RDFS, OWL and XSD vocabularies are schema (XSD facets such as
/// `xsd:minInclusive` are predicates of datatype restrictions), never classes, properties or
/// individuals of the KB.
pub(crate) fn is_vocabulary(iri: &str) -> bool {
    iri.starts_with(OWL) || iri.starts_with(RDF) || iri.starts_with(RDFS) || iri.starts_with(XSD)
}

/// Loads the whole signature over the active domain: a dozen queries, each run once.
pub fn load_signature(backend: &dyn SparqlBackend) -> Result<Signature, OracleError> {
    load_signature_in(backend, &IndividualScope::ActiveDomain)
}

/// Loads the signature with the individuals of `scope` as its universe. Under a
/// neighbourhood scope no query reads more of the ABox than the scope's individuals (see
/// [`scope`]).
pub fn load_signature_in(
    backend: &dyn SparqlBackend,
    scope: &IndividualScope,
) -> Result<Signature, OracleError> {
    load_signature_with(backend, scope, &SchemaAnswers::load(backend)?)
}

/// [`load_signature_in`] with the schema queries' answers already at hand (read earlier, or
/// from a signature cache): only the queries over individuals are sent.
pub fn load_signature_with(
    backend: &dyn SparqlBackend,
    scope: &IndividualScope,
    schema: &SchemaAnswers,
) -> Result<Signature, OracleError> {
    match scope {
        IndividualScope::ActiveDomain => load::load_active_domain(backend, schema),
        IndividualScope::Schema => {
            let mut sig = scope::load_neighbourhood(backend, schema, &Neighbourhood::of([]))?;
            sig.scope = ScopeReport::schema();
            Ok(sig)
        }
        IndividualScope::Neighbourhood(n) => scope::load_neighbourhood(backend, schema, n),
    }
}

/// An IRI as a term of a `VALUES` block.
fn ground(iri: &Iri) -> GroundTerm {
    GroundTerm::NamedNode(NamedNode::new_unchecked(iri.as_str()))
}

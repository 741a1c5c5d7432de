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
pub use load::{load_signature, load_signature_in, load_signature_with};
pub use model::*;
pub use roles::{RoleEdge, RoleExpansion, RoleTerm};
pub use scope::{IndividualScope, Neighbourhood};
pub use typings::AssertedTypes;
pub use values::UniverseValues;

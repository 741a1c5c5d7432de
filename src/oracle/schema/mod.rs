//! The signature of a knowledge base: its classes, properties, hierarchy, disjointness and
//! individuals, read once from the store by the fixed queries in `queries/`.

mod load;
mod model;
mod roles;
mod scope;
mod typings;
mod vocabulary;

pub use load::{load_signature, load_signature_in};
pub use model::*;
pub use roles::{RoleEdge, RoleExpansion, RoleTerm};
pub use scope::{IndividualScope, Neighbourhood};
pub use typings::AssertedTypes;

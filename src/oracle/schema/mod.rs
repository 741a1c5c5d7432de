//! The signature of a knowledge base: its classes, properties, hierarchy, disjointness and
//! individuals, read once from the store by the fixed queries in `queries/`.

mod load;
mod model;
mod roles;
mod vocabulary;

pub use load::load_signature;
pub use model::*;
pub use roles::{RoleEdge, RoleExpansion, RoleTerm};

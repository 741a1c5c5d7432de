//! A small vocabulary for unit tests (the integration tests have their own copy).

use super::model::Iri;
use super::vocabulary::{EntityKind, Vocabulary};

pub const EX: &str = "http://example.org/";

pub fn ex(local: &str) -> Iri {
    Iri::new(format!("{EX}{local}"))
}

/// Classes Person, Male, Female, ex2:Person (so `Person` is ambiguous); object properties
/// hasChild, knows; data properties hasAge, name; individuals alice, bob.
pub fn vocab() -> Vocabulary {
    let mut v = Vocabulary::new();
    v.add_prefix("ex", EX);
    v.add_prefix("ex2", "http://example.org/other#");
    for c in ["Person", "Male", "Female"] {
        v.add(EntityKind::Class, ex(c));
    }
    v.add(
        EntityKind::Class,
        Iri::new("http://example.org/other#Person"),
    );
    for p in ["hasChild", "knows"] {
        v.add(EntityKind::ObjectProperty, ex(p));
    }
    for p in ["hasAge", "name"] {
        v.add(EntityKind::DataProperty, ex(p));
    }
    for i in ["alice", "bob"] {
        v.add(EntityKind::Individual, ex(i));
    }
    v
}

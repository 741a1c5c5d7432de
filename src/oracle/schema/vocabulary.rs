//! The signature as a name table, so concepts typed by users resolve against the KB.

use super::Signature;
use crate::concept::{EntityKind, Vocabulary};

impl Signature {
    /// Every class, property, individual and datatype of the KB, plus `prefixes`
    /// (prefix, namespace) such as those declared in the loaded files.
    pub fn vocabulary_with_prefixes<'a>(
        &self,
        prefixes: impl IntoIterator<Item = (&'a str, &'a str)>,
    ) -> Vocabulary {
        let mut v = Vocabulary::new();
        for (prefix, namespace) in prefixes {
            v.add_prefix(prefix, namespace);
        }
        for c in &self.classes {
            v.add(EntityKind::Class, c.clone());
        }
        for p in self.object_properties.keys() {
            v.add(EntityKind::ObjectProperty, p.clone());
        }
        for (p, info) in &self.data_properties {
            v.add(EntityKind::DataProperty, p.clone());
            for d in info.datatypes.keys().chain(info.ranges.iter()) {
                v.add(EntityKind::Datatype, d.clone());
            }
        }
        for i in &self.individuals {
            v.add(EntityKind::Individual, i.clone());
        }
        v
    }

    pub fn vocabulary(&self) -> Vocabulary {
        self.vocabulary_with_prefixes([])
    }
}

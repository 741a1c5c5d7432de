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
        for (prefix, namespace) in self.derived_prefixes() {
            if !v.prefixes().any(|(p, _)| p == prefix) {
                v.add_prefix(&prefix, &namespace);
            }
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

    /// A prefix for every namespace of the KB's names, named after its last path segment
    /// (`http://…/wine#` → `wine:`), so `wine:Wine` works where `Wine` is ambiguous. Names that
    /// two namespaces would share are left out.
    pub fn derived_prefixes(&self) -> Vec<(String, String)> {
        use std::collections::BTreeMap;
        let mut by_name: BTreeMap<String, std::collections::BTreeSet<String>> = BTreeMap::new();
        let names = self
            .classes
            .iter()
            .chain(self.object_properties.keys())
            .chain(self.data_properties.keys())
            .chain(self.individuals.iter());
        for iri in names {
            let s = iri.as_str();
            let Some(cut) = s.rfind(['#', '/']) else {
                continue;
            };
            let namespace = &s[..=cut];
            let segment = namespace
                .trim_end_matches(['#', '/'])
                .rsplit(['/', '#', ':'])
                .next()
                .unwrap_or("");
            let valid = segment
                .chars()
                .next()
                .is_some_and(|c| c.is_ascii_alphabetic())
                && segment
                    .chars()
                    .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-');
            if valid {
                by_name
                    .entry(segment.to_string())
                    .or_default()
                    .insert(namespace.to_string());
            }
        }
        by_name
            .into_iter()
            .filter(|(_, namespaces)| namespaces.len() == 1)
            .filter_map(|(name, namespaces)| namespaces.into_iter().next().map(|ns| (name, ns)))
            .collect()
    }

    pub fn vocabulary(&self) -> Vocabulary {
        self.vocabulary_with_prefixes([])
    }
}

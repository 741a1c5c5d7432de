//! The name table: which IRIs are classes, properties, individuals, datatypes, and which
//! prefixes exist. Parsers resolve names through it and printers shorten IRIs with it;
//! [`Vocabulary::short_name`] only emits names that [`Vocabulary::resolve`] maps back.

use std::collections::{BTreeMap, BTreeSet};
use std::fmt;

use thiserror::Error;

use super::lexical;
use super::model::{Iri, vocab};

/// What a name denotes; each kind has its own namespace of bare local names.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum EntityKind {
    Class,
    ObjectProperty,
    DataProperty,
    Individual,
    Datatype,
}

impl EntityKind {
    /// All kinds, in declaration order.
    pub const ALL: [EntityKind; 5] = [
        EntityKind::Class,
        EntityKind::ObjectProperty,
        EntityKind::DataProperty,
        EntityKind::Individual,
        EntityKind::Datatype,
    ];

    fn index(self) -> usize {
        self as usize
    }

    /// Object and data properties share bare names: a restriction `p some …` is read before
    /// we know which kind `p` is, so a bare property name must be unique across both.
    fn name_group(self) -> &'static [EntityKind] {
        match self {
            EntityKind::ObjectProperty | EntityKind::DataProperty => {
                &[EntityKind::ObjectProperty, EntityKind::DataProperty]
            }
            EntityKind::Class => &[EntityKind::Class],
            EntityKind::Individual => &[EntityKind::Individual],
            EntityKind::Datatype => &[EntityKind::Datatype],
        }
    }
}

impl fmt::Display for EntityKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            EntityKind::Class => "class",
            EntityKind::ObjectProperty | EntityKind::DataProperty => "property",
            EntityKind::Individual => "individual",
            EntityKind::Datatype => "datatype",
        })
    }
}

/// Whether a property name denotes an object or a data property.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum PropertyKind {
    Object,
    Data,
}

/// A name that could not be turned into an IRI.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
#[non_exhaustive]
pub enum NameError {
    #[error("unknown {kind} `{name}`{}", did_you_mean(suggestions))]
    Unknown {
        name: String,
        kind: EntityKind,
        suggestions: Vec<String>,
    },
    #[error(
        "ambiguous {kind} name `{name}`: it could be {}; write a prefixed name or a <full IRI>",
        candidates.join(", ")
    )]
    Ambiguous {
        name: String,
        kind: EntityKind,
        candidates: Vec<String>,
    },
    #[error("unknown prefix `{prefix}:` in `{name}`")]
    UnknownPrefix { name: String, prefix: String },
    #[error("invalid name `{name}`: {reason}")]
    Invalid { name: String, reason: &'static str },
}

fn did_you_mean(suggestions: &[String]) -> String {
    if suggestions.is_empty() {
        String::new()
    } else {
        format!(" (did you mean {}?)", suggestions.join(", "))
    }
}

const STANDARD_PREFIXES: &[(&str, &str)] = &[
    ("rdf", "http://www.w3.org/1999/02/22-rdf-syntax-ns#"),
    ("rdfs", "http://www.w3.org/2000/01/rdf-schema#"),
    ("owl", "http://www.w3.org/2002/07/owl#"),
    ("xsd", vocab::XSD),
];

const STANDARD_XSD_DATATYPES: &[&str] = &[
    "integer",
    "decimal",
    "double",
    "float",
    "boolean",
    "string",
    "int",
    "long",
    "short",
    "byte",
    "nonNegativeInteger",
    "positiveInteger",
    "nonPositiveInteger",
    "negativeInteger",
    "unsignedInt",
    "unsignedLong",
    "unsignedShort",
    "unsignedByte",
    "dateTime",
    "date",
    "time",
    "gYear",
    "anyURI",
];

/// The name table. `owl:Thing` and `owl:Nothing` are always known classes but are not listed
/// by [`Vocabulary::iris`] (learners iterate that list for candidate atoms).
#[derive(Clone, Debug)]
pub struct Vocabulary {
    prefixes: BTreeMap<String, String>,
    entities: [BTreeSet<Iri>; 5],
    /// Local name → IRIs, per kind, for resolving bare names.
    by_local: [BTreeMap<String, BTreeSet<Iri>>; 5],
}

impl Default for Vocabulary {
    fn default() -> Self {
        Self::new()
    }
}

impl Vocabulary {
    /// A table with the rdf, rdfs, owl and xsd prefixes and the standard datatypes.
    pub fn new() -> Self {
        let mut v = Vocabulary {
            prefixes: BTreeMap::new(),
            entities: Default::default(),
            by_local: Default::default(),
        };
        for (p, ns) in STANDARD_PREFIXES {
            v.add_prefix(p, ns);
        }
        for local in STANDARD_XSD_DATATYPES {
            v.add(
                EntityKind::Datatype,
                Iri::new(format!("{}{local}", vocab::XSD)),
            );
        }
        v.add(EntityKind::Datatype, Iri::new(vocab::RDFS_LITERAL));
        v.add(EntityKind::Datatype, Iri::new(vocab::RDF_LANG_STRING));
        v
    }

    /// Registers (or replaces) a prefix. Prefixes containing `:` or whitespace are stored but
    /// can never be typed, so they are not used for printing either.
    pub fn add_prefix(&mut self, prefix: &str, namespace: &str) {
        self.prefixes
            .insert(prefix.to_string(), namespace.to_string());
    }

    pub fn add(&mut self, kind: EntityKind, iri: Iri) {
        self.by_local[kind.index()]
            .entry(iri.local_name().to_string())
            .or_default()
            .insert(iri.clone());
        self.entities[kind.index()].insert(iri);
    }

    /// Whether `iri` is known as `kind` (`owl:Thing`/`owl:Nothing` are always classes).
    pub fn contains(&self, kind: EntityKind, iri: &Iri) -> bool {
        (kind == EntityKind::Class && is_owl_top_or_bottom(iri))
            || self.entities[kind.index()].contains(iri)
    }

    /// The known IRIs of one kind, sorted.
    pub fn iris(&self, kind: EntityKind) -> impl Iterator<Item = &Iri> {
        self.entities[kind.index()].iter()
    }

    /// `(prefix, namespace)` pairs, sorted by prefix.
    pub fn prefixes(&self) -> impl Iterator<Item = (&str, &str)> {
        self.prefixes.iter().map(|(p, n)| (p.as_str(), n.as_str()))
    }

    /// Turns a name as a user typed it into an IRI, for the concept parsers (whose module
    /// docs say where each form may appear): explicit IRIs (`<…>`, `scheme://…`, `urn:…`)
    /// and prefixed names are taken as given, bare local names must be known and unique.
    pub fn resolve(&self, name: &str, kind: EntityKind) -> Result<Iri, NameError> {
        if let Some(iri) = self.resolve_explicit(name)? {
            return Ok(iri);
        }
        if kind == EntityKind::Class {
            match name {
                "Thing" => return Ok(Iri::new(vocab::OWL_THING)),
                "Nothing" => return Ok(Iri::new(vocab::OWL_NOTHING)),
                _ => {}
            }
        }
        self.resolve_local(name, kind, &[kind]).map(|(iri, _)| iri)
    }

    /// Resolves a property name and says whether it is a data property (known as one) or an
    /// object property (known as one, or an explicit IRI unknown to the table).
    pub fn resolve_property(&self, name: &str) -> Result<(Iri, PropertyKind), NameError> {
        let iri = match self.resolve_explicit(name)? {
            Some(iri) => iri,
            None => {
                let group = EntityKind::ObjectProperty.name_group();
                self.resolve_local(name, EntityKind::ObjectProperty, group)?
                    .0
            }
        };
        let kind = if self.contains(EntityKind::DataProperty, &iri) {
            PropertyKind::Data
        } else {
            PropertyKind::Object
        };
        Ok((iri, kind))
    }

    /// The shortest name that resolves back to `iri` as `kind`: a unique, identifier-safe
    /// local name, else `prefix:local`, else `<iri>`. Datatypes prefer `xsd:integer` over a
    /// bare `integer` because that is how everyone writes them.
    pub fn short_name(&self, iri: &Iri, kind: EntityKind) -> String {
        if kind == EntityKind::Datatype {
            self.prefixed_name(iri)
                .or_else(|| self.bare_name(iri, kind))
                .unwrap_or_else(|| full_name(iri))
        } else {
            self.bare_name(iri, kind)
                .or_else(|| self.prefixed_name(iri))
                .unwrap_or_else(|| full_name(iri))
        }
    }

    fn bare_name(&self, iri: &Iri, kind: EntityKind) -> Option<String> {
        let local = iri.local_name();
        if !lexical::is_safe_identifier(local) {
            return None;
        }
        let group = kind.name_group();
        let mut matches = group
            .iter()
            .flat_map(|k| self.by_local[k.index()].get(local))
            .flatten();
        let only_this = matches.next() == Some(iri) && matches.next().is_none();
        only_this.then(|| local.to_string())
    }

    fn prefixed_name(&self, iri: &Iri) -> Option<String> {
        let s = iri.as_str();
        self.prefixes
            .iter()
            .filter(|(p, ns)| lexical::is_safe_prefix(p) && !ns.is_empty())
            .filter_map(|(p, ns)| {
                let rest = s.strip_prefix(ns.as_str())?;
                lexical::is_safe_local_part(rest).then_some((ns.len(), p, rest))
            })
            .max_by(|a, b| a.0.cmp(&b.0).then(b.1.len().cmp(&a.1.len())))
            .map(|(_, p, rest)| format!("{p}:{rest}"))
    }

    /// `<…>`, a prefixed name or a bare absolute IRI; `Ok(None)` for a bare local name.
    fn resolve_explicit(&self, name: &str) -> Result<Option<Iri>, NameError> {
        let invalid = |reason| NameError::Invalid {
            name: name.to_string(),
            reason,
        };
        if name.is_empty() {
            return Err(invalid("empty name"));
        }
        if let Some(inner) = name.strip_prefix('<') {
            let inner = inner
                .strip_suffix('>')
                .ok_or_else(|| invalid("missing `>`"))?;
            if inner.is_empty() {
                return Err(invalid("empty IRI"));
            }
            return Ok(Some(Iri::new(inner)));
        }
        let Some((prefix, rest)) = name.split_once(':') else {
            return Ok(None);
        };
        if let Some(ns) = self.prefixes.get(prefix) {
            return Ok(Some(Iri::new(format!("{ns}{rest}"))));
        }
        if looks_absolute(prefix, rest) {
            return Ok(Some(Iri::new(name)));
        }
        Err(NameError::UnknownPrefix {
            name: name.to_string(),
            prefix: prefix.to_string(),
        })
    }

    fn resolve_local(
        &self,
        name: &str,
        kind: EntityKind,
        group: &[EntityKind],
    ) -> Result<(Iri, EntityKind), NameError> {
        let found: Vec<(&Iri, EntityKind)> = group
            .iter()
            .flat_map(|k| {
                self.by_local[k.index()]
                    .get(name)
                    .into_iter()
                    .flatten()
                    .map(move |iri| (iri, *k))
            })
            .collect();
        match found.as_slice() {
            [(iri, k)] => Ok(((*iri).clone(), *k)),
            [] => Err(NameError::Unknown {
                name: name.to_string(),
                kind,
                suggestions: self.suggestions(name, group),
            }),
            many => Err(NameError::Ambiguous {
                name: name.to_string(),
                kind,
                candidates: many.iter().map(|(iri, _)| full_name(iri)).collect(),
            }),
        }
    }

    /// Up to 5 names close to `name`, ignoring case: edit distance ≤ 2 (or ≤ a third of the
    /// length), one a prefix of the other, or one containing the other (at least 4
    /// characters: `Grandgrandfather` suggests `Grandfather`). Closest first, printable form.
    fn suggestions(&self, name: &str, group: &[EntityKind]) -> Vec<String> {
        let lower = name.to_lowercase();
        let mut scored: Vec<(usize, String)> = Vec::new();
        for k in group {
            for (local, iris) in &self.by_local[k.index()] {
                let other = local.to_lowercase();
                let d = lexical::edit_distance(&lower, &other);
                let close = d <= 2
                    || d * 3 <= lower.len().max(other.len())
                    || (lower.len() >= 2 && other.starts_with(&lower))
                    || (other.len() >= 2 && lower.starts_with(&other))
                    || (other.len() >= 4 && lower.contains(&other))
                    || (lower.len() >= 4 && other.contains(&lower));
                if close {
                    for iri in iris {
                        scored.push((d, self.short_name(iri, *k)));
                    }
                }
            }
        }
        scored.sort();
        scored.dedup();
        scored.into_iter().take(5).map(|(_, s)| s).collect()
    }
}

/// `<iri>`: always resolvable, used when nothing shorter is.
pub(crate) fn full_name(iri: &Iri) -> String {
    format!("<{}>", iri.as_str())
}

fn is_owl_top_or_bottom(iri: &Iri) -> bool {
    matches!(iri.as_str(), vocab::OWL_THING | vocab::OWL_NOTHING)
}

/// `scheme://…` or `urn:…`: an absolute IRI typed without brackets. Other `x:y` forms with an
/// unknown prefix are refused rather than guessed, since they are usually a typo.
fn looks_absolute(scheme: &str, rest: &str) -> bool {
    let mut chars = scheme.chars();
    let scheme_ok = chars.next().is_some_and(|c| c.is_ascii_alphabetic())
        && chars.all(|c| c.is_ascii_alphanumeric() || matches!(c, '+' | '-' | '.'));
    scheme_ok && (rest.starts_with("//") || scheme.eq_ignore_ascii_case("urn"))
}

#[cfg(test)]
mod tests {
    use super::*;

    const EX: &str = "http://example.org/";

    fn ex(local: &str) -> Iri {
        Iri::new(format!("{EX}{local}"))
    }

    fn table() -> Vocabulary {
        let mut v = Vocabulary::new();
        v.add_prefix("ex", EX);
        v.add_prefix("ex2", "http://example.org/other#");
        v.add(EntityKind::Class, ex("Person"));
        v.add(
            EntityKind::Class,
            Iri::new("http://example.org/other#Person"),
        );
        v.add(EntityKind::Class, ex("Male"));
        v.add(EntityKind::Class, ex("and"));
        v.add(EntityKind::Class, Iri::new("http://other.org/x#a.b"));
        v.add(EntityKind::ObjectProperty, ex("hasChild"));
        v.add(EntityKind::DataProperty, ex("hasAge"));
        v.add(
            EntityKind::DataProperty,
            Iri::new("http://example.org/other#knows"),
        );
        v.add(EntityKind::ObjectProperty, ex("knows"));
        v.add(EntityKind::Individual, ex("alice"));
        v
    }

    #[test]
    fn resolves_all_forms() {
        let v = table();
        let male = ex("Male");
        assert_eq!(v.resolve("Male", EntityKind::Class), Ok(male.clone()));
        assert_eq!(v.resolve("ex:Male", EntityKind::Class), Ok(male.clone()));
        assert_eq!(
            v.resolve("<http://example.org/Male>", EntityKind::Class),
            Ok(male.clone())
        );
        assert_eq!(
            v.resolve("http://example.org/Male", EntityKind::Class),
            Ok(male)
        );
        // Explicit but unknown names are taken as given.
        assert_eq!(
            v.resolve("ex:Unknown", EntityKind::Class),
            Ok(ex("Unknown"))
        );
        assert_eq!(
            v.resolve("urn:x:y", EntityKind::Individual),
            Ok(Iri::new("urn:x:y"))
        );
        assert_eq!(
            v.resolve("Thing", EntityKind::Class),
            Ok(Iri::new(vocab::OWL_THING))
        );
        assert_eq!(
            v.resolve("owl:Nothing", EntityKind::Class),
            Ok(Iri::new(vocab::OWL_NOTHING))
        );
        assert!(v.contains(EntityKind::Class, &Iri::new(vocab::OWL_THING)));
        assert_eq!(
            v.resolve("integer", EntityKind::Datatype),
            Ok(Iri::new(vocab::XSD_INTEGER))
        );
    }

    #[test]
    fn errors() {
        let v = table();
        match v.resolve("Person", EntityKind::Class) {
            Err(NameError::Ambiguous { candidates, .. }) => assert_eq!(
                candidates,
                [
                    "<http://example.org/Person>",
                    "<http://example.org/other#Person>"
                ]
            ),
            other => panic!("{other:?}"),
        }
        match v.resolve("Mael", EntityKind::Class) {
            Err(NameError::Unknown { suggestions, .. }) => assert_eq!(suggestions, ["Male"]),
            other => panic!("{other:?}"),
        }
        let err = v.resolve("Persn", EntityKind::Class).unwrap_err();
        assert_eq!(
            err.to_string(),
            "unknown class `Persn` (did you mean ex2:Person, ex:Person?)"
        );
        assert!(matches!(
            v.resolve("foo:Bar", EntityKind::Class),
            Err(NameError::UnknownPrefix { .. })
        ));
        assert!(matches!(
            v.resolve("<>", EntityKind::Class),
            Err(NameError::Invalid { .. })
        ));
        // Kinds are separate namespaces.
        assert!(v.resolve("alice", EntityKind::Class).is_err());
    }

    #[test]
    fn properties() {
        let v = table();
        assert_eq!(
            v.resolve_property("hasAge"),
            Ok((ex("hasAge"), PropertyKind::Data))
        );
        assert_eq!(
            v.resolve_property("hasChild"),
            Ok((ex("hasChild"), PropertyKind::Object))
        );
        assert_eq!(
            v.resolve_property("ex:unknown"),
            Ok((ex("unknown"), PropertyKind::Object))
        );
        // `knows` is both an object property and (in another namespace) a data property.
        assert!(matches!(
            v.resolve_property("knows"),
            Err(NameError::Ambiguous { .. })
        ));
        assert_eq!(
            v.resolve_property("ex2:knows"),
            Ok((
                Iri::new("http://example.org/other#knows"),
                PropertyKind::Data
            ))
        );
    }

    #[test]
    fn short_names_round_trip() {
        let v = table();
        let cases = [
            (ex("Male"), EntityKind::Class, "Male"),
            (ex("Person"), EntityKind::Class, "ex:Person"),
            (ex("and"), EntityKind::Class, "ex:and"),
            (
                Iri::new("http://other.org/x#a.b"),
                EntityKind::Class,
                "<http://other.org/x#a.b>",
            ),
            (ex("NotInTable"), EntityKind::Class, "ex:NotInTable"),
            (Iri::new(vocab::OWL_THING), EntityKind::Class, "owl:Thing"),
            (ex("knows"), EntityKind::ObjectProperty, "ex:knows"),
            (ex("hasChild"), EntityKind::ObjectProperty, "hasChild"),
            (
                Iri::new(vocab::XSD_INTEGER),
                EntityKind::Datatype,
                "xsd:integer",
            ),
        ];
        for (iri, kind, expected) in cases {
            let name = v.short_name(&iri, kind);
            assert_eq!(name, expected);
            assert_eq!(v.resolve(&name, kind), Ok(iri));
        }
    }

    #[test]
    fn iris_are_sorted() {
        let v = table();
        let classes: Vec<&Iri> = v.iris(EntityKind::Class).collect();
        let mut sorted = classes.clone();
        sorted.sort();
        assert_eq!(classes, sorted);
        assert_eq!(classes.len(), 5);
        assert!(v.prefixes().any(|(p, _)| p == "xsd"));
    }
}

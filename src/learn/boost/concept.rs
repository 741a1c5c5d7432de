//! Fuzzy EL(D) concepts: ⊤, crisp concepts the oracle answers (named classes, `∃r.{a}`,
//! boolean values, `∃r.A`), fuzzy data restrictions `∃p.F` (F a fuzzy set of the
//! property's values), conjunctions and existential restrictions with a fuzzy filler.
//!
//! Crisp parts stay [`Concept`]s so the oracle (and its cache) answers them as it answers
//! CELOE; only what needs degrees is evaluated locally (by the `degrees` module, which
//! reads these types).

use std::fmt::Write as _;

use serde::{Deserialize, Serialize};

use super::fuzzy_set::FuzzySet;
use crate::concept::{
    Concept, EntityKind, Iri, Role, Vocabulary, parse, to_manchester, to_manchester_full,
};
use crate::learn::LearnError;

#[derive(Clone, Debug, PartialEq)]
pub enum FuzzyConcept {
    Top,
    /// Degree 1 for the oracle's members, 0 for the rest.
    Crisp(Concept),
    /// `∃p.F`: the best degree of any value of `p` in `F` (0 without values).
    Fuzzy {
        property: Iri,
        set: FuzzySet,
    },
    /// The t-norm of the parts (never nested, never holding ⊤).
    And(Vec<FuzzyConcept>),
    /// `∃r.C` with a filler that has degrees: the supremum over r-successors.
    Some {
        role: Role,
        filler: Box<FuzzyConcept>,
    },
}

impl FuzzyConcept {
    /// `∃role.filler`, crisp (one oracle question) when the filler is.
    pub fn some(role: Role, filler: FuzzyConcept) -> Self {
        match filler.to_crisp() {
            Some(c) => FuzzyConcept::Crisp(Concept::some(role, c)),
            None => FuzzyConcept::Some {
                role,
                filler: Box::new(filler),
            },
        }
    }

    /// The conjunction of `self` and `other`, flattened, without ⊤, parts in canonical
    /// order (so equal conjunctions have equal keys).
    pub fn and(&self, other: &FuzzyConcept) -> FuzzyConcept {
        let mut parts: Vec<FuzzyConcept> = Vec::new();
        for c in [self, other] {
            match c {
                FuzzyConcept::Top => {}
                FuzzyConcept::And(ps) => parts.extend(ps.iter().cloned()),
                other => parts.push(other.clone()),
            }
        }
        parts.sort_by_cached_key(FuzzyConcept::key);
        parts.dedup_by(|a, b| a.key() == b.key());
        match parts.len() {
            0 => FuzzyConcept::Top,
            1 => parts.remove(0),
            _ => FuzzyConcept::And(parts),
        }
    }

    /// The conjuncts (⊤ has none).
    pub fn conjuncts(&self) -> Vec<&FuzzyConcept> {
        match self {
            FuzzyConcept::Top => Vec::new(),
            FuzzyConcept::And(ps) => ps.iter().collect(),
            c => vec![c],
        }
    }

    /// The same concept as a crisp [`Concept`] when it has no fuzzy part.
    pub fn to_crisp(&self) -> Option<Concept> {
        match self {
            FuzzyConcept::Top => Some(Concept::Top),
            FuzzyConcept::Crisp(c) => Some(c.clone()),
            FuzzyConcept::Fuzzy { .. } => None,
            FuzzyConcept::And(ps) => ps
                .iter()
                .map(FuzzyConcept::to_crisp)
                .collect::<Option<Vec<_>>>()
                .map(Concept::And),
            FuzzyConcept::Some { role, filler } => {
                filler.to_crisp().map(|f| Concept::some(role.clone(), f))
            }
        }
    }

    /// A crisp expression with the same roles at the same depths (a fuzzy data part,
    /// which reads the individual's own values, becomes ⊤): how far its degree looks.
    pub fn skeleton(&self) -> Concept {
        match self {
            FuzzyConcept::Top | FuzzyConcept::Fuzzy { .. } => Concept::Top,
            FuzzyConcept::Crisp(c) => c.clone(),
            FuzzyConcept::And(ps) => Concept::And(ps.iter().map(FuzzyConcept::skeleton).collect()),
            FuzzyConcept::Some { role, filler } => Concept::some(role.clone(), filler.skeleton()),
        }
    }

    /// Conjuncts plus the size of each part: the length the learner limits.
    pub fn length(&self) -> usize {
        match self {
            FuzzyConcept::Top => 1,
            FuzzyConcept::Crisp(c) => crate::concept::length(c),
            FuzzyConcept::Fuzzy { .. } => 2,
            FuzzyConcept::And(ps) => {
                ps.iter().map(FuzzyConcept::length).sum::<usize>() + ps.len() - 1
            }
            FuzzyConcept::Some { filler, .. } => 2 + filler.length(),
        }
    }

    /// A canonical text with full IRIs: the memo and deduplication key.
    pub fn key(&self) -> String {
        let mut out = String::new();
        self.write(&mut out, &|c| to_manchester_full(c), &|i, _| {
            format!("<{}>", i.as_str())
        });
        out
    }

    /// For people: Manchester syntax for crisp parts, `(hasAge is high)` for fuzzy ones.
    pub fn display(&self, vocabulary: &Vocabulary) -> String {
        let mut out = String::new();
        self.write(&mut out, &|c| to_manchester(c, vocabulary), &|i, k| {
            vocabulary.short_name(i, k)
        });
        out
    }

    fn write(
        &self,
        out: &mut String,
        crisp: &dyn Fn(&Concept) -> String,
        name: &dyn Fn(&Iri, EntityKind) -> String,
    ) {
        match self {
            FuzzyConcept::Top => out.push_str("Thing"),
            FuzzyConcept::Crisp(c) => {
                let text = crisp(c);
                if text.contains(' ') {
                    let _ = write!(out, "({text})");
                } else {
                    out.push_str(&text);
                }
            }
            FuzzyConcept::Fuzzy { property, set } => {
                let _ = write!(
                    out,
                    "({} is {})",
                    name(property, EntityKind::DataProperty),
                    set.name
                );
            }
            FuzzyConcept::And(ps) => {
                for (i, p) in ps.iter().enumerate() {
                    if i > 0 {
                        out.push_str(" and ");
                    }
                    p.write(out, crisp, name);
                }
            }
            FuzzyConcept::Some { role, filler } => {
                if role.inverse {
                    let _ = write!(
                        out,
                        "(inverse {}) some (",
                        name(&role.property, EntityKind::ObjectProperty)
                    );
                } else {
                    let _ = write!(
                        out,
                        "{} some (",
                        name(&role.property, EntityKind::ObjectProperty)
                    );
                }
                filler.write(out, crisp, name);
                out.push(')');
            }
        }
    }

    /// The saved form (full IRIs).
    pub fn to_body(&self) -> ConceptBody {
        match self {
            FuzzyConcept::Top => ConceptBody::Top,
            FuzzyConcept::Crisp(c) => ConceptBody::Crisp {
                concept: to_manchester_full(c),
            },
            FuzzyConcept::Fuzzy { property, set } => ConceptBody::Fuzzy {
                property: property.as_str().to_owned(),
                set: set.clone(),
            },
            FuzzyConcept::And(ps) => ConceptBody::And {
                parts: ps.iter().map(FuzzyConcept::to_body).collect(),
            },
            FuzzyConcept::Some { role, filler } => ConceptBody::Some {
                role: role.property.as_str().to_owned(),
                inverse: role.inverse,
                filler: Box::new(filler.to_body()),
            },
        }
    }

    /// Reads a saved form back; crisp parts are parsed against `vocabulary`.
    pub fn from_body(body: &ConceptBody, vocabulary: &Vocabulary) -> Result<Self, LearnError> {
        Ok(match body {
            ConceptBody::Top => FuzzyConcept::Top,
            ConceptBody::Crisp { concept } => FuzzyConcept::Crisp(
                parse(concept, vocabulary)
                    .map_err(|e| LearnError::ModelFormat(format!("concept {concept:?}: {e}")))?,
            ),
            ConceptBody::Fuzzy { property, set } => {
                let pts = set.shape.points();
                if pts.iter().any(|x| !x.is_finite()) || pts.windows(2).any(|w| w[0] >= w[1]) {
                    return Err(LearnError::ModelFormat(format!(
                        "fuzzy set {} of {property}: breakpoints {pts:?} must be finite and increasing",
                        set.name
                    )));
                }
                FuzzyConcept::Fuzzy {
                    property: Iri::new(property.as_str()),
                    set: set.clone(),
                }
            }
            ConceptBody::And { parts } => FuzzyConcept::And(
                parts
                    .iter()
                    .map(|p| FuzzyConcept::from_body(p, vocabulary))
                    .collect::<Result<_, _>>()?,
            ),
            ConceptBody::Some {
                role,
                inverse,
                filler,
            } => FuzzyConcept::Some {
                role: Role {
                    property: Iri::new(role.as_str()),
                    inverse: *inverse,
                },
                filler: Box::new(FuzzyConcept::from_body(filler, vocabulary)?),
            },
        })
    }
}

/// [`FuzzyConcept`] as saved in a model document.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum ConceptBody {
    Top,
    Crisp {
        concept: String,
    },
    Fuzzy {
        property: String,
        set: FuzzySet,
    },
    And {
        parts: Vec<ConceptBody>,
    },
    Some {
        role: String,
        inverse: bool,
        filler: Box<ConceptBody>,
    },
}

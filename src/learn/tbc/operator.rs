//! A small downward refinement operator for the paper's language (⊓, ⊔, ¬, ∃ over named
//! classes and roles), so the learner runs before the full ρ operator is available. The
//! search only needs [`Refinement`]; pass `Rho` with its boolean–existential options instead
//! when it is there.
//!
//! * ⊤ → every class `A`, every `¬A`, every `∃r.⊤`, and `A ⊔ B` for pairs of classes;
//! * `A` → its direct subclasses; `¬A` → `¬B` for direct superclasses `B`;
//! * `∃r.D` → `∃r.D'` for `D'` a refinement of `D`;
//! * `C ⊓ …`, `C ⊔ …` → one operand refined;
//! * any `C` → `C ⊓ X` for `X` a refinement of ⊤.
//!
//! Results are normalised, no longer than the limit, without duplicates, in generation
//! order (deterministic).

use std::collections::{BTreeMap, BTreeSet};

use crate::concept::{Concept, Iri, Role, length, normalize};
use crate::oracle::Signature;
use crate::refine::Refinement;

pub struct BooleanExistential {
    classes: Vec<Iri>,
    roles: Vec<Iri>,
    subclasses: BTreeMap<Iri, BTreeSet<Iri>>,
    superclasses: BTreeMap<Iri, BTreeSet<Iri>>,
}

impl BooleanExistential {
    pub fn new(sig: &Signature) -> Self {
        BooleanExistential {
            classes: sig.classes.iter().cloned().collect(),
            roles: sig.object_properties.keys().cloned().collect(),
            subclasses: sig.subclasses(),
            superclasses: sig.superclasses.clone(),
        }
    }

    /// The refinements of ⊤ up to `max_len`.
    fn top(&self, max_len: usize) -> Vec<Concept> {
        let mut out: Vec<Concept> = self.classes.iter().cloned().map(Concept::Class).collect();
        if max_len >= 2 {
            out.extend(
                self.classes
                    .iter()
                    .map(|a| Concept::not(Concept::Class(a.clone()))),
            );
        }
        if max_len >= 3 {
            out.extend(
                self.roles
                    .iter()
                    .map(|r| Concept::some(Role::new(r.clone()), Concept::Top)),
            );
            for (i, a) in self.classes.iter().enumerate() {
                for b in &self.classes[i + 1..] {
                    out.push(Concept::Or(vec![
                        Concept::Class(a.clone()),
                        Concept::Class(b.clone()),
                    ]));
                }
            }
        }
        out
    }

    fn raw(&self, c: &Concept, max_len: usize) -> Vec<Concept> {
        let mut out = Vec::new();
        match c {
            Concept::Top => return self.top(max_len),
            Concept::Class(a) => {
                if let Some(subs) = self.subclasses.get(a) {
                    out.extend(subs.iter().cloned().map(Concept::Class));
                }
            }
            Concept::Not(inner) => {
                if let Concept::Class(a) = inner.as_ref()
                    && let Some(sups) = self.superclasses.get(a)
                {
                    out.extend(sups.iter().map(|b| Concept::not(Concept::Class(b.clone()))));
                }
            }
            Concept::Some { role, filler } => {
                let budget = max_len.saturating_sub(length(c) - length(filler));
                for d in self.raw(filler, budget) {
                    out.push(Concept::some(role.clone(), d));
                }
            }
            Concept::And(cs) | Concept::Or(cs) => {
                for (i, ci) in cs.iter().enumerate() {
                    let budget = max_len.saturating_sub(length(c) - length(ci));
                    for d in self.raw(ci, budget) {
                        let mut next = cs.clone();
                        next[i] = d;
                        out.push(if matches!(c, Concept::And(_)) {
                            Concept::And(next)
                        } else {
                            Concept::Or(next)
                        });
                    }
                }
            }
            _ => {}
        }
        let room = max_len.saturating_sub(length(c) + 1);
        if room >= 1 {
            for x in self.top(room) {
                out.push(Concept::And(vec![c.clone(), x]));
            }
        }
        out
    }
}

impl Refinement for BooleanExistential {
    fn refine(&self, c: &Concept, max_len: usize) -> Vec<Concept> {
        let mut seen = BTreeSet::new();
        let own = normalize(c);
        self.raw(&own, max_len)
            .iter()
            .map(normalize)
            .filter(|d| *d != own && *d != Concept::Bottom && length(d) <= max_len)
            .filter(|d| seen.insert(d.clone()))
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sig() -> Signature {
        let mut s = Signature::default();
        for c in ["http://e/A", "http://e/B", "http://e/C"] {
            s.classes.insert(Iri::new(c));
        }
        s.superclasses.insert(
            Iri::new("http://e/B"),
            BTreeSet::from([Iri::new("http://e/A")]),
        );
        s.object_properties
            .insert(Iri::new("http://e/r"), Default::default());
        s
    }

    #[test]
    fn refinements_respect_length_and_are_downward_in_shape() {
        let op = BooleanExistential::new(&sig());
        let top = op.refine(&Concept::Top, 3);
        assert!(top.contains(&Concept::class("http://e/A")));
        assert!(top.contains(&Concept::not(Concept::class("http://e/C"))));
        assert!(top.contains(&Concept::some(Role::new("http://e/r"), Concept::Top)));
        assert!(top.iter().all(|c| length(c) <= 3));
        assert_eq!(top, op.refine(&Concept::Top, 3), "deterministic");
        let a = op.refine(&Concept::class("http://e/A"), 3);
        assert!(a.contains(&Concept::class("http://e/B")));
        let some = op.refine(&Concept::some(Role::new("http://e/r"), Concept::Top), 3);
        assert!(some.contains(&Concept::some(
            Role::new("http://e/r"),
            Concept::class("http://e/A")
        )));
        assert!(op.refine(&Concept::Top, 1).iter().all(|c| length(c) == 1));
    }
}

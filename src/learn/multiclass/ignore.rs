//! An operator that never offers classes the problem must not use: DL-Learner's
//! `alg.ignoredConcepts`, which the lymphography problems set to the four `Target…`
//! classes (the KB types every patient with its own class: a rule would just read it off).
//! Refinements that mention an ignored class are dropped, so nothing below them is reached.

use std::collections::BTreeSet;

use crate::concept::{Concept, Iri};
use crate::refine::Refinement;

/// `inner` without the refinements that mention any of `ignored`.
pub struct IgnoringClasses<'r> {
    inner: &'r dyn Refinement,
    ignored: BTreeSet<Iri>,
}

impl<'r> IgnoringClasses<'r> {
    pub fn new(inner: &'r dyn Refinement, ignored: BTreeSet<Iri>) -> Self {
        IgnoringClasses { inner, ignored }
    }
}

impl Refinement for IgnoringClasses<'_> {
    fn refine(&self, c: &Concept, max_len: usize) -> Vec<Concept> {
        let mut out = self.inner.refine(c, max_len);
        if !self.ignored.is_empty() {
            out.retain(|r| !mentions_any(r, &self.ignored));
        }
        out
    }
}

/// Whether `c` names one of `classes` anywhere inside it.
pub fn mentions_any(c: &Concept, classes: &BTreeSet<Iri>) -> bool {
    match c {
        Concept::Class(iri) => classes.contains(iri),
        _ => c.children().into_iter().any(|d| mentions_any(d, classes)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::concept::Role;

    struct Fixed(Vec<Concept>);
    impl Refinement for Fixed {
        fn refine(&self, _: &Concept, _: usize) -> Vec<Concept> {
            self.0.clone()
        }
    }

    #[test]
    fn refinements_naming_an_ignored_class_anywhere_are_dropped() {
        let t = Concept::class("http://e/Target1");
        let a = Concept::class("http://e/A");
        let nested = Concept::some(Role::new("http://e/r"), Concept::not(t.clone()));
        let inner = Fixed(vec![a.clone(), t.clone(), nested, Concept::Top]);
        let op = IgnoringClasses::new(&inner, [Iri::new("http://e/Target1")].into());
        assert_eq!(op.refine(&Concept::Top, 3), vec![a, Concept::Top]);
        let none = IgnoringClasses::new(&inner, BTreeSet::new());
        assert_eq!(none.refine(&Concept::Top, 3).len(), 4);
    }
}

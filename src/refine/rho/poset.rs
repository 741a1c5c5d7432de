//! A named hierarchy (classes or properties) collapsed to its equivalence classes, with the
//! direct-neighbour and ancestor queries ρ needs. Built once from the Signature's asserted
//! edges, so ρ never walks `rdfs:subClassOf` chains per call.

use std::collections::{BTreeMap, BTreeSet};

use crate::concept::Iri;

/// Elements with a reflexive-transitive "is below" relation. Mutually-below elements
/// (`owl:equivalentClass`, `owl:equivalentProperty`, cycles) share a representative, the
/// smallest IRI of the group; every query answers in representatives.
#[derive(Debug, Default)]
pub(crate) struct Poset {
    rep: BTreeMap<Iri, Iri>,
    /// Representative → representatives strictly above it.
    above: BTreeMap<Iri, BTreeSet<Iri>>,
    direct_up: BTreeMap<Iri, BTreeSet<Iri>>,
    direct_down: BTreeMap<Iri, BTreeSet<Iri>>,
}

impl Poset {
    /// `up(x)`: everything at or above `x` (reflexive, transitive); IRIs outside `elements`
    /// are ignored.
    pub(crate) fn new(elements: &BTreeSet<Iri>, up: impl Fn(&Iri) -> BTreeSet<Iri>) -> Self {
        let ups: BTreeMap<&Iri, BTreeSet<Iri>> = elements
            .iter()
            .map(|e| {
                let mut u: BTreeSet<Iri> =
                    up(e).into_iter().filter(|x| elements.contains(x)).collect();
                u.insert(e.clone());
                (e, u)
            })
            .collect();
        let mut rep = BTreeMap::new();
        for (e, u) in &ups {
            // Equivalents are the elements above e that have e above them; the set is
            // iterated in order, so the first is the smallest.
            let r = u
                .iter()
                .find(|x| ups.get(x).is_some_and(|ux| ux.contains(*e)))
                .cloned()
                .unwrap_or_else(|| (*e).clone());
            rep.insert((*e).clone(), r);
        }
        let mut above: BTreeMap<Iri, BTreeSet<Iri>> = BTreeMap::new();
        for (e, u) in &ups {
            let r = &rep[*e];
            let strict = above.entry(r.clone()).or_default();
            strict.extend(u.iter().map(|x| rep[x].clone()).filter(|x| x != r));
        }
        let mut direct_up: BTreeMap<Iri, BTreeSet<Iri>> = BTreeMap::new();
        let mut direct_down: BTreeMap<Iri, BTreeSet<Iri>> = BTreeMap::new();
        for (r, strict) in &above {
            let direct: BTreeSet<Iri> = strict
                .iter()
                .filter(|b| {
                    !strict
                        .iter()
                        .any(|c| above.get(c).is_some_and(|ac| ac.contains(*b)))
                })
                .cloned()
                .collect();
            for b in &direct {
                direct_down.entry(b.clone()).or_default().insert(r.clone());
            }
            direct_up.insert(r.clone(), direct);
        }
        Poset {
            rep,
            above,
            direct_up,
            direct_down,
        }
    }

    /// The representative of `x`'s equivalence group (`None` for an unknown IRI).
    pub(crate) fn rep(&self, x: &Iri) -> Option<&Iri> {
        self.rep.get(x)
    }

    /// All representatives, in order.
    #[cfg(test)]
    pub(crate) fn reps(&self) -> impl Iterator<Item = &Iri> {
        self.above.keys()
    }

    /// Representatives with nothing above.
    pub(crate) fn roots(&self) -> impl Iterator<Item = &Iri> {
        self.above
            .iter()
            .filter(|(_, a)| a.is_empty())
            .map(|(r, _)| r)
    }

    /// Representatives with nothing below.
    pub(crate) fn leaves(&self) -> impl Iterator<Item = &Iri> {
        self.above
            .keys()
            .filter(|r| !self.direct_down.contains_key(*r))
    }

    pub(crate) fn direct_up(&self, x: &Iri) -> impl Iterator<Item = &Iri> {
        self.rep(x)
            .and_then(|r| self.direct_up.get(r))
            .into_iter()
            .flatten()
    }

    pub(crate) fn direct_down(&self, x: &Iri) -> impl Iterator<Item = &Iri> {
        self.rep(x)
            .and_then(|r| self.direct_down.get(r))
            .into_iter()
            .flatten()
    }

    /// `a` at or below `b` (false when either is unknown, unless they are the same IRI).
    pub(crate) fn is_below_or_eq(&self, a: &Iri, b: &Iri) -> bool {
        if a == b {
            return true;
        }
        match (self.rep(a), self.rep(b)) {
            (Some(ra), Some(rb)) => ra == rb || self.above.get(ra).is_some_and(|s| s.contains(rb)),
            _ => false,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn i(s: &str) -> Iri {
        Iri::new(s)
    }

    /// a ⊑ b ⊑ c, d ≡ b, e alone.
    fn poset() -> Poset {
        let edges: BTreeMap<Iri, Vec<Iri>> = BTreeMap::from([
            (i("a"), vec![i("b")]),
            (i("b"), vec![i("c"), i("d")]),
            (i("d"), vec![i("b")]),
        ]);
        let elements: BTreeSet<Iri> = ["a", "b", "c", "d", "e"].into_iter().map(i).collect();
        Poset::new(&elements, |x| {
            let mut out = BTreeSet::from([x.clone()]);
            let mut todo = vec![x.clone()];
            while let Some(y) = todo.pop() {
                for z in edges.get(&y).into_iter().flatten() {
                    if out.insert(z.clone()) {
                        todo.push(z.clone());
                    }
                }
            }
            out
        })
    }

    #[test]
    fn equivalents_collapse_to_the_smallest() {
        let p = poset();
        assert_eq!(p.rep(&i("d")), Some(&i("b")));
        assert_eq!(
            p.reps().cloned().collect::<Vec<_>>(),
            [i("a"), i("b"), i("c"), i("e")]
        );
        assert_eq!(p.direct_up(&i("a")).cloned().collect::<Vec<_>>(), [i("b")]);
        assert_eq!(p.direct_up(&i("d")).cloned().collect::<Vec<_>>(), [i("c")]);
        assert_eq!(
            p.direct_down(&i("c")).cloned().collect::<Vec<_>>(),
            [i("b")]
        );
        assert_eq!(p.roots().cloned().collect::<Vec<_>>(), [i("c"), i("e")]);
        assert_eq!(p.leaves().cloned().collect::<Vec<_>>(), [i("a"), i("e")]);
        assert!(p.is_below_or_eq(&i("a"), &i("c")));
        assert!(p.is_below_or_eq(&i("d"), &i("b")));
        assert!(!p.is_below_or_eq(&i("c"), &i("a")));
        assert!(!p.is_below_or_eq(&i("x"), &i("c")));
    }
}

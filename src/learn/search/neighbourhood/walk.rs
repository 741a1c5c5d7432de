//! The examples' role paths and the classes at their ends.

use std::collections::{BTreeMap, BTreeSet, HashMap};

use crate::concept::{Concept, Iri, Role};
use crate::oracle::{IndividualId, IndividualSet, MembershipOracle, OracleError};

use super::NeighbourhoodLimits;

/// A role path and, per example (in the examples' order), its distinct successors along it.
pub(super) struct Walk {
    pub roles: Vec<Role>,
    pub ends: Vec<Vec<IndividualId>>,
}

impl Walk {
    /// How many positives have a successor along the path.
    fn positives_reaching(&self, positive: &[bool]) -> usize {
        self.ends
            .iter()
            .zip(positive)
            .filter(|(e, p)| **p && !e.is_empty())
            .count()
    }
}

/// The empty path (the examples themselves) first, then every path of 1 to `max_steps`
/// forward roles along which some positive has a successor: per step at most `max_walks`,
/// those most positives reach first (ties by role order). One successor query per property
/// and step, over the individuals the previous step reached.
pub(super) fn walks<O: MembershipOracle + ?Sized>(
    oracle: &O,
    ids: &[IndividualId],
    positive: &[bool],
    limits: &NeighbourhoodLimits,
) -> Result<Vec<Walk>, OracleError> {
    let universe = oracle.signature().individual_count();
    let mut all = vec![Walk {
        roles: Vec::new(),
        ends: ids.iter().map(|x| vec![*x]).collect(),
    }];
    let mut level: Vec<usize> = vec![0];
    let properties: Vec<Iri> = oracle
        .signature()
        .object_properties
        .keys()
        .cloned()
        .collect();
    for _ in 0..limits.max_steps {
        let mut reached = IndividualSet::empty(universe);
        for w in &level {
            for y in all[*w].ends.iter().flatten() {
                reached.insert(*y);
            }
        }
        let mut next: Vec<Walk> = Vec::new();
        for p in &properties {
            let role = Role::new(p.clone());
            let Some(s) = oracle.successors(&role, &reached)? else {
                continue;
            };
            for w in &level {
                let prev = &all[*w];
                let ends = prev
                    .ends
                    .iter()
                    .map(|e| {
                        let set: BTreeSet<IndividualId> =
                            e.iter().flat_map(|y| s.of(*y).iter().copied()).collect();
                        set.into_iter().collect()
                    })
                    .collect();
                let mut roles = prev.roles.clone();
                roles.push(role.clone());
                let walk = Walk { roles, ends };
                if walk.positives_reaching(positive) > 0 {
                    next.push(walk);
                }
            }
        }
        next.sort_by_key(|w| std::cmp::Reverse(w.positives_reaching(positive)));
        next.truncate(limits.max_walks);
        level = (all.len()..all.len() + next.len()).collect();
        all.extend(next);
        if level.is_empty() {
            break;
        }
    }
    Ok(all)
}

/// The named classes of the individuals the walks reach, found from the roots of the class
/// hierarchy down, entering only classes that some positive's walk end has (so classes
/// no positive's neighbourhood carries are never asked about below their first level).
pub(super) struct Typing {
    classes: Vec<Iri>,
    /// Per individual reached, the indexes (into `classes`) of the classes it has.
    types: HashMap<IndividualId, Vec<u32>>,
}

impl Typing {
    pub(super) fn of<O: MembershipOracle + ?Sized>(
        oracle: &O,
        walks: &[Walk],
        positive: &[bool],
    ) -> Result<Typing, OracleError> {
        let sig = oracle.signature();
        let universe = sig.individual_count();
        let (mut reached, mut reached_by_positives) = (
            IndividualSet::empty(universe),
            IndividualSet::empty(universe),
        );
        for w in walks {
            for (e, p) in w.ends.iter().zip(positive) {
                for y in e {
                    reached.insert(*y);
                    if *p {
                        reached_by_positives.insert(*y);
                    }
                }
            }
        }
        let subclasses = sig.subclasses();
        let mut todo: Vec<Iri> = roots(&sig.classes, &sig.superclasses);
        todo.reverse();
        let mut seen: BTreeSet<Iri> = BTreeSet::new();
        let mut typing = Typing {
            classes: Vec::new(),
            types: HashMap::new(),
        };
        while let Some(c) = todo.pop() {
            if !seen.insert(c.clone()) {
                continue;
            }
            let members = oracle.covered(&Concept::Class(c.clone()), &reached)?;
            if members.intersection_count(&reached_by_positives) == 0 {
                continue;
            }
            let k = typing.classes.len() as u32;
            for y in members.iter() {
                typing.types.entry(y).or_default().push(k);
            }
            typing.classes.push(c.clone());
            let below = subclasses.get(&c).into_iter().flatten();
            todo.extend(below.rev().filter(|d| sig.classes.contains(*d)).cloned());
        }
        Ok(typing)
    }

    pub(super) fn class(&self, k: u32) -> &Iri {
        &self.classes[k as usize]
    }

    pub(super) fn len(&self) -> usize {
        self.classes.len()
    }

    /// Per class, how many of the individuals reached have it: how general it is here.
    pub(super) fn sizes(&self) -> Vec<usize> {
        let mut sizes = vec![0; self.classes.len()];
        for k in self.types.values().flatten() {
            sizes[*k as usize] += 1;
        }
        sizes
    }

    /// The classes `y` has (none when it was not reached).
    pub(super) fn of_individual(&self, y: IndividualId) -> &[u32] {
        self.types.get(&y).map(Vec::as_slice).unwrap_or(&[])
    }
}

/// Classes with no named superclass among `classes` other than themselves and their
/// equivalents, in IRI order.
fn roots(classes: &BTreeSet<Iri>, superclasses: &BTreeMap<Iri, BTreeSet<Iri>>) -> Vec<Iri> {
    let up = |c: &Iri| -> BTreeSet<Iri> {
        let mut out = BTreeSet::new();
        let mut todo = vec![c.clone()];
        while let Some(x) = todo.pop() {
            for s in superclasses.get(&x).into_iter().flatten() {
                if out.insert(s.clone()) {
                    todo.push(s.clone());
                }
            }
        }
        out
    };
    classes
        .iter()
        .filter(|c| {
            up(c)
                .iter()
                .all(|s| !classes.contains(s) || *s == **c || up(s).contains(*c))
        })
        .cloned()
        .collect()
}

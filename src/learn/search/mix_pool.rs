//! The pool of partial solutions to mix: Forest Mixing's idea (a tree's best expression
//! conjoined with another's) applied to every concept a search tests, in any tree.
//!
//! ρ reaches `C ⊓ D` from `C` only by refining `C` up to the length of `C ⊓ D`, one length
//! at a time, while every expansion of `C` adds to its refinement penalty. When `C` and `D`
//! cut away different negatives (suramin: one the compounds whose greatest charge is high,
//! the other the one whose charges go lowest), their conjunction beats both yet lies many
//! expansions away from either; likewise `C ⊔ D` when they cover different positives. The
//! pool keeps the best concepts of distinct coverage, and the best complete ones (covering
//! every positive); a concept that enters either list is conjoined and disjoined with every
//! entry. A mix's members are the intersection (union) of its parts' (closed world, and
//! the true sets in open world), so mixes are scored without the oracle. A mix that beats
//! both parts and changes at least [`least_change`] examples is a solution (and a pool
//! entry, so mixes of mixes follow); it stays out of ρ's search tree, its bound and its
//! stopping rule, so exact problems get ρ's definitions as before ([`super::Mixer`] does
//! that bookkeeping).
//!
//! The least change is one example in a hundred against the better part: smaller changes are
//! the noise a longer expression fits. Conjuncts another conjunct implies (`∃r.∃p.[≤ 1]`
//! beside `∃r.∃p.[≤ 2]`) are dropped from a conjunction. An earlier variant that put mixes
//! into ρ's tree returned a length-22 Aunt on family, which is why mixes stay out of it.

use crate::concept::{Bound, Concept, DataRange, length, normalize};
use crate::oracle::IndividualSet;

/// A mix of two pool members, with its members, the better of its parts' qualities (it
/// must beat that to be kept) and how many members that part has.
#[derive(Clone, Debug)]
pub struct Mix {
    pub concept: Concept,
    pub members: IndividualSet,
    pub parts_quality: f64,
    pub better_part_size: usize,
}

impl Mix {
    /// Examples the mix covers that its better part does not, or the reverse: a change of
    /// one or two among hundreds is the noise a longer expression fits, not a finding.
    pub fn change(&self) -> usize {
        self.members.len().abs_diff(self.better_part_size)
    }
}

/// Fewest examples a mix must change ([`Mix::change`]): one in a hundred, at least one.
pub fn least_change(examples: usize) -> usize {
    examples.div_ceil(100).max(1)
}

/// A member of the pool: a tested concept and its members among the examples.
#[derive(Clone, Debug)]
struct Entry {
    concept: Concept,
    quality: f64,
    members: IndividualSet,
}

/// The concepts mixes are made of: the best of distinct members, and the best of those
/// that cover every positive (a conjunction of two such concepts still does, and covers
/// only the negatives both cover; they are rarely the best by quality, so they get their
/// own list).
#[derive(Clone, Debug)]
pub struct MixPool {
    capacity: usize,
    disjunctions: bool,
    best: Vec<Entry>,
    complete: Vec<Entry>,
}

impl MixPool {
    /// `capacity` per list (0: no mixing); `disjunctions`: mix by `⊔` as well as by `⊓`.
    pub fn new(capacity: usize, disjunctions: bool) -> Self {
        MixPool {
            capacity,
            disjunctions,
            best: Vec::new(),
            complete: Vec::new(),
        }
    }

    /// Whether a concept of this quality could enter (cheap: asked before its members are
    /// cloned).
    pub fn admits(&self, quality: f64, complete: bool) -> bool {
        let room = |list: &Vec<Entry>| {
            list.len() < self.capacity || worst(list).is_some_and(|(_, q)| quality > q)
        };
        self.capacity > 0 && (room(&self.best) || (complete && room(&self.complete)))
    }

    /// Offers a tested concept with its members (`complete`: it covers every positive).
    /// When it enters a list (with members no entry of that list has; the worst entry of a
    /// full list leaves), returns its conjunctions (and disjunctions) with every entry
    /// then in the lists, of length at most `max_len`.
    pub fn offer(
        &mut self,
        c: &Concept,
        quality: f64,
        members: &IndividualSet,
        complete: bool,
        max_len: usize,
    ) -> Vec<Mix> {
        if !self.admits(quality, complete) {
            return Vec::new();
        }
        let entry = Entry {
            concept: c.clone(),
            quality,
            members: members.clone(),
        };
        let into_best = enter(&mut self.best, self.capacity, &entry);
        let into_complete = complete && enter(&mut self.complete, self.capacity, &entry);
        if !into_best && !into_complete {
            return Vec::new();
        }
        let c_len = length(c);
        let mut seen_partner: Vec<&Concept> = Vec::new();
        let mut mixes = Vec::new();
        for d in self.best.iter().chain(&self.complete) {
            if d.concept == *c
                || seen_partner.contains(&&d.concept)
                || c_len + length(&d.concept) >= max_len
            {
                continue;
            }
            seen_partner.push(&d.concept);
            let parts_quality = quality.max(d.quality);
            let better_part_size = if quality >= d.quality {
                members.len()
            } else {
                d.members.len()
            };
            // A mix equal to a part (one implies the other syntactically) adds nothing.
            let mut push = |concept: Concept, members: IndividualSet| {
                if concept != *c && concept != d.concept {
                    mixes.push(Mix {
                        concept,
                        members,
                        parts_quality,
                        better_part_size,
                    });
                }
            };
            push(conjunction(c, &d.concept), members.intersection(&d.members));
            if self.disjunctions {
                let or = normalize(&Concept::Or(vec![c.clone(), d.concept.clone()]));
                push(or, members.union(&d.members));
            }
        }
        mixes
    }
}

/// Puts `entry` into `list` unless an entry has its members or the list is full of better
/// ones (then the worst leaves). Whether it entered.
fn enter(list: &mut Vec<Entry>, capacity: usize, entry: &Entry) -> bool {
    if list.iter().any(|e| e.members == entry.members) {
        return false;
    }
    if list.len() >= capacity {
        match worst(list) {
            Some((i, q)) if entry.quality > q => {
                list.remove(i);
            }
            _ => return false,
        }
    }
    list.push(entry.clone());
    true
}

/// The index and quality of the worst entry (the oldest among equals).
fn worst(list: &[Entry]) -> Option<(usize, f64)> {
    list.iter()
        .enumerate()
        .min_by(|a, b| a.1.quality.total_cmp(&b.1.quality).then(a.0.cmp(&b.0)))
        .map(|(i, e)| (i, e.quality))
}

/// `c ⊓ d` in normal form without the conjuncts another conjunct implies (mixing a
/// concept with a coarser version of itself, `∃r.∃p.[≤ 1]` with `∃r.∃p.[≤ 2]`, would
/// otherwise pile up bounds that change nothing).
fn conjunction(c: &Concept, d: &Concept) -> Concept {
    normalize(&without_implied(&normalize(&Concept::And(vec![
        c.clone(),
        d.clone(),
    ]))))
}

/// `c` without the conjuncts (at any depth) another conjunct of the same `⊓` implies; of
/// equivalent ones the first stays.
fn without_implied(c: &Concept) -> Concept {
    match c {
        Concept::And(ops) => {
            let ops: Vec<Concept> = ops.iter().map(without_implied).collect();
            let kept = ops
                .iter()
                .enumerate()
                .filter(|(i, x)| {
                    !ops.iter()
                        .enumerate()
                        .any(|(j, y)| j != *i && implies(y, x) && (!implies(x, y) || j < *i))
                })
                .map(|(_, x)| x.clone())
                .collect();
            Concept::And(kept)
        }
        Concept::Some { role, filler } => Concept::some(role.clone(), without_implied(filler)),
        Concept::Only { role, filler } => Concept::only(role.clone(), without_implied(filler)),
        other => other.clone(),
    }
}

/// Whether `y ⊑ x` follows from their syntax alone: equal, numeric bounds within the
/// other's, or the same restriction over such fillers. Sound, far from complete.
pub(crate) fn implies(y: &Concept, x: &Concept) -> bool {
    if x == y || *x == Concept::Top {
        return true;
    }
    match (y, x) {
        (
            Concept::Data {
                property: py,
                range:
                    DataRange::Numeric {
                        datatype: dy,
                        min: miny,
                        max: maxy,
                    },
            },
            Concept::Data {
                property: px,
                range:
                    DataRange::Numeric {
                        datatype: dx,
                        min: minx,
                        max: maxx,
                    },
            },
        ) => py == px && dy == dx && tighter_min(miny, minx) && tighter_max(maxy, maxx),
        (
            Concept::Some {
                role: ry,
                filler: fy,
            },
            Concept::Some {
                role: rx,
                filler: fx,
            },
        )
        | (
            Concept::Only {
                role: ry,
                filler: fy,
            },
            Concept::Only {
                role: rx,
                filler: fx,
            },
        ) => ry == rx && implies(fy, fx),
        (Concept::And(ys), _) => ys.iter().any(|y| implies(y, x)),
        _ => false,
    }
}

/// `y`'s lower bound is at least `x`'s (none is the weakest).
fn tighter_min(y: &Option<Bound>, x: &Option<Bound>) -> bool {
    match (y, x) {
        (_, None) => true,
        (None, Some(_)) => false,
        (Some(y), Some(x)) => {
            y.value > x.value || (y.value == x.value && (x.inclusive || !y.inclusive))
        }
    }
}

/// `y`'s upper bound is at most `x`'s (none is the weakest).
fn tighter_max(y: &Option<Bound>, x: &Option<Bound>) -> bool {
    match (y, x) {
        (_, None) => true,
        (None, Some(_)) => false,
        (Some(y), Some(x)) => {
            y.value < x.value || (y.value == x.value && (x.inclusive || !y.inclusive))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::concept::{Iri, Number, Role};
    use crate::oracle::IndividualId;

    fn class(name: &str) -> Concept {
        Concept::Class(Iri::new(format!("http://example.org/{name}")))
    }

    fn set(ids: &[u32]) -> IndividualSet {
        IndividualSet::from_ids(10, ids.iter().map(|i| IndividualId(*i)))
    }

    fn at_most(v: f64) -> Concept {
        Concept::Data {
            property: Iri::new("http://example.org/charge"),
            range: DataRange::Numeric {
                datatype: Iri::new(crate::concept::vocab::XSD_DOUBLE),
                min: None,
                max: Some(Bound {
                    value: Number::new(v).unwrap(),
                    inclusive: true,
                }),
            },
        }
    }

    fn atom() -> Role {
        Role::new(Iri::new("http://example.org/hasAtom"))
    }

    #[test]
    fn an_entering_concept_is_conjoined_and_disjoined_with_every_entry() {
        let mut pool = MixPool::new(3, true);
        assert!(
            pool.offer(&class("A"), 0.5, &set(&[0, 1, 2, 5]), false, 20)
                .is_empty()
        );
        let mixes = pool.offer(&class("B"), 0.6, &set(&[0, 1, 3]), false, 20);
        assert_eq!(mixes.len(), 2);
        let and = &mixes[0];
        assert_eq!(
            and.concept,
            normalize(&Concept::And(vec![class("A"), class("B")]))
        );
        assert_eq!(and.members, set(&[0, 1]));
        assert_eq!(and.parts_quality, 0.6);
        let or = &mixes[1];
        assert_eq!(
            or.concept,
            normalize(&Concept::Or(vec![class("A"), class("B")]))
        );
        assert_eq!(or.members, set(&[0, 1, 2, 3, 5]));
        assert_eq!(pool.offer(&class("C"), 0.7, &set(&[0]), false, 20).len(), 4);
        let conjunctions_only = MixPool::new(3, false);
        assert!(conjunctions_only.admits(0.1, false));
    }

    #[test]
    fn equal_members_worse_than_a_full_pool_or_too_long_do_not_mix() {
        let mut pool = MixPool::new(2, false);
        pool.offer(&class("A"), 0.5, &set(&[0, 1, 2]), false, 20);
        // The same members as A: not a new entry.
        assert!(
            pool.offer(&class("B"), 0.9, &set(&[0, 1, 2]), false, 20)
                .is_empty()
        );
        pool.offer(&class("C"), 0.6, &set(&[0, 1]), false, 20);
        // Full, and no better than the worst entry (A, 0.5).
        assert!(!pool.admits(0.5, false));
        assert!(
            pool.offer(&class("D"), 0.5, &set(&[0]), false, 20)
                .is_empty()
        );
        // Better: enters, A leaves, and E is conjoined with the entry that stays.
        assert_eq!(pool.offer(&class("E"), 0.8, &set(&[1]), false, 20).len(), 1);
        assert!(!pool.admits(0.6, false));
        // Too long: C ⊓ F and E ⊓ F have length 3, above 2.
        assert!(
            pool.offer(&class("F"), 0.95, &set(&[2]), false, 2)
                .is_empty()
        );
    }

    #[test]
    fn complete_concepts_have_their_own_list() {
        let mut pool = MixPool::new(1, false);
        pool.offer(&class("A"), 0.9, &set(&[0]), false, 20);
        // Worse than the best list's entry, but the first complete concept: it enters.
        assert!(pool.admits(0.4, true));
        assert!(!pool.admits(0.4, false));
        assert_eq!(
            pool.offer(&class("B"), 0.4, &set(&[0, 1, 2]), true, 20)
                .len(),
            1
        );
        // A better complete one takes B's place and mixes with the other list's entry.
        assert_eq!(
            pool.offer(&class("C"), 0.5, &set(&[0, 1, 3]), true, 20)
                .len(),
            1
        );
        assert!(!pool.admits(0.45, true));
    }

    #[test]
    fn a_mix_must_change_one_example_in_a_hundred() {
        assert_eq!(least_change(17), 1);
        assert_eq!(least_change(100), 1);
        assert_eq!(least_change(268), 3);
        let mut pool = MixPool::new(3, true);
        pool.offer(&class("A"), 0.5, &set(&[0, 1, 2, 5]), false, 20);
        let mixes = pool.offer(&class("B"), 0.6, &set(&[0, 1, 3]), false, 20);
        // The better part is B (3 members): A ⊓ B has 2, A ⊔ B has 5.
        assert_eq!(mixes[0].change(), 1);
        assert_eq!(mixes[1].change(), 2);
    }

    #[test]
    fn a_disabled_pool_never_mixes() {
        let mut pool = MixPool::new(0, true);
        assert!(!pool.admits(1.0, true));
        pool.offer(&class("A"), 0.5, &set(&[0]), true, 20);
        assert!(
            pool.offer(&class("B"), 0.6, &set(&[1]), true, 20)
                .is_empty()
        );
    }

    #[test]
    fn conjunctions_drop_the_bounds_a_tighter_bound_implies() {
        let some = |v| Concept::some(atom(), at_most(v));
        let only = |v| Concept::only(atom(), at_most(v));
        assert!(implies(&at_most(1.0), &at_most(2.0)));
        assert!(!implies(&at_most(2.0), &at_most(1.0)));
        assert!(implies(&some(1.0), &some(2.0)));
        assert!(!implies(&some(1.0), &only(2.0)));
        let mixed = conjunction(
            &Concept::And(vec![some(1.0), class("A")]),
            &Concept::And(vec![some(2.0), some(3.0), only(1.0)]),
        );
        assert_eq!(
            mixed,
            normalize(&Concept::And(vec![some(1.0), class("A"), only(1.0)]))
        );
        // Inside a filler too: ∀r.[≤ 1] ⊓ ∀r.[≤ 2] is ∀r.[≤ 1].
        assert_eq!(conjunction(&only(1.0), &only(2.0)), normalize(&only(1.0)));
    }
}

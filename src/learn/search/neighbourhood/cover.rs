//! Which examples `∃π.B` covers for each class B at a path's ends, and unions of such
//! classes grown greedily by coverage.

use std::collections::BTreeMap;

use crate::eval::Confusion;
use crate::learn::QualityMeasure;
use crate::oracle::IndividualSet;

use super::local_id;
use super::walk::{Typing, Walk};

/// Per class (index into the typing), the examples (local indexes) with a path end in it.
pub(super) struct Covers {
    by_class: BTreeMap<u32, IndividualSet>,
    empty: IndividualSet,
}

impl Covers {
    pub(super) fn along(walk: &Walk, typing: &Typing) -> Covers {
        let n = walk.ends.len();
        let mut by_class: BTreeMap<u32, IndividualSet> = BTreeMap::new();
        let mut stamp = vec![usize::MAX; typing.len()];
        for (i, ends) in walk.ends.iter().enumerate() {
            for y in ends {
                for k in typing.of_individual(*y) {
                    if stamp[*k as usize] != i {
                        stamp[*k as usize] = i;
                        by_class
                            .entry(*k)
                            .or_insert_with(|| IndividualSet::empty(n))
                            .insert(local_id(i));
                    }
                }
            }
        }
        Covers {
            by_class,
            empty: IndividualSet::empty(n),
        }
    }

    pub(super) fn of(&self, k: u32) -> &IndividualSet {
        self.by_class.get(&k).unwrap_or(&self.empty)
    }

    /// The classes that best describe the examples by themselves (on the empty path): the
    /// most specific class every positive has (the fewest examples covered; ties: the first
    /// found, the more general) and the two best by `quality`.
    pub(super) fn describing(
        &self,
        pos: &IndividualSet,
        neg: &IndividualSet,
        quality: QualityMeasure,
    ) -> impl Iterator<Item = u32> + use<> {
        let shared = self
            .by_class
            .iter()
            .filter(|(_, c)| c.intersection_count(pos) == pos.len())
            .min_by_key(|(_, c)| c.len())
            .map(|(k, _)| *k);
        let mut best: Vec<(f64, u32)> = self
            .by_class
            .iter()
            .map(|(k, c)| (quality.score(&confusion(c, pos, neg, None)), *k))
            .collect();
        best.sort_by(|a, b| b.0.total_cmp(&a.0).then(a.1.cmp(&b.1)));
        let mut out: Vec<u32> = shared.into_iter().collect();
        for (_, k) in best.into_iter().take(2) {
            if !out.contains(&k) {
                out.push(k);
            }
        }
        out.into_iter()
    }
}

/// The counts of a concept covering `covered` (within `context`, when it is conjoined with
/// a class covering `context`).
pub(super) fn confusion(
    covered: &IndividualSet,
    pos: &IndividualSet,
    neg: &IndividualSet,
    context: Option<&IndividualSet>,
) -> Confusion {
    let covered = match context {
        Some(c) => covered.intersection(c),
        None => covered.clone(),
    };
    let tp = covered.intersection_count(pos);
    let fp = covered.intersection_count(neg);
    Confusion {
        tp,
        fp,
        tn: neg.len() - fp,
        fn_: pos.len() - tp,
    }
}

/// A union of classes and the examples it covers along its path.
pub(super) struct Union {
    pub classes: Vec<u32>,
    pub covered: IndividualSet,
}

/// Grows unions one class at a time.
pub(super) struct Greedy {
    pub quality: QualityMeasure,
    pub max_disjuncts: usize,
    /// Per class, how general it is in the neighbourhood ([`Typing::sizes`]): of two classes
    /// that score the same on the examples, the more specific is taken (the least general
    /// generalisation of the positives' neighbourhoods, as bottom-up learners take).
    pub sizes: Vec<usize>,
}

/// How the next class of a union is chosen.
#[derive(Clone, Copy)]
enum Order {
    /// The class that makes the union's quality the best (stops when nothing improves it).
    Quality,
    /// Sequential covering: the most new positives less four times the new negatives (stops
    /// when that is not positive), so a union of narrow classes is preferred to a broad
    /// class that covers every positive and many negatives.
    Precision,
}

impl Greedy {
    /// Every prefix of the union grown by quality and of those grown by precision from each
    /// of the [`PRECISION_STARTS`] best first classes, over positives `p` and negatives `n`.
    pub(super) fn unions(
        &self,
        covers: &Covers,
        p: &IndividualSet,
        n: &IndividualSet,
    ) -> Vec<Union> {
        let mut out = Vec::new();
        self.grow(covers, p, n, Order::Quality, 0, &mut out);
        for first in 0..PRECISION_STARTS {
            self.grow(covers, p, n, Order::Precision, first, &mut out);
        }
        out
    }

    /// One union, its first class the `first`-ranked one, each later class the best; every
    /// prefix goes to `out`.
    fn grow(
        &self,
        covers: &Covers,
        p: &IndividualSet,
        n: &IndividualSet,
        order: Order,
        first: usize,
        out: &mut Vec<Union>,
    ) {
        let mut state = State {
            classes: Vec::new(),
            covered: IndividualSet::empty(p.universe()),
            p_left: p.clone(),
            n_left: n.clone(),
            tp: 0,
            fp: 0,
        };
        let mut current = f64::NEG_INFINITY;
        while state.classes.len() < self.max_disjuncts {
            let mut picks = self.picks(covers, p.len(), n.len(), &state, order);
            let rank = if state.classes.is_empty() { first } else { 0 };
            if rank > 0 {
                picks.sort_by(|a, b| self.better(a, b));
            } else if let Some(best) = picks.iter().copied().min_by(|a, b| self.better(a, b)) {
                picks = vec![best];
            }
            let Some(&(score, k)) = picks.get(rank) else {
                break;
            };
            let worth = match order {
                Order::Quality => score > current,
                Order::Precision => score > 0.0,
            };
            if !worth {
                break;
            }
            current = score;
            state.add(k, covers.of(k));
            out.push(Union {
                classes: state.classes.clone(),
                covered: state.covered.clone(),
            });
        }
    }

    /// Each class that adds a positive, with its score under `order`.
    fn picks(
        &self,
        covers: &Covers,
        np: usize,
        nn: usize,
        s: &State,
        order: Order,
    ) -> Vec<(f64, u32)> {
        let mut out = Vec::new();
        for (k, c) in &covers.by_class {
            let new_p = c.intersection_count(&s.p_left);
            if new_p == 0 {
                continue;
            }
            let new_n = c.intersection_count(&s.n_left);
            let score = match order {
                Order::Quality => self.quality.score(&Confusion {
                    tp: s.tp + new_p,
                    fp: s.fp + new_n,
                    tn: nn - s.fp - new_n,
                    fn_: np - s.tp - new_p,
                }),
                Order::Precision => new_p as f64 - 4.0 * new_n as f64,
            };
            out.push((score, *k));
        }
        out
    }

    /// Higher score first, then the more specific class, then the first found.
    fn better(&self, a: &(f64, u32), b: &(f64, u32)) -> std::cmp::Ordering {
        b.0.total_cmp(&a.0)
            .then(self.sizes[a.1 as usize].cmp(&self.sizes[b.1 as usize]))
            .then(a.1.cmp(&b.1))
    }
}

/// Unions grown by precision start from this many different first classes: the best first
/// class by count is often a broad one whose union cannot be completed.
const PRECISION_STARTS: usize = 3;

/// A union being grown: its classes, what it covers, and what is left to cover.
struct State {
    classes: Vec<u32>,
    covered: IndividualSet,
    p_left: IndividualSet,
    n_left: IndividualSet,
    tp: usize,
    fp: usize,
}

impl State {
    fn add(&mut self, k: u32, c: &IndividualSet) {
        self.tp += c.intersection_count(&self.p_left);
        self.fp += c.intersection_count(&self.n_left);
        self.p_left.difference_with(c);
        self.n_left.difference_with(c);
        self.covered.union_with(c);
        self.classes.push(k);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn set(n: usize, xs: &[usize]) -> IndividualSet {
        IndividualSet::from_ids(n, xs.iter().map(|i| local_id(*i)))
    }

    /// Examples 0–5 positive, 6–9 negative. Class 0 is broad (every positive and two
    /// negatives), 1 and 3 cover positives 0–2 (3 is more general in the neighbourhood), 2
    /// covers positives 3–5, 4 covers a negative only.
    fn covers() -> (Covers, Greedy) {
        let n = 10;
        let by_class = BTreeMap::from([
            (0, set(n, &[0, 1, 2, 3, 4, 5, 6, 7])),
            (1, set(n, &[0, 1, 2])),
            (2, set(n, &[3, 4, 5])),
            (3, set(n, &[0, 1, 2])),
            (4, set(n, &[8])),
        ]);
        let greedy = Greedy {
            quality: QualityMeasure::F1,
            max_disjuncts: 3,
            sizes: vec![100, 5, 5, 50, 5],
        };
        let covers = Covers {
            by_class,
            empty: IndividualSet::empty(n),
        };
        (covers, greedy)
    }

    #[test]
    fn unions_of_narrow_classes_cover_the_positives_the_most_specific_first() {
        let (covers, greedy) = covers();
        let (p, n) = (set(10, &[0, 1, 2, 3, 4, 5]), set(10, &[6, 7, 8, 9]));
        let unions = greedy.unions(&covers, &p, &n);
        let classes: Vec<&[u32]> = unions.iter().map(|u| u.classes.as_slice()).collect();
        // By quality, one class at a time: the broad class 0 (F1 0.857) is the best first
        // step and leaves no positive to add, so the perfect 1 ⊔ 2 is not reached this way.
        assert_eq!(classes[0], [0]);
        assert_eq!(unions.iter().filter(|u| u.classes.contains(&0)).count(), 1);
        // By precision: 1 (more specific than 3), then 2; from the second-best start, 2 then 1.
        assert!(classes.contains(&[1, 2].as_slice()), "{classes:?}");
        assert!(classes.contains(&[2, 1].as_slice()), "{classes:?}");
        assert!(!classes.iter().any(|c| c.contains(&3) && c.contains(&1)));
        // A class covering only negatives is never added.
        assert!(!classes.iter().any(|c| c.contains(&4)));
        let full = unions.iter().find(|u| u.classes == [1, 2]).unwrap();
        let c = confusion(&full.covered, &p, &n, None);
        assert_eq!((c.tp, c.fp), (6, 0));
    }

    #[test]
    fn the_describing_classes_are_the_shared_one_and_the_best() {
        let (covers, _) = covers();
        let (p, n) = (set(10, &[0, 1, 2, 3, 4, 5]), set(10, &[6, 7, 8, 9]));
        let d: Vec<u32> = covers.describing(&p, &n, QualityMeasure::F1).collect();
        // 0 is the only class every positive has, and the best alone; then 1 (tie with 2
        // and 3 on F1 0.667, the first found).
        assert_eq!(d, [0, 1]);
    }
}

//! Role successors of a set of individuals, and the restrictions evaluated over them.
//!
//! With the successors of `among` along `r` and the members of `C` among those successors,
//! every restriction on `r` is local set algebra: `∃r.C` holds for `x` when some successor
//! is a member, `∀r.C` when all are (vacuously with none), `≥n`/`≤n`/`=n` count the distinct
//! member successors. This is exact as long as every successor is an individual of the
//! active domain, which is why an oracle only hands out complete successor lists.

use super::{IndividualId, IndividualSet};

/// The successors along one role of the individuals of one set.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Successors {
    /// Per individual with at least one successor: its distinct successors, sorted.
    lists: Vec<(IndividualId, Vec<IndividualId>)>,
    /// All successors together: where the fillers must be evaluated.
    targets: IndividualSet,
}

impl Successors {
    /// From `(subject, successor)` pairs in any order, duplicates allowed.
    pub fn from_pairs(universe: usize, mut pairs: Vec<(IndividualId, IndividualId)>) -> Self {
        pairs.sort_unstable();
        pairs.dedup();
        let mut lists: Vec<(IndividualId, Vec<IndividualId>)> = Vec::new();
        let mut targets = IndividualSet::empty(universe);
        for (x, y) in pairs {
            targets.insert(y);
            match lists.last_mut() {
                Some((last, ys)) if *last == x => ys.push(y),
                _ => lists.push((x, vec![y])),
            }
        }
        Successors { lists, targets }
    }

    pub fn targets(&self) -> &IndividualSet {
        &self.targets
    }

    /// Approximate heap size, for cache weighing.
    pub fn heap_bytes(&self) -> usize {
        self.targets.heap_bytes()
            + self
                .lists
                .iter()
                .map(|(_, ys)| 32 + 4 * ys.len())
                .sum::<usize>()
    }

    /// The individuals of `among` with a number of member successors that `accept`s
    /// (individuals without successors are judged on a count of zero).
    pub fn counting(
        &self,
        among: &IndividualSet,
        members: &IndividualSet,
        accept: impl Fn(usize) -> bool,
    ) -> IndividualSet {
        let mut out = if accept(0) {
            among.clone()
        } else {
            IndividualSet::empty(among.universe())
        };
        for (x, ys) in &self.lists {
            if !among.contains(*x) {
                continue;
            }
            let n = ys.iter().filter(|y| members.contains(**y)).count();
            if accept(n) {
                out.insert(*x);
            } else {
                out.remove(*x);
            }
        }
        out
    }

    /// The individuals of `among` all of whose successors are members (vacuously true).
    pub fn all_in(&self, among: &IndividualSet, members: &IndividualSet) -> IndividualSet {
        let mut out = among.clone();
        for (x, ys) in &self.lists {
            if ys.iter().any(|y| !members.contains(*y)) {
                out.remove(*x);
            }
        }
        out
    }

    /// The distinct successors of `x`, sorted (empty without any): what fuzzy `∃r.C`
    /// takes the supremum over.
    pub fn of(&self, x: IndividualId) -> &[IndividualId] {
        match self.lists.binary_search_by_key(&x, |(s, _)| *s) {
            Ok(i) => &self.lists[i].1,
            Err(_) => &[],
        }
    }

    /// The individuals of `among` that have `target` as a successor.
    pub fn having(&self, among: &IndividualSet, target: IndividualId) -> IndividualSet {
        self.matching(among, |_, ys| ys.binary_search(&target).is_ok())
    }

    /// The individuals of `among` that are their own successor.
    pub fn reflexive(&self, among: &IndividualSet) -> IndividualSet {
        self.matching(among, |x, ys| ys.binary_search(&x).is_ok())
    }

    fn matching(
        &self,
        among: &IndividualSet,
        keep: impl Fn(IndividualId, &[IndividualId]) -> bool,
    ) -> IndividualSet {
        let mut out = IndividualSet::empty(among.universe());
        for (x, ys) in &self.lists {
            if among.contains(*x) && keep(*x, ys) {
                out.insert(*x);
            }
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ids(v: &[u32]) -> IndividualSet {
        IndividualSet::from_ids(6, v.iter().map(|&i| IndividualId(i)))
    }

    #[test]
    fn restrictions_by_counting_member_successors() {
        let p = |a, b| (IndividualId(a), IndividualId(b));
        // 0 → {1, 2}, 1 → {1}, 3 → {4}; 2 and 5 have no successors.
        let s = Successors::from_pairs(6, vec![p(0, 2), p(0, 1), p(1, 1), p(3, 4), p(0, 2)]);
        assert_eq!(s.targets(), &ids(&[1, 2, 4]));
        let among = ids(&[0, 1, 2, 3, 5]);
        let members = ids(&[1, 2]);
        // ∃: 0 and 1.
        assert_eq!(s.counting(&among, &members, |n| n >= 1), ids(&[0, 1]));
        // ≥2: 0 only (duplicates counted once).
        assert_eq!(s.counting(&among, &members, |n| n >= 2), ids(&[0]));
        // ≤0 counts those without successors too.
        assert_eq!(s.counting(&among, &members, |n| n == 0), ids(&[2, 3, 5]));
        // ∀: vacuous for 2 and 5; 3's successor 4 is no member.
        assert_eq!(s.all_in(&among, &members), ids(&[0, 1, 2, 5]));
        assert_eq!(s.having(&among, IndividualId(2)), ids(&[0]));
        assert_eq!(s.reflexive(&among), ids(&[1]));
    }
}

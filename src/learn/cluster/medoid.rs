//! Medoids: the member of a set with the least summed distance to the others — the
//! **argmin**. (The reference implementation, TCTNew, takes the argmax, which picks the most
//! eccentric member; `tests::the_medoid_is_the_argmin_not_the_argmax` pins the difference.)
//!
//! Members with equal projections have equal sums, so a set is handled as weighted
//! patterns ([`Patterns::weighted`]): the sum for pattern `c` is `Σ_k count_k · d(c, k)`.
//!
//! * **Exact** when the set has at most `exact_limit` distinct patterns: every pattern's sum,
//!   `O(P² m)`.
//! * **Sampled** above that (so 10,000 individuals stay cheap): with a generator seeded by
//!   the run's seed and the set's contents, draw `candidates` members and `references`
//!   members uniformly (with replacement); estimate each candidate pattern's sum against the
//!   references; compute the exact sum of the best `finalists` estimates over the whole set
//!   and take the least. Cost `O((candidates · references + finalists · P) m)`. The answer
//!   is a member, deterministic for a seed and set, and exact whenever the true medoid's
//!   pattern is drawn and ranks among the finalists.
//!
//! Ties go to the smallest pattern id, then to the set's smallest row with that pattern.

use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use rayon::prelude::*;
use serde::{Deserialize, Serialize};

use super::distance::Metric;
use super::projection::{Patterns, Projections};

/// How medoids of large sets are found (see the module docs).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Sampling {
    /// Up to this many distinct projection patterns in a set, the medoid is exact.
    pub exact_limit: usize,
    /// Above it: candidate patterns drawn (by individual, so frequent patterns are likelier).
    pub candidates: usize,
    /// Individuals each candidate's summed distance is first estimated against.
    pub references: usize,
    /// The best estimated candidates whose summed distance is then computed exactly.
    pub finalists: usize,
}

impl Default for Sampling {
    fn default() -> Self {
        Sampling {
            exact_limit: 400,
            candidates: 64,
            references: 256,
            finalists: 4,
        }
    }
}

/// Finds medoids of sets of rows of one [`Projections`].
pub struct Medoids<'a> {
    pub projections: &'a Projections,
    pub patterns: &'a Patterns,
    pub metric: Metric,
    pub sampling: Sampling,
    pub seed: u64,
}

/// One pattern of a set: its id, how many members have it, its smallest member row.
#[derive(Clone, Copy, Debug)]
struct Weighted {
    pattern: u32,
    count: u32,
    row: u32,
}

impl Medoids<'_> {
    fn pattern_row(&self, k: u32) -> &[f64] {
        self.projections.row(self.patterns.row_of(k))
    }

    /// The distance between rows `a` and `b`.
    pub fn distance(&self, a: usize, b: usize) -> f64 {
        self.metric
            .distance(self.projections.row(a), self.projections.row(b))
    }

    /// The medoid row of `rows` (`None` for an empty set).
    pub fn medoid(&self, rows: &[u32]) -> Option<usize> {
        let set = self.weighted(rows);
        if set.is_empty() {
            return None;
        }
        let best = if set.len() <= self.sampling.exact_limit {
            let all: Vec<usize> = (0..set.len()).collect();
            self.argmin(&set, &all)
        } else {
            self.sampled(&set, rows)
        };
        Some(set[best].row as usize)
    }

    fn weighted(&self, rows: &[u32]) -> Vec<Weighted> {
        let mut out: Vec<Weighted> = Vec::new();
        let mut at: std::collections::HashMap<u32, usize> = Default::default();
        for &r in rows {
            let k = self.patterns.of_row(r as usize);
            match at.get(&k) {
                Some(&i) => {
                    out[i].count += 1;
                    out[i].row = out[i].row.min(r);
                }
                None => {
                    at.insert(k, out.len());
                    out.push(Weighted {
                        pattern: k,
                        count: 1,
                        row: r,
                    });
                }
            }
        }
        out.sort_unstable_by_key(|w| w.pattern);
        out
    }

    /// `Σ_k count_k · d(c, k)` over the whole set.
    fn summed(&self, set: &[Weighted], c: u32) -> f64 {
        let row = self.pattern_row(c);
        set.iter()
            .map(|w| f64::from(w.count) * self.metric.distance(row, self.pattern_row(w.pattern)))
            .sum()
    }

    /// The index (into `set`) of the least exact sum among `candidates` (indices into
    /// `set`, ascending: the first least wins).
    fn argmin(&self, set: &[Weighted], candidates: &[usize]) -> usize {
        let sums: Vec<f64> = candidates
            .par_iter()
            .map(|&i| self.summed(set, set[i].pattern))
            .collect();
        let mut best = 0;
        for (j, s) in sums.iter().enumerate() {
            if *s < sums[best] {
                best = j;
            }
        }
        candidates[best]
    }

    fn sampled(&self, set: &[Weighted], rows: &[u32]) -> usize {
        let s = self.sampling;
        let mut rng = StdRng::seed_from_u64(self.seed ^ fingerprint(set));
        let index_of = |r: u32, set: &[Weighted]| {
            let k = self.patterns.of_row(r as usize);
            set.binary_search_by_key(&k, |w| w.pattern).unwrap_or(0)
        };
        let mut candidates: Vec<usize> = (0..s.candidates)
            .map(|_| index_of(rows[rng.random_range(0..rows.len())], set))
            .collect();
        candidates.sort_unstable();
        candidates.dedup();
        let references: Vec<u32> = (0..s.references)
            .map(|_| set[index_of(rows[rng.random_range(0..rows.len())], set)].pattern)
            .collect();
        let estimates: Vec<f64> = candidates
            .par_iter()
            .map(|&i| {
                let row = self.pattern_row(set[i].pattern);
                references
                    .iter()
                    .map(|&k| self.metric.distance(row, self.pattern_row(k)))
                    .sum()
            })
            .collect();
        let mut order: Vec<usize> = (0..candidates.len()).collect();
        order.sort_by(|&a, &b| estimates[a].total_cmp(&estimates[b]).then(a.cmp(&b)));
        let mut finalists: Vec<usize> = order
            .into_iter()
            .take(s.finalists)
            .map(|j| candidates[j])
            .collect();
        finalists.sort_unstable();
        self.argmin(set, &finalists)
    }
}

/// FNV-1a over the set's patterns and counts: the sampling seed depends on the set only.
fn fingerprint(set: &[Weighted]) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for w in set {
        for x in [w.pattern, w.count] {
            for b in x.to_le_bytes() {
                h ^= u64::from(b);
                h = h.wrapping_mul(0x0100_0000_01b3);
            }
        }
    }
    h
}

#[cfg(test)]
mod tests {
    use super::*;

    fn finder<'a>(p: &'a Projections, patterns: &'a Patterns, sampling: Sampling) -> Medoids<'a> {
        Medoids {
            projections: p,
            patterns,
            metric: Metric::new(1.0),
            sampling,
            seed: 7,
        }
    }

    #[test]
    fn the_medoid_is_the_argmin_not_the_argmax() {
        // One feature, values 0, ½, 1 (p = 1, m = 1): summed distances 1.5, 1.0, 1.5.
        // The argmin is row 1 (½); TCTNew's argmax would pick row 0.
        let p = Projections::from_rows(&[vec![0.0], vec![0.5], vec![1.0]]);
        let patterns = Patterns::new(&p);
        let m = finder(&p, &patterns, Sampling::default());
        assert_eq!(m.medoid(&[0, 1, 2]), Some(1));
        // Two features: a = (1, 1), b = (1, ½), c = (0, 0), d = (1, 1).
        // Sums (p = 1, /2): a: 0.25 + 1 + 0 = 1.25; b: 0.25 + 0.75 + 0.25 = 1.25 (tie,
        // the smaller pattern wins: a); c: 1 + 0.75 + 1 = 2.75 (the argmax).
        let p = Projections::from_rows(&[
            vec![1.0, 1.0],
            vec![1.0, 0.5],
            vec![0.0, 0.0],
            vec![1.0, 1.0],
        ]);
        let patterns = Patterns::new(&p);
        let m = finder(&p, &patterns, Sampling::default());
        assert_eq!(m.medoid(&[0, 1, 2, 3]), Some(0));
        // Rows 1, 2, 3: b sums 0.75 + 0.25 = 1.0, d 1.25, c 1.75.
        assert_eq!(m.medoid(&[1, 2, 3]), Some(1));
        assert_eq!(m.medoid(&[]), None);
        assert_eq!(m.medoid(&[2]), Some(2));
    }

    #[test]
    fn sampling_is_seeded_and_finds_the_centre_of_a_large_set() {
        // 2,000 individuals on a line (1 feature), all distinct: the medoid is the middle.
        let rows: Vec<Vec<f64>> = (0..2000).map(|i| vec![i as f64 / 1999.0]).collect();
        let p = Projections::from_rows(&rows);
        let patterns = Patterns::new(&p);
        let small = Sampling {
            exact_limit: 100,
            ..Sampling::default()
        };
        let m = finder(&p, &patterns, small);
        let all: Vec<u32> = (0..2000).collect();
        let a = m.medoid(&all).unwrap();
        assert_eq!(m.medoid(&all), Some(a), "same seed, same set, same medoid");
        // The exact medoid is row 999 or 1000; the sampled one is within 5% of the range.
        assert!((a as i64 - 1000).abs() < 100, "{a}");
        let exact = finder(&p, &patterns, Sampling::default());
        let e = Medoids {
            sampling: Sampling {
                exact_limit: 5000,
                ..Sampling::default()
            },
            ..exact
        }
        .medoid(&all)
        .unwrap();
        assert!(e == 999 || e == 1000, "{e}");
    }
}

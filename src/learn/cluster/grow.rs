//! Growing the tree (Alg. 1 of the paper). At a node with concept `C` and individuals `I`:
//!
//! 1. candidate tests `E ∈ ρ(C)` (at most `refinement_length` longer than `C`, the first
//!    `max_candidates` in the operator's order);
//! 2. for each, `P = T(E) ∩ I` and `N = F(E) ∩ I` from the three-valued oracle (asked over
//!    the whole training set, so answers are cached across nodes). If one side is empty,
//!    the individuals of `I` outside the other side farther than δ from its medoid are
//!    moved to it; a test with both sides still not filled is skipped;
//!    (ν is a multiple of the data's spread, the mean distance of all training individuals
//!    to their medoid, and δ a multiple of the node's own spread, so one default fits every
//!    `p`, committee and KB: distances shrink as the committee grows, the largest possible
//!    distance is far from any distance seen in practice, and individuals deep in the tree
//!    are closer to each other than at the root);
//! 3. the test whose medoids of `P` and `N` are farthest apart wins (ties: the first);
//! 4. if that distance is below ν (or the node is too deep or too small, or a budget ran
//!    out) the node is a leaf; otherwise every individual of `I` goes to the side of the
//!    nearer medoid (left on a tie), left's concept is `E`, right's `C ⊓ ¬E`, and both
//!    sides grow in turn. A split leaving a side below `min_cluster_size` is passed over for
//!    the next best.
//!
//! Trees grow until the clusters are homogeneous because each leaf is a claim that its members
//! differ from every other leaf's: a shallow tree lumps classes together and proposes few of
//! the disjointness axioms a KB asserts (`docs/experiments/2026-12-03-cluster-disjointness.md`).

use rayon::prelude::*;

use super::committee::informative;
use super::distance::Metric;
use super::medoid::Medoids;
use super::model::{ClusterModel, Medoid, TreeNode};
use super::params::ClusterParams;
use super::projection::{Patterns, Projections};
use crate::concept::{Concept, length, normalize};
use crate::learn::{LearnError, RunClock, RunControl, RunStats, Termination};
use crate::oracle::{IndividualId, IndividualSet, MembershipOracle, OracleError};
use crate::refine::Refinement;

/// Candidates scored in parallel between two budget checks.
const BATCH: usize = 8;

/// A finished run: the model, every training individual's cluster, the projections the
/// distance was measured on (the informative committee features) and the cost.
#[derive(Debug)]
pub struct ClusterRun {
    pub model: ClusterModel,
    /// The training individuals' clusters, in id order.
    pub assignment: Vec<(IndividualId, usize)>,
    pub projections: Projections,
    pub stats: RunStats,
}

/// One scored candidate test.
struct Scored {
    test: Concept,
    left: usize,
    right: usize,
    distance: f64,
}

struct Grower<'a, 'o> {
    oracle: &'o dyn MembershipOracle,
    among: &'a IndividualSet,
    refinement: &'a dyn Refinement,
    params: &'a ClusterParams,
    medoids: Medoids<'a>,
    clock: RunClock<'o, dyn MembershipOracle + 'o>,
    /// The data's spread (mean distance to the root's medoid): thresholds are multiples of it.
    scale: f64,
    tests: u64,
    stop: Option<Termination>,
    clusters: usize,
    nodes: u64,
    assignment: Vec<usize>,
}

/// Grows a tree over `individuals` (all in `among`, the set the oracle is asked over) from
/// the concept `start` they are known to belong to (⊤ by default).
#[allow(clippy::too_many_arguments)]
pub fn fit(
    oracle: &dyn MembershipOracle,
    individuals: &IndividualSet,
    among: &IndividualSet,
    refinement: &dyn Refinement,
    committee: &[Concept],
    start: &Concept,
    params: &ClusterParams,
    control: &RunControl,
) -> Result<ClusterRun, LearnError> {
    params.validate()?;
    if individuals.is_empty() {
        return Err(LearnError::InvalidTraining(
            "there are no individuals to cluster".to_owned(),
        ));
    }
    let before = oracle.stats();
    let clock = control.start(oracle);
    let among = among.union(individuals);
    let full = Projections::compute(oracle, committee, individuals, &among, params.unknown)?;
    let (committee, projections) = informative(committee, &full);
    let patterns = Patterns::new(&projections);
    let metric = Metric::new(params.p);
    let mut g = Grower {
        oracle,
        among: &among,
        refinement,
        params,
        medoids: Medoids {
            projections: &projections,
            patterns: &patterns,
            metric,
            sampling: params.sampling,
            seed: params.seed,
        },
        clock,
        scale: 0.0,
        tests: 0,
        stop: None,
        clusters: 0,
        nodes: 0,
        assignment: vec![0; projections.len()],
    };
    let rows: Vec<u32> = (0..projections.len() as u32).collect();
    g.scale = g.spread(&rows);
    let root = g.grow(normalize(start), rows, 0)?;
    let elapsed_ms = g.clock.elapsed_ms();
    let delta = RunStats::oracle_delta(before, oracle.stats());
    let mut details = serde_json::Map::new();
    details.insert("nodes".into(), g.nodes.into());
    details.insert("clusters".into(), g.clusters.into());
    details.insert("committee".into(), full.features().into());
    details.insert("informative_features".into(), projections.features().into());
    details.insert("patterns".into(), patterns.count().into());
    let stats = RunStats::of_run(
        g.tests,
        &delta,
        elapsed_ms,
        elapsed_ms,
        g.stop.unwrap_or(Termination::Exhausted),
        details,
    );
    let assignment = projections
        .individuals()
        .iter()
        .copied()
        .zip(g.assignment.iter().copied())
        .collect();
    let model = ClusterModel {
        p: params.p,
        committee,
        unknown: projections.unknown_values().to_vec(),
        root,
    };
    Ok(ClusterRun {
        model,
        assignment,
        projections,
        stats,
    })
}

/// The concept of a right branch: `C ⊓ ¬E`, written `C ⊓ ¬D` when `E = C ⊓ D` (ρ's usual
/// refinement), which is the same class (`C ⊓ ¬(C ⊓ D) ≡ C ⊓ ¬D`) and reads better.
pub fn right_concept(c: &Concept, e: &Concept) -> Concept {
    let conjuncts = |x: &Concept| -> Vec<Concept> {
        match x {
            Concept::And(cs) => cs.clone(),
            Concept::Top => Vec::new(),
            other => vec![other.clone()],
        }
    };
    let (cc, ec) = (conjuncts(c), conjuncts(e));
    let rest: Vec<Concept> = ec.iter().filter(|x| !cc.contains(x)).cloned().collect();
    let d = if !rest.is_empty() && cc.iter().all(|x| ec.contains(x)) {
        normalize(&Concept::And(rest))
    } else {
        e.clone()
    };
    absorb(normalize(&Concept::And(vec![c.clone(), Concept::not(d)])))
}

/// Drops from a conjunction every disjunction that has one of the other conjuncts as a
/// disjunct (absorption: `A ⊓ (A ⊔ B) ≡ A`), which the normal form keeps.
pub fn absorb(c: Concept) -> Concept {
    let Concept::And(cs) = &c else {
        return c;
    };
    let kept: Vec<Concept> = cs
        .iter()
        .filter(|x| match x {
            Concept::Or(ds) => !ds.iter().any(|d| cs.contains(d)),
            _ => true,
        })
        .cloned()
        .collect();
    if kept.len() == cs.len() {
        c
    } else {
        normalize(&Concept::And(kept))
    }
}

impl Grower<'_, '_> {
    fn grow(
        &mut self,
        concept: Concept,
        rows: Vec<u32>,
        depth: usize,
    ) -> Result<TreeNode, LearnError> {
        self.nodes += 1;
        if self.stop.is_none() {
            self.stop = self.clock.exhausted(self.tests);
        }
        let min = self.params.min_cluster_size;
        if depth >= self.params.max_depth || rows.len() < 2 * min || self.stop.is_some() {
            return self.leaf(concept, &rows);
        }
        let delta = self.params.reassign_distance * self.spread(&rows);
        let scored = self.score_candidates(&concept, &rows, delta)?;
        let threshold = self.params.stop_distance * self.scale;
        for s in scored {
            if s.distance <= 0.0 || s.distance < threshold {
                break;
            }
            let (left, right): (Vec<u32>, Vec<u32>) = rows.iter().partition(|&&r| {
                self.medoids.distance(r as usize, s.left)
                    <= self.medoids.distance(r as usize, s.right)
            });
            if left.len() < min || right.len() < min {
                continue;
            }
            let size = rows.len();
            let left_medoid = self.medoid_of(s.left)?;
            let right_medoid = self.medoid_of(s.right)?;
            let test = absorb(s.test);
            let right_concept = right_concept(&concept, &test);
            let left_node = self.grow(test.clone(), left, depth + 1)?;
            let right_node = self.grow(right_concept, right, depth + 1)?;
            return Ok(TreeNode::Split {
                concept,
                test,
                size,
                left_medoid,
                right_medoid,
                distance: s.distance,
                left: Box::new(left_node),
                right: Box::new(right_node),
            });
        }
        self.leaf(concept, &rows)
    }

    fn leaf(&mut self, concept: Concept, rows: &[u32]) -> Result<TreeNode, LearnError> {
        let cluster = self.clusters;
        self.clusters += 1;
        for &r in rows {
            self.assignment[r as usize] = cluster;
        }
        let medoid = match self.medoids.medoid(rows) {
            Some(m) => self.medoid_of(m)?,
            None => {
                return Err(LearnError::InvalidTraining(
                    "a cluster without individuals".to_owned(),
                ));
            }
        };
        Ok(TreeNode::Leaf {
            cluster,
            concept,
            size: rows.len(),
            medoid,
        })
    }

    /// The mean distance of `rows` to their medoid (0 for an empty set).
    fn spread(&self, rows: &[u32]) -> f64 {
        let Some(m) = self.medoids.medoid(rows) else {
            return 0.0;
        };
        rows.iter()
            .map(|&r| self.medoids.distance(r as usize, m))
            .sum::<f64>()
            / rows.len() as f64
    }

    fn medoid_of(&self, row: usize) -> Result<Medoid, LearnError> {
        let p = self.medoids.projections;
        let id = p.individual(row);
        let iri = self.oracle.signature().individual_iri(id).ok_or_else(|| {
            LearnError::InvalidTraining(format!("individual {} has no IRI", id.0))
        })?;
        Ok(Medoid {
            iri: iri.clone(),
            projection: p.row(row).to_vec(),
        })
    }

    /// The candidate tests of a node, scored, best first (ties: the operator's order).
    fn score_candidates(
        &mut self,
        concept: &Concept,
        rows: &[u32],
        delta: f64,
    ) -> Result<Vec<Scored>, LearnError> {
        let max_len = length(concept) + self.params.refinement_length;
        let candidates: Vec<Concept> = self
            .refinement
            .refine(concept, max_len)
            .into_iter()
            .filter(|e| e != concept && *e != Concept::Bottom)
            .take(self.params.max_candidates)
            .collect();
        let mut scored: Vec<(usize, Scored)> = Vec::new();
        for (b, batch) in candidates.chunks(BATCH).enumerate() {
            let left = self.clock.tests_left(self.tests);
            let batch = &batch[..batch.len().min(usize::try_from(left).unwrap_or(usize::MAX))];
            let results: Vec<Result<Option<Scored>, OracleError>> = batch
                .par_iter()
                .map(|e| self.score(e, rows, delta))
                .collect();
            self.tests += batch.len() as u64;
            for (i, r) in results.into_iter().enumerate() {
                match r {
                    Ok(Some(s)) => scored.push((b * BATCH + i, s)),
                    Ok(None) => {}
                    Err(e) if e.budget_exhausted().is_some() => {
                        self.stop = e.budget_exhausted().map(Termination::from);
                    }
                    Err(e) => return Err(e.into()),
                }
            }
            if self.stop.is_none() {
                self.stop = self.clock.exhausted(self.tests);
            }
            if self.stop.is_some() {
                break;
            }
        }
        scored.sort_by(|(i, a), (j, b)| b.distance.total_cmp(&a.distance).then(i.cmp(j)));
        Ok(scored.into_iter().map(|(_, s)| s).collect())
    }

    /// Medoids of `P` and `N` for the test `e`, or `None` when a side stays empty.
    fn score(&self, e: &Concept, rows: &[u32], delta: f64) -> Result<Option<Scored>, OracleError> {
        let t = self.oracle.truth(e, self.among)?;
        let p = self.medoids.projections;
        let mut pos: Vec<u32> = Vec::new();
        let mut neg: Vec<u32> = Vec::new();
        for &r in rows {
            let a = p.individual(r as usize);
            if t.true_set.contains(a) {
                pos.push(r);
            } else if t.false_set.contains(a) {
                neg.push(r);
            }
        }
        if pos.is_empty() && neg.is_empty() {
            return Ok(None);
        }
        if neg.is_empty() {
            neg = self.far_from(&pos, rows, delta);
        } else if pos.is_empty() {
            pos = self.far_from(&neg, rows, delta);
        }
        let (Some(left), Some(right)) = (self.medoids.medoid(&pos), self.medoids.medoid(&neg))
        else {
            return Ok(None);
        };
        Ok(Some(Scored {
            test: e.clone(),
            left,
            right,
            distance: self.medoids.distance(left, right),
        }))
    }

    /// The rows of `rows` outside `side` farther than `delta` from `side`'s medoid.
    fn far_from(&self, side: &[u32], rows: &[u32], delta: f64) -> Vec<u32> {
        let Some(m) = self.medoids.medoid(side) else {
            return Vec::new();
        };
        let mut inside = side.to_vec();
        inside.sort_unstable();
        rows.iter()
            .copied()
            .filter(|r| inside.binary_search(r).is_err())
            .filter(|&r| self.medoids.distance(r as usize, m) > delta)
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn right_branches_drop_the_parent_from_the_negated_test() {
        let (a, b, c) = (
            Concept::class("http://e/A"),
            Concept::class("http://e/B"),
            Concept::class("http://e/C"),
        );
        let and = |v: Vec<Concept>| normalize(&Concept::And(v));
        // C = A, E = A ⊓ B: A ⊓ ¬B.
        assert_eq!(
            right_concept(&a, &and(vec![a.clone(), b.clone()])),
            and(vec![a.clone(), Concept::not(b.clone())])
        );
        // C = A ⊓ B, E = A ⊓ B ⊓ C: A ⊓ B ⊓ ¬C.
        assert_eq!(
            right_concept(
                &and(vec![a.clone(), b.clone()]),
                &and(vec![a.clone(), b.clone(), c.clone()])
            ),
            and(vec![a.clone(), b.clone(), Concept::not(c.clone())])
        );
        // Absorption: A ⊓ (A ⊔ B) is A.
        assert_eq!(
            absorb(and(vec![
                a.clone(),
                Concept::Or(vec![a.clone(), b.clone()])
            ])),
            a.clone()
        );
        // C = ⊤: ¬E. E not of the form C ⊓ D: C ⊓ ¬E.
        assert_eq!(right_concept(&Concept::Top, &b), Concept::not(b.clone()));
        assert_eq!(
            right_concept(&a, &c),
            and(vec![a.clone(), Concept::not(c.clone())])
        );
    }
}

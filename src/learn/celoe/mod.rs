//! CELOE (Class Expression Learning for Ontology Engineering): a best-first search over the
//! refinements of a start class, scored by DL-Learner's `OEHeuristicRuntime`.
//!
//! Each step expands the best node that is not yet perfect (or whose horizontal expansion is
//! still below its length): it is refined with a length limit one above its last one, and
//! refinements longer than the previous limit, not deeper than `max_depth` and never seen
//! before (by normal form) are scored against the examples in batches. Refinements missing
//! more positives than the noise allows are too weak and dropped (their own refinements
//! would miss at least as many). The best distinct solutions are kept and, at the end,
//! minimised. With a test budget the run is deterministic: batches are answered in input
//! order and ties in the tree are broken by length and insertion order.

mod params;

use rustc_hash::FxHashSet;

pub use params::CeloeParams;

use super::minimize::Minimizer;
use super::search::{BestSolutions, BudgetClock, Evaluator, SearchTree, Termination};
use super::{ConceptModel, Examples, LearnError, RunStats, Solution};
use crate::concept::{Concept, depth, length, normalize};
use crate::oracle::MembershipOracle;
use crate::refine::Refinement;

/// A snapshot for progress displays.
#[derive(Clone, Copy, Debug)]
pub struct Progress {
    pub concepts_tested: u64,
    pub best_quality: f64,
    pub elapsed: std::time::Duration,
}

/// A finished run: the model and what it cost.
#[derive(Clone, Debug)]
pub struct CeloeRun {
    pub model: ConceptModel,
    pub stats: RunStats,
}

pub struct Celoe<'r> {
    params: CeloeParams,
    refinement: &'r dyn Refinement,
}

const PERFECT: f64 = 1.0 - 1e-12;

impl<'r> Celoe<'r> {
    pub fn new(params: CeloeParams, refinement: &'r dyn Refinement) -> Result<Self, LearnError> {
        params.validate()?;
        Ok(Celoe { params, refinement })
    }

    pub fn params(&self) -> &CeloeParams {
        &self.params
    }

    pub fn fit<O: MembershipOracle + ?Sized>(
        &self,
        oracle: &O,
        examples: &Examples,
    ) -> Result<CeloeRun, LearnError> {
        self.fit_with_progress(oracle, examples, &|_| {})
    }

    /// Like [`Celoe::fit`], calling `progress` after every scored batch.
    pub fn fit_with_progress<O: MembershipOracle + ?Sized>(
        &self,
        oracle: &O,
        examples: &Examples,
        progress: &dyn Fn(&Progress),
    ) -> Result<CeloeRun, LearnError> {
        let p = &self.params;
        let clock = BudgetClock::start(p.budget.clone());
        let stats_before = oracle.stats();
        let evaluator = Evaluator::new(
            oracle,
            examples,
            p.quality,
            p.semantics,
            p.noise_percentage / 100.0,
        );
        let mut tree = SearchTree::new(p.heuristic);
        let mut best = BestSolutions::new(p.max_results);
        let mut seen: FxHashSet<Concept> = FxHashSet::default();
        let mut tests: u64 = 0;
        let mut refinements: u64 = 0;

        let start = normalize(&p.start);
        let root = evaluator.evaluate(&start)?;
        tests += 1;
        seen.insert(start.clone());
        let termination = if root.too_weak {
            // Nothing below a start that misses too many positives can do better.
            Termination::Exhausted
        } else {
            best.offer(&start, root.quality, root.confusion);
            tree.add(start, root.quality, None);
            // Per node id: its counts on the examples.
            let mut node_confusions = vec![root.confusion];
            loop {
                if let Some(t) = clock.exhausted(tests) {
                    break t;
                }
                if p.stop_on_perfect && best.best_quality().is_some_and(|q| q >= PERFECT) {
                    break Termination::PerfectSolution;
                }
                let expandable = |n: &super::search::SearchNode| {
                    (n.quality < PERFECT || n.horizontal_expansion < n.length)
                        && p.max_length.is_none_or(|m| n.horizontal_expansion < m)
                };
                let Some(id) = tree.best_where(expandable) else {
                    break Termination::Exhausted;
                };
                let node = tree.node(id);
                let limit = node.horizontal_expansion + 1;
                let previous = node.horizontal_expansion;
                let concept = node.concept.clone();
                let parent_confusion = node_confusions[id.0];
                let refined = self.refinement.refine(&concept, limit);
                refinements += refined.len() as u64;
                tree.expanded(id, limit, refined.len());
                let fresh: Vec<Concept> = refined
                    .into_iter()
                    .filter(|r| length(r) > previous && depth(r) <= p.max_depth)
                    .filter(|r| seen.insert(r.clone()))
                    .collect();
                for chunk in fresh.chunks(p.batch_size) {
                    if clock.exhausted(tests).is_some() {
                        break;
                    }
                    let take = chunk.len().min(clock.tests_left(tests) as usize);
                    let scored = evaluator.evaluate_batch(&chunk[..take])?;
                    tests += take as u64;
                    for (c, e) in chunk.iter().zip(scored) {
                        if e.too_weak {
                            continue;
                        }
                        if p.skip_idle_conjuncts
                            && e.confusion == parent_confusion
                            && extends_conjunction(&concept, c)
                        {
                            best.offer(c, e.quality, e.confusion);
                            continue;
                        }
                        tree.add(c.clone(), e.quality, Some(id));
                        node_confusions.push(e.confusion);
                        best.offer(c, e.quality, e.confusion);
                    }
                    progress(&Progress {
                        concepts_tested: tests,
                        best_quality: best.best_quality().unwrap_or(0.0),
                        elapsed: clock.elapsed(),
                    });
                    if p.stop_on_perfect && best.best_quality().is_some_and(|q| q >= PERFECT) {
                        break;
                    }
                }
            }
        };

        let solutions = self.report(oracle, &best)?;
        let oracle_stats = RunStats::oracle_delta(stats_before, oracle.stats());
        Ok(CeloeRun {
            model: ConceptModel {
                quality_measure: p.quality,
                semantics: p.semantics,
                solutions,
            },
            stats: RunStats {
                concepts_tested: tests,
                queries_sent: oracle_stats.queries_sent,
                cache_hits: oracle_stats.cache_hits,
                cache_misses: oracle_stats.cache_misses,
                elapsed_ms: clock.elapsed().as_millis() as u64,
                termination,
                nodes: tree.len(),
                refinements,
                max_horizontal_expansion: tree.max_horizontal_expansion(),
            },
        })
    }

    /// The kept solutions, minimised if asked (equal coverage, so equal counts), best first
    /// and distinct.
    fn report<O: MembershipOracle + ?Sized>(
        &self,
        oracle: &O,
        best: &BestSolutions,
    ) -> Result<Vec<Solution>, LearnError> {
        let minimizer = self
            .params
            .minimize
            .then(|| Minimizer::new(oracle, self.params.semantics));
        let mut out: Vec<Solution> = Vec::new();
        for candidate in best.candidates() {
            let concept = match &minimizer {
                Some(m) => m.minimize(&candidate.concept)?,
                None => candidate.concept,
            };
            if out.iter().any(|s| s.concept == concept) {
                continue;
            }
            out.push(Solution {
                concept,
                confusion: candidate.confusion,
                quality: candidate.quality,
            });
        }
        out.sort_by(|a, b| {
            b.quality
                .total_cmp(&a.quality)
                .then_with(|| length(&a.concept).cmp(&length(&b.concept)))
                .then_with(|| a.concept.cmp(&b.concept))
        });
        Ok(out)
    }
}

/// `child` is `parent ⊓ D` for some extra conjuncts `D` (both in normal form).
fn extends_conjunction(parent: &Concept, child: &Concept) -> bool {
    let Concept::And(parts) = child else {
        return false;
    };
    match parent {
        Concept::Top => true,
        Concept::And(parent_parts) => {
            parent_parts.len() < parts.len() && parent_parts.iter().all(|p| parts.contains(p))
        }
        other => parts.contains(other),
    }
}

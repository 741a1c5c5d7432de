//! The learner: FSBE(max) feature selection (Alg. 2) around a BIC-driven beam search for
//! the next feature concept (Alg. 1). Written against [`Refinement`], so any operator
//! restricted to ⊓, ⊔, ¬, ∃ plugs in.

use std::collections::BTreeSet;
use std::time::Instant;

use rayon::prelude::*;
use serde::Serialize;

use super::TbcError;
use super::build;
use super::features::{self, Dataset, Truth};
use super::model::TbcModel;
use super::params::TbcParams;
use super::score::{self, Fitted};
use crate::concept::{Concept, normalize};
use crate::oracle::{IndividualId, IndividualSet, MembershipOracle};
use crate::refine::Refinement;

/// Why the outer loop stopped.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Termination {
    /// No addition or removal improved the score (the paper's stopping rule).
    NoImprovement,
    /// The network holds `max_features` features and no removal helped.
    FeatureCap,
    /// `max_tests` candidate features were scored.
    TestBudget,
    TimeLimit,
}

/// What a run did.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct TbcStats {
    /// Candidate feature concepts scored (networks built in the inner search).
    pub features_tested: usize,
    pub additions: usize,
    pub removals: usize,
    /// Oracle statistics accumulated during the run (queries that reached the store).
    pub queries_sent: u64,
    pub cache_hits: u64,
    pub cache_misses: u64,
    pub elapsed_ms: u128,
    pub termination: Termination,
    /// EM/SEM iterations of the final network's fit, when EM was used.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub em_iterations: Option<usize>,
}

/// The training score of the final network.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct TrainingScore {
    pub cll: f64,
    pub bic: f64,
    pub parameters: usize,
    pub individuals: usize,
}

/// A finished run: the model, its training score and the statistics.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct TbcRun {
    pub model: TbcModel,
    pub score: TrainingScore,
    pub stats: TbcStats,
}

type Feature = (Concept, Vec<Truth>);

struct Learner<'a> {
    oracle: &'a dyn MembershipOracle,
    refinement: &'a dyn Refinement,
    params: &'a TbcParams,
    individuals: Vec<IndividualId>,
    among: IndividualSet,
    class: Vec<u8>,
    tested: usize,
    start: Instant,
    stop: Option<Termination>,
}

impl Learner<'_> {
    fn dataset(&self, feats: &[Feature]) -> Dataset {
        let arity = features::arity(self.params.missing);
        Dataset {
            class: self.class.clone(),
            columns: feats
                .iter()
                .map(|(_, col)| features::encode_column(col, self.params.missing))
                .collect(),
            arity: vec![arity; feats.len()],
        }
    }

    fn score(&self, data: &Dataset) -> (f64, Fitted) {
        let (fitted, _) = build::fit(data, self.params);
        (score::bic(&fitted, data), fitted)
    }

    fn out_of_time(&self) -> bool {
        self.params
            .time_limit_secs
            .is_some_and(|t| self.start.elapsed().as_secs_f64() >= t)
    }

    /// Alg. 1: beam search from ⊤ for the feature whose addition scores best.
    fn best_extension(&mut self, current: &[Feature]) -> Result<Option<(f64, Feature)>, TbcError> {
        let base = self.dataset(current);
        let arity = features::arity(self.params.missing);
        let mut seen: BTreeSet<Concept> = current.iter().map(|(c, _)| c.clone()).collect();
        seen.insert(Concept::Top);
        let mut beam = vec![Concept::Top];
        let mut best: Option<(f64, Feature)> = None;
        for _level in 0..self.params.depth {
            if self.out_of_time() {
                self.stop = Some(Termination::TimeLimit);
                break;
            }
            let mut candidates = Vec::new();
            for b in &beam {
                for r in self
                    .refinement
                    .refine(b, self.params.max_length)
                    .into_iter()
                    .take(self.params.max_refinements_per_node)
                {
                    let r = normalize(&r);
                    if r != Concept::Bottom
                        && crate::concept::length(&r) <= self.params.max_length
                        && seen.insert(r.clone())
                    {
                        candidates.push(r);
                    }
                }
            }
            let room = self.params.max_tests.saturating_sub(self.tested);
            if candidates.len() > room {
                candidates.truncate(room);
                self.stop = Some(Termination::TestBudget);
            }
            if candidates.is_empty() {
                break;
            }
            self.tested += candidates.len();
            let columns = features::columns(
                self.oracle,
                &candidates,
                &self.individuals,
                &self.among,
                self.params.semantics,
            );
            let columns: Vec<Vec<Truth>> = columns.into_iter().collect::<Result<_, _>>()?;
            let mut scored: Vec<(f64, usize)> = columns
                .par_iter()
                .enumerate()
                .map(|(k, col)| {
                    let data = base.with(features::encode_column(col, self.params.missing), arity);
                    (self.score(&data).0, k)
                })
                .collect();
            // Best first; ties by the concept's order, so runs are reproducible.
            scored.sort_by(|a, b| {
                b.0.total_cmp(&a.0)
                    .then_with(|| candidates[a.1].cmp(&candidates[b.1]))
            });
            if let Some(&(s, k)) = scored.first()
                && best.as_ref().is_none_or(|(bs, _)| s > *bs)
            {
                best = Some((s, (candidates[k].clone(), columns[k].clone())));
            }
            // Candidates with the same column are the same feature to the network: the beam
            // keeps one of each (the best-ranked), so it is not filled with synonyms.
            let mut kept: Vec<&Vec<Truth>> = Vec::new();
            beam = Vec::new();
            for &(_, k) in &scored {
                if beam.len() >= self.params.beam_width {
                    break;
                }
                if !kept.contains(&&columns[k]) {
                    kept.push(&columns[k]);
                    beam.push(candidates[k].clone());
                }
            }
            if self.stop.is_some() {
                break;
            }
        }
        Ok(best)
    }

    /// `Remove` of Alg. 2: the best network without 1..=`max` of the current features.
    fn best_removal(&self, current: &[Feature], max: usize) -> Option<(f64, Vec<usize>)> {
        let n = current.len();
        let mut subsets: Vec<Vec<usize>> = Vec::new();
        for size in 1..=max.min(n) {
            combinations(n, size, &mut Vec::new(), 0, &mut subsets);
        }
        let full = self.dataset(current);
        subsets
            .par_iter()
            .map(|removed| {
                let keep: Vec<usize> = (0..n).filter(|i| !removed.contains(i)).collect();
                (self.score(&full.select(&keep)).0, keep)
            })
            .collect::<Vec<_>>()
            .into_iter()
            .fold(
                None,
                |best: Option<(f64, Vec<usize>)>, (s, keep)| match &best {
                    Some((bs, _)) if *bs >= s => best,
                    _ => Some((s, keep)),
                },
            )
    }
}

fn combinations(
    n: usize,
    size: usize,
    cur: &mut Vec<usize>,
    from: usize,
    out: &mut Vec<Vec<usize>>,
) {
    if cur.len() == size {
        out.push(cur.clone());
        return;
    }
    for i in from..n {
        cur.push(i);
        combinations(n, size, cur, i + 1, out);
        cur.pop();
    }
}

/// Learns a terminological Bayesian classifier for the target whose members are `pos` and
/// non-members `neg` (disjoint sets over the oracle's individuals).
pub fn fit(
    oracle: &dyn MembershipOracle,
    pos: &IndividualSet,
    neg: &IndividualSet,
    refinement: &dyn Refinement,
    params: &TbcParams,
) -> Result<TbcRun, TbcError> {
    fit_within(oracle, pos, neg, &pos.union(neg), refinement, params)
}

/// [`fit`], asking the oracle about the feature concepts over `among` (a superset of the
/// examples). Cross-validation passes all of a problem's examples, so every fold shares
/// one cache (the oracle's caches are keyed by the example set).
pub fn fit_within(
    oracle: &dyn MembershipOracle,
    pos: &IndividualSet,
    neg: &IndividualSet,
    among: &IndividualSet,
    refinement: &dyn Refinement,
    params: &TbcParams,
) -> Result<TbcRun, TbcError> {
    params.validate()?;
    if pos.is_empty() || neg.is_empty() {
        return Err(TbcError::NoExamples {
            positives: pos.len(),
            negatives: neg.len(),
        });
    }
    let both = pos.intersection_count(neg);
    if both > 0 {
        return Err(TbcError::Overlap(both));
    }
    let before = oracle.stats();
    let examples = pos.union(neg);
    let among = among.union(&examples);
    let individuals: Vec<IndividualId> = examples.iter().collect();
    let class = individuals
        .iter()
        .map(|&a| u8::from(pos.contains(a)))
        .collect();
    let mut learner = Learner {
        oracle,
        refinement,
        params,
        individuals,
        among,
        class,
        tested: 0,
        start: Instant::now(),
        stop: None,
    };
    let mut current: Vec<Feature> = Vec::new();
    let (mut current_score, _) = learner.score(&learner.dataset(&current));
    let (mut additions, mut removals) = (0, 0);
    let max_removals = params.selection.max_removals();
    let termination = loop {
        let extension = if current.len() < params.max_features {
            learner.best_extension(&current)?
        } else {
            None
        };
        let removal = if max_removals > 0 && !current.is_empty() {
            learner.best_removal(&current, max_removals)
        } else {
            None
        };
        // Removal wins ties (a smaller network at the same score).
        let take_removal = match (&extension, &removal) {
            (_, None) => false,
            (None, Some(_)) => true,
            (Some((es, _)), Some((rs, _))) => rs >= es,
        };
        let improved = if take_removal {
            match removal {
                Some((s, keep)) if s > current_score => {
                    current = keep.into_iter().map(|i| current[i].clone()).collect();
                    current_score = s;
                    removals += 1;
                    true
                }
                _ => false,
            }
        } else {
            match extension {
                Some((s, feature)) if s > current_score => {
                    current.push(feature);
                    current_score = s;
                    additions += 1;
                    true
                }
                _ => false,
            }
        };
        if let Some(stop) = learner.stop {
            break stop;
        }
        if learner.out_of_time() {
            break Termination::TimeLimit;
        }
        if !improved {
            break if current.len() >= params.max_features {
                Termination::FeatureCap
            } else {
                Termination::NoImprovement
            };
        }
    };
    let data = learner.dataset(&current);
    let (fitted, report) = build::fit(&data, params);
    let cll = score::conditional_log_likelihood(&fitted, &data);
    let parameters = fitted.parameter_count();
    let after = oracle.stats();
    let model = TbcModel {
        features: current.into_iter().map(|(c, _)| c).collect(),
        structure: params.structure,
        missing: params.missing,
        semantics: params.semantics,
        fitted,
    };
    Ok(TbcRun {
        model,
        score: TrainingScore {
            cll,
            bic: cll - score::bic_penalty(data.len(), parameters),
            parameters,
            individuals: data.len(),
        },
        stats: TbcStats {
            features_tested: learner.tested,
            additions,
            removals,
            queries_sent: after.queries_sent.saturating_sub(before.queries_sent),
            cache_hits: after.cache_hits.saturating_sub(before.cache_hits),
            cache_misses: after.cache_misses.saturating_sub(before.cache_misses),
            elapsed_ms: learner.start.elapsed().as_millis(),
            termination,
            em_iterations: report.map(|r| r.iterations),
        },
    })
}

//! The learner: FSBE(max) feature selection (Alg. 2) around a BIC-driven beam search for
//! the next feature concept (Alg. 1). Written against [`Refinement`], so any operator
//! restricted to ⊓, ⊔, ¬, ∃ plugs in (the CLI passes ρ with those options). The beam's
//! first level also holds the candidates of a short CELOE run made before the search
//! (`propose`, `TbcParams::proposals`), scored like the others.
//!
//! Budgets come from the [`RunControl`]: the test budget counts candidate features, the
//! clock and the cancellation flag are checked between candidate levels, and an oracle
//! that reports `BudgetExhausted` ends the run with the features chosen so far (the
//! `termination` says which budget). The proposal run spends at most half of the test
//! and time budgets first; the search's clock starts after it with the rest.

use std::collections::BTreeSet;

use rayon::prelude::*;
use serde::Serialize;

use super::build;
use super::features::{self, Dataset, Truth};
use super::model::TbcModel;
use super::params::TbcParams;
use super::propose::{self, Proposals};
use super::score::{self, Fitted};
use crate::concept::{Concept, normalize};
use crate::learn::search::budget_stop;
use crate::learn::{
    LearnError, Progress, QueryBudgeted, RunClock, RunControl, RunStats, Termination,
};
use crate::oracle::{IndividualId, IndividualSet, MembershipOracle};
use crate::refine::Refinement;

/// The training score of the final network.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct TrainingScore {
    pub cll: f64,
    pub bic: f64,
    pub parameters: usize,
    pub individuals: usize,
}

/// A finished run: the model, its training score and the statistics (TBC's own counters
/// `features_tested`, `additions`, `removals`, `em_iterations` are in `stats.details`).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct TbcRun {
    pub model: TbcModel,
    pub score: TrainingScore,
    pub stats: RunStats,
}

type Feature = (Concept, Vec<Truth>);

struct Search<'a, 'c> {
    oracle: &'a dyn MembershipOracle,
    refinement: &'a dyn Refinement,
    params: &'a TbcParams,
    clock: &'c RunClock<'a, dyn MembershipOracle + 'a>,
    individuals: Vec<IndividualId>,
    among: IndividualSet,
    class: Vec<u8>,
    tested: usize,
    stop: Option<Termination>,
    /// The current scope of the feature search (grows up to `params.widen_to`).
    max_length: usize,
    depth: usize,
    /// Candidates proposed by the CELOE run (`tbc::propose`), offered at every step.
    proposals: Vec<Concept>,
    /// Concepts the proposal run tested (progress counts on from there).
    tests_before: u64,
}

impl Search<'_, '_> {
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

    /// Cancelled or out of time.
    fn stopped(&self) -> Option<Termination> {
        self.clock.stopped()
    }

    /// Alg. 1: beam search from ⊤ for the feature whose addition scores best.
    /// A budget the oracle reports ends the level (and the run) with what was scored.
    fn best_extension(
        &mut self,
        current: &[Feature],
    ) -> Result<Option<(f64, Feature)>, LearnError> {
        let base = self.dataset(current);
        let arity = features::arity(self.params.missing);
        let mut seen: BTreeSet<Concept> = current.iter().map(|(c, _)| c.clone()).collect();
        seen.insert(Concept::Top);
        let mut beam = vec![Concept::Top];
        let mut best: Option<(f64, Feature)> = None;
        for level in 0..self.depth {
            if let Some(t) = self.stopped() {
                self.stop = Some(t);
                break;
            }
            let mut candidates = Vec::new();
            if level == 0 {
                // Proposals are complete features: no length limit, any step may take one.
                for p in &self.proposals {
                    if seen.insert(p.clone()) {
                        candidates.push(p.clone());
                    }
                }
            }
            for b in &beam {
                for r in self
                    .refinement
                    .refine(b, self.max_length)
                    .into_iter()
                    .take(self.params.max_refinements_per_node)
                {
                    let r = normalize(&r);
                    if r != Concept::Bottom
                        && crate::concept::length(&r) <= self.max_length
                        && seen.insert(r.clone())
                    {
                        candidates.push(r);
                    }
                }
            }
            let room =
                usize::try_from(self.clock.tests_left(self.tested as u64)).unwrap_or(usize::MAX);
            if candidates.len() > room {
                candidates.truncate(room);
                self.stop = Some(Termination::TestBudget);
            }
            if candidates.is_empty() {
                break;
            }
            let answers = features::columns(
                self.oracle,
                &candidates,
                &self.individuals,
                &self.among,
                self.params.semantics,
            );
            // A budget running out part way through the level keeps the candidates already
            // answered (the level's best among them still counts) and ends the run after it.
            let mut answered = Vec::with_capacity(candidates.len());
            let mut columns: Vec<Vec<Truth>> = Vec::with_capacity(candidates.len());
            let mut budget: Option<Termination> = None;
            for (c, answer) in candidates.into_iter().zip(answers) {
                match answer {
                    Ok(col) => {
                        answered.push(c);
                        columns.push(col);
                    }
                    Err(e) => {
                        let t = budget_stop(e)?;
                        budget.get_or_insert(t);
                    }
                }
            }
            if let Some(t) = budget {
                self.stop = Some(t);
            }
            let candidates = answered;
            if candidates.is_empty() {
                break;
            }
            self.tested += candidates.len();
            self.clock.report(&Progress {
                // After the proposal run's, so the count goes on rising.
                concepts_tested: self.tests_before + self.tested as u64,
                best_quality: None,
                elapsed: self.clock.elapsed(),
            });
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
/// non-members `neg` (disjoint sets over the oracle's individuals), asking the oracle about
/// the feature concepts over `among` (a superset of the examples: cross-validation passes
/// all of a problem's examples, so every fold shares one cache).
pub fn fit(
    oracle: &dyn MembershipOracle,
    pos: &IndividualSet,
    neg: &IndividualSet,
    among: &IndividualSet,
    refinement: &dyn Refinement,
    params: &TbcParams,
    control: &RunControl,
) -> Result<TbcRun, LearnError> {
    params.validate()?;
    if pos.is_empty() {
        return Err(LearnError::NoPositives);
    }
    if neg.is_empty() {
        return Err(LearnError::NoNegatives {
            positives: pos.len(),
        });
    }
    let both = pos.intersection_count(neg);
    if both > 0 {
        return Err(LearnError::OverlappingExamples { count: both });
    }
    match control.max_queries {
        Some(limit) => {
            let budgeted = QueryBudgeted::new(oracle, limit);
            fit_on(&budgeted, pos, neg, among, refinement, params, control)
        }
        None => fit_on(oracle, pos, neg, among, refinement, params, control),
    }
}

fn fit_on(
    oracle: &dyn MembershipOracle,
    pos: &IndividualSet,
    neg: &IndividualSet,
    among: &IndividualSet,
    refinement: &dyn Refinement,
    params: &TbcParams,
    control: &RunControl,
) -> Result<TbcRun, LearnError> {
    let before = oracle.stats();
    let examples = pos.union(neg);
    let among = among.union(&examples);
    // The proposal run goes first, on its share of the budgets; the beam search gets the
    // rest (its clock starts after, so the two never hold the oracle's deadline at once).
    let proposals = propose::propose(oracle, pos, neg, &among, refinement, params, control)?;
    let rest = RunControl {
        max_runtime: control
            .max_runtime
            .map(|d| d.saturating_sub(proposals.elapsed)),
        max_tests: control.max_tests.map(|t| t.saturating_sub(proposals.tests)),
        ..control.clone()
    };
    let clock = rest.start(oracle);
    let individuals: Vec<IndividualId> = examples.iter().collect();
    let class = individuals
        .iter()
        .map(|&a| u8::from(pos.contains(a)))
        .collect();
    let mut learner = Search {
        oracle,
        refinement,
        params,
        clock: &clock,
        individuals,
        among,
        class,
        tested: 0,
        stop: None,
        max_length: params.max_length,
        depth: params.depth,
        proposals: proposals.concepts.clone(),
        tests_before: proposals.tests,
    };
    let mut widenings = 0;
    let mut current: Vec<Feature> = Vec::new();
    let (mut current_score, _) = learner.score(&learner.dataset(&current));
    let (mut additions, mut removals) = (0, 0);
    let max_removals = params.selection.max_removals();
    let termination = loop {
        if let Some(t) = learner.stopped() {
            break t;
        }
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
        if let Some(t) = learner.stopped() {
            break t;
        }
        if !improved && current.len() < params.max_features && learner.max_length < params.widen_to
        {
            // Nothing within the current length helps: look one step further.
            learner.max_length += 1;
            learner.depth = learner.depth.max(learner.max_length);
            widenings += 1;
            continue;
        }
        if !improved {
            break if current.len() >= params.max_features {
                Termination::FeatureCap
            } else {
                Termination::NoImprovement
            };
        }
    };
    let proposal_ms = u64::try_from(proposals.elapsed.as_millis()).unwrap_or(u64::MAX);
    let search_ms = clock.elapsed_ms().saturating_add(proposal_ms);
    let data = learner.dataset(&current);
    let (fitted, report) = build::fit(&data, params);
    let cll = score::conditional_log_likelihood(&fitted, &data);
    let parameters = fitted.parameter_count();
    let o = RunStats::oracle_delta(before, oracle.stats());
    let mut details = serde_json::Map::new();
    details.insert("features_tested".into(), learner.tested.into());
    details.insert("additions".into(), additions.into());
    details.insert("removals".into(), removals.into());
    details.insert("widenings".into(), widenings.into());
    details.insert("max_feature_length".into(), learner.max_length.into());
    if let Some(r) = report {
        details.insert("em_iterations".into(), r.iterations.into());
    }
    let features: Vec<Concept> = current.into_iter().map(|(c, _)| c).collect();
    details.insert("proposals".into(), proposal_details(&proposals, &features));
    // Everything scored: the beam's candidates and the proposal run's concepts.
    let tested = (learner.tested as u64).saturating_add(proposals.tests);
    let model = TbcModel {
        features,
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
        stats: RunStats::of_run(
            tested,
            &o,
            clock.elapsed_ms().saturating_add(proposal_ms),
            search_ms,
            termination,
            details,
        ),
    })
}

/// `stats.details.proposals`: how many candidates the CELOE run offered, how many of the
/// network's features are among them, the concepts it tested and why it stopped.
fn proposal_details(p: &Proposals, features: &[Concept]) -> serde_json::Value {
    let chosen = features.iter().filter(|f| p.concepts.contains(f)).count();
    serde_json::json!({
        "offered": p.concepts.len(),
        "chosen": chosen,
        "tests": p.tests,
        "termination": p.termination,
    })
}

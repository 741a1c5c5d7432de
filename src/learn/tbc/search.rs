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
use crate::oracle::{IndividualId, IndividualSet, MembershipOracle, OracleStats};
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
        let mut seen: BTreeSet<Concept> = current.iter().map(|(c, _)| c.clone()).collect();
        seen.insert(Concept::Top);
        let mut beam = vec![Concept::Top];
        let mut best: Option<(f64, Feature)> = None;
        for level in 0..self.depth {
            if let Some(t) = self.stopped() {
                self.stop = Some(t);
                break;
            }
            let mut candidates = self.candidates(level, &beam, &mut seen);
            let room =
                usize::try_from(self.clock.tests_left(self.tested as u64)).unwrap_or(usize::MAX);
            if candidates.len() > room {
                candidates.truncate(room);
                self.stop = Some(Termination::TestBudget);
            }
            if candidates.is_empty() {
                break;
            }
            let (candidates, columns) = self.answer(candidates)?;
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
            let scored = self.rank(&base, &candidates, &columns);
            if let Some(&(s, k)) = scored.first()
                && best.as_ref().is_none_or(|(bs, _)| s > *bs)
            {
                best = Some((s, (candidates[k].clone(), columns[k].clone())));
            }
            beam = self.next_beam(&scored, &candidates, &columns);
            if self.stop.is_some() {
                break;
            }
        }
        Ok(best)
    }

    /// A level's candidates not `seen` before: the refinements of the beam within the
    /// current length (normalised, ⊥ left out), after the proposals on the first level.
    fn candidates(
        &self,
        level: usize,
        beam: &[Concept],
        seen: &mut BTreeSet<Concept>,
    ) -> Vec<Concept> {
        let mut candidates = Vec::new();
        if level == 0 {
            // Proposals are complete features: no length limit, any step may take one.
            for p in &self.proposals {
                if seen.insert(p.clone()) {
                    candidates.push(p.clone());
                }
            }
        }
        for b in beam {
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
        candidates
    }

    /// Asks the oracle for the candidates' columns: the candidates answered and their
    /// columns. A budget running out part way through the level keeps the candidates
    /// already answered (the level's best among them still counts) and ends the run after
    /// it.
    fn answer(
        &mut self,
        candidates: Vec<Concept>,
    ) -> Result<(Vec<Concept>, Vec<Vec<Truth>>), LearnError> {
        let answers = features::columns(
            self.oracle,
            &candidates,
            &self.individuals,
            &self.among,
            self.params.semantics,
        );
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
        Ok((answered, columns))
    }

    /// Each candidate's score when added to `base`, with its index: best first, ties by the
    /// concept's order, so runs are reproducible.
    fn rank(
        &self,
        base: &Dataset,
        candidates: &[Concept],
        columns: &[Vec<Truth>],
    ) -> Vec<(f64, usize)> {
        let arity = features::arity(self.params.missing);
        let mut scored: Vec<(f64, usize)> = columns
            .par_iter()
            .enumerate()
            .map(|(k, col)| {
                let data = base.with(features::encode_column(col, self.params.missing), arity);
                (self.score(&data).0, k)
            })
            .collect();
        scored.sort_by(|a, b| {
            b.0.total_cmp(&a.0)
                .then_with(|| candidates[a.1].cmp(&candidates[b.1]))
        });
        scored
    }

    /// The next level's beam: the `beam_width` best-ranked candidates. Candidates with the
    /// same column are the same feature to the network: the beam keeps one of each (the
    /// best-ranked), so it is not filled with synonyms.
    fn next_beam(
        &self,
        scored: &[(f64, usize)],
        candidates: &[Concept],
        columns: &[Vec<Truth>],
    ) -> Vec<Concept> {
        let mut kept: Vec<&Vec<Truth>> = Vec::new();
        let mut beam = Vec::new();
        for &(_, k) in scored {
            if beam.len() >= self.params.beam_width {
                break;
            }
            if !kept.contains(&&columns[k]) {
                kept.push(&columns[k]);
                beam.push(candidates[k].clone());
            }
        }
        beam
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
    let (selection, termination) = learner.select()?;
    Ok(learner.finish(selection, termination, &proposals, before))
}

/// The features chosen so far and how the selection got there.
struct Selection {
    current: Vec<Feature>,
    score: f64,
    additions: usize,
    removals: usize,
    widenings: usize,
}

impl Selection {
    /// Takes the better of the best extension and the best removal (removal wins ties: a
    /// smaller network at the same score) if it beats the current score; whether it did.
    fn improve(
        &mut self,
        extension: Option<(f64, Feature)>,
        removal: Option<(f64, Vec<usize>)>,
    ) -> bool {
        let take_removal = match (&extension, &removal) {
            (_, None) => false,
            (None, Some(_)) => true,
            (Some((es, _)), Some((rs, _))) => rs >= es,
        };
        if take_removal {
            match removal {
                Some((s, keep)) if s > self.score => {
                    self.current = keep.into_iter().map(|i| self.current[i].clone()).collect();
                    self.score = s;
                    self.removals += 1;
                    true
                }
                _ => false,
            }
        } else {
            match extension {
                Some((s, feature)) if s > self.score => {
                    self.current.push(feature);
                    self.score = s;
                    self.additions += 1;
                    true
                }
                _ => false,
            }
        }
    }
}

impl Search<'_, '_> {
    /// Alg. 2, FSBE(max): adds the best extension or drops the best removal while that
    /// improves the score, widening the feature search by one length when nothing within
    /// the current one helps; the selection and why it ended.
    fn select(&mut self) -> Result<(Selection, Termination), LearnError> {
        let params = self.params;
        let (score, _) = self.score(&self.dataset(&[]));
        let mut s = Selection {
            current: Vec::new(),
            score,
            additions: 0,
            removals: 0,
            widenings: 0,
        };
        let max_removals = params.selection.max_removals();
        let termination = loop {
            if let Some(t) = self.stopped() {
                break t;
            }
            let extension = if s.current.len() < params.max_features {
                self.best_extension(&s.current)?
            } else {
                None
            };
            let removal = if max_removals > 0 && !s.current.is_empty() {
                self.best_removal(&s.current, max_removals)
            } else {
                None
            };
            let improved = s.improve(extension, removal);
            if let Some(stop) = self.stop {
                break stop;
            }
            if let Some(t) = self.stopped() {
                break t;
            }
            if !improved
                && s.current.len() < params.max_features
                && self.max_length < params.widen_to
            {
                // Nothing within the current length helps: look one step further.
                self.max_length += 1;
                self.depth = self.depth.max(self.max_length);
                s.widenings += 1;
                continue;
            }
            if !improved {
                break if s.current.len() >= params.max_features {
                    Termination::FeatureCap
                } else {
                    Termination::NoImprovement
                };
            }
        };
        Ok((s, termination))
    }

    /// The run: the network fitted on the selected features, its training score and the
    /// statistics (the proposal run's time and tests included).
    fn finish(
        self,
        selection: Selection,
        termination: Termination,
        proposals: &Proposals,
        before: OracleStats,
    ) -> TbcRun {
        let params = self.params;
        let proposal_ms = u64::try_from(proposals.elapsed.as_millis()).unwrap_or(u64::MAX);
        let search_ms = self.clock.elapsed_ms().saturating_add(proposal_ms);
        let data = self.dataset(&selection.current);
        let (fitted, report) = build::fit(&data, params);
        let cll = score::conditional_log_likelihood(&fitted, &data);
        let parameters = fitted.parameter_count();
        let o = RunStats::oracle_delta(before, self.oracle.stats());
        let mut details = serde_json::Map::new();
        details.insert("features_tested".into(), self.tested.into());
        details.insert("additions".into(), selection.additions.into());
        details.insert("removals".into(), selection.removals.into());
        details.insert("widenings".into(), selection.widenings.into());
        details.insert("max_feature_length".into(), self.max_length.into());
        if let Some(r) = report {
            details.insert("em_iterations".into(), r.iterations.into());
        }
        let features: Vec<Concept> = selection.current.into_iter().map(|(c, _)| c).collect();
        details.insert("proposals".into(), proposal_details(proposals, &features));
        // Everything scored: the beam's candidates and the proposal run's concepts.
        let tested = (self.tested as u64).saturating_add(proposals.tests);
        let model = TbcModel {
            features,
            structure: params.structure,
            missing: params.missing,
            semantics: params.semantics,
            fitted,
        };
        TbcRun {
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
                self.clock.elapsed_ms().saturating_add(proposal_ms),
                search_ms,
                termination,
                details,
            ),
        }
    }
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

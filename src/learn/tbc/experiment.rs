//! The paper's evaluation: k-fold cross-validation of a configuration on one target,
//! ranking each test fold by `P(target | e)` (the interval midpoint for ROBUST) and
//! measuring AUC-PR and AUC-ROC; and the configuration grid of its Table 2.

use serde::Serialize;

use super::TbcError;
use super::params::{Missing, Selection, Structure, TbcParams};
use super::search::fit_within;
use crate::eval::{Summary, auc_pr, auc_roc, stratified_folds};
use crate::oracle::{IndividualSet, MembershipOracle};
use crate::refine::Refinement;

/// Cross-validated figures of one configuration on one target.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct CvOutcome {
    pub auc_pr: Summary,
    pub auc_roc: Summary,
    /// Feature concepts in each fold's model.
    pub features: Summary,
    /// Candidate features scored, summed over the folds.
    pub features_tested: usize,
    /// Oracle queries sent, summed over the folds.
    pub queries_sent: u64,
    pub elapsed_ms: u128,
}

/// What the folds of one cross-validation add up to.
struct FoldTally {
    start: std::time::Instant,
    prs: Vec<f64>,
    rocs: Vec<f64>,
    sizes: Vec<f64>,
    tested: usize,
    queries: u64,
}

impl FoldTally {
    fn new() -> Self {
        FoldTally {
            start: std::time::Instant::now(),
            prs: Vec::new(),
            rocs: Vec::new(),
            sizes: Vec::new(),
            tested: 0,
            queries: 0,
        }
    }

    /// One test fold's ranking: (score, is positive) per example. Stratified folds hold both
    /// classes, so both measures are defined.
    fn rank(&mut self, scored: &[(f64, bool)]) {
        self.prs.push(auc_pr(scored).unwrap_or(f64::NAN));
        self.rocs.push(auc_roc(scored).unwrap_or(f64::NAN));
    }

    fn outcome(self) -> CvOutcome {
        CvOutcome {
            auc_pr: Summary::of(self.prs),
            auc_roc: Summary::of(self.rocs),
            features: Summary::of(self.sizes),
            features_tested: self.tested,
            queries_sent: self.queries,
            elapsed_ms: self.start.elapsed().as_millis(),
        }
    }
}

/// Learns on each fold's training part and ranks its test part.
pub fn cross_validate(
    oracle: &dyn MembershipOracle,
    positives: &IndividualSet,
    negatives: &IndividualSet,
    refinement: &dyn Refinement,
    params: &TbcParams,
    folds: usize,
    seed: u64,
) -> Result<CvOutcome, TbcError> {
    let mut tally = FoldTally::new();
    let splits = stratified_folds(positives, negatives, folds, seed)?;
    let all = positives.union(negatives);
    for fold in &splits {
        let run = fit_within(
            oracle,
            &fold.train_positives,
            &fold.train_negatives,
            &all,
            refinement,
            params,
        )?;
        tally.tested += run.stats.features_tested;
        tally.queries += run.stats.queries_sent;
        tally.sizes.push(run.model.features.len() as f64);
        let test = fold.test_positives.union(&fold.test_negatives);
        let before = oracle.stats().queries_sent;
        let predictions = run.model.predict_within(oracle, &test, &all)?;
        tally.queries += oracle.stats().queries_sent.saturating_sub(before);
        let scored: Vec<(f64, bool)> = predictions
            .iter()
            .map(|p| (p.probability, fold.test_positives.contains(p.individual)))
            .collect();
        tally.rank(&scored);
    }
    Ok(tally.outcome())
}

/// One configuration of the grid, named as in the paper (ACA, EM, IM2, IM3, ROBUST for
/// naive; TACA, SEM, TIM2, TIM3 for TAN), with its selection strategy.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct GridCell {
    pub name: String,
    pub structure: Structure,
    pub missing: Missing,
    pub selection: Selection,
}

impl GridCell {
    /// `base` with this cell's structure, method and selection.
    pub fn params(&self, base: &TbcParams) -> TbcParams {
        TbcParams {
            structure: self.structure,
            missing: self.missing,
            selection: self.selection,
            ..base.clone()
        }
    }
}

/// The 18 cells of the paper's grid: 9 methods × {FS, FFSBE}.
pub fn paper_grid() -> Vec<GridCell> {
    let methods = [
        ("ACA", Structure::Naive, Missing::Aca),
        ("EM", Structure::Naive, Missing::Em),
        ("IM3", Structure::Naive, Missing::Im3),
        ("IM2", Structure::Naive, Missing::Im2),
        ("ROBUST", Structure::Naive, Missing::Robust),
        ("TACA", Structure::Tan, Missing::Aca),
        ("SEM", Structure::Tan, Missing::Sem),
        ("TIM3", Structure::Tan, Missing::Im3),
        ("TIM2", Structure::Tan, Missing::Im2),
    ];
    let mut out = Vec::new();
    for selection in [Selection::Fs, Selection::Ffsbe] {
        for (name, structure, missing) in methods {
            out.push(GridCell {
                name: name.to_owned(),
                structure,
                missing,
                selection,
            });
        }
    }
    out
}

/// CELOE as a ranker on the same folds, for comparison: an individual scores the training
/// quality of the best of CELOE's solutions that covers it (0 when none does), so the
/// ranking uses the whole best-solutions list rather than one yes/no concept.
pub fn celoe_cross_validate(
    oracle: &dyn MembershipOracle,
    positives: &IndividualSet,
    negatives: &IndividualSet,
    refinement: &dyn Refinement,
    params: &crate::learn::celoe::CeloeParams,
    folds: usize,
    seed: u64,
) -> Result<CvOutcome, TbcError> {
    use crate::learn::Examples;
    use crate::learn::celoe::Celoe;
    let mut tally = FoldTally::new();
    let celoe = Celoe::new(params.clone(), refinement)?;
    let splits = stratified_folds(positives, negatives, folds, seed)?;
    for fold in &splits {
        let before = oracle.stats().queries_sent;
        let train = Examples::new(fold.train_positives.clone(), fold.train_negatives.clone())?;
        let run = celoe.fit(oracle, &train)?;
        tally.tested += usize::try_from(run.stats.concepts_tested).unwrap_or(usize::MAX);
        tally.sizes.push(run.model.solutions.len() as f64);
        let test = fold.test_positives.union(&fold.test_negatives);
        let mut score = vec![0.0f64; test.universe()];
        for s in &run.model.solutions {
            let covered = oracle.members(&s.concept, &test, run.model.semantics)?;
            for id in covered.iter() {
                score[id.index()] = score[id.index()].max(s.quality);
            }
        }
        tally.queries += oracle.stats().queries_sent.saturating_sub(before);
        let scored: Vec<(f64, bool)> = test
            .iter()
            .map(|id| (score[id.index()], fold.test_positives.contains(id)))
            .collect();
        tally.rank(&scored);
    }
    Ok(tally.outcome())
}

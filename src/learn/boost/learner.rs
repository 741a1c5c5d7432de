//! Fuzzy OWL-Boost and wFoil-DL as [`Learner`]s: binary or graded examples in, a
//! [`BoostModel`] out. The atoms' degrees are asked through the oracle once per fit;
//! every candidate after that is local arithmetic.

use super::adaboost::{AlphaForm, Blocks, alpha, reweight, smoothing, transform, weighted_error};
use super::degrees::DegreeEvaluator;
use super::model::{BoostModel, Round};
use super::operator::{Datatypes, atoms};
use super::params::BoostParams;
use super::validation;
use super::wfoil::{AtomTable, Objective, WeakLimits, WeightedView, wfoil};
use super::{OWL_BOOST, WFOIL_DL};
use crate::learn::{
    FitResult, LearnError, Learner, QualityMeasure, Report, RunClock, RunControl, RunStats,
    Termination, TrainingSet,
};
use crate::oracle::{IndividualId, IndividualSet, MembershipOracle, Semantics};

/// Fuzzy OWL-Boost (or, built with [`OwlBoost::weak_learner_alone`], one wFoil-DL run).
pub struct OwlBoost {
    params: BoostParams,
    algorithm: &'static str,
}

impl OwlBoost {
    pub fn new(params: BoostParams) -> Result<Self, LearnError> {
        params.validate()?;
        Ok(OwlBoost {
            params,
            algorithm: OWL_BOOST,
        })
    }

    /// wFoil-DL alone: one round of weight 1 (`--algorithm wfoil-dl`). `params.max_axioms`
    /// is used as given: `BoostParams::default()` has owl-boost's 1, the CLI passes
    /// [`BoostParams::WEAK_LEARNER_ALONE_AXIOMS`] (5).
    pub fn weak_learner_alone(params: BoostParams) -> Result<Self, LearnError> {
        let params = params.single_weak_learner();
        params.validate()?;
        Ok(OwlBoost {
            params,
            algorithm: WFOIL_DL,
        })
    }

    pub fn params(&self) -> &BoostParams {
        &self.params
    }
}

/// What a fit found besides the model (for tests and reports).
#[derive(Clone, Debug)]
pub struct BoostRun {
    pub model: BoostModel,
    /// The operator's atoms.
    pub atoms: usize,
    /// Candidates scored.
    pub tested: u64,
    /// The weighted error ε of each round kept (when it was first learned).
    pub errors: Vec<f64>,
    /// The fuzzy datatypes built (per ∃-depth and property).
    pub datatypes: Datatypes,
    /// Mean |h(a) − T(a)| over the training examples (degree loss).
    pub train_loss: f64,
    pub termination: Termination,
}

impl OwlBoost {
    /// The fit behind [`Learner::fit`], with what it found.
    pub fn run(
        &self,
        oracle: &dyn MembershipOracle,
        training: &TrainingSet,
        control: &RunControl,
    ) -> Result<(BoostRun, RunStats), LearnError> {
        let examples = training.as_weighted(self.algorithm)?;
        check_examples(&examples)?;
        let universe = oracle.signature().individual_count();
        let ids: Vec<IndividualId> = examples.iter().map(|(id, _)| *id).collect();
        let target: Vec<f64> = examples.iter().map(|(_, d)| *d).collect();
        let set = IndividualSet::from_ids(universe, ids.iter().copied());
        let among = training.context(universe);
        let before = oracle.stats();
        let clock = control.start(oracle);
        let p = &self.params;
        let labels: Vec<f64> = target
            .iter()
            .map(|d| if *d > 0.0 { 1.0 } else { -1.0 })
            .collect();
        let mut tested = 0u64;
        let mut details = serde_json::Map::new();
        // The inner validation runs when each class has at least a fold's worth of examples.
        let k = p.validation_folds;
        let can_validate = k >= 2 && validation::inner_folds(&labels, k, 0).is_some();
        let (mut tables, mut termination) = self.atom_tables(oracle, &set, &among, can_validate)?;
        // Partition and rounds chosen by inner cross-validation on these examples: the
        // most held-out examples right, the fewest sets and rounds on a tie (owl-boost
        // cuts its rounds, wfoil-dl has one). A budget that runs out keeps the first
        // partition and every round.
        let mut choice = (0, p.rounds);
        if termination.is_none()
            && can_validate
            && (tables.len() > 1 || self.algorithm == OWL_BOOST)
            && let Some((best, curves)) =
                self.choose_partition(&tables, &target, &labels, &clock, &mut tested)
        {
            choice = best;
            details.insert("validation_correct".into(), curves.into());
        }
        let (sets, table, datatypes) = tables.swap_remove(choice.0.min(tables.len() - 1));
        details.insert("fuzzy_sets".into(), sets.into());
        let mut model = BoostModel {
            algorithm: self.algorithm,
            tnorm: p.tnorm,
            cover_degree: p.cover_degree,
            rounds: Vec::new(),
        };
        let (mut errors, mut round_beds) = (Vec::new(), Vec::new());
        if termination.is_none() {
            let full = self.boost_kept(&table, &target, &labels, choice.1, &clock, &mut tested);
            (model.rounds, errors, round_beds, termination) =
                (full.rounds, full.errors, full.beds, full.stop);
            let kept = model.merge_repeats();
            errors = kept.iter().map(|&i| errors[i]).collect();
            round_beds = kept.iter().map(|&i| round_beds[i].clone()).collect();
        }
        let termination = termination.unwrap_or(Termination::Exhausted);
        let train_loss = train_loss(&model, &round_beds, &target);
        let o = RunStats::oracle_delta(before, oracle.stats());
        let elapsed_ms = clock.elapsed_ms();
        add_model_details(&mut details, &model, &table, &datatypes);
        let stats = RunStats::of_run(tested, &o, elapsed_ms, elapsed_ms, termination, details);
        Ok((
            BoostRun {
                model,
                atoms: table.atoms.len(),
                tested,
                errors,
                datatypes,
                train_loss,
                termination,
            },
            stats,
        ))
    }

    /// One atom table per fuzzy partition to choose from (the paper's 3, 5 or 7 sets when
    /// the partition is validated, else 3 or the one asked for), and the budget that
    /// stopped the listing, if one did (the tables listed until then are kept).
    fn atom_tables(
        &self,
        oracle: &dyn MembershipOracle,
        set: &IndividualSet,
        among: &IndividualSet,
        can_validate: bool,
    ) -> Result<(Vec<Partition>, Option<Termination>), LearnError> {
        let choices: Vec<usize> = match self.params.fuzzy_sets {
            0 if can_validate => vec![3, 5, 7],
            0 => vec![3],
            k => vec![k],
        };
        let mut tables = Vec::new();
        for &k in &choices {
            let (table, datatypes, stop) = self.atom_table(oracle, set, among, k)?;
            tables.push((k, table, datatypes));
            if stop.is_some() {
                return Ok((tables, stop));
            }
        }
        Ok((tables, None))
    }

    /// The partition (an index into `tables`) and number of rounds that classify the most
    /// held-out examples right, with each partition's curve (held-out examples right per
    /// number of rounds); `None` when the validation could not finish.
    fn choose_partition<O: MembershipOracle + ?Sized>(
        &self,
        tables: &[Partition],
        target: &[f64],
        labels: &[f64],
        clock: &RunClock<'_, O>,
        tested: &mut u64,
    ) -> Option<((usize, usize), serde_json::Map<String, serde_json::Value>)> {
        let k = self.params.validation_folds;
        let mut best: Option<(usize, usize, usize)> = None;
        let mut curves = serde_json::Map::new();
        for (i, (sets, table, _)) in tables.iter().enumerate() {
            let correct = self.validate(table, target, labels, k, clock, tested)?;
            let t = validation::best_prefix(&correct);
            if best.is_none_or(|b| correct[t - 1] > b.2) {
                best = Some((i, t, correct[t - 1]));
            }
            curves.insert(sets.to_string(), correct.into());
        }
        best.map(|(i, t, _)| ((i, t), curves))
    }

    /// Boosting on every example, cut to `rounds` (the validated number; a cut run ends
    /// as [`Termination::NoImprovement`]).
    fn boost_kept<O: MembershipOracle + ?Sized>(
        &self,
        table: &AtomTable,
        target: &[f64],
        labels: &[f64],
        rounds: usize,
        clock: &RunClock<'_, O>,
        tested: &mut u64,
    ) -> Boosted {
        let every = vec![true; target.len()];
        let mut full = self.boost(table, target, labels, &every, clock, tested);
        if rounds < full.rounds.len() {
            full.rounds.truncate(rounds);
            full.errors.truncate(rounds);
            full.beds.truncate(rounds);
            full.stop = Some(Termination::NoImprovement);
        }
        full
    }
}

/// Refuses examples without a positive (degree > 0) or without a negative (degree 0).
fn check_examples(examples: &[(IndividualId, f64)]) -> Result<(), LearnError> {
    if !examples.iter().any(|(_, d)| *d > 0.0) {
        return Err(LearnError::NoPositives);
    }
    // Boosting separates positives (degree > 0) from negatives (degree 0): without a
    // negative every example is already right and no round could be learned.
    if !examples.iter().any(|(_, d)| *d == 0.0) {
        return Err(LearnError::NoNegatives {
            positives: examples.len(),
        });
    }
    Ok(())
}

/// Mean |h(a) − T(a)| over the training examples, from each round's `bed` on them.
fn train_loss(model: &BoostModel, round_beds: &[Vec<f64>], target: &[f64]) -> f64 {
    let n = target.len();
    (0..n)
        .map(|i| {
            let d: Vec<f64> = round_beds.iter().map(|b| b[i]).collect();
            (model.combine(&d).degree - target[i]).abs()
        })
        .sum::<f64>()
        / n as f64
}

/// The model's size in the run's details: rounds, axioms, atoms and fuzzy datatypes.
fn add_model_details(
    details: &mut serde_json::Map<String, serde_json::Value>,
    model: &BoostModel,
    table: &AtomTable,
    datatypes: &Datatypes,
) {
    details.insert("rounds".into(), model.rounds.len().into());
    details.insert(
        "axioms".into(),
        model
            .rounds
            .iter()
            .map(|r| r.axioms.len())
            .sum::<usize>()
            .into(),
    );
    details.insert("atoms".into(), table.atoms.len().into());
    details.insert("fuzzy_datatypes".into(), datatypes.len().into());
}

/// A fuzzy partition to choose from: its number of sets, its atoms' degrees on the
/// examples and its fuzzy datatypes.
type Partition = (usize, AtomTable, Datatypes);

/// One boosting run over the rows marked `train` (the others weigh 0 throughout).
struct Boosted {
    rounds: Vec<Round>,
    errors: Vec<f64>,
    /// Each round's `bed` on every row, held-out ones included.
    beds: Vec<Vec<f64>>,
    stop: Option<Termination>,
}

impl OwlBoost {
    /// The operator's atoms with `fuzzy_sets` sets per numeric property and their degrees
    /// on the examples, and the budget that stopped the listing, if one did. Atoms come
    /// from the examples (and their context) and what is reachable from them; labels are
    /// not used, so a fold learns nothing of its test examples here.
    fn atom_table(
        &self,
        oracle: &dyn MembershipOracle,
        set: &IndividualSet,
        among: &IndividualSet,
        fuzzy_sets: usize,
    ) -> Result<(AtomTable, Datatypes, Option<Termination>), LearnError> {
        let p = BoostParams {
            fuzzy_sets,
            ..self.params.clone()
        };
        let eval = DegreeEvaluator::new(oracle, p.tnorm);
        let mut datatypes = Datatypes::new();
        let mut table = AtomTable {
            atoms: Vec::new(),
            degrees: Vec::new(),
        };
        let list = match atoms(oracle, among, &p, 0, &mut datatypes) {
            Ok(list) => list,
            Err(e) if e.budget_exhausted().is_some() => {
                let stop = e.budget_exhausted().map(Termination::from);
                return Ok((table, datatypes, stop));
            }
            Err(e) => return Err(e.into()),
        };
        for atom in list {
            match eval.degrees_within(&atom, set, among) {
                Ok(d) => {
                    table.atoms.push(atom);
                    table.degrees.push(d.into_iter().map(|(_, x)| x).collect());
                }
                Err(e) if e.budget_exhausted().is_some() => {
                    let stop = e.budget_exhausted().map(Termination::from);
                    return Ok((table, datatypes, stop));
                }
                Err(e) => return Err(e.into()),
            }
        }
        Ok((table, datatypes, None))
    }

    fn boost<O: MembershipOracle + ?Sized>(
        &self,
        table: &AtomTable,
        target: &[f64],
        labels: &[f64],
        train: &[bool],
        clock: &RunClock<'_, O>,
        tested: &mut u64,
    ) -> Boosted {
        let p = &self.params;
        let n = target.len();
        let rated = p.alpha == AlphaForm::Confidence && self.algorithm == OWL_BOOST;
        let share = 1.0 / train.iter().filter(|t| **t).count().max(1) as f64;
        let mut weights: Vec<f64> = train.iter().map(|t| if *t { share } else { 0.0 }).collect();
        let limits = WeakLimits {
            theta: p.theta,
            max_negative_share: p.max_negative_share,
            max_axioms: p.max_axioms,
            max_conjuncts: p.max_conjuncts,
            cover_degree: p.cover_degree,
            // Confidence-rated rounds: an axiom joins the weak hypothesis only if it lowers
            // Z, the quantity their training-error bound multiplies by each round.
            objective: rated.then_some(Objective::Z),
        };
        let eps_smooth = smoothing(train.iter().filter(|t| **t).count());
        let mut out = Boosted {
            rounds: Vec::new(),
            errors: Vec::new(),
            beds: Vec::new(),
            stop: None,
        };
        while out.stop.is_none() && out.rounds.len() < p.rounds {
            let view = WeightedView {
                target,
                weights: &weights,
            };
            let weak = wfoil(table, view, p.tnorm, limits, clock, tested);
            if weak.hypothesis.axioms.is_empty() {
                out.stop = Some(weak.stopped.unwrap_or(Termination::Exhausted));
                break;
            }
            let bed = weak.hypothesis.bed(n);
            let (round, h) = if rated {
                let cut: Vec<f64> = bed
                    .iter()
                    .map(|b| if *b > p.cover_degree { *b } else { 0.0 })
                    .collect();
                let (covered, uncovered) = Blocks::of(&cut, labels, &weights).votes(eps_smooth);
                let round = Round {
                    alpha: covered - uncovered,
                    axioms: weak.hypothesis.axioms,
                    base: Some(uncovered),
                };
                let h: Vec<f64> = bed.iter().map(|b| round.vote(*b, p.cover_degree)).collect();
                (round, h)
            } else {
                let h: Vec<f64> = bed.iter().map(|b| transform(*b, p.cover_degree)).collect();
                let a = if self.algorithm == WFOIL_DL {
                    1.0
                } else {
                    alpha(p.alpha, &h, labels, &weights)
                };
                let round = Round {
                    alpha: a,
                    axioms: weak.hypothesis.axioms,
                    base: None,
                };
                (round, h)
            };
            let eps = weighted_error(&h, labels, &weights);
            // No better than chance: boosting it would not help (early stop); the weak
            // learner alone keeps what it found. A confidence-rated round helps as long
            // as its covered block is more positive than its uncovered one (α > 0).
            if self.algorithm == OWL_BOOST && ((!rated && eps >= 0.5) || round.alpha <= 0.0) {
                out.stop = Some(Termination::NoImprovement);
                break;
            }
            // A confidence-rated vote carries its own weight (α is folded into h).
            let step = if rated { 1.0 } else { round.alpha };
            out.rounds.push(round);
            out.errors.push(eps);
            out.beds.push(bed);
            reweight(&mut weights, step, &h, labels);
            if let Some(why) = weak.stopped {
                out.stop = Some(why);
            } else if eps == 0.0 {
                out.stop = Some(Termination::PerfectSolution);
            } else if out.rounds.len() >= p.rounds {
                out.stop = Some(Termination::Exhausted);
            }
        }
        out
    }

    /// Held-out examples classified right per number of rounds, summed over `k` inner
    /// folds dealt [`validation::REPEATS`] times ([`validation`]); `None` when a class has
    /// fewer than `k` examples or the budget ran out.
    fn validate<O: MembershipOracle + ?Sized>(
        &self,
        table: &AtomTable,
        target: &[f64],
        labels: &[f64],
        k: usize,
        clock: &RunClock<'_, O>,
        tested: &mut u64,
    ) -> Option<Vec<usize>> {
        let mut parts = Vec::new();
        for r in 0..validation::REPEATS {
            parts.extend(validation::inner_folds(labels, k, r)?);
        }
        let max = self.params.rounds;
        let mut total = vec![0usize; max];
        for held_out in &parts {
            let mut train = vec![true; labels.len()];
            for &r in held_out {
                train[r] = false;
            }
            let run = self.boost(table, target, labels, &train, clock, tested);
            if clock.exhausted(*tested).is_some() {
                return None;
            }
            let right = validation::correct_per_prefix(
                &run.rounds,
                &run.beds,
                self.params.cover_degree,
                labels,
                held_out,
                max,
            );
            for (t, c) in total.iter_mut().zip(right) {
                *t += c;
            }
        }
        Some(total)
    }
}

/// What a boosting run reports besides its model (JSON fields of the same names).
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct BoostReport {
    /// The exponential loss on the training examples.
    pub train_loss: f64,
    /// Each round's weighted training error.
    pub round_errors: Vec<f64>,
    /// Each round's vote.
    pub alphas: Vec<f64>,
}

impl Learner for OwlBoost {
    fn name(&self) -> &'static str {
        self.algorithm
    }

    fn parameters(&self) -> serde_json::Value {
        serde_json::to_value(&self.params).unwrap_or_default()
    }

    fn fit(
        &self,
        oracle: &dyn MembershipOracle,
        training: &TrainingSet,
        control: &RunControl,
    ) -> Result<FitResult, LearnError> {
        let (run, stats) = self.run(oracle, training, control)?;
        let report = BoostReport {
            train_loss: run.train_loss,
            round_errors: run.errors.clone(),
            alphas: run.model.rounds.iter().map(|r| r.alpha).collect(),
        };
        Ok(FitResult {
            model: Box::new(run.model),
            solutions: Vec::new(),
            quality: QualityMeasure::Accuracy,
            semantics: Semantics::Closed,
            stats,
            report: Report::new(report),
        })
    }
}

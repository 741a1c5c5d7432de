//! Fuzzy OWL-Boost and wFoil-DL as [`Learner`]s: binary or graded examples in, a
//! [`BoostModel`] out. The atoms' degrees are asked through the oracle once per fit;
//! every candidate after that is local arithmetic.

use super::adaboost::{alpha, reweight, transform, weighted_error};
use super::degrees::DegreeEvaluator;
use super::model::{BoostModel, Round};
use super::operator::{Datatypes, atoms};
use super::params::BoostParams;
use super::wfoil::{AtomTable, WeakLimits, WeightedView, wfoil};
use super::{OWL_BOOST, WFOIL_DL};
use crate::learn::{
    FitResult, LearnError, Learner, QualityMeasure, RunControl, RunStats, Termination, TrainingSet,
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

    /// wFoil-DL alone: one round of weight 1 (`--algorithm wfoil-dl`).
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
    /// The weighted error ε of each round kept.
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
        if !examples.iter().any(|(_, d)| *d > 0.0) {
            return Err(LearnError::NoPositives);
        }
        let universe = oracle.signature().individual_count();
        let ids: Vec<IndividualId> = examples.iter().map(|(id, _)| *id).collect();
        let target: Vec<f64> = examples.iter().map(|(_, d)| *d).collect();
        let set = IndividualSet::from_ids(universe, ids.iter().copied());
        let among = training.context(universe);
        let before = oracle.stats();
        let clock = control.start(oracle);
        let p = &self.params;
        let eval = DegreeEvaluator::new(oracle, p.tnorm);
        let mut datatypes = Datatypes::new();
        let mut termination = None;
        // Atoms come from the examples (and their context) and what is reachable from
        // them; labels are not used, so a fold learns nothing of its test examples here.
        let mut table = AtomTable {
            atoms: Vec::new(),
            degrees: Vec::new(),
        };
        match atoms(oracle, &among, p, 0, &mut datatypes) {
            Ok(list) => {
                for atom in list {
                    match eval.degrees_within(&atom, &set, &among) {
                        Ok(d) => {
                            table.atoms.push(atom);
                            table.degrees.push(d.into_iter().map(|(_, x)| x).collect());
                        }
                        Err(e) if e.budget_exhausted().is_some() => {
                            termination = e.budget_exhausted().map(Termination::from);
                            break;
                        }
                        Err(e) => return Err(e.into()),
                    }
                }
            }
            Err(e) if e.budget_exhausted().is_some() => {
                termination = e.budget_exhausted().map(Termination::from);
            }
            Err(e) => return Err(e.into()),
        }
        let n = ids.len();
        let labels: Vec<f64> = target
            .iter()
            .map(|d| if *d > 0.0 { 1.0 } else { -1.0 })
            .collect();
        let mut weights = vec![1.0 / n as f64; n];
        let limits = WeakLimits {
            theta: p.theta,
            max_negative_share: p.max_negative_share,
            max_axioms: p.max_axioms,
            max_conjuncts: p.max_conjuncts,
            cover_degree: p.cover_degree,
        };
        let mut model = BoostModel {
            algorithm: self.algorithm,
            tnorm: p.tnorm,
            cover_degree: p.cover_degree,
            rounds: Vec::new(),
        };
        let mut errors = Vec::new();
        let mut round_beds: Vec<Vec<f64>> = Vec::new();
        let mut tested = 0u64;
        while termination.is_none() && model.rounds.len() < p.rounds {
            let view = WeightedView {
                target: &target,
                weights: &weights,
            };
            let weak = wfoil(&table, view, p.tnorm, limits, &clock, &mut tested);
            if weak.hypothesis.axioms.is_empty() {
                termination = Some(weak.stopped.unwrap_or(Termination::Exhausted));
                break;
            }
            let bed = weak.hypothesis.bed(n);
            let h: Vec<f64> = bed.iter().map(|b| transform(*b, p.cover_degree)).collect();
            let eps = weighted_error(&h, &labels, &weights);
            let a = if self.algorithm == WFOIL_DL {
                1.0
            } else {
                alpha(p.alpha, &h, &labels, &weights)
            };
            // No better than chance: boosting it would not help (early stop); the weak
            // learner alone keeps what it found.
            if self.algorithm == OWL_BOOST && (eps >= 0.5 || a <= 0.0) {
                termination = Some(Termination::NoImprovement);
                break;
            }
            model.rounds.push(Round {
                alpha: a,
                axioms: weak.hypothesis.axioms,
            });
            errors.push(eps);
            round_beds.push(bed);
            reweight(&mut weights, a, &h, &labels);
            if let Some(why) = weak.stopped {
                termination = Some(why);
            } else if eps == 0.0 {
                termination = Some(Termination::PerfectSolution);
            } else if model.rounds.len() >= p.rounds {
                termination = Some(Termination::Exhausted);
            }
        }
        let termination = termination.unwrap_or(Termination::Exhausted);
        let train_loss = (0..n)
            .map(|i| {
                let d: Vec<f64> = round_beds.iter().map(|b| b[i]).collect();
                (model.combine(&d).degree - target[i]).abs()
            })
            .sum::<f64>()
            / n as f64;
        let o = RunStats::oracle_delta(before, oracle.stats());
        let elapsed_ms = clock.elapsed_ms();
        let mut details = serde_json::Map::new();
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
        let stats = RunStats {
            concepts_tested: tested,
            queries_sent: o.queries_sent,
            cache_hits: o.cache_hits,
            cache_misses: o.cache_misses,
            elapsed_ms,
            load_ms: 0,
            signature_ms: 0,
            search_ms: elapsed_ms,
            termination,
            details,
        };
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
        let mut extras = serde_json::Map::new();
        extras.insert("train_loss".into(), run.train_loss.into());
        extras.insert("round_errors".into(), run.errors.clone().into());
        extras.insert(
            "alphas".into(),
            run.model
                .rounds
                .iter()
                .map(|r| r.alpha)
                .collect::<Vec<_>>()
                .into(),
        );
        Ok(FitResult {
            model: Box::new(run.model),
            solutions: Vec::new(),
            quality: QualityMeasure::Accuracy,
            semantics: Semantics::Closed,
            stats,
            extras,
        })
    }
}

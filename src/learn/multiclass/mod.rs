//! Multi-class rule theories (Abudawood & Flach, "Learning multi-class theories in ILP"):
//! one-vs-rest rule sets learned by sequential covering ([`covering`]: each rule a class
//! expression found by CELOE on the class's still-uncovered examples), then combined into
//! one coherent model ([`combine`]): the χ²-ordered rule list MRL, the rule sets MRSI
//! (intersection of the firing rules' training coverage) and MRSU (union), and CN2's
//! summed coverages as the baseline. [`measures`] holds the multi-class measures (accuracy,
//! the misleading multi-model accuracy of the binary theories, average positive recall,
//! one-vs-rest AUC weighted by the class prior); cross-validation deals its folds with
//! [`crate::eval::stratified_deal`].

pub mod chi2;
pub mod combine;
pub mod covering;
pub mod experiment;
pub mod ignore;
pub mod measures;
pub mod model;
mod params;
pub mod rules;

use std::time::Instant;

pub use combine::Combine;
pub(crate) use model::MultiClassModelLoader;
pub use model::{ALGORITHM, Classified, MultiClassModel};
pub use params::MultiClassParams;
pub use rules::{Rule, RuleTable};

use covering::{Budget, cover_class};
use ignore::IgnoringClasses;

use super::celoe::Celoe;
use super::{
    FitResult, LearnError, Learner, QualityMeasure, Report, RunControl, RunStats, Solution,
    Termination, TrainingKind, TrainingSet,
};
use crate::eval::Confusion;
use crate::oracle::{IndividualId, IndividualSet, MembershipOracle};
use crate::refine::Refinement;

/// The multi-class learner: covering per class, then the chosen combination.
pub struct MultiClass<'r> {
    params: MultiClassParams,
    refinement: &'r dyn Refinement,
}

/// The rules of every class, before they are combined (cross-validation combines one rule
/// table four ways).
#[derive(Clone, Debug)]
pub struct RulesRun {
    pub table: RuleTable,
    /// The training examples in table order (`table.labels[i]` is the class of `examples[i]`).
    pub examples: Vec<IndividualId>,
    pub stats: RunStats,
}

impl<'r> MultiClass<'r> {
    pub fn new(
        params: MultiClassParams,
        refinement: &'r dyn Refinement,
    ) -> Result<Self, LearnError> {
        params.validate()?;
        Ok(MultiClass { params, refinement })
    }

    pub fn params(&self) -> &MultiClassParams {
        &self.params
    }

    /// Learns the one-vs-rest rules of every class of `training` (multi-class kind).
    pub fn learn_rules(
        &self,
        oracle: &dyn MembershipOracle,
        training: &TrainingSet,
        control: &RunControl,
    ) -> Result<RulesRun, LearnError> {
        let TrainingKind::MultiClass { classes, labels } = training.kind() else {
            return Err(LearnError::UnsupportedTraining {
                learner: ALGORITHM,
                needs: "multi-class",
                given: training.kind_name(),
            });
        };
        let start = Instant::now();
        let before = oracle.stats();
        let universe = oracle.signature().individual_count();
        let among = training.context(universe);
        let examples: Vec<IndividualId> = labels.iter().map(|(id, _)| *id).collect();
        let class_sets: Vec<IndividualSet> = (0..classes.len())
            .map(|c| {
                IndividualSet::from_ids(
                    universe,
                    labels.iter().filter(|(_, l)| *l == c).map(|(id, _)| *id),
                )
            })
            .collect();
        let all = IndividualSet::from_ids(universe, examples.iter().copied());
        let operator = IgnoringClasses::new(self.refinement, self.params.ignored_classes.clone());
        let celoe = Celoe::new(self.params.celoe.clone(), &operator)?;
        let present = class_sets.iter().filter(|s| !s.is_empty()).count();
        let mut done = 0usize;
        let mut rules = Vec::new();
        let mut tests = 0;
        let mut termination = Termination::Exhausted;
        let mut per_class = serde_json::Map::new();
        for (c, members) in class_sets.iter().enumerate() {
            if members.is_empty() {
                per_class.insert(classes[c].clone(), 0.into());
                continue;
            }
            let others = all.difference(members);
            // Each class gets an equal share of the time left, so a tight budget does not
            // leave the last classes without rules.
            let until = control.max_runtime.map(|total| {
                let left = total.saturating_sub(start.elapsed());
                Instant::now() + left / (present - done).max(1) as u32
            });
            done += 1;
            let budget = Budget { control, until };
            let found = cover_class(
                &celoe,
                oracle,
                members,
                &others,
                &among,
                &self.params,
                &budget,
            )?;
            tests += found.tests;
            per_class.insert(classes[c].clone(), found.rules.len().into());
            for (concept, covered) in found.rules {
                let covers = rules::bitset(
                    examples.len(),
                    covered
                        .iter()
                        .filter_map(|id| examples.binary_search(&id).ok()),
                );
                rules.push(Rule {
                    class: c,
                    concept,
                    covers,
                });
            }
            if found.termination != Termination::Exhausted {
                termination = found.termination;
            }
            if found.termination == Termination::Cancelled {
                break;
            }
        }
        let delta = RunStats::oracle_delta(before, oracle.stats());
        let elapsed_ms = u64::try_from(start.elapsed().as_millis()).unwrap_or(u64::MAX);
        let mut details = serde_json::Map::new();
        details.insert("rules".into(), rules.len().into());
        details.insert("rules_per_class".into(), per_class.into());
        let stats = RunStats::of_run(tests, &delta, elapsed_ms, elapsed_ms, termination, details);
        Ok(RulesRun {
            table: RuleTable {
                classes: classes.clone(),
                labels: labels.iter().map(|(_, l)| *l).collect(),
                rules,
            },
            examples,
            stats,
        })
    }
}

/// Each rule scored as a classifier of its own class on the training examples.
pub fn rule_solutions(table: &RuleTable) -> Vec<Solution> {
    let all = table.all_examples();
    let per_class = table.class_counts(&all);
    let n = table.labels.len();
    table
        .rules
        .iter()
        .enumerate()
        .map(|(r, rule)| {
            let k = table.counts(r, &all);
            let confusion = Confusion {
                tp: k.covered_of_class,
                fp: k.covered - k.covered_of_class,
                fn_: per_class[rule.class] - k.covered_of_class,
                tn: n - per_class[rule.class] - (k.covered - k.covered_of_class),
            };
            Solution {
                concept: rule.concept.clone(),
                quality: confusion.f1(),
                confusion,
            }
        })
        .collect()
}

/// What a multi-class run reports besides its model: the combination method's name.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct MultiClassReport {
    pub combine: &'static str,
}

impl Learner for MultiClass<'_> {
    fn name(&self) -> &'static str {
        ALGORITHM
    }

    fn parameters(&self) -> serde_json::Value {
        serde_json::to_value(&self.params).unwrap_or(serde_json::Value::Null)
    }

    fn fit(
        &self,
        oracle: &dyn MembershipOracle,
        training: &TrainingSet,
        control: &RunControl,
    ) -> Result<FitResult, LearnError> {
        let run = self.learn_rules(oracle, training, control)?;
        let solutions = rule_solutions(&run.table);
        let model = MultiClassModel::new(
            run.table,
            self.params.combine,
            self.params.seed,
            self.params.celoe.semantics,
        );
        Ok(FitResult {
            model: Box::new(model),
            solutions,
            quality: QualityMeasure::F1,
            semantics: self.params.celoe.semantics,
            stats: run.stats,
            report: Report::new(MultiClassReport {
                combine: self.params.combine.name(),
            }),
        })
    }
}

//! Terminological decision trees (`--algorithm tdt`), after Fanizzi, d'Amato and Esposito
//! ("Induction of Concepts in Web Ontologies through Terminological Decision Trees", ECML
//! PKDD 2010).
//!
//! A tree is grown top-down over the examples. Each node tests a class expression: one of
//! the neighbourhood features of the examples ([`crate::learn::features`]: their classes,
//! `∃r.C`, `∃r.{o}` for frequent objects, `∃r⁻.C`, numeric thresholds, frequent data values,
//! counts `≥n r.C`, chains of two roles)
//! or a ρ-refinement of the test that led to the node (ρ specialises it one step: a
//! subclass, a filler, a conjunct). The test with the greatest information gain (or Gini
//! decrease) wins; a node stops when it is pure, at `max_depth`, or when no test leaves
//! `min_leaf` examples on both sides. Classes are native: a node holds the counts of every
//! class, a leaf's distribution is its prediction. The grown tree is then pruned by
//! cost-complexity (CART): the penalty per leaf is the one with the fewest errors in an
//! internal, stratified, seeded cross-validation over the training examples (ties to the
//! smaller tree), so noise is pruned away and nothing outside the training set is used.
//!
//! A binary tree is also one class expression: the union of its paths to positive leaves,
//! each the conjunction of its tests, `¬C` on a no branch. Membership is always the
//! oracle's answer for the same concepts, so under closed-world semantics the expression's
//! instances are exactly the tree's positive decisions, whatever the tests are (also
//! `∀r⁻.⊤`-like ones that hold for every individual without any `r`-predecessor).
//! [`TreeModel`] predicts through any oracle and saves to and loads from the model document.
//!
//! The same growth with bootstrap samples and random feature subsets makes the forests of
//! the `trf` module (terminological random forests).

mod grow;
mod model;
mod prune;
mod stop;
mod tree;

pub use grow::{Criterion, GrowParams, Grower};
pub(crate) use model::TreeModelLoader;
pub use model::{POSITIVE, TreeModel};
pub use prune::{alphas, prune};
pub use stop::Stop;
pub use tree::{Node, Tree, argmax, distribution};

use serde::Serialize;

use crate::eval::stratified_deal;
use crate::learn::features::{FeatureParams, FeatureTable};
use crate::learn::{
    FitResult, LearnError, Learner, QualityMeasure, RunControl, RunStats, Solution, Termination,
    TrainingKind, TrainingSet,
};
use crate::oracle::{IndividualId, IndividualSet, MembershipOracle, Semantics};
use crate::refine::Refinement;

/// The algorithm name (`--algorithm tdt`, model files).
pub const ALGORITHM: &str = "tdt";

/// A terminological decision tree's parameters.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct TdtParams {
    pub grow: GrowParams,
    pub features: FeatureParams,
    /// Folds of the internal cross-validation choosing the pruning (< 2: no pruning).
    pub prune_folds: usize,
    pub seed: u64,
    #[serde(serialize_with = "crate::learn::tdt::ser_semantics")]
    pub semantics: Semantics,
}

pub(crate) fn ser_semantics<S: serde::Serializer>(
    s: &Semantics,
    ser: S,
) -> Result<S::Ok, S::Error> {
    ser.serialize_str(crate::learn::semantics_name(*s))
}

impl Default for TdtParams {
    fn default() -> Self {
        TdtParams {
            grow: GrowParams {
                criterion: Criterion::Entropy,
                max_depth: 10,
                min_leaf: 1,
                feature_sample: None,
                refinements: 20,
            },
            features: FeatureParams::default(),
            prune_folds: 5,
            seed: 1,
            semantics: Semantics::Closed,
        }
    }
}

impl TdtParams {
    pub fn validate(&self) -> Result<(), LearnError> {
        validate_grow(&self.grow)?;
        validate_features(&self.features)
    }
}

pub(crate) fn validate_grow(g: &GrowParams) -> Result<(), LearnError> {
    let bad = |name, message: &str| {
        Err(LearnError::InvalidParameter {
            name,
            message: message.to_owned(),
        })
    };
    if g.max_depth == 0 {
        return bad("max_depth", "must be at least 1");
    }
    if g.min_leaf == 0 {
        return bad("min_leaf", "must be at least 1");
    }
    if g.feature_sample == Some(0) {
        return bad("feature_sample", "must be at least 1");
    }
    Ok(())
}

pub(crate) fn validate_features(f: &FeatureParams) -> Result<(), LearnError> {
    if !(1..=2).contains(&f.depth) {
        return Err(LearnError::InvalidParameter {
            name: "feature_depth",
            message: format!("{} (1 or 2)", f.depth),
        });
    }
    Ok(())
}

/// The training examples as table rows: individuals, their class indices, the class names,
/// and whether the problem is binary (class 0 = positive).
pub struct Rows {
    pub individuals: Vec<IndividualId>,
    pub labels: Vec<usize>,
    pub classes: Vec<String>,
    pub binary: bool,
}

impl Rows {
    pub fn of(training: &TrainingSet, learner: &'static str) -> Result<Rows, LearnError> {
        match training.kind() {
            TrainingKind::Binary(e) => {
                let pos = e.positives().iter().map(|i| (i, POSITIVE));
                let neg = e.negatives().iter().map(|i| (i, 1 - POSITIVE));
                let (individuals, labels) = pos.chain(neg).unzip();
                Ok(Rows {
                    individuals,
                    labels,
                    classes: vec!["positive".into(), "negative".into()],
                    binary: true,
                })
            }
            TrainingKind::MultiClass { classes, labels } => Ok(Rows {
                individuals: labels.iter().map(|p| p.0).collect(),
                labels: labels.iter().map(|p| p.1).collect(),
                classes: classes.clone(),
                binary: false,
            }),
            _ => Err(LearnError::UnsupportedTraining {
                learner,
                needs: "binary or multi-class",
                given: training.kind_name(),
            }),
        }
    }

    /// The rows of each class, for stratified folds and balanced bootstraps.
    pub fn by_class(&self) -> Vec<Vec<usize>> {
        let mut out = vec![Vec::new(); self.classes.len()];
        for (r, &l) in self.labels.iter().enumerate() {
            out[l].push(r);
        }
        out
    }
}

/// A terminological decision tree learner.
pub struct Tdt<'r> {
    params: TdtParams,
    refinement: Option<&'r dyn Refinement>,
}

impl<'r> Tdt<'r> {
    /// With `refinement`, nodes also try ρ-refinements of their parent's test.
    pub fn new(
        params: TdtParams,
        refinement: Option<&'r dyn Refinement>,
    ) -> Result<Self, LearnError> {
        params.validate()?;
        Ok(Tdt { params, refinement })
    }

    pub fn params(&self) -> &TdtParams {
        &self.params
    }

    /// The penalty per leaf with the fewest errors over the internal folds (ties: the
    /// largest, the smallest tree), among the weakest-link values of `full`.
    fn choose_alpha(&self, g: &mut Grower, rows: &Rows, full: &Tree) -> Result<f64, LearnError> {
        let candidates = alphas(full);
        let k = self.params.prune_folds;
        if k < 2 || candidates.len() < 2 {
            return Ok(0.0);
        }
        let mut fold = vec![0; rows.labels.len()];
        for (f, members) in stratified_deal(&rows.labels, k, self.params.seed)
            .map_err(|e| LearnError::InvalidParameter {
                name: "prune_folds",
                message: e.to_string(),
            })?
            .into_iter()
            .enumerate()
        {
            for r in members {
                fold[r] = f;
            }
        }
        let mut errors = vec![0usize; candidates.len()];
        for f in 0..k {
            let train: Vec<usize> = (0..rows.labels.len()).filter(|&r| fold[r] != f).collect();
            let test: Vec<usize> = (0..rows.labels.len()).filter(|&r| fold[r] == f).collect();
            if test.is_empty() || train.is_empty() {
                continue;
            }
            let tree = g.grow(train)?;
            for (a, alpha) in candidates.iter().enumerate() {
                let pruned = prune(&tree, *alpha);
                errors[a] += test
                    .iter()
                    .filter(|&&r| {
                        let leaf = pruned.leaf(|t| g.table.columns[t].contains(r));
                        argmax(pruned.nodes[leaf].counts()) != rows.labels[r]
                    })
                    .count();
            }
        }
        let least = errors.iter().copied().min().unwrap_or(0);
        let best = errors.iter().rposition(|&e| e == least).unwrap_or(0);
        Ok(candidates[best])
    }
}

/// The feature table of the training rows, asked over the training context.
pub(crate) fn feature_table(
    oracle: &dyn MembershipOracle,
    rows: &Rows,
    among: &IndividualSet,
    params: &FeatureParams,
) -> Result<FeatureTable, LearnError> {
    Ok(FeatureTable::build(
        oracle,
        &rows.individuals,
        among,
        params,
    )?)
}

/// What a fitted tree model reports: for binary models the exported expression with its
/// training counts, for multi-class ones each test concept as a classifier of nothing in
/// particular is not meaningful, so none.
pub(crate) fn fit_result(
    model: TreeModel,
    oracle: &dyn MembershipOracle,
    training: &TrainingSet,
    among: &IndividualSet,
    stats: RunStats,
) -> Result<FitResult, LearnError> {
    let quality = QualityMeasure::Accuracy;
    let mut solutions = Vec::new();
    if let (Some(c), TrainingKind::Binary(e)) = (&model.exported, training.kind()) {
        let covered = oracle.members(c, among, model.semantics)?;
        let confusion = e.confusion(&covered);
        solutions.push(Solution {
            concept: c.clone(),
            confusion,
            quality: quality.score(&confusion),
        });
    }
    Ok(FitResult {
        semantics: model.semantics,
        model: Box::new(model),
        solutions,
        quality,
        stats,
        report: crate::learn::learner::Report::none(),
    })
}

/// Run statistics of a tree learner (no search: tests = feature and refinement concepts).
pub(crate) fn stats_of(
    oracle: &dyn MembershipOracle,
    before: crate::oracle::OracleStats,
    tests: u64,
    start: std::time::Instant,
    cut: Option<Termination>,
    details: serde_json::Map<String, serde_json::Value>,
) -> RunStats {
    let ms = start.elapsed().as_millis() as u64;
    let o = RunStats::oracle_delta(before, oracle.stats());
    let why = cut.unwrap_or(Termination::Exhausted);
    RunStats::of_run(tests, &o, ms, ms, why, details)
}

impl Learner for Tdt<'_> {
    fn name(&self) -> &'static str {
        ALGORITHM
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
        let start = std::time::Instant::now();
        let before = oracle.stats();
        let rows = Rows::of(training, ALGORITHM)?;
        let among = training.context(oracle.signature().individual_count());
        let table = feature_table(oracle, &rows, &among, &self.params.features)?;
        let features = table.len();
        let p = &self.params;
        let mut g = Grower::new(
            oracle,
            &among,
            table,
            &rows.labels,
            rows.classes.len(),
            &p.grow,
            p.seed,
        );
        g.refinement = self.refinement;
        g.stop = Stop::of(control, start);
        let full = g.grow((0..rows.labels.len()).collect())?;
        let alpha = self.choose_alpha(&mut g, &rows, &full)?;
        let tree = prune(&full, alpha);
        let mut d = serde_json::Map::new();
        d.insert("features".into(), features.into());
        d.insert("tests_evaluated".into(), g.table.len().into());
        d.insert("nodes_grown".into(), full.nodes.len().into());
        d.insert("nodes".into(), tree.nodes.len().into());
        d.insert("alpha".into(), alpha.into());
        let model = TreeModel::new(
            ALGORITHM,
            rows.classes,
            rows.binary,
            &g.table.concepts,
            vec![tree],
            p.semantics,
        );
        let stats = stats_of(oracle, before, g.table.len() as u64, start, g.cut, d);
        fit_result(model, oracle, training, &among, stats)
    }
}

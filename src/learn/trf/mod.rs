//! Terminological random forests (`--algorithm trf`), after Rizzo, d'Amato, Fanizzi and
//! Esposito ("Tackling the class-imbalance learning problem in semantic web knowledge
//! bases", EKAW 2014; "Terminological random forests for imbalanced data").
//!
//! A forest of terminological decision trees ([`crate::learn::tdt`]) over the same
//! neighbourhood features. Each tree is grown, unpruned, on its own bootstrap sample: a
//! plain one by default, or with [`TrfParams::balance`] one balanced by class, every class
//! contributing the same number of draws with replacement (the training size over the
//! number of classes), so a minority class is not voted down by the majority's sheer size.
//! Balancing is the papers' choice for imbalanced data, but not the default: with label
//! noise the few minority examples are drawn many times each, their flipped labels are
//! memorised by the unpruned trees, and held-out accuracy drops (issue 31's generated
//! problems, docs/experiments/2026-12-07-generalise-defaults.md). At each node a tree looks at a random subset of the
//! features (`feature_sample`, by default the square root of their number) and at the
//! ρ-refinements of its parent's test. Trees are grown in parallel (rayon), each from its
//! own seed derived from the forest's, so a seed gives the same forest on any number of
//! threads. A forest predicts the share of its trees' votes for each class; `predict` and
//! `enrich` write it as the score. Trees the time budget stopped before their first split
//! are left out: a single leaf votes the same for every example (with none left, the
//! forest predicts the training majority).

use rand::Rng;
use rand::SeedableRng;
use rand::rngs::StdRng;
use rayon::prelude::*;
use serde::Serialize;

use crate::concept::Concept;
use crate::learn::features::FeatureParams;
use crate::learn::tdt::{
    GrowParams, Grower, Rows, Stop, Tree, TreeModel, feature_table, fit_result, stats_of,
    validate_features, validate_grow,
};
use crate::learn::{FitResult, LearnError, Learner, RunControl, Termination, TrainingSet};
use crate::oracle::{MembershipOracle, Semantics};
use crate::refine::Refinement;

/// The algorithm name (`--algorithm trf`, model files).
pub const ALGORITHM: &str = "trf";

#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct TrfParams {
    pub trees: usize,
    /// Per tree; `feature_sample` `None` means √(features).
    pub grow: GrowParams,
    pub features: FeatureParams,
    /// Balanced bootstrap (else, the default, a plain one of the training size).
    pub balance: bool,
    pub seed: u64,
    #[serde(serialize_with = "crate::learn::tdt::ser_semantics")]
    pub semantics: Semantics,
}

impl Default for TrfParams {
    fn default() -> Self {
        TrfParams {
            trees: 50,
            grow: GrowParams {
                criterion: crate::learn::tdt::Criterion::Entropy,
                max_depth: 12,
                min_leaf: 1,
                feature_sample: None,
                refinements: 5,
            },
            features: FeatureParams::default(),
            balance: false,
            seed: 1,
            semantics: Semantics::Closed,
        }
    }
}

impl TrfParams {
    pub fn validate(&self) -> Result<(), LearnError> {
        if self.trees == 0 {
            return Err(LearnError::InvalidParameter {
                name: "trees",
                message: "must be at least 1".to_owned(),
            });
        }
        validate_grow(&self.grow)?;
        validate_features(&self.features)
    }
}

pub struct Trf<'r> {
    params: TrfParams,
    refinement: Option<&'r dyn Refinement>,
}

impl<'r> Trf<'r> {
    pub fn new(
        params: TrfParams,
        refinement: Option<&'r dyn Refinement>,
    ) -> Result<Self, LearnError> {
        params.validate()?;
        Ok(Trf { params, refinement })
    }

    pub fn params(&self) -> &TrfParams {
        &self.params
    }
}

/// Tree `t`'s bootstrap sample (row indices, with repeats).
fn bootstrap(rows: &Rows, balance: bool, rng: &mut StdRng) -> Vec<usize> {
    let n = rows.labels.len();
    if !balance {
        return (0..n).map(|_| rng.random_range(0..n)).collect();
    }
    let by_class: Vec<Vec<usize>> = rows
        .by_class()
        .into_iter()
        .filter(|c| !c.is_empty())
        .collect();
    let per_class = n.div_ceil(by_class.len().max(1));
    let mut out = Vec::with_capacity(per_class * by_class.len());
    for class in &by_class {
        out.extend((0..per_class).map(|_| class[rng.random_range(0..class.len())]));
    }
    out
}

/// The trees that split at least once. A tree the budget stopped at its root is one leaf
/// with its bootstrap's class counts, equal on a balanced bootstrap, so it would vote for
/// the first class whatever the example; when no tree split at all, the forest is one leaf
/// with the training counts `prior` (it predicts the majority class).
fn informative<T: Default>(
    grown: Vec<(Tree, T, Option<Termination>)>,
    prior: &[f64],
) -> Vec<(Tree, T, Option<Termination>)> {
    let cut = grown.iter().find_map(|(_, _, c)| *c);
    let mut kept: Vec<_> = grown
        .into_iter()
        .filter(|(t, _, _)| t.nodes.len() > 1)
        .collect();
    if kept.is_empty() {
        let leaf = Tree {
            nodes: vec![crate::learn::tdt::Node::Leaf {
                counts: prior.to_vec(),
            }],
        };
        kept.push((leaf, T::default(), None));
    }
    // The budget's cut is still reported when only stopped trees were dropped.
    if let (Some(first), Some(c)) = (kept.first_mut(), cut) {
        first.2 = first.2.or(Some(c));
    }
    kept
}

impl Learner for Trf<'_> {
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
        let p = &self.params;
        let mut grow = p.grow.clone();
        let features = table.len();
        grow.feature_sample = Some(
            grow.feature_sample
                .unwrap_or_else(|| ((features as f64).sqrt().ceil() as usize).max(1)),
        );
        // Each tree with its own seed and table (its refinements join only its table).
        let stop = Stop::of(control, start);
        let grown: Vec<(Tree, Vec<Concept>, Option<Termination>)> = (0..p.trees)
            .into_par_iter()
            .map(|t| {
                let seed = p
                    .seed
                    .wrapping_mul(0x9E37_79B9_7F4A_7C15)
                    .wrapping_add(t as u64);
                let mut rng = StdRng::seed_from_u64(seed);
                let sample = bootstrap(&rows, p.balance, &mut rng);
                let mut g = Grower::new(
                    oracle,
                    &among,
                    table.clone(),
                    &rows.labels,
                    rows.classes.len(),
                    &grow,
                    seed ^ 1,
                );
                g.refinement = self.refinement;
                g.stop = stop.clone();
                let tree = g.grow(sample)?;
                Ok((tree, g.table.concepts, g.cut))
            })
            .collect::<Result<_, LearnError>>()?;
        let prior: Vec<f64> = rows.by_class().iter().map(|c| c.len() as f64).collect();
        let grown = informative(grown, &prior);
        // One list of test concepts for all trees.
        let mut tests: Vec<Concept> = Vec::new();
        let mut index = std::collections::HashMap::new();
        let mut trees = Vec::with_capacity(grown.len());
        let mut cut = None;
        for (tree, concepts, tree_cut) in grown {
            cut = cut.or(tree_cut);
            let map: Vec<usize> = concepts
                .iter()
                .map(|c| {
                    *index.entry(c.clone()).or_insert_with(|| {
                        tests.push(c.clone());
                        tests.len() - 1
                    })
                })
                .collect();
            trees.push(tree.remap(|i| map[i]));
        }
        let nodes: usize = trees.iter().map(|t| t.nodes.len()).sum();
        let mut d = serde_json::Map::new();
        d.insert("features".into(), features.into());
        d.insert("feature_sample".into(), grow.feature_sample.into());
        d.insert("trees".into(), trees.len().into());
        d.insert("nodes".into(), nodes.into());
        let tested = tests.len() as u64;
        let model = TreeModel::new(
            ALGORITHM,
            rows.classes,
            rows.binary,
            &tests,
            trees,
            p.semantics,
        );
        let stats = stats_of(oracle, before, tested, start, cut, d);
        fit_result(model, oracle, training, &among, stats)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::learn::tdt::Node;

    fn leaf() -> Tree {
        Tree {
            nodes: vec![Node::Leaf {
                counts: vec![5.0, 5.0],
            }],
        }
    }

    fn split() -> Tree {
        let leaf = |counts: Vec<f64>| Node::Leaf { counts };
        Tree {
            nodes: vec![
                Node::Split {
                    test: 0,
                    yes: 1,
                    no: 2,
                    counts: vec![5.0, 5.0],
                },
                leaf(vec![5.0, 0.0]),
                leaf(vec![0.0, 5.0]),
            ],
        }
    }

    #[test]
    fn trees_stopped_at_their_root_do_not_vote() {
        let cut = Some(Termination::TimeBudget);
        let prior = [3.0, 7.0];
        let kept = informative(
            vec![(leaf(), 0, cut), (split(), 1, None), (leaf(), 2, cut)],
            &prior,
        );
        assert_eq!(kept.len(), 1);
        assert_eq!(kept[0].1, 1);
        // The cut is still reported.
        assert_eq!(kept[0].2, cut);
        assert_eq!(informative(vec![(split(), 0, None)], &prior)[0].2, None);
        // With no tree that splits, one leaf with the training counts: the majority class.
        let kept = informative(vec![(leaf(), 5, cut), (leaf(), 6, None)], &prior);
        assert_eq!(kept.len(), 1);
        assert_eq!(kept[0].0.nodes[0].counts(), &prior[..]);
        assert_eq!((kept[0].1, kept[0].2), (0, cut));
    }
}

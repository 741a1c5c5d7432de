//! Growing a tree top-down: at each node the split with the greatest impurity decrease
//! (information gain or Gini) among the feature table's concepts (all, or a random subset
//! for forests) and the ρ-refinements of the test that led to the node's yes branch (they
//! are evaluated on the training rows when first needed and join the table).

use rand::SeedableRng;
use rand::rngs::StdRng;
use serde::{Deserialize, Serialize};

use super::stop::Stop;
use super::tree::{Node, Tree};
use crate::concept::length;
use crate::learn::Termination;
use crate::learn::features::FeatureTable;
use crate::oracle::{IndividualSet, MembershipOracle, OracleError};
use crate::refine::Refinement;

/// The impurity a split decreases.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Criterion {
    /// Shannon entropy (information gain).
    #[default]
    Entropy,
    Gini,
}

impl Criterion {
    fn impurity(self, counts: &[f64]) -> f64 {
        let total: f64 = counts.iter().sum();
        if total <= 0.0 {
            return 0.0;
        }
        let ps = counts.iter().map(|c| c / total).filter(|p| *p > 0.0);
        match self {
            Criterion::Entropy => ps.map(|p| -p * p.log2()).sum(),
            Criterion::Gini => 1.0 - ps.map(|p| p * p).sum::<f64>(),
        }
    }
}

/// What bounds a tree's growth.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct GrowParams {
    pub criterion: Criterion,
    pub max_depth: usize,
    /// Fewest training rows in a leaf.
    pub min_leaf: usize,
    /// Features drawn at random per node (forests); `None`: all.
    pub feature_sample: Option<usize>,
    /// Most ρ-refinements of the parent's test tried per node (0: features only).
    pub refinements: usize,
}

/// The state of growing trees over one feature table.
pub struct Grower<'a> {
    pub oracle: &'a dyn MembershipOracle,
    pub among: &'a IndividualSet,
    pub refinement: Option<&'a dyn Refinement>,
    pub table: FeatureTable,
    /// The class of each table row.
    pub labels: &'a [usize],
    pub classes: usize,
    pub params: &'a GrowParams,
    pub rng: StdRng,
    /// When to stop growing (the run's budget, Ctrl-C); unlimited unless set.
    pub stop: Stop,
    /// Why some node was left a leaf early, if one was.
    pub cut: Option<Termination>,
}

impl<'a> Grower<'a> {
    pub fn new(
        oracle: &'a dyn MembershipOracle,
        among: &'a IndividualSet,
        table: FeatureTable,
        labels: &'a [usize],
        classes: usize,
        params: &'a GrowParams,
        seed: u64,
    ) -> Self {
        Grower {
            oracle,
            among,
            refinement: None,
            table,
            labels,
            classes,
            params,
            rng: StdRng::seed_from_u64(seed),
            stop: Stop::default(),
            cut: None,
        }
    }

    /// A tree over `rows` (table row indices; repeats count twice, as in a bootstrap).
    pub fn grow(&mut self, rows: Vec<usize>) -> Result<Tree, OracleError> {
        let mut tree = Tree { nodes: Vec::new() };
        self.node(&mut tree, rows, 0, None)?;
        Ok(tree)
    }

    pub fn counts(&self, rows: &[usize]) -> Vec<f64> {
        let mut counts = vec![0.0; self.classes];
        for &r in rows {
            counts[self.labels[r]] += 1.0;
        }
        counts
    }

    fn node(
        &mut self,
        tree: &mut Tree,
        rows: Vec<usize>,
        depth: usize,
        parent_test: Option<usize>,
    ) -> Result<usize, OracleError> {
        let counts = self.counts(&rows);
        let id = tree.nodes.len();
        tree.nodes.push(Node::Leaf {
            counts: counts.clone(),
        });
        let pure = counts.iter().filter(|c| **c > 0.0).count() <= 1;
        if pure || depth >= self.params.max_depth || rows.len() < 2 * self.params.min_leaf {
            return Ok(id);
        }
        if let Some(why) = self.stop.now() {
            self.cut = Some(why);
            return Ok(id);
        }
        let Some(test) = self.best_split(&rows, &counts, parent_test)? else {
            return Ok(id);
        };
        let column = &self.table.columns[test];
        let (yes_rows, no_rows): (Vec<usize>, Vec<usize>) =
            rows.into_iter().partition(|&r| column.contains(r));
        let yes = self.node(tree, yes_rows, depth + 1, Some(test))?;
        let no = self.node(tree, no_rows, depth + 1, None)?;
        tree.nodes[id] = Node::Split {
            test,
            yes,
            no,
            counts,
        };
        Ok(id)
    }

    /// The candidate tests of a node, ascending (so ties go to the earlier, simpler one).
    fn candidates(&mut self, parent_test: Option<usize>) -> Result<Vec<usize>, OracleError> {
        let n = self.table.len();
        let mut out: Vec<usize> = match self.params.feature_sample {
            Some(m) if m < n => rand::seq::index::sample(&mut self.rng, n, m).into_vec(),
            _ => (0..n).collect(),
        };
        if let (Some(rho), Some(t)) = (self.refinement, parent_test)
            && self.params.refinements > 0
        {
            let c = self.table.concepts[t].clone();
            let refined: Vec<_> = rho
                .refine(&c, length(&c) + 2)
                .into_iter()
                .filter(|r| *r != c)
                .take(self.params.refinements)
                .collect();
            out.extend(self.table.add(self.oracle, refined, self.among)?);
        }
        out.sort_unstable();
        out.dedup();
        Ok(out)
    }

    fn best_split(
        &mut self,
        rows: &[usize],
        counts: &[f64],
        parent_test: Option<usize>,
    ) -> Result<Option<usize>, OracleError> {
        let candidates = self.candidates(parent_test)?;
        let criterion = self.params.criterion;
        let before = criterion.impurity(counts);
        let total = rows.len() as f64;
        let min_leaf = self.params.min_leaf.max(1) as f64;
        let mut best: Option<(f64, usize)> = None;
        for t in candidates {
            let column = &self.table.columns[t];
            let mut yes = vec![0.0; self.classes];
            for &r in rows {
                if column.contains(r) {
                    yes[self.labels[r]] += 1.0;
                }
            }
            let n_yes: f64 = yes.iter().sum();
            if n_yes < min_leaf || total - n_yes < min_leaf {
                continue;
            }
            let no: Vec<f64> = counts.iter().zip(&yes).map(|(a, b)| a - b).collect();
            let after = (n_yes * criterion.impurity(&yes)
                + (total - n_yes) * criterion.impurity(&no))
                / total;
            let gain = before - after;
            if gain > 1e-12 && best.is_none_or(|(g, _)| gain > g + 1e-12) {
                best = Some((gain, t));
            }
        }
        Ok(best.map(|(_, t)| t))
    }
}

//! The committee's projections, computed once per run: for feature `F_i` and individual `a`,
//! `π_i(a)` is 1 when `K ⊨ F_i(a)`, 0 when `K ⊨ ¬F_i(a)` (the oracle's three-valued
//! `truth`), and otherwise ½ or the feature's prior ([`UnknownValue`]).
//!
//! Individuals with the same projections are indistinguishable to `d_p`, so the rows are
//! also grouped into distinct *patterns* ([`Patterns`]): medoids and splits work on weighted
//! patterns, which are usually far fewer than the individuals.

use std::collections::HashMap;

use rayon::prelude::*;
use serde::{Deserialize, Serialize};

use crate::concept::Concept;
use crate::oracle::{IndividualId, IndividualSet, MembershipOracle, OracleError, TruthSets};

/// The projection of an unknown membership (neither `K ⊨ F(a)` nor `K ⊨ ¬F(a)`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default, Serialize, Deserialize)]
#[cfg_attr(feature = "cli", derive(clap::ValueEnum))]
#[serde(rename_all = "lowercase")]
pub enum UnknownValue {
    /// ½, the paper's uniform prior.
    #[default]
    #[cfg_attr(feature = "cli", value(help = "½ for an unknown membership"))]
    Uniform,
    /// The share of the training individuals provably in the feature (`|T(F)| / n`), the
    /// paper's estimate for densely populated ontologies.
    #[cfg_attr(
        feature = "cli",
        value(help = "The feature's share of provable members among the clustered individuals")
    )]
    Prior,
}

/// Projections of the training individuals (rows, in id order) on the committee.
#[derive(Clone, Debug, PartialEq)]
pub struct Projections {
    features: usize,
    individuals: Vec<IndividualId>,
    /// Row-major, `individuals.len() × features`.
    values: Vec<f64>,
    /// The value an unknown membership takes, per feature.
    unknown: Vec<f64>,
}

/// The value of `a` for a feature whose truth sets are `t`.
pub fn project(t: &TruthSets, a: IndividualId, unknown: f64) -> f64 {
    if t.true_set.contains(a) {
        1.0
    } else if t.false_set.contains(a) {
        0.0
    } else {
        unknown
    }
}

impl Projections {
    /// Asks the oracle for each committee feature's truth sets over `among` (which must
    /// contain `individuals`; one call per feature, in parallel) and projects `individuals`.
    pub fn compute(
        oracle: &dyn MembershipOracle,
        committee: &[Concept],
        individuals: &IndividualSet,
        among: &IndividualSet,
        unknown: UnknownValue,
    ) -> Result<Self, OracleError> {
        let truths = committee
            .par_iter()
            .map(|f| oracle.truth(f, among))
            .collect::<Result<Vec<_>, _>>()?;
        let ids: Vec<IndividualId> = individuals.iter().collect();
        Ok(Self::from_truths(&ids, &truths, unknown))
    }

    /// Projections of `individuals` from the committee's truth sets.
    pub fn from_truths(
        individuals: &[IndividualId],
        truths: &[TruthSets],
        unknown: UnknownValue,
    ) -> Self {
        let n = individuals.len();
        let unknown: Vec<f64> = truths
            .iter()
            .map(|t| match unknown {
                UnknownValue::Uniform => 0.5,
                UnknownValue::Prior if n == 0 => 0.5,
                UnknownValue::Prior => {
                    individuals
                        .iter()
                        .filter(|&&a| t.true_set.contains(a))
                        .count() as f64
                        / n as f64
                }
            })
            .collect();
        Self::with_unknown(individuals, truths, unknown)
    }

    /// Projections with given values for unknowns (a saved model's priors).
    pub fn with_unknown(
        individuals: &[IndividualId],
        truths: &[TruthSets],
        unknown: Vec<f64>,
    ) -> Self {
        let features = truths.len();
        let mut values = Vec::with_capacity(individuals.len() * features);
        for &a in individuals {
            for (t, &u) in truths.iter().zip(&unknown) {
                values.push(project(t, a, u));
            }
        }
        Projections {
            features,
            individuals: individuals.to_vec(),
            values,
            unknown,
        }
    }

    /// Projections given directly, row by row (for tests and hand examples).
    pub fn from_rows(rows: &[Vec<f64>]) -> Self {
        let features = rows.first().map_or(0, Vec::len);
        Projections {
            features,
            individuals: (0..rows.len()).map(|i| IndividualId(i as u32)).collect(),
            values: rows.iter().flat_map(|r| r.iter().copied()).collect(),
            unknown: vec![0.5; features],
        }
    }

    /// From rows of values with the individuals they belong to and the unknowns' values.
    pub fn from_parts(
        individuals: Vec<IndividualId>,
        rows: Vec<Vec<f64>>,
        unknown: Vec<f64>,
    ) -> Self {
        Projections {
            features: unknown.len(),
            individuals,
            values: rows.into_iter().flatten().collect(),
            unknown,
        }
    }

    pub fn features(&self) -> usize {
        self.features
    }

    pub fn len(&self) -> usize {
        self.individuals.len()
    }

    pub fn is_empty(&self) -> bool {
        self.individuals.is_empty()
    }

    /// The individual of row `r`.
    pub fn individual(&self, r: usize) -> IndividualId {
        self.individuals[r]
    }

    pub fn individuals(&self) -> &[IndividualId] {
        &self.individuals
    }

    /// Row `r`'s projections.
    pub fn row(&self, r: usize) -> &[f64] {
        &self.values[r * self.features..(r + 1) * self.features]
    }

    /// The value unknowns take, per feature.
    pub fn unknown_values(&self) -> &[f64] {
        &self.unknown
    }
}

/// The distinct projection vectors of a [`Projections`] and which rows have each. Pattern
/// ids follow the rows' order, so everything built on them is deterministic.
#[derive(Clone, Debug)]
pub struct Patterns {
    of_row: Vec<u32>,
    /// The first (smallest) row with each pattern: its representative individual.
    first_row: Vec<u32>,
}

impl Patterns {
    pub fn new(p: &Projections) -> Self {
        let mut index: HashMap<Vec<u64>, u32> = HashMap::new();
        let mut of_row = Vec::with_capacity(p.len());
        let mut first_row = Vec::new();
        for r in 0..p.len() {
            let key: Vec<u64> = p.row(r).iter().map(|v| v.to_bits()).collect();
            let next = first_row.len() as u32;
            let id = *index.entry(key).or_insert(next);
            if id == next {
                first_row.push(r as u32);
            }
            of_row.push(id);
        }
        Patterns { of_row, first_row }
    }

    pub fn of_row(&self, r: usize) -> u32 {
        self.of_row[r]
    }

    /// The representative row of pattern `k`.
    pub fn row_of(&self, k: u32) -> usize {
        self.first_row[k as usize] as usize
    }

    pub fn count(&self) -> usize {
        self.first_row.len()
    }

    /// The patterns of `rows` with how many rows have each, by pattern id.
    pub fn weighted(&self, rows: &[u32]) -> Vec<(u32, u32)> {
        let mut counts: HashMap<u32, u32> = HashMap::new();
        for &r in rows {
            *counts.entry(self.of_row[r as usize]).or_default() += 1;
        }
        let mut out: Vec<(u32, u32)> = counts.into_iter().collect();
        out.sort_unstable();
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn set(ids: &[u32]) -> IndividualSet {
        IndividualSet::from_ids(4, ids.iter().map(|&i| IndividualId(i)))
    }

    #[test]
    fn projections_are_one_zero_or_the_unknown_value() {
        let ids: Vec<IndividualId> = (0..4).map(IndividualId).collect();
        let truths = vec![
            TruthSets {
                true_set: set(&[0, 1]),
                false_set: set(&[2]),
            },
            TruthSets {
                true_set: set(&[3]),
                false_set: set(&[]),
            },
        ];
        let uniform = Projections::from_truths(&ids, &truths, UnknownValue::Uniform);
        assert_eq!(uniform.row(0), [1.0, 0.5]);
        assert_eq!(uniform.row(2), [0.0, 0.5]);
        assert_eq!(uniform.row(3), [0.5, 1.0]);
        // Prior: feature 0 holds for 2 of 4 individuals, feature 1 for 1 of 4.
        let prior = Projections::from_truths(&ids, &truths, UnknownValue::Prior);
        assert_eq!(prior.unknown_values(), [0.5, 0.25]);
        assert_eq!(prior.row(0), [1.0, 0.25]);
        let patterns = Patterns::new(&uniform);
        // Rows 0 and 1 are both (1, ½).
        assert_eq!(patterns.count(), 3);
        assert_eq!(patterns.of_row(1), patterns.of_row(0));
        assert_eq!(patterns.weighted(&[0, 1, 3]), vec![(0, 2), (2, 1)]);
    }
}

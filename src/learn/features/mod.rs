//! Neighbourhood features: binary class expressions read off the examples' neighbourhood,
//! for learners that split on features rather than search one expression (the
//! terminological decision trees and forests, [`super::tdt`] and [`super::trf`]).
//!
//! For the examples (the seeds, without their labels) the candidates are: the named classes
//! they belong to; per role `r` (and, with `inverse`, `r⁻`) `∃r.⊤`, `∃r.C` for the classes of
//! their `r`-successors, `∃r.{o}` for the successors at least `frequency_threshold` of them
//! reach (DL-Learner's hasValue rule); numeric thresholds `∃p.≥t` on data properties of the
//! examples and of their successors (`t` between neighbouring values); `∃p.Literal` and
//! `∃p.{v}` for non-numeric values (a boolean test outcome) at least `frequency_threshold`
//! of them hold, on the examples and their successors; with `max_counts`, counts `≥n r.C`
//! (n ≥ 2) at the examples' own counts; and with `depth` 2
//! the same one step further (`∃r.∃s.⊤`, `∃r.∃s.C`, `∃r.∃s.{o}`). Every query is bounded to
//! the seeds or their successors (VALUES-bounded in SPARQL), never a listing of the KB, and
//! the cached oracle keeps every answer. Each feature is a [`Concept`], so membership is
//! the oracle's answer at prediction time too, and a tree's path is a conjunction of
//! features and their negations.
//!
//! [`FeatureTable::build`] evaluates the candidates on the examples and keeps one per
//! distinct column (the simplest, generated first), dropping those true for none or all
//! of them; [`FeatureTable::support`] gives each kept feature's count.

mod candidates;
mod counts;
mod literals;

use std::collections::{BTreeSet, HashSet};

use fixedbitset::FixedBitSet;
use serde::Serialize;

use crate::concept::{Concept, Iri};
use crate::oracle::{IndividualId, IndividualSet, MembershipOracle, OracleError};

/// Which features are generated.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct FeatureParams {
    /// `∃r.{o}` for objects at least this many individuals reach through `r`.
    pub frequency_threshold: usize,
    /// Most `∃r.{o}` per role (most frequent first).
    pub max_values: usize,
    /// Most numeric thresholds per data property and level.
    pub max_thresholds: usize,
    /// Most count thresholds `≥n r.C` (n ≥ 2) per role and filler (0, the default: no
    /// counts; measured, they dilute a forest's feature samples more than they add).
    pub max_counts: usize,
    /// Role chains up to this length (1 or 2).
    pub depth: usize,
    /// Also `r⁻` (`∃r⁻.⊤`, `∃r⁻.C`, …).
    pub inverse: bool,
    /// Classes features must not use (the answer hidden in a class).
    #[serde(skip)]
    pub ignored_classes: BTreeSet<Iri>,
}

impl Default for FeatureParams {
    fn default() -> Self {
        FeatureParams {
            frequency_threshold: crate::learn::has_value::DEFAULT_FREQUENCY_THRESHOLD,
            max_values: crate::learn::has_value::MAX_PER_PROPERTY,
            max_thresholds: 16,
            max_counts: 0,
            depth: 2,
            inverse: true,
            ignored_classes: BTreeSet::new(),
        }
    }
}

/// Feature concepts with their columns over a fixed list of rows (individuals).
#[derive(Clone, Debug)]
pub struct FeatureTable {
    pub concepts: Vec<Concept>,
    /// Per concept, which rows are instances (closed world).
    pub columns: Vec<FixedBitSet>,
    rows: Vec<IndividualId>,
}

impl FeatureTable {
    /// The features of `rows`' neighbourhood (see the module docs), asked over `among` (a
    /// superset of the rows: the oracle's cache is keyed by it).
    pub fn build(
        oracle: &dyn MembershipOracle,
        rows: &[IndividualId],
        among: &IndividualSet,
        params: &FeatureParams,
    ) -> Result<Self, OracleError> {
        let seeds = IndividualSet::from_ids(among.universe(), rows.iter().copied());
        let found = candidates::candidates(oracle, &seeds, params)?;
        let mut table = FeatureTable {
            concepts: Vec::new(),
            columns: Vec::new(),
            rows: rows.to_vec(),
        };
        table.add(oracle, found, among)?;
        Ok(table)
    }

    /// The rows, in column order.
    pub fn rows(&self) -> &[IndividualId] {
        &self.rows
    }

    /// Evaluates `concepts` on the rows and keeps the informative ones not already there
    /// (by column); the indices of the kept ones.
    pub fn add(
        &mut self,
        oracle: &dyn MembershipOracle,
        concepts: Vec<Concept>,
        among: &IndividualSet,
    ) -> Result<Vec<usize>, OracleError> {
        let among = among.union(&IndividualSet::from_ids(
            among.universe(),
            self.rows.iter().copied(),
        ));
        let mut seen: HashSet<FixedBitSet> = self.columns.iter().cloned().collect();
        let mut known: HashSet<Concept> = self.concepts.iter().cloned().collect();
        let fresh: Vec<Concept> = concepts
            .into_iter()
            .filter(|c| known.insert(c.clone()))
            .collect();
        let mut kept = Vec::new();
        for (c, answer) in fresh.iter().zip(oracle.covered_batch(&fresh, &among)) {
            let column = self.column_of(&answer?);
            let n = column.count_ones(..);
            if n == 0 || n == self.rows.len() || !seen.insert(column.clone()) {
                continue;
            }
            kept.push(self.concepts.len());
            self.concepts.push(c.clone());
            self.columns.push(column);
        }
        Ok(kept)
    }

    fn column_of(&self, members: &IndividualSet) -> FixedBitSet {
        let mut col = FixedBitSet::with_capacity(self.rows.len());
        for (i, id) in self.rows.iter().enumerate() {
            if members.contains(*id) {
                col.insert(i);
            }
        }
        col
    }

    /// How many rows each feature holds for.
    pub fn support(&self) -> Vec<usize> {
        self.columns.iter().map(|c| c.count_ones(..)).collect()
    }

    pub fn len(&self) -> usize {
        self.concepts.len()
    }

    pub fn is_empty(&self) -> bool {
        self.concepts.is_empty()
    }
}

/// At most `n` of `xs`, evenly spaced (all of them when there are few).
fn thin(xs: &[f64], n: usize) -> Vec<f64> {
    if xs.len() <= n {
        return xs.to_vec();
    }
    (0..n)
        .map(|i| xs[(i * 2 + 1) * xs.len() / (2 * n)])
        .collect()
}

#[cfg(test)]
mod tests {
    #[test]
    fn thinning_keeps_evenly_spaced_values() {
        assert_eq!(super::thin(&[1.0, 2.0], 4), vec![1.0, 2.0]);
        let xs: Vec<f64> = (0..100).map(f64::from).collect();
        let t = super::thin(&xs, 4);
        assert_eq!(t, vec![12.0, 37.0, 62.0, 87.0]);
    }
}

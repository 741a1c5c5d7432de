//! The three-valued feature matrix: for each feature concept and each training individual,
//! True (`K ⊨ F(a)`), False (`K ⊨ ¬F(a)`) or Unknown, read from the oracle; and its
//! encoding into the discrete observations each missing-data method works on.

use rayon::prelude::*;
use serde::Serialize;

use super::params::{FeatureSemantics, Missing};
use crate::concept::Concept;
use crate::oracle::{IndividualId, IndividualSet, MembershipOracle, OracleError};

/// One feature's value for one individual.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Truth {
    True,
    False,
    Unknown,
}

/// A discrete observation: `Some(value)` or missing.
pub type Obs = Option<u8>;

/// The values each method gives a variable: True = 1, False = 0; IM3 adds Unknown = 2.
pub fn arity(missing: Missing) -> usize {
    match missing {
        Missing::Im3 => 3,
        _ => 2,
    }
}

/// How `missing` sees a three-valued membership: ACA/EM/SEM/ROBUST keep Unknown missing,
/// IM3 makes it a third value, IM2 folds it into False ("Other").
pub fn encode(t: Truth, missing: Missing) -> Obs {
    match (t, missing) {
        (Truth::True, _) => Some(1),
        (Truth::False, _) => Some(0),
        (Truth::Unknown, Missing::Im3) => Some(2),
        (Truth::Unknown, Missing::Im2) => Some(0),
        (Truth::Unknown, _) => None,
    }
}

/// One concept's values over `individuals` (in that order), from one oracle call over
/// `among` (which must contain them: the cache is keyed by the example set).
pub fn column(
    oracle: &dyn MembershipOracle,
    concept: &Concept,
    individuals: &[IndividualId],
    among: &IndividualSet,
    semantics: FeatureSemantics,
) -> Result<Vec<Truth>, OracleError> {
    match semantics {
        FeatureSemantics::Open => {
            let t = oracle.truth(concept, among)?;
            Ok(individuals
                .iter()
                .map(|&a| {
                    if t.true_set.contains(a) {
                        Truth::True
                    } else if t.false_set.contains(a) {
                        Truth::False
                    } else {
                        Truth::Unknown
                    }
                })
                .collect())
        }
        FeatureSemantics::Closed => {
            let covered = oracle.covered(concept, among)?;
            Ok(individuals
                .iter()
                .map(|&a| {
                    if covered.contains(a) {
                        Truth::True
                    } else {
                        Truth::False
                    }
                })
                .collect())
        }
    }
}

/// Columns of many candidates at once (rayon; answers in input order). The cached oracle
/// composes ⊓/⊔/¬ locally, so only atoms and restrictions not seen yet become queries.
pub fn columns(
    oracle: &dyn MembershipOracle,
    concepts: &[Concept],
    individuals: &[IndividualId],
    among: &IndividualSet,
    semantics: FeatureSemantics,
) -> Vec<Result<Vec<Truth>, OracleError>> {
    concepts
        .par_iter()
        .map(|c| column(oracle, c, individuals, among, semantics))
        .collect()
}

/// Encodes a column for `missing`.
pub fn encode_column(values: &[Truth], missing: Missing) -> Vec<Obs> {
    values.iter().map(|&t| encode(t, missing)).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn encodings_per_method() {
        use Truth::*;
        let col = [True, False, Unknown];
        assert_eq!(encode_column(&col, Missing::Aca), [Some(1), Some(0), None]);
        assert_eq!(
            encode_column(&col, Missing::Im3),
            [Some(1), Some(0), Some(2)]
        );
        assert_eq!(
            encode_column(&col, Missing::Im2),
            [Some(1), Some(0), Some(0)]
        );
    }
}

/// The training data one network is fitted on: the target's value per individual
/// (1 = positive, 0 = negative) and one encoded column per feature.
#[derive(Clone, Debug, PartialEq)]
pub struct Dataset {
    pub class: Vec<u8>,
    pub columns: Vec<Vec<Obs>>,
    /// Values of each feature variable (2, or 3 for IM3).
    pub arity: Vec<usize>,
}

impl Dataset {
    pub fn len(&self) -> usize {
        self.class.len()
    }

    pub fn is_empty(&self) -> bool {
        self.class.is_empty()
    }

    pub fn features(&self) -> usize {
        self.columns.len()
    }

    /// Individual `n`'s observations, feature by feature.
    pub fn row(&self, n: usize) -> Vec<Obs> {
        self.columns.iter().map(|col| col[n]).collect()
    }

    /// The same individuals over a subset of the features (in `keep`'s order).
    pub fn select(&self, keep: &[usize]) -> Dataset {
        Dataset {
            class: self.class.clone(),
            columns: keep.iter().map(|&i| self.columns[i].clone()).collect(),
            arity: keep.iter().map(|&i| self.arity[i]).collect(),
        }
    }

    /// With one more feature.
    pub fn with(&self, column: Vec<Obs>, arity: usize) -> Dataset {
        let mut d = self.clone();
        d.columns.push(column);
        d.arity.push(arity);
        d
    }
}

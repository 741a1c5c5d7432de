//! The fitted classifier: feature concepts plus the network. It predicts `P(target | e)`
//! (and the posterior interval for ROBUST) for any individuals through an oracle, without
//! the learner.

use serde::{Serialize, Serializer};

use super::TbcError;
use super::features::{self, Truth};
use super::params::{FeatureSemantics, Missing, Structure};
use super::score::Fitted;
use crate::concept::{Concept, to_manchester_full};
use crate::oracle::{IndividualId, IndividualSet, MembershipOracle};

fn concepts_as_text<S: Serializer>(cs: &[Concept], s: S) -> Result<S::Ok, S::Error> {
    s.collect_seq(cs.iter().map(to_manchester_full))
}

fn id_as_number<S: Serializer>(id: &IndividualId, s: S) -> Result<S::Ok, S::Error> {
    s.serialize_u32(id.0)
}

/// A terminological Bayesian classifier.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct TbcModel {
    /// Feature concepts, in network order (serialised as Manchester syntax with full IRIs).
    #[serde(serialize_with = "concepts_as_text")]
    pub features: Vec<Concept>,
    pub structure: Structure,
    pub missing: Missing,
    pub semantics: FeatureSemantics,
    pub fitted: Fitted,
}

/// One individual's prediction.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct Prediction {
    #[serde(serialize_with = "id_as_number")]
    pub individual: IndividualId,
    /// `P(target | e)`; ROBUST: the midpoint of the interval.
    pub probability: f64,
    /// ROBUST only: `[lower, upper]`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub interval: Option<(f64, f64)>,
}

impl TbcModel {
    /// Each feature's three-valued membership for `individuals` (a column per feature).
    pub fn feature_values(
        &self,
        oracle: &dyn MembershipOracle,
        individuals: &IndividualSet,
        among: &IndividualSet,
    ) -> Result<Vec<Vec<Truth>>, TbcError> {
        let ids: Vec<IndividualId> = individuals.iter().collect();
        let among = among.union(individuals);
        features::columns(oracle, &self.features, &ids, &among, self.semantics)
            .into_iter()
            .map(|r| r.map_err(TbcError::from))
            .collect()
    }

    /// Predictions for every individual of `individuals`, in id order.
    pub fn predict(
        &self,
        oracle: &dyn MembershipOracle,
        individuals: &IndividualSet,
    ) -> Result<Vec<Prediction>, TbcError> {
        self.predict_within(oracle, individuals, individuals)
    }

    /// [`Self::predict`], asking the oracle over `among` (a superset; answers do not depend
    /// on it, only which cache is used).
    pub fn predict_within(
        &self,
        oracle: &dyn MembershipOracle,
        individuals: &IndividualSet,
        among: &IndividualSet,
    ) -> Result<Vec<Prediction>, TbcError> {
        let columns = self.feature_values(oracle, individuals, among)?;
        let encoded: Vec<Vec<features::Obs>> = columns
            .iter()
            .map(|col| features::encode_column(col, self.missing))
            .collect();
        Ok(individuals
            .iter()
            .enumerate()
            .map(|(n, id)| {
                let row: Vec<features::Obs> = encoded.iter().map(|col| col[n]).collect();
                Prediction {
                    individual: id,
                    probability: self.fitted.probability(&row),
                    interval: self.fitted.interval(&row),
                }
            })
            .collect())
    }
}

//! The fitted classifier: feature concepts plus the network. It predicts `P(target | e)`
//! (and the posterior interval for ROBUST) for any individuals through an oracle, without
//! the learner.

use serde::{Serialize, Serializer};

use super::TbcError;
use super::features::{self, Truth};
use super::params::{FeatureSemantics, Missing, Structure};
use super::score::Fitted;
use crate::concept::{Concept, Vocabulary, to_manchester, to_manchester_full};
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

    /// The network as text for people: the features, then each variable's parents and CPT
    /// rows (`P(F = true | …)`, and IM3's `unknown`), with the interval for ROBUST.
    pub fn describe(&self, vocabulary: &Vocabulary) -> String {
        let net = &self.fitted.network;
        let shape = &net.shape;
        let names: Vec<String> = self
            .features
            .iter()
            .map(|c| to_manchester(c, vocabulary))
            .collect();
        let value = |k: usize, x: usize| match (k, x) {
            (_, 0) => "false",
            (_, 1) => "true",
            _ => "unknown",
        };
        let mut out = format!(
            "{:?} network, {:?} missing-value handling, {} feature(s)\nP(target) = {:.4}\n",
            self.structure,
            self.missing,
            names.len(),
            net.prior[1]
        );
        for (i, name) in names.iter().enumerate() {
            let k = shape.arity[i];
            let parent = shape.parent[i];
            out.push_str(&format!("F{} = {name}\n", i + 1));
            for c in 0..2 {
                for y in 0..shape.parent_arity(i) {
                    let given = match parent {
                        None => format!("target={}", value(2, c)),
                        Some(p) => format!("target={}, F{}={}", value(2, c), p + 1, value(k, y)),
                    };
                    for x in 1..k {
                        let cell = shape.cell(i, c, y, x);
                        out.push_str(&format!(
                            "  P(F{}={} | {given}) = {:.4}",
                            i + 1,
                            value(k, x),
                            net.cpt[i][cell]
                        ));
                        if let Some(iv) = &self.fitted.intervals {
                            out.push_str(&format!(
                                " in [{:.4}, {:.4}]",
                                iv.lower[i][cell], iv.upper[i][cell]
                            ));
                        }
                        out.push('\n');
                    }
                }
            }
        }
        out
    }
}

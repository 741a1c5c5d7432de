//! The fitted classifier: feature concepts plus the network. It predicts `P(target | e)`
//! (and the posterior interval for ROBUST) for any individuals through an oracle, without
//! the learner.

use serde::{Deserialize, Serialize, Serializer};

use super::features::{self, Truth};
use super::params::{FeatureSemantics, Missing, Structure};
use super::score::Fitted;
use crate::concept::{Concept, Vocabulary, normalize, parse, to_manchester, to_manchester_full};
use crate::learn::document::ModelLoader;
use crate::learn::{LearnError, Model};
use crate::oracle::{IndividualId, IndividualSet, MembershipOracle};

fn concepts_as_text<S: Serializer>(cs: &[Concept], s: S) -> Result<S::Ok, S::Error> {
    s.collect_seq(cs.iter().map(to_manchester_full))
}

/// The saved form: the same fields, features as Manchester text with full IRIs.
#[derive(Deserialize)]
struct Body {
    features: Vec<String>,
    structure: Structure,
    missing: Missing,
    semantics: FeatureSemantics,
    fitted: Fitted,
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

/// One individual's prediction (the generic [`crate::learn::Prediction`] carries the same
/// with the membership at probability ≥ ½).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Prediction {
    pub individual: IndividualId,
    /// `P(target | e)`; ROBUST: the midpoint of the interval.
    pub probability: f64,
    /// ROBUST only: `[lower, upper]`.
    pub interval: Option<(f64, f64)>,
}

impl TbcModel {
    /// Each feature's three-valued membership for `individuals` (a column per feature).
    pub fn feature_values(
        &self,
        oracle: &dyn MembershipOracle,
        individuals: &IndividualSet,
        among: &IndividualSet,
    ) -> Result<Vec<Vec<Truth>>, LearnError> {
        let ids: Vec<IndividualId> = individuals.iter().collect();
        let among = among.union(individuals);
        features::columns(oracle, &self.features, &ids, &among, self.semantics)
            .into_iter()
            .map(|r| r.map_err(LearnError::from))
            .collect()
    }

    /// Predictions for every individual of `individuals`, in id order.
    pub fn predict(
        &self,
        oracle: &dyn MembershipOracle,
        individuals: &IndividualSet,
    ) -> Result<Vec<Prediction>, LearnError> {
        self.predict_within(oracle, individuals, individuals)
    }

    /// [`Self::predict`], asking the oracle over `among` (a superset; answers do not depend
    /// on it, only which cache is used).
    pub fn predict_within(
        &self,
        oracle: &dyn MembershipOracle,
        individuals: &IndividualSet,
        among: &IndividualSet,
    ) -> Result<Vec<Prediction>, LearnError> {
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

impl TbcModel {
    fn from_body(body: &serde_json::Value, vocabulary: &Vocabulary) -> Result<Self, LearnError> {
        let bad = |m: String| LearnError::ModelFormat(m);
        let b: Body =
            serde_json::from_value(body.clone()).map_err(|e| bad(format!("tbc model: {e}")))?;
        let features = b
            .features
            .iter()
            .map(|t| {
                parse(t, vocabulary)
                    .map(|c| normalize(&c))
                    .map_err(|e| bad(format!("tbc model: feature `{t}`: {e}")))
            })
            .collect::<Result<Vec<_>, _>>()?;
        let shape = &b.fitted.network.shape;
        if shape.features() != features.len() || b.fitted.network.cpt.len() != features.len() {
            return Err(bad(format!(
                "tbc model: {} features but a network over {}",
                features.len(),
                shape.features()
            )));
        }
        for i in 0..shape.features() {
            if b.fitted.network.cpt[i].len() != shape.cpt_len(i)
                || shape.parent[i].is_some_and(|p| p >= shape.features())
            {
                return Err(bad(format!(
                    "tbc model: the CPT of feature {} is malformed",
                    i + 1
                )));
            }
        }
        Ok(TbcModel {
            features,
            structure: b.structure,
            missing: b.missing,
            semantics: b.semantics,
            fitted: b.fitted,
        })
    }
}

impl Model for TbcModel {
    fn algorithm(&self) -> &'static str {
        "tbc"
    }

    fn concept(&self) -> Option<&Concept> {
        None
    }

    fn describe(&self, vocabulary: &Vocabulary) -> String {
        TbcModel::describe(self, vocabulary)
    }

    fn predict_within(
        &self,
        oracle: &dyn MembershipOracle,
        individuals: &IndividualSet,
        among: &IndividualSet,
    ) -> Result<Vec<crate::learn::Prediction>, LearnError> {
        Ok(TbcModel::predict_within(self, oracle, individuals, among)?
            .into_iter()
            .map(|p| crate::learn::Prediction {
                probability: Some(p.probability),
                interval: p.interval,
                ..crate::learn::Prediction::member(p.individual, p.probability >= 0.5)
            })
            .collect())
    }

    fn is_scored(&self) -> bool {
        true
    }

    fn body(&self) -> serde_json::Value {
        serde_json::to_value(self).unwrap_or_default()
    }
}

/// Reads TBC's model body.
pub(crate) struct TbcModelLoader;

impl ModelLoader for TbcModelLoader {
    fn algorithm(&self) -> &'static str {
        "tbc"
    }

    fn load(
        &self,
        body: &serde_json::Value,
        vocabulary: &Vocabulary,
    ) -> Result<Box<dyn Model>, LearnError> {
        Ok(Box::new(TbcModel::from_body(body, vocabulary)?))
    }
}

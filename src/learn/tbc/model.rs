//! The fitted classifier: feature concepts plus the network. It predicts `P(target | e)`
//! (and the posterior interval for ROBUST) for any individuals through an oracle, without
//! the learner.

use serde::{Deserialize, Serialize, Serializer};

use super::features::{self, Truth};
use super::params::{FeatureSemantics, Missing, Structure, semantics_of};
use super::score::Fitted;
use crate::concept::{Concept, Vocabulary, normalize, parse, to_manchester, to_manchester_full};
use crate::learn::{LearnError, Model, ModelLoader, body_json};
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
pub struct TbcPrediction {
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
    ) -> Result<Vec<TbcPrediction>, LearnError> {
        self.predict_within(oracle, individuals, individuals)
    }

    /// [`Self::predict`], asking the oracle over `among` (a superset; answers do not depend
    /// on it, only which cache is used).
    pub fn predict_within(
        &self,
        oracle: &dyn MembershipOracle,
        individuals: &IndividualSet,
        among: &IndividualSet,
    ) -> Result<Vec<TbcPrediction>, LearnError> {
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
                TbcPrediction {
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
        validate(&b, features.len()).map_err(|m| bad(format!("tbc model: {m}")))?;
        Ok(TbcModel {
            features,
            structure: b.structure,
            missing: b.missing,
            semantics: b.semantics,
            fitted: b.fitted,
        })
    }
}

/// Checks that a loaded body describes a network the predictor can evaluate without
/// indexing out of bounds or producing non-probabilities: one arity and one parent per
/// feature, arities fixed by the missing-value handling, parents that exist, CPTs (and
/// ROBUST's intervals, naive only) of the right sizes, every number a probability.
fn validate(b: &Body, features: usize) -> Result<(), String> {
    let net = &b.fitted.network;
    let shape = &net.shape;
    if shape.arity.len() != features || shape.parent.len() != features || net.cpt.len() != features
    {
        return Err(format!(
            "{features} features but a network with {} arities, {} parents and {} CPTs",
            shape.arity.len(),
            shape.parent.len(),
            net.cpt.len()
        ));
    }
    let k = features::arity(b.missing);
    let probability = |x: f64| x.is_finite() && (0.0..=1.0).contains(&x);
    if !net.prior.iter().all(|&p| probability(p)) {
        return Err(format!(
            "the prior {:?} is not a pair of probabilities",
            net.prior
        ));
    }
    for i in 0..features {
        let n = i + 1;
        if shape.arity[i] != k {
            return Err(format!(
                "feature {n} has arity {} but {:?} missing-value handling needs {k}",
                shape.arity[i], b.missing
            ));
        }
        if let Some(p) = shape.parent[i]
            && (p >= features || p == i)
        {
            return Err(format!(
                "feature {n} has parent {p}, which is not another feature"
            ));
        }
        if net.cpt[i].len() != shape.cpt_len(i) {
            return Err(format!(
                "the CPT of feature {n} has {} cells, not {}",
                net.cpt[i].len(),
                shape.cpt_len(i)
            ));
        }
        if !net.cpt[i].iter().all(|&x| probability(x)) {
            return Err(format!(
                "the CPT of feature {n} holds a value that is not a probability"
            ));
        }
    }
    if let Some(iv) = &b.fitted.intervals {
        if shape.parent.iter().any(Option::is_some) {
            return Err("interval CPTs (ROBUST) need a naive network".to_string());
        }
        if iv.lower.len() != features || iv.upper.len() != features {
            return Err(format!(
                "{features} features but {} lower and {} upper interval CPTs",
                iv.lower.len(),
                iv.upper.len()
            ));
        }
        for i in 0..features {
            let (lo, hi) = (&iv.lower[i], &iv.upper[i]);
            if lo.len() != 2 * k || hi.len() != 2 * k {
                return Err(format!(
                    "the interval CPT of feature {} has {} and {} cells, not {}",
                    i + 1,
                    lo.len(),
                    hi.len(),
                    2 * k
                ));
            }
            if !lo
                .iter()
                .zip(hi)
                .all(|(&l, &h)| probability(l) && probability(h) && l <= h)
            {
                return Err(format!(
                    "the interval CPT of feature {} holds a bound that is not a probability \
                     (or a lower bound above its upper bound)",
                    i + 1
                ));
            }
        }
    }
    Ok(())
}

impl Model for TbcModel {
    fn algorithm(&self) -> &'static str {
        "tbc"
    }

    fn concept(&self) -> Option<&Concept> {
        None
    }

    /// Under closed-world features, an individual outside every feature has them all
    /// false: when the network then says "not a member", the features' union is the
    /// support. Three-valued features would be unknown there, not false: no support.
    fn support(&self, threshold: Option<f64>) -> Option<Concept> {
        if self.semantics != FeatureSemantics::Closed {
            return None;
        }
        let none_fires: Vec<features::Obs> = self
            .features
            .iter()
            .map(|_| features::encode(Truth::False, self.missing))
            .collect();
        (self.fitted.probability(&none_fires) < threshold.unwrap_or(0.5))
            .then(|| normalize(&Concept::Or(self.features.clone())))
    }

    fn concepts_asked(&self) -> Option<Vec<Concept>> {
        Some(self.features.clone())
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

    fn semantics(&self) -> crate::oracle::Semantics {
        semantics_of(self.semantics)
    }

    /// Only the semantics it was trained with: the network's probabilities are those of
    /// features read under it (unknown memberships are part of the data under open world).
    fn with_semantics(
        &self,
        semantics: crate::oracle::Semantics,
    ) -> Result<Box<dyn Model>, LearnError> {
        let trained = Model::semantics(self);
        if semantics != trained {
            return Err(LearnError::SemanticsMismatch {
                algorithm: "tbc",
                trained: crate::learn::semantics_name(trained),
                requested: crate::learn::semantics_name(semantics),
            });
        }
        Ok(Box::new(self.clone()))
    }

    fn body(&self) -> Result<serde_json::Value, LearnError> {
        let net = &self.fitted.network;
        let intervals = self.fitted.intervals.iter();
        let numbers = net
            .prior
            .iter()
            .chain(net.cpt.iter().flatten())
            .chain(intervals.flat_map(|iv| iv.lower.iter().chain(&iv.upper).flatten()))
            .copied();
        body_json(self, "the tbc model", numbers)
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::learn::document::{from_json, to_json};
    use crate::learn::tbc::network::{Network, Shape};
    use crate::learn::tbc::params::{Missing, Structure};
    use crate::oracle::Signature;

    fn one_feature(cpt: Vec<f64>) -> TbcModel {
        TbcModel {
            features: vec![Concept::Top],
            structure: Structure::Naive,
            missing: Missing::Aca,
            semantics: FeatureSemantics::Open,
            fitted: Fitted {
                network: Network {
                    shape: Shape::naive(vec![2]),
                    prior: [0.5, 0.5],
                    cpt: vec![cpt],
                },
                intervals: None,
            },
        }
    }

    #[test]
    fn saving_refuses_non_finite_numbers_instead_of_writing_null() {
        let sig = Signature::default();
        let good = one_feature(vec![0.5, 0.5, 0.25, 0.75]);
        let text = to_json(&good, serde_json::json!({}), None, &sig).unwrap();
        let loaded = from_json(&text, &sig).unwrap();
        assert_eq!(loaded.model.body().unwrap(), good.body().unwrap());
        for x in [f64::NAN, f64::INFINITY] {
            let bad = one_feature(vec![0.5, 0.5, x, 0.75]);
            match to_json(&bad, serde_json::json!({}), None, &sig) {
                Err(LearnError::ModelWrite(m)) => assert!(m.contains("non-finite"), "{m}"),
                other => panic!("{x}: {other:?}"),
            }
        }
    }
}

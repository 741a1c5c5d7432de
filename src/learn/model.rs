//! CELOE's fitted model: the best class expressions with their training counts. It
//! predicts through any oracle, without the learner that found it: an individual is a
//! member when the best solution covers it, and its score is the training quality of the
//! best solution that covers it (0 when none does), so the whole list ranks individuals.

use serde::{Deserialize, Serialize, Serializer};

use super::{
    Examples, LearnError, Model, ModelLoader, Prediction, QualityMeasure, body_json, semantics_name,
};
use crate::concept::{Concept, Vocabulary, parse, to_dl, to_manchester, to_manchester_full};
use crate::eval::Confusion;
use crate::oracle::{IndividualSet, MembershipOracle, OracleError, Semantics};

/// Serialises a concept as Manchester syntax with full IRIs (for saved models).
pub(crate) fn concept_as_text<S: Serializer>(c: &Concept, s: S) -> Result<S::Ok, S::Error> {
    s.serialize_str(&to_manchester_full(c))
}

/// One learned class expression and how it did on the training examples.
#[derive(Clone, Debug, PartialEq)]
pub struct Solution {
    pub concept: Concept,
    pub confusion: Confusion,
    /// The training quality under the model's measure.
    pub quality: f64,
}

/// The best solutions of a run, best first.
#[derive(Clone, Debug, PartialEq)]
pub struct ConceptModel {
    pub quality_measure: QualityMeasure,
    pub semantics: Semantics,
    pub solutions: Vec<Solution>,
}

/// A solution in a saved model.
#[derive(Serialize, Deserialize)]
struct SolutionBody {
    concept: String,
    tp: usize,
    fp: usize,
    tn: usize,
    #[serde(rename = "fn")]
    fn_: usize,
    quality: f64,
}

#[derive(Serialize, Deserialize)]
struct Body {
    quality: String,
    semantics: String,
    solutions: Vec<SolutionBody>,
}

impl ConceptModel {
    pub fn best(&self) -> Option<&Solution> {
        self.solutions.first()
    }

    /// The individuals of `among` the best solution classifies as members (none without a
    /// solution).
    pub fn members<O: MembershipOracle + ?Sized>(
        &self,
        oracle: &O,
        among: &IndividualSet,
    ) -> Result<IndividualSet, OracleError> {
        match self.best() {
            Some(s) => oracle.members(&s.concept, among, self.semantics),
            None => Ok(IndividualSet::empty(among.universe())),
        }
    }

    /// The best solution's counts on other examples (a test fold).
    pub fn confusion_on<O: MembershipOracle + ?Sized>(
        &self,
        oracle: &O,
        examples: &Examples,
    ) -> Result<Confusion, OracleError> {
        Ok(examples.confusion(&self.members(oracle, examples.all())?))
    }

    pub(crate) fn from_body(
        body: &serde_json::Value,
        vocabulary: &Vocabulary,
    ) -> Result<Self, LearnError> {
        let bad = |m: String| LearnError::ModelFormat(m);
        let b: Body =
            serde_json::from_value(body.clone()).map_err(|e| bad(format!("celoe model: {e}")))?;
        let quality_measure = match b.quality.as_str() {
            "f1" => QualityMeasure::F1,
            "accuracy" => QualityMeasure::Accuracy,
            q => return Err(bad(format!("celoe model: unknown quality {q:?}"))),
        };
        let semantics = match b.semantics.as_str() {
            "closed" => Semantics::Closed,
            "open" => Semantics::Open,
            s => return Err(bad(format!("celoe model: unknown semantics {s:?}"))),
        };
        let solutions = b
            .solutions
            .into_iter()
            .map(|s| {
                let concept = parse(&s.concept, vocabulary)
                    .map_err(|e| bad(format!("celoe model: concept `{}`: {e}", s.concept)))?;
                Ok(Solution {
                    concept: crate::concept::normalize(&concept),
                    confusion: Confusion {
                        tp: s.tp,
                        fp: s.fp,
                        tn: s.tn,
                        fn_: s.fn_,
                    },
                    quality: s.quality,
                })
            })
            .collect::<Result<_, LearnError>>()?;
        Ok(ConceptModel {
            quality_measure,
            semantics,
            solutions,
        })
    }
}

impl Model for ConceptModel {
    fn algorithm(&self) -> &'static str {
        "celoe"
    }

    /// By its own decision, the best solution itself (closed world; entailed members,
    /// `T(C)`, have the same seeds), `⊥` without one. With a threshold, an individual's
    /// score is the best quality among the solutions covering it (0 if none): the union of
    /// the solutions reaching the threshold, or no support when 0 reaches it.
    fn support(&self, threshold: Option<f64>) -> Option<Concept> {
        let Some(t) = threshold else {
            return Some(self.best().map_or(Concept::Bottom, |s| s.concept.clone()));
        };
        if t <= 0.0 {
            return None;
        }
        let reaching: Vec<Concept> = self
            .solutions
            .iter()
            .filter(|s| s.quality >= t)
            .map(|s| s.concept.clone())
            .collect();
        Some(match reaching.len() {
            0 => Concept::Bottom,
            1 => reaching.into_iter().next().unwrap_or(Concept::Bottom),
            _ => crate::concept::normalize(&Concept::Or(reaching)),
        })
    }

    fn concept(&self) -> Option<&Concept> {
        self.best().map(|s| &s.concept)
    }

    /// Every solution: each one's quality is a score.
    fn concepts_asked(&self) -> Option<Vec<Concept>> {
        Some(self.solutions.iter().map(|s| s.concept.clone()).collect())
    }

    fn describe(&self, vocabulary: &Vocabulary) -> String {
        match self.best() {
            Some(s) => format!(
                "{}\nDL: {}",
                to_manchester(&s.concept, vocabulary),
                to_dl(&s.concept, vocabulary)
            ),
            None => "no solution (every individual is predicted a non-member)".to_owned(),
        }
    }

    fn predict_within(
        &self,
        oracle: &dyn MembershipOracle,
        individuals: &IndividualSet,
        among: &IndividualSet,
    ) -> Result<Vec<Prediction>, LearnError> {
        let among = among.union(individuals);
        let mut score = vec![0.0f64; individuals.universe()];
        let mut member = IndividualSet::empty(individuals.universe());
        for (rank, s) in self.solutions.iter().enumerate() {
            let covered = oracle
                .members(&s.concept, &among, self.semantics)?
                .intersection(individuals);
            if rank == 0 {
                member = covered.clone();
            }
            for id in covered.iter() {
                score[id.index()] = score[id.index()].max(s.quality);
            }
        }
        Ok(individuals
            .iter()
            .map(|id| Prediction {
                score: Some(score[id.index()]),
                ..Prediction::member(id, member.contains(id))
            })
            .collect())
    }

    fn is_scored(&self) -> bool {
        true
    }

    fn semantics(&self) -> Semantics {
        self.semantics
    }

    /// Any semantics: the solutions are class expressions, meaningful under either.
    fn with_semantics(&self, semantics: Semantics) -> Result<Box<dyn Model>, LearnError> {
        Ok(Box::new(ConceptModel {
            semantics,
            ..self.clone()
        }))
    }

    fn body(&self) -> Result<serde_json::Value, LearnError> {
        let body = Body {
            quality: self.quality_measure.name().to_owned(),
            semantics: semantics_name(self.semantics).to_owned(),
            solutions: self
                .solutions
                .iter()
                .map(|s| SolutionBody {
                    concept: to_manchester_full(&s.concept),
                    tp: s.confusion.tp,
                    fp: s.confusion.fp,
                    tn: s.confusion.tn,
                    fn_: s.confusion.fn_,
                    quality: s.quality,
                })
                .collect(),
        };
        let qualities: Vec<f64> = self.solutions.iter().map(|s| s.quality).collect();
        body_json(&body, "the celoe model", qualities)
    }

    /// The best solution's training confusion and quality.
    fn training_measures(&self) -> Option<serde_json::Value> {
        let best = self.best()?;
        let c = &best.confusion;
        Some(serde_json::json!({
            "measure": self.quality_measure.name(),
            "quality": best.quality,
            "tp": c.tp, "fp": c.fp, "tn": c.tn, "fn": c.fn_,
        }))
    }
}

/// Reads CELOE's model body.
pub(crate) struct ConceptModelLoader;

impl ModelLoader for ConceptModelLoader {
    fn algorithm(&self) -> &'static str {
        "celoe"
    }

    fn load(
        &self,
        body: &serde_json::Value,
        vocabulary: &Vocabulary,
    ) -> Result<Box<dyn Model>, LearnError> {
        Ok(Box::new(ConceptModel::from_body(body, vocabulary)?))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn solution(class: &str, quality: f64) -> Solution {
        Solution {
            concept: Concept::class(class),
            confusion: Confusion::default(),
            quality,
        }
    }

    #[test]
    fn the_support_with_a_threshold_is_every_solution_reaching_it() {
        let model = ConceptModel {
            quality_measure: QualityMeasure::F1,
            semantics: Semantics::Closed,
            solutions: vec![solution("http://e/A", 0.9), solution("http://e/B", 0.6)],
        };
        let a = Concept::class("http://e/A");
        let b = Concept::class("http://e/B");
        assert_eq!(model.support(None), Some(a.clone()));
        assert_eq!(model.support(Some(0.8)), Some(a.clone()));
        assert_eq!(
            model.support(Some(0.5)),
            Some(crate::concept::normalize(&Concept::Or(vec![a, b])))
        );
        assert_eq!(model.support(Some(0.95)), Some(Concept::Bottom));
        // Score 0 reaches a threshold of 0: everyone is a member, no support.
        assert_eq!(model.support(Some(0.0)), None);
    }
}

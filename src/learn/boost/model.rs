//! The fitted Fuzzy OWL-Boost model: weighted rounds, each a set of fuzzy GCIs `Cᵢⱼ ⊑ WLᵢ`.
//!
//! For an individual a, round i's degree is `WLᵢ(a) = maxⱼ Cᵢⱼ(a)` and its vote
//! `αᵢ·t(WLᵢ(a))` (t = −1 when at most τ), or with confidence-rated rounds
//! `βᵢ + αᵢ·WLᵢ(a)` (β the uncovered block's vote, see [`super::adaboost`]). The **score**
//! is Real AdaBoost's `f(a)`, the sum of the votes; a is a positive instance when
//! `f(a) > 0`, and then to **degree**
//! `h(a) = Σ α̂ᵢ·WLᵢ(a)` with `α̂ᵢ = αᵢ / Σ αₖ`: the value of the Fuzzy OWL 2
//! weighted-sum concept `(α̂₁ WL₁ + … + α̂ₙ WLₙ) ⊑ T` the model prints, which any Fuzzy
//! OWL 2 reasoner computes. Otherwise the degree is 0 (a non-positive instance).

use std::fmt::Write as _;

use serde::{Deserialize, Serialize};

use super::adaboost::transform;
use super::concept::{ConceptBody, FuzzyConcept};
use super::degrees::DegreeEvaluator;
use super::tnorm::TNorm;
use crate::concept::{Concept, Vocabulary};
use crate::learn::{LearnError, Model, ModelLoader, Prediction, body_json};
use crate::oracle::{IndividualSet, MembershipOracle, Semantics};

/// One boosting round: its weight, its weak hypothesis's axioms and, for a
/// confidence-rated round, the vote β of what it leaves uncovered.
#[derive(Clone, Debug, PartialEq)]
pub struct Round {
    pub alpha: f64,
    pub axioms: Vec<FuzzyConcept>,
    /// `Some(β)`: the round votes `β + α·WL(a)`; `None`: the paper's `α·t(WL(a))`.
    pub base: Option<f64>,
}

impl Round {
    /// The round's vote for an individual it covers to degree `bed` (`tau`: τ).
    pub fn vote(&self, bed: f64, tau: f64) -> f64 {
        match self.base {
            None => self.alpha * transform(bed, tau),
            Some(base) => base + self.alpha * if bed > tau { bed } else { 0.0 },
        }
    }
}

#[derive(Clone, Debug, PartialEq)]
pub struct BoostModel {
    /// `owl-boost` or `wfoil-dl` (the weak learner alone: one round of weight 1).
    pub algorithm: &'static str,
    pub tnorm: TNorm,
    /// τ: a round votes for a when `WLᵢ(a) > τ` (see [`super::adaboost`]).
    pub cover_degree: f64,
    pub rounds: Vec<Round>,
}

/// One individual's prediction parts.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Graded {
    pub score: f64,
    pub degree: f64,
}

impl BoostModel {
    /// Folds each round whose axioms repeat an earlier round's into that round: both vote
    /// on the same `WL(a)`, so their α (and β) add and every score and degree stays the
    /// same (single-axiom rounds come back to the same few rules as boosting reweights).
    /// Returns the index, among the rounds before, of each round kept.
    pub fn merge_repeats(&mut self) -> Vec<usize> {
        let mut kept: Vec<usize> = Vec::new();
        let mut merged: Vec<Round> = Vec::new();
        for (i, r) in self.rounds.drain(..).enumerate() {
            // Only rounds of the same vote form add up: a paper-form round (no β) votes −α
            // when uncovered, a confidence-rated one β.
            if let Some(first) = merged
                .iter_mut()
                .find(|m| m.axioms == r.axioms && m.base.is_some() == r.base.is_some())
            {
                first.alpha += r.alpha;
                first.base = first.base.zip(r.base).map(|(a, b)| a + b);
            } else {
                kept.push(i);
                merged.push(r);
            }
        }
        self.rounds = merged;
        kept
    }

    /// Score and degree from the rounds' degrees `WLᵢ(a)`.
    pub fn combine(&self, round_degrees: &[f64]) -> Graded {
        let total: f64 = self.rounds.iter().map(|r| r.alpha).sum();
        let score: f64 = self
            .rounds
            .iter()
            .zip(round_degrees)
            .map(|(r, d)| r.vote(*d, self.cover_degree))
            .sum();
        let degree = if score > 0.0 && total > 0.0 {
            let sum: f64 = self
                .rounds
                .iter()
                .zip(round_degrees)
                .map(|(r, d)| r.alpha / total * d)
                .sum();
            sum.clamp(0.0, 1.0)
        } else {
            0.0
        };
        Graded { score, degree }
    }

    /// Per individual of `individuals` (id order), its score and degree, asking the oracle
    /// over `among`.
    pub fn graded(
        &self,
        oracle: &dyn MembershipOracle,
        individuals: &IndividualSet,
        among: &IndividualSet,
    ) -> Result<Vec<Graded>, LearnError> {
        let eval = DegreeEvaluator::new(oracle, self.tnorm);
        let among = among.union(individuals);
        let among = &among;
        let n = individuals.len();
        let mut per_round = vec![vec![0.0_f64; self.rounds.len()]; n];
        for (i, round) in self.rounds.iter().enumerate() {
            for axiom in &round.axioms {
                let d = eval.degrees_within(axiom, individuals, among)?;
                for (k, (_, x)) in d.iter().enumerate() {
                    per_round[k][i] = per_round[k][i].max(*x);
                }
            }
        }
        Ok(per_round.iter().map(|d| self.combine(d)).collect())
    }

    /// Plain text: the weighted sum and each round's axioms.
    pub fn text(&self, vocabulary: &Vocabulary) -> String {
        let total: f64 = self.rounds.iter().map(|r| r.alpha).sum();
        let mut out = String::new();
        let terms: Vec<String> = (1..=self.rounds.len())
            .zip(&self.rounds)
            .map(|(i, r)| format!("{:.4}·WL{i}", r.alpha / total.max(f64::MIN_POSITIVE)))
            .collect();
        let _ = writeln!(
            out,
            "{} model ({} t-norm): T ⊒ {}",
            self.algorithm,
            self.tnorm.name(),
            if terms.is_empty() {
                "⊥ (no round)".to_owned()
            } else {
                terms.join(" + ")
            }
        );
        let bases: f64 = self.rounds.iter().filter_map(|r| r.base).sum();
        if self.rounds.iter().any(|r| r.base.is_some()) {
            let _ = writeln!(
                out,
                "  positive when Σ α·WL > {:.4} (the uncovered blocks' votes, negated; a WL ≤ τ counts as 0)",
                -bases
            );
        }
        for (i, r) in self.rounds.iter().enumerate() {
            let _ = match r.base {
                None => writeln!(out, "  WL{} (α = {:.4}):", i + 1, r.alpha),
                Some(b) => writeln!(out, "  WL{} (α = {:.4}, β = {:.4}):", i + 1, r.alpha, b),
            };
            for a in &r.axioms {
                let _ = writeln!(out, "    {} ⊑ WL{}", a.display(vocabulary), i + 1);
            }
        }
        out
    }

    /// The model as Fuzzy OWL 2 (functional syntax with `fuzzyLabel` annotations): the
    /// fuzzy datatypes, each `Cᵢⱼ ⊑ WLᵢ`, and `WL` as the weighted-sum concept
    /// `(α̂₁ WL₁ + … + α̂ₙ WLₙ)` with `WL ⊑ T` (`target` is T's IRI).
    pub fn fuzzy_owl2(&self, target: &str) -> String {
        let total: f64 = self.rounds.iter().map(|r| r.alpha).sum();
        let base = target.trim_end_matches(['#', '/']);
        let wl = |i: usize| format!("<{base}_WL{i}>");
        let mut out = String::new();
        let _ = writeln!(out, "Prefix(fdl:=<http://www.straccialab.org/fuzzyowl2#>)");
        let _ = writeln!(out, "Ontology(");
        let _ = writeln!(
            out,
            "  Annotation(rdfs:label \"<fuzzyOwl2 fuzzyType=\\\"ontology\\\"><FuzzyLogic logic=\\\"{}\\\" /></fuzzyOwl2>\")",
            match self.tnorm {
                TNorm::Goedel => "zadeh",
                TNorm::Lukasiewicz => "lukasiewicz",
            }
        );
        let mut datatypes = std::collections::BTreeMap::new();
        for r in &self.rounds {
            for a in &r.axioms {
                collect_datatypes(a, &mut datatypes);
            }
        }
        for (name, shape) in &datatypes {
            let _ = writeln!(out, "  Declaration(Datatype(<{name}>))");
            let _ = writeln!(
                out,
                "  AnnotationAssertion(rdfs:label <{name}> \"<fuzzyOwl2 fuzzyType=\\\"datatype\\\">{}</fuzzyOwl2>\")",
                shape.replace('"', "\\\"")
            );
        }
        for (i, r) in self.rounds.iter().enumerate() {
            let _ = writeln!(out, "  Declaration(Class({}))", wl(i + 1));
            for a in &r.axioms {
                let _ = writeln!(out, "  SubClassOf({} {})", fss(a), wl(i + 1));
            }
        }
        let weighted: String = self
            .rounds
            .iter()
            .enumerate()
            .map(|(i, r)| {
                format!(
                    "<Concept type=\\\"weighted\\\" value=\\\"{}\\\" base=\\\"{base}_WL{}\\\" />",
                    r.alpha / total.max(f64::MIN_POSITIVE),
                    i + 1
                )
            })
            .collect();
        let _ = writeln!(out, "  Declaration(Class(<{base}_WL>))");
        let _ = writeln!(
            out,
            "  AnnotationAssertion(rdfs:label <{base}_WL> \"<fuzzyOwl2 fuzzyType=\\\"concept\\\"><Concept type=\\\"weightedSum\\\">{weighted}</Concept></fuzzyOwl2>\")"
        );
        let _ = writeln!(out, "  SubClassOf(<{base}_WL> <{target}>)");
        out.push_str(")\n");
        out
    }
}

/// The datatype name of a fuzzy set in Fuzzy OWL 2 output: `<property>_<set>`.
fn datatype_name(property: &str, set: &str) -> String {
    format!("{property}_{set}")
}

fn collect_datatypes(c: &FuzzyConcept, out: &mut std::collections::BTreeMap<String, String>) {
    match c {
        FuzzyConcept::Fuzzy { property, set } => {
            out.insert(
                datatype_name(property.as_str(), &set.name),
                set.shape.fuzzy_owl2(),
            );
        }
        FuzzyConcept::And(ps) => ps.iter().for_each(|p| collect_datatypes(p, out)),
        FuzzyConcept::Some { filler, .. } => collect_datatypes(filler, out),
        _ => {}
    }
}

/// OWL functional syntax of a fuzzy concept (crisp parts through the DL printer's full
/// form are not functional syntax, so they are written here).
fn fss(c: &FuzzyConcept) -> String {
    match c {
        FuzzyConcept::Top => "owl:Thing".to_owned(),
        FuzzyConcept::Crisp(concept) => crisp_fss(concept),
        FuzzyConcept::Fuzzy { property, set } => format!(
            "DataSomeValuesFrom(<{}> <{}>)",
            property.as_str(),
            datatype_name(property.as_str(), &set.name)
        ),
        FuzzyConcept::And(ps) => format!(
            "ObjectIntersectionOf({})",
            ps.iter().map(fss).collect::<Vec<_>>().join(" ")
        ),
        FuzzyConcept::Some { role, filler } => {
            format!("ObjectSomeValuesFrom({} {})", role_fss(role), fss(filler))
        }
    }
}

fn role_fss(r: &crate::concept::Role) -> String {
    if r.inverse {
        format!("ObjectInverseOf(<{}>)", r.property.as_str())
    } else {
        format!("<{}>", r.property.as_str())
    }
}

fn crisp_fss(c: &Concept) -> String {
    use crate::concept::DataRange;
    match c {
        Concept::Top => "owl:Thing".to_owned(),
        Concept::Class(i) => format!("<{}>", i.as_str()),
        Concept::And(ps) => format!(
            "ObjectIntersectionOf({})",
            ps.iter().map(crisp_fss).collect::<Vec<_>>().join(" ")
        ),
        Concept::Some { role, filler } => {
            format!(
                "ObjectSomeValuesFrom({} {})",
                role_fss(role),
                crisp_fss(filler)
            )
        }
        Concept::HasValue { role, individual } => {
            format!(
                "ObjectHasValue({} <{}>)",
                role_fss(role),
                individual.as_str()
            )
        }
        Concept::Data {
            property,
            range: DataRange::Value(l),
        } => format!(
            "DataHasValue(<{}> \"{}\"^^<{}>)",
            property.as_str(),
            l.lexical,
            l.datatype.as_str()
        ),
        // The operator builds no other crisp constructor; any other is written in DL syntax
        // as a comment-like fallback so nothing is silently dropped.
        other => format!("/* {} */", crate::concept::to_dl_full(other)),
    }
}

impl Model for BoostModel {
    fn algorithm(&self) -> &'static str {
        self.algorithm
    }

    fn concept(&self) -> Option<&Concept> {
        None
    }

    fn describe(&self, vocabulary: &Vocabulary) -> String {
        self.text(vocabulary)
    }

    fn predict_within(
        &self,
        oracle: &dyn MembershipOracle,
        individuals: &IndividualSet,
        among: &IndividualSet,
    ) -> Result<Vec<Prediction>, LearnError> {
        let graded = self.graded(oracle, individuals, among)?;
        Ok(individuals
            .iter()
            .zip(graded)
            .map(|(id, g)| Prediction {
                score: Some(g.score),
                degree: Some(g.degree),
                ..Prediction::member(id, g.score > 0.0)
            })
            .collect())
    }

    fn is_scored(&self) -> bool {
        true
    }

    fn concepts_asked(&self) -> Option<Vec<Concept>> {
        Some(
            self.rounds
                .iter()
                .flat_map(|r| r.axioms.iter().map(FuzzyConcept::skeleton))
                .collect(),
        )
    }

    fn semantics(&self) -> Semantics {
        Semantics::Closed
    }

    fn with_semantics(&self, semantics: Semantics) -> Result<Box<dyn Model>, LearnError> {
        match semantics {
            Semantics::Closed => Ok(Box::new(self.clone())),
            Semantics::Open => Err(LearnError::SemanticsMismatch {
                algorithm: self.algorithm,
                trained: "closed",
                requested: "open",
            }),
        }
    }

    fn body(&self) -> Result<serde_json::Value, LearnError> {
        let body = Body {
            tnorm: self.tnorm,
            cover_degree: self.cover_degree,
            rounds: self
                .rounds
                .iter()
                .map(|r| RoundBody {
                    alpha: r.alpha,
                    base: r.base,
                    axioms: r.axioms.iter().map(FuzzyConcept::to_body).collect(),
                })
                .collect(),
        };
        let mut numbers: Vec<f64> = self.rounds.iter().map(|r| r.alpha).collect();
        numbers.extend(self.rounds.iter().filter_map(|r| r.base));
        numbers.push(self.cover_degree);
        for r in &self.rounds {
            for a in &r.axioms {
                shape_numbers(a, &mut numbers);
            }
        }
        body_json(&body, &format!("the {} model", self.algorithm), numbers)
    }
}

fn shape_numbers(c: &FuzzyConcept, out: &mut Vec<f64>) {
    match c {
        FuzzyConcept::Fuzzy { set, .. } => out.extend(set.shape.points()),
        FuzzyConcept::And(ps) => ps.iter().for_each(|p| shape_numbers(p, out)),
        FuzzyConcept::Some { filler, .. } => shape_numbers(filler, out),
        _ => {}
    }
}

#[derive(Serialize, Deserialize)]
struct Body {
    tnorm: TNorm,
    cover_degree: f64,
    rounds: Vec<RoundBody>,
}

#[derive(Serialize, Deserialize)]
struct RoundBody {
    alpha: f64,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    base: Option<f64>,
    axioms: Vec<ConceptBody>,
}

impl BoostModel {
    /// Reads a saved body back (`algorithm`: `owl-boost` or `wfoil-dl`).
    pub fn from_body(
        algorithm: &str,
        body: &serde_json::Value,
        vocabulary: &Vocabulary,
    ) -> Result<BoostModel, LearnError> {
        let algorithm = match algorithm {
            super::OWL_BOOST => super::OWL_BOOST,
            super::WFOIL_DL => super::WFOIL_DL,
            other => {
                return Err(LearnError::ModelFormat(format!(
                    "{other:?} is not a Fuzzy OWL-Boost algorithm"
                )));
            }
        };
        let b: Body = serde_json::from_value(body.clone())
            .map_err(|e| LearnError::ModelFormat(format!("the {algorithm} model body: {e}")))?;
        let rounds = b
            .rounds
            .iter()
            .enumerate()
            .map(|(i, r)| {
                if !r.alpha.is_finite() || r.base.is_some_and(|b| !b.is_finite()) {
                    return Err(LearnError::ModelFormat(format!(
                        "round {}: α and β must be finite numbers",
                        i + 1
                    )));
                }
                Ok(Round {
                    alpha: r.alpha,
                    base: r.base,
                    axioms: r
                        .axioms
                        .iter()
                        .map(|a| FuzzyConcept::from_body(a, vocabulary))
                        .collect::<Result<_, _>>()?,
                })
            })
            .collect::<Result<_, LearnError>>()?;
        if !(b.cover_degree.is_finite() && (0.0..1.0).contains(&b.cover_degree)) {
            return Err(LearnError::ModelFormat(format!(
                "cover_degree {} must lie in [0, 1)",
                b.cover_degree
            )));
        }
        Ok(BoostModel {
            algorithm,
            tnorm: b.tnorm,
            cover_degree: b.cover_degree,
            rounds,
        })
    }
}

fn load(
    algorithm: &'static str,
    body: &serde_json::Value,
    vocabulary: &Vocabulary,
) -> Result<Box<dyn Model>, LearnError> {
    Ok(Box::new(BoostModel::from_body(
        algorithm, body, vocabulary,
    )?))
}

/// Reads `owl-boost` model bodies.
pub(crate) struct BoostModelLoader;

impl ModelLoader for BoostModelLoader {
    fn algorithm(&self) -> &'static str {
        super::OWL_BOOST
    }

    fn load(
        &self,
        body: &serde_json::Value,
        vocabulary: &Vocabulary,
    ) -> Result<Box<dyn Model>, LearnError> {
        load(super::OWL_BOOST, body, vocabulary)
    }
}

/// Reads `wfoil-dl` model bodies.
pub(crate) struct WfoilModelLoader;

impl ModelLoader for WfoilModelLoader {
    fn algorithm(&self) -> &'static str {
        super::WFOIL_DL
    }

    fn load(
        &self,
        body: &serde_json::Value,
        vocabulary: &Vocabulary,
    ) -> Result<Box<dyn Model>, LearnError> {
        load(super::WFOIL_DL, body, vocabulary)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Rounds 1 and 3 learned the same axiom: merged, α 0.5 + 0.25 and β −0.5 − 0.25,
    /// with the same score and degree for every combination of the axioms' degrees.
    #[test]
    fn repeated_rounds_merge_into_the_first_without_changing_predictions() {
        let a = vec![FuzzyConcept::Crisp(Concept::Class(
            crate::concept::Iri::new("http://e/A"),
        ))];
        let b = vec![FuzzyConcept::Crisp(Concept::Class(
            crate::concept::Iri::new("http://e/B"),
        ))];
        let round = |alpha, base, axioms: &Vec<FuzzyConcept>| Round {
            alpha,
            base: Some(base),
            axioms: axioms.clone(),
        };
        let model = BoostModel {
            algorithm: super::super::OWL_BOOST,
            tnorm: TNorm::Goedel,
            cover_degree: 0.0,
            rounds: vec![
                round(0.5, -0.5, &a),
                round(1.0, -0.1, &b),
                round(0.25, -0.25, &a),
            ],
        };
        let mut merged = model.clone();
        assert_eq!(merged.merge_repeats(), [0, 1]);
        assert_eq!(
            merged.rounds,
            [round(0.75, -0.75, &a), round(1.0, -0.1, &b)]
        );
        for da in [0.0, 0.3, 1.0] {
            for db in [0.0, 0.6, 1.0] {
                let before = model.combine(&[da, db, da]);
                let after = merged.combine(&[da, db]);
                assert!((before.score - after.score).abs() < 1e-12, "{da} {db}");
                assert!((before.degree - after.degree).abs() < 1e-12, "{da} {db}");
            }
        }
    }

    /// A body saved before confidence-rated rounds (no `base`) loads as the paper's vote;
    /// a β that is not a finite number is refused, naming the round.
    #[test]
    fn rounds_without_base_vote_as_the_paper_and_bad_bases_are_refused() {
        let v = Vocabulary::new();
        let body = |round: serde_json::Value| serde_json::json!({"tnorm": "goedel", "cover_degree": 0.0, "rounds": [round]});
        let old = body(serde_json::json!({"alpha": 0.5, "axioms": [{"type": "top"}]}));
        let m = BoostModel::from_body(super::super::OWL_BOOST, &old, &v).unwrap();
        assert_eq!(m.rounds[0].base, None);
        assert_eq!(m.combine(&[0.0]).score, -0.5);
        let rated = body(serde_json::json!({"alpha": 0.5, "base": -0.25, "axioms": []}));
        let m = BoostModel::from_body(super::super::OWL_BOOST, &rated, &v).unwrap();
        assert_eq!(m.combine(&[1.0]).score, 0.25);
        assert_eq!(m.combine(&[0.0]).score, -0.25);
        assert_eq!(m.combine(&[0.0]).degree, 0.0);
        let bad = body(serde_json::json!({"alpha": 0.5, "base": "x", "axioms": []}));
        assert!(BoostModel::from_body(super::super::OWL_BOOST, &bad, &v).is_err());
        let text = m.text(&v);
        assert!(text.contains("positive when Σ α·WL > 0.2500"), "{text}");
    }
}

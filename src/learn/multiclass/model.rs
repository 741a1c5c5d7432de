//! The fitted multi-class model: the rules of every class with their training coverage,
//! and the combination that turns the rules firing on an individual into a class and a
//! class distribution. It predicts through any oracle, saves to and loads from the model
//! document (the combination is refitted on load from the saved rules: it is a
//! deterministic function of them and the seed), and prints its rules readably.

use fixedbitset::FixedBitSet;
use serde::{Deserialize, Serialize};

use super::combine::{self, Combination, Combine, Decision};
use super::rules::{Rule, RuleTable, bitset};
use crate::concept::{Concept, Vocabulary, parse, to_manchester, to_manchester_full};
use crate::learn::{LearnError, Model, ModelLoader, Prediction, body_json, semantics_name};
use crate::oracle::{IndividualId, IndividualSet, MembershipOracle, Semantics};

/// The algorithm name of multi-class models (`--algorithm multiclass`).
pub const ALGORITHM: &str = "multiclass";

#[derive(Clone, Debug, PartialEq)]
pub struct MultiClassModel {
    pub table: RuleTable,
    pub combination: Combination,
    pub semantics: Semantics,
}

/// One individual's classification, with the rules that fired on it.
#[derive(Clone, Debug, PartialEq)]
pub struct Classified {
    pub individual: IndividualId,
    pub decision: Decision,
    pub firing: FixedBitSet,
}

impl MultiClassModel {
    /// Combines `table`'s rules with `method`.
    pub fn new(table: RuleTable, method: Combine, seed: u64, semantics: Semantics) -> Self {
        let combination = combine::fit(&table, method, seed);
        MultiClassModel {
            table,
            combination,
            semantics,
        }
    }

    pub fn classes(&self) -> &[String] {
        &self.table.classes
    }

    /// Classifies every individual of `individuals` (in id order), asking the oracle over
    /// `among` (a superset).
    pub fn classify(
        &self,
        oracle: &dyn MembershipOracle,
        individuals: &IndividualSet,
        among: &IndividualSet,
    ) -> Result<Vec<Classified>, LearnError> {
        let among = among.union(individuals);
        let n = self.table.rules.len();
        // One bitset per individual asked about (in id order), not per individual of the KB.
        let ids: Vec<IndividualId> = individuals.iter().collect();
        let mut firing: Vec<FixedBitSet> = vec![FixedBitSet::with_capacity(n); ids.len()];
        for (r, rule) in self.table.rules.iter().enumerate() {
            let members = oracle
                .members(&rule.concept, &among, self.semantics)?
                .intersection(individuals);
            for id in members.iter() {
                if let Ok(i) = ids.binary_search(&id) {
                    firing[i].insert(r);
                }
            }
        }
        let signature = oracle.signature();
        Ok(ids
            .into_iter()
            .zip(firing)
            .map(|(id, f)| {
                let key = signature
                    .individual_iri(id)
                    .map_or_else(|| id.0.to_string(), |i| i.as_str().to_owned());
                Classified {
                    individual: id,
                    decision: combine::decide(&self.table, &self.combination, &f, &key),
                    firing: f,
                }
            })
            .collect())
    }

    /// The rules as text, one a line, in the order the method reads them.
    fn rule_lines(&self, vocabulary: &Vocabulary) -> Vec<String> {
        let t = &self.table;
        let coverage = |r: &Rule| {
            t.class_counts(&r.covers)
                .iter()
                .zip(&t.classes)
                .map(|(n, c)| format!("{c} {n}"))
                .collect::<Vec<_>>()
                .join(", ")
        };
        let order: Vec<usize> = if self.combination.method == Combine::Mrl {
            self.combination.order.clone()
        } else {
            (0..t.rules.len()).collect()
        };
        order
            .iter()
            .enumerate()
            .map(|(i, &r)| {
                let rule = &t.rules[r];
                format!(
                    "{:>2}. if {} then {}   (training coverage: {})",
                    i + 1,
                    to_manchester(&rule.concept, vocabulary),
                    t.classes[rule.class],
                    coverage(rule)
                )
            })
            .collect()
    }
}

#[derive(Serialize, Deserialize)]
struct RuleBody {
    class: String,
    concept: String,
    /// Training example indices (into `labels`).
    covers: Vec<usize>,
}

#[derive(Serialize, Deserialize)]
struct Body {
    combine: Combine,
    semantics: String,
    seed: u64,
    classes: Vec<String>,
    /// The class index of each training example.
    labels: Vec<usize>,
    rules: Vec<RuleBody>,
}

impl Model for MultiClassModel {
    fn algorithm(&self) -> &'static str {
        ALGORITHM
    }

    fn concept(&self) -> Option<&Concept> {
        None
    }

    fn describe(&self, vocabulary: &Vocabulary) -> String {
        let c = &self.combination;
        let t = &self.table;
        let kind = match c.method {
            Combine::Mrl => "rule list (MRL): the first rule that fires decides",
            Combine::Mrsi => {
                "rule set (MRSI): class distribution of the training examples all firing rules cover"
            }
            Combine::Mrsu => {
                "rule set (MRSU): class distribution of the training examples any firing rule covers"
            }
            Combine::Cn2 => "rule set (CN2): the firing rules' class coverages summed",
        };
        let mut out = vec![format!(
            "multi-class {kind}; {} classes, {} rules",
            t.classes.len(),
            t.rules.len()
        )];
        out.extend(self.rule_lines(vocabulary));
        let default = match c.method {
            Combine::Mrl => t.classes[c.default_class].clone(),
            _ => c
                .default_counts
                .iter()
                .zip(&t.classes)
                .map(|(n, c)| format!("{c} {n}"))
                .collect::<Vec<_>>()
                .join(", "),
        };
        out.push(format!("    otherwise (default rule): {default}"));
        out.join("\n")
    }

    fn predict_within(
        &self,
        oracle: &dyn MembershipOracle,
        individuals: &IndividualSet,
        among: &IndividualSet,
    ) -> Result<Vec<Prediction>, LearnError> {
        let classes = &self.table.classes;
        Ok(self
            .classify(oracle, individuals, among)?
            .into_iter()
            .map(|c| {
                let d = c.decision;
                Prediction {
                    probability: Some(d.distribution[d.class]),
                    label: Some(classes[d.class].clone()),
                    distribution: Some(classes.iter().cloned().zip(d.distribution).collect()),
                    // A member of the theory: some rule fires (else the default rule decided).
                    ..Prediction::member(c.individual, c.firing.count_ones(..) > 0)
                }
            })
            .collect())
    }

    fn is_scored(&self) -> bool {
        true
    }

    fn concepts_asked(&self) -> Option<Vec<Concept>> {
        Some(self.table.rules.iter().map(|r| r.concept.clone()).collect())
    }

    fn semantics(&self) -> Semantics {
        self.semantics
    }

    /// Any semantics: the rules are class expressions, meaningful under either.
    fn with_semantics(&self, semantics: Semantics) -> Result<Box<dyn Model>, LearnError> {
        Ok(Box::new(MultiClassModel {
            semantics,
            ..self.clone()
        }))
    }

    fn body(&self) -> Result<serde_json::Value, LearnError> {
        let t = &self.table;
        let body = Body {
            combine: self.combination.method,
            semantics: semantics_name(self.semantics).to_owned(),
            seed: self.combination.seed,
            classes: t.classes.clone(),
            labels: t.labels.clone(),
            rules: t
                .rules
                .iter()
                .map(|r| RuleBody {
                    class: t.classes[r.class].clone(),
                    concept: to_manchester_full(&r.concept),
                    covers: r.covers.ones().collect(),
                })
                .collect(),
        };
        body_json(&body, "the multiclass model", [])
    }
}

/// Reads a multi-class model body, checking every index and class name.
pub(crate) struct MultiClassModelLoader;

impl ModelLoader for MultiClassModelLoader {
    fn algorithm(&self) -> &'static str {
        ALGORITHM
    }

    fn load(
        &self,
        body: &serde_json::Value,
        vocabulary: &Vocabulary,
    ) -> Result<Box<dyn Model>, LearnError> {
        Ok(Box::new(MultiClassModel::from_body(body, vocabulary)?))
    }
}

impl MultiClassModel {
    /// The model of a saved document's body (`model`), for the commands that need its
    /// rules and classes, not only its predictions (`evaluate`'s multi-class measures).
    pub fn from_body(
        body: &serde_json::Value,
        vocabulary: &Vocabulary,
    ) -> Result<MultiClassModel, LearnError> {
        let bad = |m: String| LearnError::ModelFormat(format!("multiclass model: {m}"));
        let b: Body = serde_json::from_value(body.clone()).map_err(|e| bad(e.to_string()))?;
        let semantics = match b.semantics.as_str() {
            "closed" => Semantics::Closed,
            "open" => Semantics::Open,
            s => return Err(bad(format!("unknown semantics {s:?}"))),
        };
        if b.classes.len() < 2 {
            return Err(bad(format!(
                "{} classes; at least 2 needed",
                b.classes.len()
            )));
        }
        if let Some(l) = b.labels.iter().find(|&&l| l >= b.classes.len()) {
            return Err(bad(format!("label {l} names no class")));
        }
        let n = b.labels.len();
        let rules = b
            .rules
            .into_iter()
            .enumerate()
            .map(|(i, r)| {
                let class = b
                    .classes
                    .iter()
                    .position(|c| *c == r.class)
                    .ok_or_else(|| bad(format!("rule {}: unknown class {:?}", i + 1, r.class)))?;
                if let Some(x) = r.covers.iter().find(|&&x| x >= n) {
                    return Err(bad(format!(
                        "rule {}: covers example {x}, but there are {n}",
                        i + 1
                    )));
                }
                let concept = parse(&r.concept, vocabulary)
                    .map_err(|e| bad(format!("rule {}: concept `{}`: {e}", i + 1, r.concept)))?;
                Ok(Rule {
                    class,
                    concept: crate::concept::normalize(&concept),
                    covers: bitset(n, r.covers),
                })
            })
            .collect::<Result<Vec<_>, LearnError>>()?;
        let table = RuleTable {
            classes: b.classes,
            labels: b.labels,
            rules,
        };
        Ok(MultiClassModel::new(table, b.combine, b.seed, semantics))
    }
}

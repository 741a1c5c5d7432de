//! The functions' answers, one individual at a time: a call for `x` asks the store about `x`
//! alone (is it an individual, then its membership or prediction over a page holding just
//! `x`), and the answer is memoised per (model or expression, individual) in a bounded
//! cache, so a repeated row reads it and no call costs more as the store grows.

use std::collections::BTreeMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, RwLock};

use moka::sync::Cache;

use super::domain;
use super::{COVERS, FunctionError, MEMBER, SCORE};
use crate::KnowledgeBase;
use crate::concept::{Concept, Iri};
use crate::learn::Model;
use crate::oracle::{MembershipOracle, OracleStats, Semantics, StatsCounter};

/// Answers kept per (model or expression, individual): enough for the rows of large
/// queries, a few tens of MB at most. Beyond, the least recently used are recomputed.
const MEMO_ENTRIES: u64 = 200_000;
/// Individuals whose membership of the active domain is kept.
const DOMAIN_ENTRIES: u64 = 200_000;
/// Parsed expressions kept (a query may compute them per row).
const EXPRESSIONS: u64 = 1_000;
/// IRIs per domain query of [`Answers::individuals`].
const DOMAIN_CHUNK: usize = 500;

/// Which function.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Kind {
    Member,
    Score,
    Covers,
}

impl Kind {
    pub(super) fn iri(self) -> &'static str {
        match self {
            Kind::Member => MEMBER,
            Kind::Score => SCORE,
            Kind::Covers => COVERS,
        }
    }

    /// What the second argument is, for messages.
    pub(super) fn second_argument(self) -> &'static str {
        match self {
            Kind::Member | Kind::Score => "a loaded model's name",
            Kind::Covers => "a class expression in Manchester or DL syntax",
        }
    }
}

/// One row's answer.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(super) enum Value {
    Boolean(bool),
    Double(f64),
}

/// Why a second argument has no answers.
#[derive(Debug)]
pub(super) enum ResolveError {
    UnknownModel { name: String, known: Vec<String> },
    Unparsable { text: String, message: String },
    Oracle(String),
}

impl ResolveError {
    pub(super) fn into_function_error(self, function: &str) -> FunctionError {
        match self {
            ResolveError::UnknownModel { name, known } => FunctionError::Call(format!(
                "<{function}>: no model named {name:?} is loaded (loaded: {})",
                if known.is_empty() {
                    "none".to_owned()
                } else {
                    known.join(", ")
                }
            )),
            ResolveError::Unparsable { text, message } => FunctionError::Call(format!(
                "<{function}>: cannot parse the class expression {text:?}: {message}"
            )),
            ResolveError::Oracle(message) => {
                FunctionError::Oracle(format!("<{function}>: {message}"))
            }
        }
    }
}

/// What a second argument names, resolved once (a model looked up, an expression parsed):
/// the question asked of each individual, with the id its memoised answers are kept under.
pub(super) struct Target {
    id: u64,
    question: Question,
}

enum Question {
    /// `covers`: closed-world membership in the expression.
    Covers(Concept),
    /// `member` of a model that is a class expression: membership under the model's
    /// semantics (what [`Model::predict`] calls a member), without the other solutions a
    /// score needs.
    Members {
        concept: Concept,
        semantics: Semantics,
    },
    /// `score`, and `member` of other models: the model's prediction.
    Predict(Arc<dyn Model>),
}

/// One individual's memoised answer to a [`Target`].
#[derive(Clone, Copy, Debug)]
enum Outcome {
    Member(bool),
    Prediction {
        member: bool,
        ranking: Option<f64>,
    },
    /// The model gave no prediction for the individual.
    Nothing,
}

struct ModelEntry {
    model: Arc<dyn Model>,
    member: Arc<Target>,
    predict: Arc<Target>,
}

/// The KB, the models, and the memoised answers.
pub(super) struct Answers {
    kb: KnowledgeBase,
    models: RwLock<BTreeMap<String, Arc<ModelEntry>>>,
    expressions: Cache<String, Arc<Target>>,
    /// IRI → whether an individual of the active domain.
    domain: Cache<String, bool>,
    /// (target id, IRI) → answer.
    memo: Cache<(u64, String), Outcome>,
    next_target: AtomicU64,
    /// What the pages and the domain queries asked (the KB's own oracle counts the rest).
    stats: StatsCounter,
}

impl Answers {
    pub(super) fn new(kb: KnowledgeBase) -> Self {
        Answers {
            kb,
            models: RwLock::new(BTreeMap::new()),
            expressions: Cache::new(EXPRESSIONS),
            domain: Cache::new(DOMAIN_ENTRIES),
            memo: Cache::new(MEMO_ENTRIES),
            next_target: AtomicU64::new(0),
            stats: StatsCounter::default(),
        }
    }

    pub(super) fn kb(&self) -> &KnowledgeBase {
        &self.kb
    }

    /// What was asked of the store for the functions' answers.
    pub(super) fn stats(&self) -> OracleStats {
        self.stats.snapshot()
    }

    fn target(&self, question: Question) -> Arc<Target> {
        Arc::new(Target {
            id: self.next_target.fetch_add(1, Ordering::Relaxed),
            question,
        })
    }

    /// Adds (or replaces) a model; its answers are kept under new targets, so none of a
    /// replaced model's answers is read again.
    pub(super) fn insert_model(&self, name: &str, model: Box<dyn Model>) {
        let model: Arc<dyn Model> = Arc::from(model);
        let predict = self.target(Question::Predict(model.clone()));
        let member = match model.concept() {
            Some(concept) => self.target(Question::Members {
                concept: concept.clone(),
                semantics: model.semantics(),
            }),
            None => predict.clone(),
        };
        let entry = Arc::new(ModelEntry {
            model,
            member,
            predict,
        });
        self.models
            .write()
            .unwrap_or_else(|p| p.into_inner())
            .insert(name.to_owned(), entry);
    }

    pub(super) fn model_names(&self) -> Vec<String> {
        self.models
            .read()
            .unwrap_or_else(|p| p.into_inner())
            .keys()
            .cloned()
            .collect()
    }

    pub(super) fn model(&self, name: &str) -> Option<Arc<dyn Model>> {
        self.entry(name).map(|e| e.model.clone())
    }

    fn entry(&self, name: &str) -> Option<Arc<ModelEntry>> {
        self.models
            .read()
            .unwrap_or_else(|p| p.into_inner())
            .get(name)
            .cloned()
    }

    /// What a call's second argument names: a loaded model (`member`, `score`) or a parsed
    /// expression (`covers`). Asks the store nothing.
    pub(super) fn resolve(&self, kind: Kind, text: &str) -> Result<Arc<Target>, ResolveError> {
        match kind {
            Kind::Member | Kind::Score => {
                let entry = self.entry(text).ok_or_else(|| ResolveError::UnknownModel {
                    name: text.to_owned(),
                    known: self.model_names(),
                })?;
                Ok(match kind {
                    Kind::Member => entry.member.clone(),
                    _ => entry.predict.clone(),
                })
            }
            Kind::Covers => self.expression(text),
        }
    }

    fn expression(&self, text: &str) -> Result<Arc<Target>, ResolveError> {
        if let Some(target) = self.expressions.get(text) {
            return Ok(target);
        }
        let concept = self
            .kb
            .parse_concept(text)
            .map_err(|e| ResolveError::Unparsable {
                text: text.to_owned(),
                message: match std::error::Error::source(&e) {
                    Some(cause) => cause.to_string(),
                    None => e.to_string(),
                },
            })?;
        let target = self.target(Question::Covers(concept));
        self.expressions.insert(text.to_owned(), target.clone());
        Ok(target)
    }

    /// The answer of `kind` for the IRI `iri`: `None` when it is not an individual of the KB
    /// (or a score the model does not give).
    pub(super) fn answer(
        &self,
        target: &Target,
        kind: Kind,
        iri: &str,
    ) -> Result<Option<Value>, ResolveError> {
        if !self.is_individual(iri)? {
            return Ok(None);
        }
        let outcome = self
            .memo
            .try_get_with((target.id, iri.to_owned()), || self.compute(target, iri))
            .map_err(|e: Arc<String>| ResolveError::Oracle(e.to_string()))?;
        Ok(match (outcome, kind) {
            (Outcome::Prediction { ranking, .. }, Kind::Score) => ranking.map(Value::Double),
            (Outcome::Prediction { member, .. }, _) | (Outcome::Member(member), _) => {
                Some(Value::Boolean(member))
            }
            (Outcome::Nothing, _) => None,
        })
    }

    /// Whether `iri` is an individual of the KB's active domain (see [`domain`]), memoised.
    fn is_individual(&self, iri: &str) -> Result<bool, ResolveError> {
        self.domain
            .try_get_with(iri.to_owned(), || {
                domain::individuals_among(&self.kb, &[iri], &self.stats)
                    .map(|found| found.first().copied().unwrap_or(false))
                    .map_err(|e| error_chain(&e))
            })
            .map_err(|e: Arc<String>| ResolveError::Oracle(e.to_string()))
    }

    /// Which of `iris` are individuals of the KB's active domain, in the order given: one
    /// query per chunk of those not memoised yet.
    pub(super) fn individuals(&self, iris: &[&str]) -> Result<Vec<bool>, ResolveError> {
        let mut out: Vec<Option<bool>> = iris.iter().map(|i| self.domain.get(*i)).collect();
        let unknown: Vec<usize> = (0..iris.len()).filter(|&i| out[i].is_none()).collect();
        for chunk in unknown.chunks(DOMAIN_CHUNK) {
            let asked: Vec<&str> = chunk.iter().map(|&i| iris[i]).collect();
            let found = domain::individuals_among(&self.kb, &asked, &self.stats)
                .map_err(|e| ResolveError::Oracle(error_chain(&e)))?;
            for (&i, is) in chunk.iter().zip(found) {
                self.domain.insert(iris[i].to_owned(), is);
                out[i] = Some(is);
            }
        }
        Ok(out.into_iter().map(|b| b.unwrap_or(false)).collect())
    }

    /// `target`'s answer for the individual `iri`, over a page holding `iri` alone: its
    /// queries name `iri` in their `VALUES`, so they cost what `iri`'s neighbourhood costs,
    /// whatever the size of the store.
    fn compute(&self, target: &Target, iri: &str) -> Result<Outcome, String> {
        let page = self.kb.oracle().inner().over(vec![Iri::new(iri)]);
        let all = page.signature_ref().all_individuals();
        let outcome = match &target.question {
            Question::Covers(concept) => page
                .covered(concept, &all)
                .map(|set| Outcome::Member(!set.is_empty()))
                .map_err(|e| error_chain(&e)),
            Question::Members { concept, semantics } => page
                .members(concept, &all, *semantics)
                .map(|set| Outcome::Member(!set.is_empty()))
                .map_err(|e| error_chain(&e)),
            Question::Predict(model) => model
                .predict(&page, &all)
                .map(|predictions| match predictions.first() {
                    Some(p) => Outcome::Prediction {
                        member: p.member,
                        ranking: p.ranking_value(),
                    },
                    None => Outcome::Nothing,
                })
                .map_err(|e| error_chain(&e)),
        };
        self.count(page.stats());
        outcome
    }

    fn count(&self, s: OracleStats) {
        let c = &self.stats;
        StatsCounter::add(&c.queries_sent, s.queries_sent);
        StatsCounter::add(&c.rows_received, s.rows_received);
        StatsCounter::add(&c.backend_time_ns, s.backend_time_ns);
        StatsCounter::add(&c.cache_hits, s.cache_hits);
        StatsCounter::add(&c.cache_misses, s.cache_misses);
        StatsCounter::add(&c.composed, s.composed);
        StatsCounter::add(&c.evaluations, s.evaluations);
    }
}

/// An error with its causes, `a: b: c`.
fn error_chain(e: &dyn std::error::Error) -> String {
    let mut text = e.to_string();
    let mut cause = e.source();
    while let Some(c) = cause {
        text.push_str(": ");
        text.push_str(&c.to_string());
        cause = c.source();
    }
    text
}

//! The functions' answers, computed for every individual of the KB in one oracle call on
//! first use of a model or expression and memoised, so a query's rows only look them up.

use std::collections::{BTreeMap, HashMap};
use std::sync::{Arc, Mutex, RwLock};

use super::{COVERS, FunctionError, MEMBER, SCORE};
use crate::KnowledgeBase;
use crate::learn::Model;
use crate::oracle::IndividualSet;

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

/// Answers computed once, on first use (the lock makes concurrent first uses compute once).
type Slot<T> = Arc<Mutex<Option<Arc<T>>>>;

/// Per individual id: whether a member, and the ranking value.
type Predictions = Vec<Option<(bool, Option<f64>)>>;

struct ModelEntry {
    model: Arc<dyn Model>,
    /// Filled on first use; the lock also makes concurrent first uses compute once.
    predictions: Mutex<Option<Arc<Predictions>>>,
}

/// The answers one call reads from.
pub(super) enum Resolved {
    Model(Kind, Arc<Predictions>),
    Covers(Arc<IndividualSet>),
}

impl Resolved {
    /// The answer for the individual `iri`; `None` when it is not an individual of the KB
    /// (or a score the model does not give).
    pub(super) fn answer(&self, kb: &KnowledgeBase, iri: &str) -> Option<Value> {
        let id = kb.signature().individual_id(iri)?;
        match self {
            Resolved::Model(Kind::Score, p) => {
                p.get(id.index()).copied().flatten()?.1.map(Value::Double)
            }
            Resolved::Model(_, p) => p
                .get(id.index())
                .copied()
                .flatten()
                .map(|(m, _)| Value::Boolean(m)),
            Resolved::Covers(set) => Some(Value::Boolean(set.contains(id))),
        }
    }
}

/// The KB, the models, and what has been computed.
pub(super) struct Answers {
    kb: KnowledgeBase,
    models: RwLock<BTreeMap<String, Arc<ModelEntry>>>,
    concepts: Mutex<HashMap<String, Slot<IndividualSet>>>,
}

impl Answers {
    pub(super) fn new(kb: KnowledgeBase) -> Self {
        Answers {
            kb,
            models: RwLock::new(BTreeMap::new()),
            concepts: Mutex::new(HashMap::new()),
        }
    }

    pub(super) fn kb(&self) -> &KnowledgeBase {
        &self.kb
    }

    pub(super) fn insert_model(&self, name: &str, model: Box<dyn Model>) {
        let entry = Arc::new(ModelEntry {
            model: Arc::from(model),
            predictions: Mutex::new(None),
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

    /// The answers of a model (member, score) or an expression (covers), computing them
    /// on first use.
    pub(super) fn resolve(&self, kind: Kind, text: &str) -> Result<Resolved, ResolveError> {
        match kind {
            Kind::Member | Kind::Score => {
                let entry = self.entry(text).ok_or_else(|| ResolveError::UnknownModel {
                    name: text.to_owned(),
                    known: self.model_names(),
                })?;
                Ok(Resolved::Model(kind, self.predictions(&entry)?))
            }
            Kind::Covers => Ok(Resolved::Covers(self.covered(text)?)),
        }
    }

    fn predictions(&self, entry: &ModelEntry) -> Result<Arc<Predictions>, ResolveError> {
        let mut slot = entry.predictions.lock().unwrap_or_else(|p| p.into_inner());
        if let Some(p) = slot.as_ref() {
            return Ok(p.clone());
        }
        let all = self.kb.individuals();
        let mut dense: Predictions = vec![None; all.universe()];
        let predictions = entry
            .model
            .predict(self.kb.oracle(), &all)
            .map_err(|e| ResolveError::Oracle(error_chain(&e)))?;
        for p in predictions {
            if let Some(cell) = dense.get_mut(p.individual.index()) {
                *cell = Some((p.member, p.ranking_value()));
            }
        }
        let dense = Arc::new(dense);
        *slot = Some(dense.clone());
        Ok(dense)
    }

    fn covered(&self, text: &str) -> Result<Arc<IndividualSet>, ResolveError> {
        let cell = self
            .concepts
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .entry(text.to_owned())
            .or_default()
            .clone();
        let mut slot = cell.lock().unwrap_or_else(|p| p.into_inner());
        if let Some(set) = slot.as_ref() {
            return Ok(set.clone());
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
        let set = Arc::new(
            self.kb
                .instances(&concept)
                .map_err(|e| ResolveError::Oracle(error_chain(&e)))?,
        );
        *slot = Some(set.clone());
        Ok(set)
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

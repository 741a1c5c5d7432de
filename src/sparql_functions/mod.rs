//! Learned models inside SPARQL: custom functions for an Oxigraph [`SparqlEvaluator`] over
//! a caller's own store.
//!
//! | function | arguments | answer |
//! |---|---|---|
//! | `<urn:oxilearn:member>(?x, "model")` | an individual, a loaded model's name | `xsd:boolean` |
//! | `<urn:oxilearn:score>(?x, "model")` | an individual, a loaded model's name | `xsd:double` (the prediction's ranking value: score, probability or degree; unbound when the model gives none) |
//! | `<urn:oxilearn:covers>(?x, "expression")` | an individual, a class expression (Manchester or DL syntax) | `xsd:boolean` (closed world) |
//!
//! A call for the individual `x` asks the store about `x` alone: whether `x` is an
//! individual of the KB (one query, bounded by `x`'s own triples), then its membership or
//! the model's prediction over a page holding just `x` (the expression's queries name `x` in
//! their `VALUES`). No call and no [`SparqlFunctions::prepare`] lists the store's
//! individuals, so the cost of a call is set by `x` and its neighbourhood, never by the size
//! of the store; a query pays per individual it binds. Answers are memoised per (model or
//! expression, individual) in a bounded cache, so a row repeating an individual (a filter
//! over `?x ?p ?o`) reads the first answer; an expression is parsed once and kept.
//! [`SparqlFunctions::oracle_stats`] reports what the store was asked.
//!
//! The semantics are those of the whole KB (closed world): `x` is a member of `¬C` or `⊤`
//! when it is an individual of the active domain, and an IRI that is not one (a class IRI,
//! a subject with only literal values) gets no value, as over a KB that interned every
//! individual. Open the KB with [`IndividualScope::Schema`](crate::oracle::IndividualScope)
//! ([`SparqlFunctions::over_store`]) so that opening it reads the schema only; names the
//! schema does not declare (individuals in `{a}` or `r value a`, classes and properties
//! only used in the data) are then written as full IRIs or prefixed names.
//!
//! Custom functions can only return a value or nothing, so argument errors are caught
//! before the query runs: [`SparqlFunctions::prepare`] walks the parsed query and fails it,
//! with a message, on an unknown model name, an unparsable expression, a wrong number of
//! arguments or an unknown `urn:oxilearn:` function, when the argument is a constant (the
//! usual case). A name or expression that is not a constant (a variable, `CONCAT(…)`)
//! can only be checked row by row: such a row gets no value (as any SPARQL function given a
//! wrong argument), and the message is kept in the query's [`CallErrors`], which a caller
//! checks once the results are read ([`PreparedQuery::errors`]; `oxilearn serve` turns them
//! into an error response). A failure of the store while answering a row is kept there too
//! ([`CallErrors::store_failed`]). A first argument that is not an individual of the KB (a
//! literal, a class IRI) gives no value and is not an error.
//!
//! Answers are those of the store when they were first asked: after the store changes, build
//! new functions (`oxilearn serve --allow-update` does so after each update, which reads the
//! schema again and starts with an empty memo).
//!
//! ```
//! use oxilearn::oxigraph::sparql::{QueryResults, SparqlEvaluator};
//! use oxilearn::oxigraph::store::Store;
//! use oxilearn::sparql_functions::SparqlFunctions;
//!
//! let store = Store::new()?;
//! let family = concat!(env!("CARGO_MANIFEST_DIR"), "/fixtures/family/family.ttl");
//! oxilearn::files::load_file(&store, std::path::Path::new(family), None)?;
//! // Opening reads the schema only; each call asks about its own individual.
//! let functions = SparqlFunctions::over_store(store.clone())?;
//! // (models come in with `functions.add_model_json("Uncle", &text)?`)
//! let query = functions.prepare(
//!     SparqlEvaluator::new(),
//!     r#"SELECT (COUNT(DISTINCT ?x) AS ?n) WHERE {
//!          ?x a ?t FILTER(<urn:oxilearn:covers>(?x, "Male and hasChild some Thing")) }"#,
//! )?;
//! let QueryResults::Solutions(mut rows) = query.on_store(&store).execute()? else {
//!     unreachable!()
//! };
//! let n = rows.next().unwrap()?.get("n").cloned();
//! assert!(query.errors().is_empty());
//! assert!(n.is_some());
//! // An expression that does not parse fails the query before it runs.
//! let err = functions
//!     .prepare(SparqlEvaluator::new(), r#"ASK { ?x a ?t FILTER(<urn:oxilearn:covers>(?x, "NoSuchClass")) }"#)
//!     .unwrap_err();
//! assert!(err.to_string().contains("NoSuchClass"));
//! # Ok::<_, Box<dyn std::error::Error>>(())
//! ```

mod answers;
mod check;
mod domain;

use std::sync::{Arc, Mutex};

use oxigraph::model::{Literal, NamedNode, Term};
use oxigraph::sparql::{PreparedSparqlQuery, PreparedSparqlUpdate, SparqlEvaluator};
use oxigraph::store::Store;

use crate::learn::document::{self, LoadedModel, ModelHeader};
use crate::learn::{LearnError, Model};
use crate::oracle::{IndividualScope, MembershipOracle, OracleOptions, OracleStats};
use crate::{KnowledgeBase, KnowledgeBaseError};
use answers::Answers;

/// `<urn:oxilearn:member>(?x, "model")` → `xsd:boolean`.
pub const MEMBER: &str = "urn:oxilearn:member";
/// `<urn:oxilearn:score>(?x, "model")` → `xsd:double`.
pub const SCORE: &str = "urn:oxilearn:score";
/// `<urn:oxilearn:covers>(?x, "class expression")` → `xsd:boolean`.
pub const COVERS: &str = "urn:oxilearn:covers";
/// The namespace of the functions (any other IRI in it is refused as unknown).
pub const NAMESPACE: &str = "urn:oxilearn:";

/// Why a query using the functions cannot run.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum FunctionError {
    #[error("SPARQL syntax: {0}")]
    Syntax(#[from] oxigraph::sparql::SparqlSyntaxError),
    /// A call with a wrong argument (unknown model, unparsable expression, arity).
    #[error("{0}")]
    Call(String),
    /// Asking the store failed.
    #[error("{0}")]
    Oracle(String),
}

/// The messages of calls that gave no value for a reason other than their individual: a
/// wrong non-constant argument, or a failure of the store while answering. Kept per query.
#[derive(Clone, Debug, Default)]
pub struct CallErrors(Arc<Mutex<Recorded>>);

#[derive(Debug, Default)]
struct Recorded {
    messages: Vec<String>,
    store_failed: bool,
}

impl CallErrors {
    /// A wrong argument.
    fn push(&self, message: String) {
        self.record(message, false);
    }

    /// The store failed to answer a row.
    fn push_failure(&self, message: String) {
        self.record(message, true);
    }

    fn record(&self, message: String, failure: bool) {
        let mut r = self.0.lock().unwrap_or_else(|p| p.into_inner());
        r.store_failed |= failure;
        // One message per distinct cause is enough (a wrong name repeats on every row).
        if !r.messages.contains(&message) && r.messages.len() < 10 {
            r.messages.push(message);
        }
    }

    /// The distinct messages so far (at most 10).
    pub fn messages(&self) -> Vec<String> {
        self.0
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .messages
            .clone()
    }

    pub fn is_empty(&self) -> bool {
        self.messages().is_empty()
    }

    /// Whether some message is a failure of the store rather than a wrong argument (a
    /// server answers 500 rather than 400).
    pub fn store_failed(&self) -> bool {
        self.0
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .store_failed
    }
}

/// A query checked and bound to the functions, with its sink for row errors.
pub struct PreparedQuery {
    query: PreparedSparqlQuery,
    errors: CallErrors,
}

impl std::fmt::Debug for PreparedQuery {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("PreparedQuery")
            .field("errors", &self.errors)
            .finish_non_exhaustive()
    }
}

impl PreparedQuery {
    /// Binds the query to a store (usually the one the KB was opened over).
    pub fn on_store(&self, store: &Store) -> oxigraph::sparql::BoundPreparedSparqlQuery<'static> {
        self.query.clone().on_store(store)
    }

    /// The query itself, e.g. to set its dataset.
    pub fn query_mut(&mut self) -> &mut PreparedSparqlQuery {
        &mut self.query
    }

    /// Messages of calls with a wrong non-constant argument (check after reading results).
    pub fn errors(&self) -> CallErrors {
        self.errors.clone()
    }
}

/// An update checked and bound to the functions, with its sink for row errors.
pub struct PreparedUpdate {
    pub update: PreparedSparqlUpdate,
    errors: CallErrors,
}

impl std::fmt::Debug for PreparedUpdate {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("PreparedUpdate")
            .field("errors", &self.errors)
            .finish_non_exhaustive()
    }
}

impl PreparedUpdate {
    /// Messages of calls with a wrong non-constant argument (the update has run by then).
    pub fn errors(&self) -> CallErrors {
        self.errors.clone()
    }
}

/// The functions over one KB and a set of named models; cheap to clone and share (clones
/// share the models and the memoised answers).
#[derive(Clone)]
pub struct SparqlFunctions {
    inner: Arc<Answers>,
}

impl SparqlFunctions {
    /// Over `kb`, the KB of the store queries run on, with no model yet (`covers` works
    /// without one). Any scope answers the same; [`SparqlFunctions::over_store`] opens the
    /// cheapest.
    pub fn new(kb: KnowledgeBase) -> Self {
        SparqlFunctions {
            inner: Arc::new(Answers::new(kb)),
        }
    }

    /// Over `store`, reading only its schema ([`IndividualScope::Schema`]): opening costs
    /// the schema's queries whatever the number of individuals, and each call asks about
    /// its own individual. The KB does not count the store's quads
    /// ([`KnowledgeBase::triples`] is 0): counting is a pass over every quad (3 s on 7.4M),
    /// which `oxilearn serve` would pay again after every update.
    pub fn over_store(store: Store) -> Result<Self, KnowledgeBaseError> {
        let kb = KnowledgeBase::builder()
            .oracle_options(OracleOptions {
                scope: IndividualScope::Schema,
                ..OracleOptions::default()
            })
            // `open_store` would count the quads; no load reports, no count.
            .open_loaded(store, Vec::new())?;
        Ok(Self::new(kb))
    }

    /// Adds a model under `name`, replacing one of that name (and its memoised answers).
    pub fn add_model(&self, name: &str, model: Box<dyn Model>) {
        self.inner.insert_model(name, model);
    }

    /// Reads a saved model document (`learn --save-model`) against this KB and adds it
    /// under `name`; returns the document's header and what did not match the KB (e.g.
    /// another signature fingerprint).
    pub fn add_model_json(
        &self,
        name: &str,
        text: &str,
    ) -> Result<(ModelHeader, Vec<String>), LearnError> {
        let LoadedModel {
            header,
            model,
            warnings,
        } = document::from_json(text, self.inner.kb().signature())?;
        self.add_model(name, model);
        Ok((header, warnings))
    }

    /// The names of the loaded models, sorted.
    pub fn model_names(&self) -> Vec<String> {
        self.inner.model_names()
    }

    /// A loaded model.
    pub fn model(&self, name: &str) -> Option<Arc<dyn Model>> {
        self.inner.model(name)
    }

    pub fn knowledge_base(&self) -> &KnowledgeBase {
        self.inner.kb()
    }

    /// What the store was asked so far for the functions' answers and through the KB's
    /// oracle (queries sent, cache hits, …).
    pub fn oracle_stats(&self) -> OracleStats {
        self.inner.kb().oracle().stats().merged(self.inner.stats())
    }

    /// Which of `iris` are individuals of the KB's active domain (the IRIs the functions
    /// answer for), in the order given; memoised with the functions' answers.
    pub fn individuals(&self, iris: &[&str]) -> Result<Vec<bool>, FunctionError> {
        self.inner
            .individuals(iris)
            .map_err(|e| e.into_function_error("the individuals"))
    }

    /// `evaluator` with the three functions registered; their row errors go to `errors`.
    /// Prefer [`SparqlFunctions::prepare`], which also checks constant arguments first.
    pub fn register(&self, evaluator: SparqlEvaluator, errors: &CallErrors) -> SparqlEvaluator {
        let mut evaluator = evaluator;
        for (name, kind) in [
            (MEMBER, answers::Kind::Member),
            (SCORE, answers::Kind::Score),
            (COVERS, answers::Kind::Covers),
        ] {
            let inner = self.inner.clone();
            let errors = errors.clone();
            evaluator = evaluator
                .with_custom_function(NamedNode::new_unchecked(name), move |args| {
                    call(&inner, kind, args, &errors)
                });
        }
        evaluator
    }

    /// Parses `query`, checks every call of the functions whose arguments are constants
    /// (the model is loaded, the expression parses; nothing is asked of the store), and
    /// returns it ready to bind to a store.
    pub fn prepare(
        &self,
        evaluator: SparqlEvaluator,
        query: &str,
    ) -> Result<PreparedQuery, FunctionError> {
        let parsed = spargebra::SparqlParser::new().parse_query(query)?;
        self.prepare_parsed(evaluator, parsed)
    }

    /// [`SparqlFunctions::prepare`] for an already parsed query (e.g. with a base IRI).
    pub fn prepare_parsed(
        &self,
        evaluator: SparqlEvaluator,
        parsed: spargebra::Query,
    ) -> Result<PreparedQuery, FunctionError> {
        for call in check::calls(&parsed) {
            self.check_call(&call)?;
        }
        let errors = CallErrors::default();
        let query = self.register(evaluator, &errors).for_query(parsed);
        Ok(PreparedQuery { query, errors })
    }

    /// [`SparqlFunctions::prepare`] for a SPARQL update: calls in its `WHERE` patterns are
    /// checked the same way before it runs.
    pub fn prepare_update(
        &self,
        evaluator: SparqlEvaluator,
        update: &str,
    ) -> Result<PreparedUpdate, FunctionError> {
        let parsed = spargebra::SparqlParser::new().parse_update(update)?;
        for call in check::update_calls(&parsed) {
            self.check_call(&call)?;
        }
        let errors = CallErrors::default();
        let update = self.register(evaluator, &errors).for_update(parsed);
        Ok(PreparedUpdate { update, errors })
    }

    fn check_call(&self, call: &check::Call) -> Result<(), FunctionError> {
        let kind = match call.function.as_str() {
            MEMBER => answers::Kind::Member,
            SCORE => answers::Kind::Score,
            COVERS => answers::Kind::Covers,
            other => {
                return Err(FunctionError::Call(format!(
                    "unknown function <{other}>: oxilearn has <{MEMBER}>, <{SCORE}> and \
                     <{COVERS}>"
                )));
            }
        };
        if call.arity != 2 {
            return Err(FunctionError::Call(format!(
                "<{}> takes 2 arguments (an individual and {}), not {}",
                call.function,
                kind.second_argument(),
                call.arity
            )));
        }
        match &call.second {
            check::Second::Constant(text) => self
                .inner
                .resolve(kind, text)
                .map(|_| ())
                .map_err(|e| e.into_function_error(&call.function)),
            check::Second::NotAString(term) => Err(FunctionError::Call(format!(
                "<{}>: the second argument must be a string ({}), not {term}",
                call.function,
                kind.second_argument()
            ))),
            check::Second::Dynamic => Ok(()),
        }
    }
}

/// One row's call: the answer, or nothing (with a message for a wrong argument).
fn call(inner: &Answers, kind: answers::Kind, args: &[Term], errors: &CallErrors) -> Option<Term> {
    let [subject, second] = args else {
        errors.push(format!(
            "<{}> takes 2 arguments, not {}",
            kind.iri(),
            args.len()
        ));
        return None;
    };
    let text = match second {
        Term::Literal(l) if check::is_string(l) => l,
        _ => {
            errors.push(format!(
                "<{}>: the second argument must be a string ({}), not {second}",
                kind.iri(),
                kind.second_argument()
            ));
            return None;
        }
    };
    let target = match inner.resolve(kind, text.value()) {
        Ok(t) => t,
        Err(e) => {
            errors.push(e.into_function_error(kind.iri()).to_string());
            return None;
        }
    };
    let Term::NamedNode(x) = subject else {
        return None;
    };
    match inner.answer(&target, kind, x.as_str()) {
        Ok(value) => value.map(|v| match v {
            answers::Value::Boolean(b) => Literal::from(b).into(),
            answers::Value::Double(d) => Literal::from(d).into(),
        }),
        Err(e) => {
            errors.push_failure(e.into_function_error(kind.iri()).to_string());
            None
        }
    }
}

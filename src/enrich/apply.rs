//! Applying a model to "these individuals" ([`Candidates`]) at the cost of the answer.
//!
//! Two ways, both page by page with a bounded memory:
//! - [`stage_in_store`]: a crisp concept is compiled once and the store evaluates it over
//!   the candidates it generates itself, `INSERT { GRAPH <staging> { ?x a <C> } } WHERE {
//!   <candidates> FILTER(<concept>) }`, one request per bucket of candidates (see
//!   [`crate::oracle::sparql::pages`]); nothing about the members is downloaded.
//! - [`apply_paged`]: candidates are listed a page at a time ([`KnowledgeBase::candidate_pages`])
//!   and the model is asked about each page through an oracle over just that page
//!   ([`KnowledgeBase::page`]); the caller gets each page's predictions (scored models, the
//!   embedded store, endpoints whose query shapes need the oracle's set algebra).
//!
//! Both stop between pages when the deadline passes or the run is cancelled, with an error
//! saying how far they got: a caller writing through [`Staged`] then leaves the target as it
//! was.

use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

use oxigraph::model::NamedNode;
use spargebra::algebra::{Expression, GraphPattern};
use spargebra::term::{NamedNodePattern, Variable};

use super::EnrichError;
use super::staged::Staged;
use crate::concept::{Concept, Iri};
use crate::knowledge_base::{Candidates, KnowledgeBase};
use crate::learn::{Model, Prediction};
use crate::oracle::sparql::pages::{bucket_prefixes, in_bucket};
use crate::oracle::sparql::{BooleanShape, CandidateSource, SUBJECT};

/// Individuals per page by default: well below Virtuoso's default row cap.
pub const DEFAULT_PAGE: usize = 5000;

/// Candidates per request by default where the store evaluates the model: an update
/// returns no rows, so no row cap applies, and each bucket costs the store a scan of every
/// candidate (on Oxigraph, 363,200 candidates: one request 20 s, 16 buckets 150 s).
pub const DEFAULT_STORE_PAGE: usize = 1_000_000;

/// How a run is paged and when it must stop.
#[derive(Clone, Copy)]
pub struct ApplyOptions<'a> {
    /// Candidates per page.
    pub page_size: usize,
    /// Candidates per request where the store evaluates the model.
    pub store_page_size: usize,
    /// Stop (with an error) once this has passed, between pages.
    pub deadline: Option<Instant>,
    /// Stop (with an error) once this is set, between pages (Ctrl-C).
    pub cancel: Option<&'a AtomicBool>,
    /// Called after each page with the candidates done so far.
    pub progress: &'a (dyn Fn(usize) + Sync),
}

impl Default for ApplyOptions<'_> {
    fn default() -> Self {
        ApplyOptions {
            page_size: DEFAULT_PAGE,
            store_page_size: DEFAULT_STORE_PAGE,
            deadline: None,
            cancel: None,
            progress: &|_| {},
        }
    }
}

impl ApplyOptions<'_> {
    /// An error when the run must stop now (`done` candidates so far).
    pub(crate) fn check(&self, done: usize) -> Result<(), EnrichError> {
        if self.cancel.is_some_and(|c| c.load(Ordering::SeqCst)) {
            return Err(EnrichError::Stopped {
                reason: "interrupted".into(),
                done,
            });
        }
        if self.deadline.is_some_and(|d| Instant::now() >= d) {
            return Err(EnrichError::Stopped {
                reason: "the time budget (--max-runtime) ran out".into(),
                done,
            });
        }
        Ok(())
    }
}

/// Whether [`stage_in_store`] can evaluate `concept` in one pattern at this KB's store: a
/// remote store (an embedded one is asked page by page, in process), and query shapes
/// that need no set algebra for the concept's top level.
pub fn can_stage_in_store(kb: &KnowledgeBase, concept: &Concept) -> bool {
    let oracle = kb.oracle().inner();
    if kb.store().is_some() || oracle.check_concept(concept).is_err() {
        return false;
    }
    let top_level_boolean = matches!(concept, Concept::And(_) | Concept::Or(_) | Concept::Not(_));
    oracle.shapes().booleans == BooleanShape::Inline || !top_level_boolean
}

/// Stages `?x a <class>` for every instance of `concept` among `candidates`, evaluated by
/// the store (see the module docs).
pub fn stage_in_store(
    kb: &KnowledgeBase,
    staged: &mut Staged<'_>,
    concept: &Concept,
    candidates: &Candidates,
    class: &NamedNode,
    options: &ApplyOptions<'_>,
) -> Result<(), EnrichError> {
    let x = Variable::new_unchecked(SUBJECT);
    // One compiler for the sources and the conditions: its fresh variables never clash.
    let compiler = kb.compiler();
    let (sources, scope) = match candidates {
        Candidates::Instances(s) => (kb.sources_with(&compiler, s)?, Some(s)),
        Candidates::Seeds(s) => (kb.sources_with(&compiler, s)?, None),
        Candidates::Query(q) => (
            vec![CandidateSource {
                pattern: q.pattern.clone(),
                within_domain: true,
            }],
            None,
        ),
        Candidates::WholeKb => (compiler.active_domain_sources(&[]), None),
        Candidates::Listed(_) => {
            return Err(EnrichError::Endpoint {
                message: "listed individuals are applied page by page, not in the store".into(),
            });
        }
    };
    let mut member = vec![compiler.member(concept, &x)?];
    if let Some(s) = scope.filter(|s| *s != concept) {
        member.push(compiler.member(s, &x)?);
    }
    let using = kb.oracle().inner().backend().read_graphs();
    let total = kb.count_sources(&sources)?;
    let prefixes = bucket_prefixes(total, options.store_page_size);
    let share = (total as usize).div_ceil(prefixes.len()).max(1);
    let mut done = 0;
    for source in sources {
        let mut condition = member.clone();
        condition.push(not_schema(&x));
        if !source.within_domain {
            condition.push(compiler.in_domain(&x, &[]));
        }
        let condition = crate::oracle::sparql::and_all(condition);
        for prefix in &prefixes {
            options.check(done)?;
            let bucket = in_bucket(source.pattern.clone(), &x, prefix);
            let update = insert_typings(staged.staging(), class, &x, bucket, &condition, &using);
            let step = format!(
                "typing the members of bucket {:?} of {} in the staging graph {}",
                prefix,
                prefixes.len(),
                staged.staging()
            );
            staged.update(&step, &update)?;
            done += share;
            (options.progress)(done);
        }
    }
    Ok(())
}

/// `INSERT { GRAPH <staging> { ?x a <class> } } USING … WHERE { SELECT ?x { bucket
/// FILTER(condition) } }`. Written by hand around spargebra's pattern: Virtuoso refuses the
/// `.` spargebra puts after a `GRAPH` block in a template.
fn insert_typings(
    staging: &NamedNode,
    class: &NamedNode,
    x: &Variable,
    bucket: GraphPattern,
    condition: &Expression,
    using: &Option<Vec<spargebra::term::NamedNode>>,
) -> String {
    let members = spargebra::Query::Select {
        dataset: None,
        pattern: GraphPattern::Project {
            inner: Box::new(crate::oracle::sparql::filter(bucket, condition.clone())),
            variables: vec![x.clone()],
        },
        base_iri: None,
    };
    let using: String = using
        .iter()
        .flatten()
        .map(|g| format!("USING {g} "))
        .collect();
    format!(
        "INSERT {{ GRAPH {staging} {{ {x} <{}> {class} }} }} {using}WHERE {{ {members} }}",
        oxigraph::model::vocab::rdf::TYPE.as_str()
    )
}

/// Not declared as a class or property (schema entities are never individuals) nor one of
/// oxilearn's own resources (see [`crate::oracle::Signature::may_be_individual`]).
fn not_schema(x: &Variable) -> Expression {
    let own = Expression::FunctionCall(
        spargebra::algebra::Function::StrStarts,
        vec![
            Expression::FunctionCall(
                spargebra::algebra::Function::Str,
                vec![Expression::Variable(x.clone())],
            ),
            Expression::Literal(oxigraph::model::Literal::new_simple_literal(
                crate::oxl::OWN_PREFIX,
            )),
        ],
    );
    crate::oracle::sparql::and_all([Expression::Not(Box::new(own)), not_declared(x)])
}

/// Not typed as a class or property.
fn not_declared(x: &Variable) -> Expression {
    const SCHEMA_TYPES: [&str; 6] = [
        "http://www.w3.org/2002/07/owl#Class",
        "http://www.w3.org/2000/01/rdf-schema#Class",
        "http://www.w3.org/2002/07/owl#ObjectProperty",
        "http://www.w3.org/2002/07/owl#DatatypeProperty",
        "http://www.w3.org/2002/07/owl#AnnotationProperty",
        "http://www.w3.org/1999/02/22-rdf-syntax-ns#Property",
    ];
    let k = Variable::new_unchecked("schema_type");
    let typed = GraphPattern::Join {
        left: Box::new(GraphPattern::Bgp {
            patterns: vec![spargebra::term::TriplePattern {
                subject: x.clone().into(),
                predicate: NamedNodePattern::NamedNode(NamedNode::new_unchecked(
                    oxigraph::model::vocab::rdf::TYPE.as_str(),
                )),
                object: k.clone().into(),
            }],
        }),
        right: Box::new(GraphPattern::Values {
            variables: vec![k],
            bindings: SCHEMA_TYPES
                .iter()
                .map(|t| {
                    vec![Some(spargebra::term::GroundTerm::NamedNode(
                        NamedNode::new_unchecked(*t),
                    ))]
                })
                .collect(),
        }),
    };
    Expression::Not(Box::new(Expression::Exists(Box::new(typed))))
}

/// Asks `model` about the candidates a page at a time and hands `sink` each page's
/// predictions (sorted by IRI); returns how many candidates were asked about.
pub fn apply_paged(
    kb: &KnowledgeBase,
    model: &dyn Model,
    candidates: &Candidates,
    options: &ApplyOptions<'_>,
    sink: &mut dyn FnMut(Vec<(NamedNode, Prediction)>) -> Result<(), EnrichError>,
) -> Result<usize, EnrichError> {
    let mut done = 0;
    let mut pages = kb.candidate_pages(candidates, options.page_size)?;
    loop {
        options.check(done)?;
        let Some(page) = pages.next() else {
            return Ok(done);
        };
        let page: Vec<Iri> = page?;
        let n = page.len();
        sink(kb.page(page).predict(model)?)?;
        done += n;
        (options.progress)(done);
    }
}

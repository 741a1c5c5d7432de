//! The triples of one enrichment, as a pure function of its inputs (sorted, no duplicates),
//! so a rerun writes exactly the same ones.

use oxigraph::model::vocab::{rdf, xsd};
use oxigraph::model::{Literal, NamedNode, Quad, Term};

use super::ModelIdentity;
use crate::learn::Prediction;
use crate::oxl;

/// One run: which model, which class, into which graph.
#[derive(Clone, Debug)]
pub struct Enrichment<'a> {
    pub model: &'a ModelIdentity,
    pub class: NamedNode,
    pub graph: NamedNode,
    /// The score threshold membership was decided by (`None`: the model's own decision).
    pub threshold: Option<f64>,
    /// `prov:endedAtTime` as an `xsd:dateTime` lexical form; `None` keeps reruns identical.
    pub ended_at: Option<String>,
}

/// Whether `p` counts as a predicted member: the model's decision, or, with a threshold, its
/// ranking value (score, probability or degree) at or above it.
pub fn is_predicted_member(p: &Prediction, threshold: Option<f64>) -> bool {
    match (threshold, p.ranking_value()) {
        (Some(t), Some(v)) => v >= t,
        _ => p.member,
    }
}

/// The graph's triples for the predicted `members` (individual IRI and prediction): their
/// typings, for a scored model a prediction resource each, the run and the model. Sorted by
/// their N-Quads form.
pub fn enrichment_quads(
    run: &Enrichment<'_>,
    members: &[(NamedNode, Prediction)],
    scored: bool,
) -> Vec<Quad> {
    let mut quads = provenance_quads(run);
    quads.extend(member_quads(run, members, scored));
    sorted(quads)
}

/// The triples that do not depend on the members: the graph's marker, the run and the
/// model (a few dozen, whatever the number of members). Sorted.
pub fn provenance_quads(run: &Enrichment<'_>) -> Vec<Quad> {
    let mut out = Graph {
        graph: run.graph.clone(),
        quads: Vec::new(),
    };
    let model = iri(&oxl::model_iri(&run.model.fingerprint));
    let activity = activity_iri(run);
    out.add(&run.graph, rdf::TYPE.into(), iri(oxl::PREDICTION_GRAPH));
    out.add(
        &run.graph,
        iri(oxl::PROV_WAS_GENERATED_BY),
        activity.clone(),
    );
    describe_activity(&mut out, run, &activity, &model);
    describe_model(&mut out, run.model, &model);
    sorted(out.quads)
}

/// Whether each member gets a prediction resource with its score: not for a class
/// expression applied by its own decision (membership is all it says, and the store can
/// then write the typings itself).
pub fn writes_scores(model: &dyn crate::learn::Model, threshold: Option<f64>) -> bool {
    model.is_scored() && (model.concept().is_none() || threshold.is_some())
}

/// The triples of some predicted members (a page of them): their typings and, for a
/// scored model, their prediction resources. Sorted.
pub fn member_quads(
    run: &Enrichment<'_>,
    members: &[(NamedNode, Prediction)],
    scored: bool,
) -> Vec<Quad> {
    let mut out = Graph {
        graph: run.graph.clone(),
        quads: Vec::new(),
    };
    let activity = activity_iri(run);
    for (x, p) in members {
        out.add(x, rdf::TYPE.into(), run.class.clone());
        if scored {
            describe_prediction(&mut out, run, &activity, x, p);
        }
    }
    sorted(out.quads)
}

/// The run's activity: one per model, graph and class, so a rerun finds it again.
pub(crate) fn activity_iri(run: &Enrichment<'_>) -> NamedNode {
    iri(&oxl::enrichment_iri(
        &run.model.fingerprint,
        run.graph.as_str(),
        run.class.as_str(),
    ))
}

/// Sorted by N-Quads form, duplicates dropped.
fn sorted(quads: Vec<Quad>) -> Vec<Quad> {
    let mut keyed: Vec<(String, Quad)> = quads.into_iter().map(|q| (q.to_string(), q)).collect();
    keyed.sort_by(|a, b| a.0.cmp(&b.0));
    keyed.dedup_by(|a, b| a.0 == b.0);
    keyed.into_iter().map(|(_, q)| q).collect()
}

fn describe_activity(
    out: &mut Graph,
    run: &Enrichment<'_>,
    activity: &NamedNode,
    model: &NamedNode,
) {
    out.add(activity, rdf::TYPE.into(), iri(oxl::PROV_ACTIVITY));
    out.add(activity, rdf::TYPE.into(), iri(oxl::ENRICHMENT));
    out.add(activity, iri(oxl::PROV_USED), model.clone());
    out.add(activity, iri(oxl::CLASS), run.class.clone());
    if let Some(t) = run.threshold {
        out.add(activity, iri(oxl::THRESHOLD), double(t));
    }
    if let Some(at) = &run.ended_at {
        out.add(
            activity,
            iri(oxl::PROV_ENDED_AT_TIME),
            Literal::new_typed_literal(at, xsd::DATE_TIME),
        );
    }
}

fn describe_model(out: &mut Graph, m: &ModelIdentity, model: &NamedNode) {
    out.add(model, rdf::TYPE.into(), iri(oxl::MODEL));
    out.add(model, rdf::TYPE.into(), iri(oxl::PROV_ENTITY));
    out.add(model, iri(oxl::FINGERPRINT), text(&m.fingerprint));
    out.add(model, iri(oxl::ALGORITHM), text(&m.algorithm));
    out.add(model, iri(oxl::PARAMETERS), text(&m.parameters.to_string()));
    out.add(
        model,
        iri(oxl::SIGNATURE_FINGERPRINT),
        text(&m.signature_fingerprint),
    );
    out.add(model, iri(oxl::DEFINITION), text(&m.definition));
    if let Some(p) = &m.problem {
        out.add(model, iri(oxl::PROBLEM), text(p));
    }
    if let Some(t) = &m.training {
        out.add(model, iri(oxl::TRAINING_MEASURES), text(&t.to_string()));
    }
}

fn describe_prediction(
    out: &mut Graph,
    run: &Enrichment<'_>,
    activity: &NamedNode,
    x: &NamedNode,
    p: &Prediction,
) {
    let node = iri(&oxl::prediction_iri(
        &run.model.fingerprint,
        x.as_str(),
        run.class.as_str(),
    ));
    out.add(&node, rdf::TYPE.into(), iri(oxl::PREDICTION));
    out.add(&node, iri(oxl::INDIVIDUAL), x.clone());
    out.add(&node, iri(oxl::CLASS), run.class.clone());
    out.add(&node, iri(oxl::MEMBER), Literal::from(p.member));
    out.add(&node, iri(oxl::PROV_WAS_GENERATED_BY), activity.clone());
    let values = [
        (oxl::SCORE, p.score),
        (oxl::PROBABILITY, p.probability),
        (oxl::DEGREE, p.degree),
        (oxl::LOWER, p.interval.map(|i| i.0)),
        (oxl::UPPER, p.interval.map(|i| i.1)),
    ];
    for (property, value) in values {
        if let Some(v) = value.filter(|v| v.is_finite()) {
            out.add(&node, iri(property), double(v));
        }
    }
}

/// Quads being collected into one graph.
struct Graph {
    graph: NamedNode,
    quads: Vec<Quad>,
}

impl Graph {
    fn add(&mut self, s: &NamedNode, p: NamedNode, o: impl Into<Term>) {
        self.quads
            .push(Quad::new(s.clone(), p, o, self.graph.clone()));
    }
}

fn iri(s: &str) -> NamedNode {
    NamedNode::new_unchecked(s)
}

fn text(s: &str) -> Literal {
    Literal::new_simple_literal(s)
}

/// A double in its canonical form (stores give it back the same, so a rerun finds the very
/// triples it wrote).
fn double(v: f64) -> Literal {
    Literal::from(v)
}

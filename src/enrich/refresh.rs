//! Keeping predictions fresh after the data changed: only the individuals whose prediction
//! may have changed are asked again, and their triples in the graph replaced.
//!
//! Why that set suffices: a prediction reads triples at most `d` role steps from its
//! individual, `d` the greatest role depth of the concepts the model asks about
//! ([`Model::concepts_asked`]). An inserted or deleted triple can change an individual's
//! prediction only if it lies within those `d` steps; on a shortest path to it, the nearest
//! changed triple lies behind edges that are still there. So the individuals to ask again
//! are those within `d` steps of an end of a changed triple in the data as it is now, found a
//! frontier at a time with bounded queries, in both directions and over every predicate but
//! `rdf:type` (inverse roles, symmetric and inverse properties, sub-properties are all
//! edges). A transitive property reaches arbitrarily far: a model restricting one is refused.
//! Changes to the schema (a new subclass axiom) can change anyone: they need a full run.
//!
//! Each chunk of those individuals is patched with one update request (their typings and
//! prediction resources deleted, the new ones inserted), so every individual is either old
//! or new, never half-written, and a run that stops can simply be repeated. The provenance
//! is left as it is: the graph ends as a full rerun with the same model, class, scope and
//! threshold writes it.

use std::collections::BTreeSet;

use oxigraph::model::{NamedNode, Term};
use serde::Serialize;
use spargebra::SparqlParser;

use super::EnrichError;
use super::apply::ApplyOptions;
use super::build::{Enrichment, member_quads, writes_scores};
use super::staged::{UpdateTarget, insert_data};
use crate::concept::{Iri, role_depth, roles};
use crate::knowledge_base::{Candidates, KnowledgeBase, ScopeQuery};
use crate::learn::Model;
use crate::oracle::Signature;
use crate::oxl;

/// Changed individuals asked about per neighbourhood query.
const FRONTIER_CHUNK: usize = 200;

/// What a refresh found and changed.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct RefreshReport {
    /// How many role steps the model's predictions look.
    pub depth: usize,
    /// Distinct changed individuals given.
    pub changed: usize,
    /// Individuals within `depth` steps of a change: the ones asked again.
    pub affected: usize,
    /// Of those, the ones among the run's candidates (its scope).
    pub in_scope: usize,
    /// Predicted members among the affected individuals now.
    pub members: usize,
    /// Members now that the graph did not type before (`None` without a target).
    pub gained: Option<usize>,
    /// Individuals the graph typed before that are members no more.
    pub lost: Option<usize>,
}

/// Re-predicts the individuals within the model's reach of `changed` (IRIs of both ends of
/// every inserted or deleted triple) and patches `run.graph` at `target` (`None`: only
/// reports what would be asked). `candidates` must be the scope of the run that wrote the
/// graph; the graph must hold that run's provenance (same model, class and threshold).
pub fn refresh(
    kb: &KnowledgeBase,
    model: &dyn Model,
    target: Option<&dyn UpdateTarget>,
    run: &Enrichment<'_>,
    candidates: &Candidates,
    changed: &[Iri],
    options: &ApplyOptions<'_>,
) -> Result<RefreshReport, EnrichError> {
    let depth = reach(model, kb.signature())?;
    if let Some(target) = target {
        check_written_by(target, run)?;
    }
    let changed: BTreeSet<Iri> = changed
        .iter()
        .filter(|i| kb.signature().may_be_individual(i))
        .cloned()
        .collect();
    let affected = within(kb, &changed, depth, options)?;
    let mut report = RefreshReport {
        depth,
        changed: changed.len(),
        affected: affected.len(),
        gained: target.map(|_| 0),
        lost: target.map(|_| 0),
        ..RefreshReport::default()
    };
    let scored = writes_scores(model, run.threshold);
    let chunk = options
        .page_size
        .min(kb.oracle().inner().values_chunk())
        .max(1);
    let mut done = 0;
    for part in affected.chunks(chunk) {
        options.check(done).map_err(|e| part_way(e, done))?;
        let in_scope = kb.candidates_among(candidates, part)?;
        let members: Vec<_> = kb
            .page(in_scope.clone())
            .predict(model)?
            .into_iter()
            .filter(|(_, p)| super::is_predicted_member(p, run.threshold))
            .collect();
        report.in_scope += in_scope.len();
        report.members += members.len();
        if let Some(target) = target {
            let before = typed_in_graph(target, run, part)?;
            let now: BTreeSet<&str> = members.iter().map(|(x, _)| x.as_str()).collect();
            let was: BTreeSet<&str> = before.iter().map(String::as_str).collect();
            *report.gained.get_or_insert(0) += now.difference(&was).count();
            *report.lost.get_or_insert(0) += was.difference(&now).count();
            let patch = patch(run, part, &member_quads(run, &members, scored), scored);
            let step = format!(
                "replacing the predictions of {} individuals in {}",
                part.len(),
                run.graph
            );
            target
                .update(&step, &patch, true)
                .map_err(|e| target.failure(e))?;
        }
        done += part.len();
        (options.progress)(done);
    }
    Ok(report)
}

/// The embedded platform's one call: after `changed` individuals' triples changed in
/// `store`, patches `run.graph` there, for a run over the model's own support (what
/// `enrich` does without a scope). A model without a support (see [`Model::support`])
/// needs [`refresh`] with the run's candidates.
pub fn refresh_store(
    store: &oxigraph::store::Store,
    model: &dyn Model,
    run: &Enrichment<'_>,
    changed: &[Iri],
) -> Result<RefreshReport, EnrichError> {
    let support = model
        .support(run.threshold)
        .ok_or_else(|| EnrichError::Refresh {
            message: format!(
                "this {} model has no support to refresh over: call refresh with the \
                 candidates of the run that wrote {}",
                model.algorithm(),
                run.graph
            ),
        })?;
    let kb = KnowledgeBase::builder().open_store(store.clone())?;
    let target = super::store::StoreTarget(store.clone());
    refresh(
        &kb,
        model,
        Some(&target),
        run,
        &Candidates::Instances(support),
        changed,
        &ApplyOptions::default(),
    )
}

/// A stop after `done` individuals were patched: those are fresh, the others not yet.
fn part_way(e: EnrichError, done: usize) -> EnrichError {
    match e {
        EnrichError::Stopped { reason, .. } if done > 0 => EnrichError::Refresh {
            message: format!(
                "{reason} after refreshing {done} individuals: their predictions are \
                 up to date, the others not yet; run the refresh again to finish"
            ),
        },
        e => e,
    }
}

/// How many role steps from an individual the model's predictions look; an error when the
/// model cannot say or restricts a transitive property.
pub fn reach(model: &dyn Model, signature: &Signature) -> Result<usize, EnrichError> {
    let concepts = model.concepts_asked().ok_or_else(|| EnrichError::Refresh {
        message: format!(
            "a {} model does not say which concepts it asks about, so what a change can \
             reach is unknown: run a full enrich instead",
            model.algorithm()
        ),
    })?;
    let used: BTreeSet<&Iri> = concepts
        .iter()
        .flat_map(roles)
        .map(|r| &r.property)
        .collect();
    let transitive = signature.object_properties.iter().find(|(p, info)| {
        info.transitive
            && signature
                .super_property_closure(p)
                .iter()
                .any(|s| used.contains(s))
    });
    if let Some((p, _)) = transitive {
        return Err(EnrichError::Refresh {
            message: format!(
                "the model restricts the transitive property <{p}> (or a super-property of \
                 it), through which a change reaches arbitrarily far: run a full enrich instead"
            ),
        });
    }
    Ok(concepts.iter().map(role_depth).max().unwrap_or(0))
}

/// `changed` and every individual within `depth` steps of it, sorted.
fn within(
    kb: &KnowledgeBase,
    changed: &BTreeSet<Iri>,
    depth: usize,
    options: &ApplyOptions<'_>,
) -> Result<Vec<Iri>, EnrichError> {
    let mut seen = changed.clone();
    let mut frontier: Vec<Iri> = changed.iter().cloned().collect();
    for _ in 0..depth {
        if frontier.is_empty() {
            break;
        }
        let mut next = Vec::new();
        for chunk in frontier.chunks(FRONTIER_CHUNK) {
            options.check(0)?;
            let query = Candidates::Query(neighbours_query(chunk)?);
            for page in kb.candidate_pages(&query, options.page_size)? {
                next.extend(page?.into_iter().filter(|i| !seen.contains(i)));
            }
        }
        next.sort();
        next.dedup();
        seen.extend(next.iter().cloned());
        frontier = next;
    }
    Ok(seen.into_iter().collect())
}

/// The IRIs one edge away from `iris`, either direction, `rdf:type` aside.
fn neighbours_query(iris: &[Iri]) -> Result<ScopeQuery, EnrichError> {
    let values: Vec<String> = iris.iter().map(|i| format!("<{}>", i.as_str())).collect();
    let text = format!(
        "SELECT ?n WHERE {{ VALUES ?c {{ {} }} {{ ?n ?p ?c }} UNION {{ ?c ?p ?n }} \
         FILTER(?p != <{}>) }}",
        values.join(" "),
        oxigraph::model::vocab::rdf::TYPE.as_str()
    );
    Ok(ScopeQuery::parse(&text)?)
}

/// Refuses a graph that a run with other settings wrote (or none): patching it would mix
/// two runs' predictions.
fn check_written_by(target: &dyn UpdateTarget, run: &Enrichment<'_>) -> Result<(), EnrichError> {
    let activity = super::build::activity_iri(run);
    let query = format!(
        "SELECT ?m ?t WHERE {{ GRAPH {g} {{ {activity} <{used}> ?m \
         OPTIONAL {{ {activity} <{threshold}> ?t }} }} }}",
        g = run.graph,
        used = oxl::PROV_USED,
        threshold = oxl::THRESHOLD,
    );
    let table = select(target, "checking which run wrote the graph", &query)?;
    let model = oxl::model_iri(&run.model.fingerprint);
    let row = table.rows.iter().find(
        |r| matches!(r.first().cloned().flatten(), Some(Term::NamedNode(n)) if n.as_str() == model),
    );
    let Some(row) = row else {
        return Err(EnrichError::Refresh {
            message: format!(
                "{} holds no predictions of this model for <{}>: run a full enrich first \
                 (refreshing patches what a full run wrote)",
                run.graph, run.class
            ),
        });
    };
    let recorded = match row.get(1).cloned().flatten() {
        Some(Term::Literal(l)) => l.value().parse::<f64>().ok(),
        _ => None,
    };
    if recorded != run.threshold {
        return Err(EnrichError::Refresh {
            message: format!(
                "{} was written with {}, this run has {}: give the same --threshold, or run \
                 a full enrich",
                run.graph,
                describe_threshold(recorded),
                describe_threshold(run.threshold)
            ),
        });
    }
    Ok(())
}

fn describe_threshold(t: Option<f64>) -> String {
    t.map_or("no threshold".to_owned(), |t| format!("threshold {t}"))
}

/// Which of `iris` the graph types with the run's class now.
fn typed_in_graph(
    target: &dyn UpdateTarget,
    run: &Enrichment<'_>,
    iris: &[Iri],
) -> Result<Vec<String>, EnrichError> {
    let query = format!(
        "SELECT ?x WHERE {{ VALUES ?x {{ {} }} GRAPH {} {{ ?x a {} }} }}",
        values(iris.iter().map(|i| i.as_str())),
        run.graph,
        run.class
    );
    let table = select(target, "reading the current predictions", &query)?;
    Ok(table
        .column_values("x")
        .filter_map(|t| match t {
            Term::NamedNode(n) => Some(n.as_str().to_owned()),
            _ => None,
        })
        .collect())
}

/// One update: the typings (and prediction resources) of `iris` in the graph deleted, the
/// new `quads` inserted.
fn patch(
    run: &Enrichment<'_>,
    iris: &[Iri],
    quads: &[oxigraph::model::Quad],
    scored: bool,
) -> String {
    let g = &run.graph;
    let mut parts = vec![format!(
        "DELETE {{ GRAPH {g} {{ ?x a {class} }} }} WHERE {{ VALUES ?x {{ {xs} }} GRAPH {g} {{ ?x a {class} }} }}",
        class = run.class,
        xs = values(iris.iter().map(|i| i.as_str())),
    )];
    if scored {
        let nodes: Vec<String> = iris
            .iter()
            .map(|i| oxl::prediction_iri(&run.model.fingerprint, i.as_str(), run.class.as_str()))
            .collect();
        parts.push(format!(
            "DELETE {{ GRAPH {g} {{ ?n ?p ?o }} }} WHERE {{ VALUES ?n {{ {} }} GRAPH {g} {{ ?n ?p ?o }} }}",
            values(nodes.iter().map(String::as_str))
        ));
    }
    if !quads.is_empty() {
        parts.push(insert_data(g, quads));
    }
    parts.join(" ;\n")
}

fn values<'a>(iris: impl Iterator<Item = &'a str>) -> String {
    iris.map(|i| NamedNode::new_unchecked(i).to_string())
        .collect::<Vec<_>>()
        .join(" ")
}

fn select(
    target: &dyn UpdateTarget,
    step: &str,
    query: &str,
) -> Result<crate::oracle::backend::SolutionTable, EnrichError> {
    let parsed = SparqlParser::new()
        .parse_query(query)
        .map_err(|e| target.failure(format!("{step}: cannot write the query: {e}")))?;
    target.select(step, &parsed).map_err(|e| target.failure(e))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::concept::Concept;
    use crate::eval::Confusion;
    use crate::learn::{ConceptModel, QualityMeasure, Solution};
    use crate::oracle::Semantics;

    fn model(c: Concept) -> ConceptModel {
        ConceptModel {
            quality_measure: QualityMeasure::F1,
            semantics: Semantics::Closed,
            solutions: vec![Solution {
                concept: c,
                confusion: Confusion::default(),
                quality: 1.0,
            }],
        }
    }

    /// The library call on an embedded store: a change through an inverse property
    /// (`hasParent`, declared `owl:inverseOf hasChild`) two steps away is found, and the
    /// graph ends typing exactly the instances of the changed KB.
    #[test]
    fn refresh_store_patches_what_a_change_reaches() {
        use oxigraph::model::{GraphNameRef, NamedNodeRef};
        let store = oxigraph::store::Store::new().unwrap();
        let path =
            std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/family/family.ttl");
        crate::files::load_file(&store, &path, None).unwrap();
        let fam = |n: &str| format!("http://example.org/family#{n}");
        let kb = KnowledgeBase::builder().open_store(store.clone()).unwrap();
        let c = kb
            .parse_concept("hasChild some (hasChild some Thing)")
            .unwrap();
        let model = model(c.clone());
        let identity = crate::enrich::ModelIdentity {
            fingerprint: "fnv1a64:1".into(),
            algorithm: "celoe".into(),
            parameters: serde_json::json!({}),
            signature_fingerprint: "fnv1a64:0".into(),
            definition: "grandparent".into(),
            problem: None,
            training: None,
        };
        let run = Enrichment {
            model: &identity,
            class: NamedNode::new_unchecked(fam("Grandparent")),
            graph: NamedNode::new_unchecked("http://example.org/predictions"),
            threshold: None,
            ended_at: None,
        };
        let members = |kb: &KnowledgeBase| -> BTreeSet<String> {
            kb.iris(&kb.instances(&c).unwrap())
                .map(|i| i.as_str().to_owned())
                .collect()
        };
        let before = members(&kb);
        let predictions: Vec<_> = kb
            .page(kb.iris(&kb.individuals()).cloned().collect())
            .predict(&model)
            .unwrap()
            .into_iter()
            .filter(|(_, p)| p.member)
            .collect();
        let quads = crate::enrich::enrichment_quads(&run, &predictions, false);
        crate::enrich::store::write_to_store(
            &store,
            &run.graph,
            &quads,
            crate::enrich::Mode::Replace,
            false,
        )
        .unwrap();
        // A new grandchild for tom's parents: someone is tom's child, said from below.
        store
            .update(&format!(
                "INSERT DATA {{ <{}> <{}> <{}> }}",
                fam("newborn"),
                fam("hasParent"),
                fam("tom")
            ))
            .unwrap();
        let changed = [Iri::new(fam("newborn")), Iri::new(fam("tom"))];
        let report = refresh_store(&store, &model, &run, &changed).unwrap();
        let after = members(&KnowledgeBase::builder().open_store(store.clone()).unwrap());
        assert!(
            after.len() > before.len(),
            "the change makes new grandparents"
        );
        assert_eq!(
            report.gained,
            Some(after.len() - before.len()),
            "{report:?}"
        );
        let typed: BTreeSet<String> = store
            .quads_for_pattern(
                None,
                Some(oxigraph::model::vocab::rdf::TYPE),
                Some(NamedNodeRef::new_unchecked(&fam("Grandparent")).into()),
                Some(GraphNameRef::NamedNode(run.graph.as_ref())),
            )
            .map(|q| {
                q.unwrap()
                    .subject
                    .to_string()
                    .trim_matches(['<', '>'])
                    .to_owned()
            })
            .collect();
        assert_eq!(typed, after);
    }

    #[test]
    fn reach_is_the_deepest_role_nesting() {
        let r = crate::concept::Role::new("http://e/r");
        let c = Concept::some(r.clone(), Concept::some(r, Concept::class("http://e/A")));
        assert_eq!(reach(&model(c), &Signature::default()).unwrap(), 2);
        assert_eq!(
            reach(&model(Concept::class("http://e/A")), &Signature::default()).unwrap(),
            0
        );
    }

    #[test]
    fn a_transitive_role_is_refused_by_name() {
        let mut sig = Signature::default();
        sig.object_properties.insert(
            Iri::new("http://e/part"),
            crate::oracle::ObjectPropertyInfo {
                transitive: true,
                ..Default::default()
            },
        );
        let c = Concept::some(crate::concept::Role::new("http://e/part"), Concept::Top);
        let e = reach(&model(c), &sig).unwrap_err().to_string();
        assert!(
            e.contains("<http://e/part>") && e.contains("full enrich"),
            "{e}"
        );
    }
}

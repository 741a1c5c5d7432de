//! Which individuals a signature interns, and reading a signature whose cost is set by the
//! examples rather than by the size of the ABox.
//!
//! A learning run only ever asks about its examples: membership of an example in a concept
//! is compiled to SPARQL and evaluated by the store over the whole KB, whatever the universe.
//! What the universe decides is everything *else* that reads individuals: the numeric split
//! points (values of the examples and of what they reach), the minimiser's equivalence check,
//! the successor lists the cache composes restrictions from, the classes and properties the
//! operator offers. Under [`IndividualScope::Neighbourhood`] those are the seeds plus the
//! individuals reachable from them along IRI-valued edges (forwards; backwards too along
//! symmetric properties and those with a declared inverse, or along all of them when the
//! operator uses inverse roles), to a depth; the schema is read with TBox queries only.
//!
//! Each node of the walk has its triples fetched once (see [`super::facts`]): they give the
//! next step's edges, and everything the signature says about the universe (predicate
//! usage, types, value statistics) plus the tables that answer the run's value and
//! successor questions over the universe without a query.
//!
//! Where the meaning of a concept depends on a domain larger than that — the instances of
//! `¬C` or `∀r.C` *over the whole KB* — the answer needs [`IndividualScope::ActiveDomain`]:
//! listing commands (`instances`, `predict --all`, `signature`) use it, learning never does.

use std::collections::{BTreeMap, BTreeSet};

use rayon::prelude::*;
use spargebra::Query;
use spargebra::term::GroundTerm;

use super::answers::SchemaAnswers;
use super::facts::Facts;
use super::load::{
    Declarations, iri_pairs, iris_of, load_classes, load_properties, run,
    set_individuals_without_schema, without_vocabulary,
};
use super::model::{ScopeKind, ScopeReport, Signature};
use super::typings::AssertedTypes;
use super::{ground, is_vocabulary};
use crate::concept::Iri;
use crate::oracle::OracleError;
use crate::oracle::backend::{SolutionTable, SparqlBackend};
use crate::oracle::sparql::{fill_in_list, fill_values, fixed_query};

/// Which individuals the signature interns (the universe of every [`crate::oracle::IndividualSet`]).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub enum IndividualScope {
    /// Every individual of the KB (typed, or at an end of a role assertion). Costs passes
    /// over the whole ABox: for answers about the whole KB, not for learning.
    #[default]
    ActiveDomain,
    /// No individuals: the schema alone (declared classes and properties, hierarchy,
    /// characteristics; the neighbourhood of no seed), read with TBox queries whose cost does
    /// not grow with the ABox. For commands whose answer the store lists itself
    /// ([`crate::oracle::SparqlOracle::instances_in_kb`]). Properties and classes used in the
    /// data but never declared are unknown to it.
    Schema,
    /// The seeds (a run's examples) and what they reach: what learning needs, at a cost that
    /// does not grow with the ABox.
    Neighbourhood(Neighbourhood),
}

/// The individuals reachable from `seeds` in at most `depth` steps.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Neighbourhood {
    pub seeds: Vec<Iri>,
    /// Role steps from the seeds (the concepts' nesting the split points and successor lists
    /// serve; deeper restrictions are still answered exactly by the store).
    pub depth: usize,
    /// The walk stops adding individuals at this many (hub nodes of a large KB can reach
    /// millions); the signature then says it was truncated.
    pub max_individuals: usize,
    /// Walk backwards along every IRI-valued edge (the operator offers inverse roles).
    pub inverse_roles: bool,
}

impl Neighbourhood {
    pub const DEFAULT_DEPTH: usize = 2;
    pub const DEFAULT_MAX_INDIVIDUALS: usize = 250_000;

    /// The default walk from `seeds`.
    pub fn of(seeds: impl IntoIterator<Item = Iri>) -> Self {
        let mut seeds: Vec<Iri> = seeds.into_iter().collect();
        seeds.sort();
        seeds.dedup();
        Neighbourhood {
            seeds,
            depth: Self::DEFAULT_DEPTH,
            max_individuals: Self::DEFAULT_MAX_INDIVIDUALS,
            inverse_roles: false,
        }
    }
}

/// IRIs per `VALUES` block of the seeds' presence and the backward edges (well below
/// Virtuoso's limit).
const CHUNK: usize = 500;

/// Reads the signature over the neighbourhood of the seeds: the schema from `schema`, every
/// node's triples once (see [`super::facts`]), and the rest computed from them.
pub(super) fn load_neighbourhood(
    backend: &dyn SparqlBackend,
    schema: &SchemaAnswers,
    n: &Neighbourhood,
) -> Result<Signature, OracleError> {
    let mut sig = Signature::default();
    let declarations = Declarations::from_answers(schema)?;
    let backwards = backward_predicates(schema, &declarations, n.inverse_roles)?;
    let mut facts = Facts::default();
    let walk = walk(backend, n, &declarations, &backwards, &mut facts)?;
    load_properties(schema, &mut sig, &declarations, &facts.usage)?;

    let individuals: BTreeSet<Iri> = walk
        .reached_by
        .iter()
        .filter(|(node, preds)| {
            walk.seeds_found.contains(*node)
                || preds.iter().any(|p| sig.object_properties.contains_key(p))
        })
        .map(|(node, _)| node.clone())
        .collect();

    let mut classes = iris_of(schema.table("schema_classes")?, "c");
    sig.schema_classes = without_vocabulary(classes.clone());
    let typings: Vec<(Iri, Iri)> = facts
        .typings(&individuals)
        .map(|(x, c)| (x.clone(), c.clone()))
        .collect();
    classes.extend(typings.iter().map(|(_, c)| c.clone()));
    // A fact about the data (an individual typed with a class expression): never cached.
    let blank_types = !run(backend, "scope_blank_types")?.rows.is_empty();
    load_classes(schema, &mut sig, classes, blank_types)?;
    facts.add_value_statistics(&mut sig, &individuals);
    set_individuals_without_schema(&mut sig, individuals);
    sig.universe_values = Some(facts.universe_values(&sig));
    sig.universe_edges = Some(facts.universe_edges(&sig));
    // Blank-node types need the path form of class atoms: then they are asked.
    if !blank_types {
        let pairs = typings
            .into_iter()
            .filter_map(|(x, c)| Some((sig.individual_id(x.as_str())?, c)));
        sig.asserted_types = Some(AssertedTypes::from_pairs(pairs));
    }
    sig.scope = ScopeReport {
        kind: ScopeKind::Neighbourhood,
        seeds: n.seeds.len(),
        seeds_found: walk.seeds_found.len(),
        depth: n.depth,
        individuals: sig.individual_count(),
        truncated: walk.truncated,
    };
    Ok(sig)
}

/// The predicates the walk follows against their direction: all (`None`) when the operator
/// uses inverse roles; otherwise those whose roles reach subjects from objects (symmetric
/// ones, and both sides of a declared `owl:inverseOf`).
fn backward_predicates(
    schema: &SchemaAnswers,
    declarations: &Declarations,
    inverse_roles: bool,
) -> Result<Option<BTreeSet<Iri>>, OracleError> {
    if inverse_roles {
        return Ok(None);
    }
    let mut out: BTreeSet<Iri> = declarations.symmetric().cloned().collect();
    let inverses = schema.table("inverses")?;
    out.extend(iris_of(inverses, "p"));
    out.extend(iris_of(inverses, "q"));
    Ok(Some(out))
}

struct Walk {
    /// Every node reached (seeds included), with the predicates of the edges that reached it.
    reached_by: BTreeMap<Iri, BTreeSet<Iri>>,
    seeds_found: BTreeSet<Iri>,
    truncated: bool,
}

/// Breadth-first from the seeds that occur in the data, `depth` steps. Every node reached
/// has its triples fetched into `facts`, once: they give the forward edges of the next step.
fn walk(
    backend: &dyn SparqlBackend,
    n: &Neighbourhood,
    declarations: &Declarations,
    backwards: &Option<BTreeSet<Iri>>,
    facts: &mut Facts,
) -> Result<Walk, OracleError> {
    let seeds: BTreeSet<Iri> = n.seeds.iter().cloned().collect();
    let first = facts.fetch(backend, &seeds)?;
    let mut seeds_found = first.subjects;
    // Only seeds that are no subject are looked for as objects: Virtuoso answers the object
    // form slowly (over 4 minutes for 298 examples of carcinogenesis ×10).
    let unseen: BTreeSet<Iri> = seeds.difference(&seeds_found).cloned().collect();
    if !unseen.is_empty() {
        for table in per_chunk(backend, "scope_present_objects", "x", &unseen)? {
            seeds_found.extend(iris_of(&table, "x"));
        }
    }
    let mut reached_by: BTreeMap<Iri, BTreeSet<Iri>> = seeds_found
        .iter()
        .map(|s| (s.clone(), BTreeSet::new()))
        .collect();
    // The seeds' edges, kept only for those found (unseen seeds have none).
    let mut forward = first.edges;
    let mut frontier = seeds_found.clone();
    let mut truncated = false;
    for step in 0..n.depth {
        if frontier.is_empty() || truncated {
            break;
        }
        let mut edges = if step == 0 {
            std::mem::take(&mut forward)
        } else {
            facts.fetch(backend, &frontier)?.edges
        };
        match backwards {
            None => {
                for table in per_chunk(backend, "scope_edges_inverse", "x", &frontier)? {
                    edges.extend(iri_pairs(&table, "p", "y"));
                }
            }
            Some(preds) if !preds.is_empty() => {
                let list: Vec<GroundTerm> = preds.iter().map(ground).collect();
                for chunk in chunks(&frontier) {
                    let mut q = fixed_query("scope_edges_inverse_of")?;
                    fill_values(&mut q, "x", chunk)?;
                    fill_in_list(&mut q, "p", list.clone())?;
                    edges.extend(iri_pairs(&backend.select(&q)?, "p", "y"));
                }
            }
            Some(_) => {}
        }
        let mut next = BTreeSet::new();
        for (p, y) in edges {
            if declarations.never_a_role(&p) || is_vocabulary(y.as_str()) {
                continue;
            }
            if let Some(preds) = reached_by.get_mut(&y) {
                preds.insert(p);
                continue;
            }
            if reached_by.len() >= n.max_individuals {
                truncated = true;
                continue;
            }
            reached_by.insert(y.clone(), BTreeSet::from([p]));
            next.insert(y);
        }
        frontier = next;
    }
    // The nodes whose edges were not followed (the last step's, or those cut off by the
    // limit) still count: their triples give the usage, types and values.
    let rest: BTreeSet<Iri> = reached_by
        .keys()
        .filter(|node| !facts.has(node))
        .cloned()
        .collect();
    facts.fetch(backend, &rest)?;
    Ok(Walk {
        reached_by,
        seeds_found,
        truncated,
    })
}

/// The IRIs as `VALUES` chunks, in order.
fn chunks(iris: &BTreeSet<Iri>) -> Vec<Vec<GroundTerm>> {
    let all: Vec<&Iri> = iris.iter().collect();
    all.chunks(CHUNK)
        .map(|chunk| chunk.iter().map(|i| ground(i)).collect())
        .collect()
}

/// Runs the fixed query `name` once per chunk of `iris` (filled into `?var`).
fn per_chunk(
    backend: &dyn SparqlBackend,
    name: &str,
    var: &str,
    iris: &BTreeSet<Iri>,
) -> Result<Vec<SolutionTable>, OracleError> {
    // Chunks in parallel (answers in chunk order): the embedded store answers each on its
    // own thread, an endpoint up to its concurrency.
    chunks(iris)
        .into_par_iter()
        .map(|chunk| {
            let mut q: Query = fixed_query(name)?;
            fill_values(&mut q, var, chunk)?;
            backend.select(&q)
        })
        .collect()
}

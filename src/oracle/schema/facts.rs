//! The triples out of a neighbourhood's nodes, fetched once per node (`scope_triples.rq`)
//! and folded into what the signature needs: the walk's next edges, how each predicate is
//! used, the nodes' named types, literal statistics, boolean counts and data values.
//!
//! Earlier the same nodes were read by six aggregate or projection queries each (edges,
//! usage, types, literal statistics, boolean counts, data values). On Virtuoso the cost of a
//! query over a `VALUES` block is mostly per binding, whatever it computes, so six passes
//! cost about six times one; downloading the triples once and computing locally gives the
//! same figures (`COUNT(DISTINCT)` is now exact rather than summed over chunks).

use std::collections::{BTreeMap, BTreeSet, HashSet};

use oxigraph::model::{Literal, Term};
use rayon::prelude::*;
use spargebra::term::GroundTerm;

use super::edges::UniverseEdges;
use super::load::Usage;
use super::model::{BooleanStats, NumericStats, Signature};
use super::values::UniverseValues;
use super::{ground, is_vocabulary};
use crate::concept::Iri;
use crate::oracle::OracleError;
use crate::oracle::backend::{SolutionTable, SparqlBackend};
use crate::oracle::sparql::{fill_values, fixed_query};
use crate::oracle::sparql_oracle::concept_literal;

const RDF_TYPE: &str = "http://www.w3.org/1999/02/22-rdf-syntax-ns#type";
const XSD_BOOLEAN: &str = "http://www.w3.org/2001/XMLSchema#boolean";

/// Nodes per query: at most this many (the `VALUES` limit of the other scope queries)…
const MAX_CHUNK: usize = 500;
/// …and, against an endpoint that caps its answers, this many in the first round, then as
/// many as keep an answer to half the cap at the rows per node seen so far.
const FIRST_CHUNK: usize = 64;
const MIN_CHUNK: usize = 16;
/// Chunks asked in parallel per round (the endpoint's concurrency bounds what runs at once).
const ROUND: usize = 8;

/// The answers of `scope_triples.rq` for `nodes`, in order. A capped answer would be paged
/// by the backend, which re-runs the query sorted once per page (7.6 s for the 20,677
/// triples of carcinogenesis' 298 examples on Virtuoso): chunks are sized to stay under the
/// cap instead.
fn fetch_triples(
    backend: &dyn SparqlBackend,
    nodes: &BTreeSet<Iri>,
) -> Result<Vec<SolutionTable>, OracleError> {
    let nodes: Vec<GroundTerm> = nodes.iter().map(ground).collect();
    let target = backend.row_cap().map(|cap| (cap / 2).max(1));
    let mut size = if target.is_some() {
        FIRST_CHUNK
    } else {
        MAX_CHUNK
    };
    let (mut rows, mut asked) = (0usize, 0usize);
    let mut out = Vec::new();
    let mut rest = nodes.as_slice();
    while !rest.is_empty() {
        let (round, tail) = rest.split_at((size * ROUND).min(rest.len()));
        let tables = round
            .chunks(size)
            .collect::<Vec<_>>()
            .into_par_iter()
            .map(|chunk| {
                let mut q = fixed_query("scope_triples")?;
                fill_values(&mut q, "x", chunk.to_vec())?;
                backend.select(&q)
            })
            .collect::<Result<Vec<_>, OracleError>>()?;
        rows += tables.iter().map(|t| t.rows.len()).sum::<usize>();
        asked += round.len();
        out.extend(tables);
        rest = tail;
        if let Some(target) = target {
            size = (target / rows.div_ceil(asked).max(1)).clamp(MIN_CHUNK, MAX_CHUNK);
        }
    }
    Ok(out)
}

/// What one node's triples say beyond the walk's edges and the predicates' usage.
#[derive(Default)]
struct NodeFacts {
    /// Named types (`rdf:type` with an IRI object), as the store lists them.
    types: Vec<Iri>,
    /// Literal-valued triples: predicate and value.
    literals: Vec<(Iri, Literal)>,
    /// IRI-valued triples other than types: predicate and target.
    edges: Vec<(Iri, Iri)>,
}

/// The nodes fetched so far and what their triples said.
#[derive(Default)]
pub(super) struct Facts {
    /// Per predicate, how the fetched nodes use it (every fetched node counts, as in
    /// `property_usage.rq` over the whole KB).
    pub usage: BTreeMap<Iri, Usage>,
    nodes: BTreeMap<Iri, NodeFacts>,
}

/// What one fetch found out.
pub(super) struct Fetched {
    /// The IRI-valued edges out of the fetched nodes, `rdf:type` excluded: `(predicate,
    /// target)`, the walk's next step (the answer `SELECT DISTINCT ?p ?y` would give).
    pub edges: BTreeSet<(Iri, Iri)>,
    /// The fetched nodes that are the subject of some triple.
    pub subjects: BTreeSet<Iri>,
}

impl Facts {
    /// Whether `node`'s triples were fetched.
    pub fn has(&self, node: &Iri) -> bool {
        self.nodes.contains_key(node)
    }

    /// Fetches the triples out of `nodes` (chunks in parallel, folded in chunk order) and
    /// keeps what they say. Nodes fetched before are not asked again.
    pub fn fetch(
        &mut self,
        backend: &dyn SparqlBackend,
        nodes: &BTreeSet<Iri>,
    ) -> Result<Fetched, OracleError> {
        let new: BTreeSet<Iri> = nodes.iter().filter(|n| !self.has(n)).cloned().collect();
        let mut fetched = Fetched {
            edges: BTreeSet::new(),
            subjects: BTreeSet::new(),
        };
        for node in &new {
            self.nodes.insert(node.clone(), NodeFacts::default());
        }
        for table in fetch_triples(backend, &new)? {
            let (Some(cx), Some(cp), Some(co)) =
                (table.column("x"), table.column("p"), table.column("o"))
            else {
                continue;
            };
            for row in &table.rows {
                let cell = |i: usize| row.get(i).and_then(|t| t.as_ref());
                let (Some(Term::NamedNode(x)), Some(Term::NamedNode(p)), Some(o)) =
                    (cell(cx), cell(cp), cell(co))
                else {
                    continue;
                };
                let x = Iri::new(x.as_str());
                let p = Iri::new(p.as_str());
                self.usage.entry(p.clone()).or_default().add_object(o);
                let Some(facts) = self.nodes.get_mut(&x) else {
                    continue;
                };
                fetched.subjects.insert(x);
                match o {
                    Term::NamedNode(y) if p.as_str() == RDF_TYPE => {
                        facts.types.push(Iri::new(y.as_str()));
                    }
                    Term::NamedNode(y) => {
                        let y = Iri::new(y.as_str());
                        facts.edges.push((p.clone(), y.clone()));
                        fetched.edges.insert((p, y));
                    }
                    Term::Literal(l) => facts.literals.push((p, l.clone())),
                    _ => {}
                }
            }
        }
        Ok(fetched)
    }

    /// The `(individual, named type)` pairs of `individuals`: the types the data uses there,
    /// and the typings that answer class atoms over the universe without a query.
    pub fn typings<'a>(
        &'a self,
        individuals: &'a BTreeSet<Iri>,
    ) -> impl Iterator<Item = (&'a Iri, &'a Iri)> + 'a {
        individuals.iter().flat_map(move |x| {
            self.nodes
                .get(x)
                .into_iter()
                .flat_map(move |f| f.types.iter().map(move |c| (x, c)))
        })
    }

    fn literals<'a>(
        &'a self,
        individuals: &'a BTreeSet<Iri>,
    ) -> impl Iterator<Item = (&'a Iri, &'a Iri, &'a Literal)> + 'a {
        individuals.iter().flat_map(move |x| {
            self.nodes
                .get(x)
                .into_iter()
                .flat_map(move |f| f.literals.iter().map(move |(p, l)| (x, p, l)))
        })
    }

    /// Adds the literal statistics and boolean counts of `individuals`' values to the data
    /// properties of `sig` (what `literal_statistics.rq` and `boolean_counts.rq` give over
    /// these individuals).
    pub fn add_value_statistics(&self, sig: &mut Signature, individuals: &BTreeSet<Iri>) {
        #[derive(Default)]
        struct Group<'a> {
            n: u64,
            distinct: HashSet<&'a Literal>,
            range: Option<(f64, f64)>,
        }
        let mut groups: BTreeMap<(&Iri, &str), Group> = BTreeMap::new();
        let mut booleans: BTreeMap<&Iri, BooleanStats> = BTreeMap::new();
        for (_, p, l) in self.literals(individuals) {
            if !sig.data_properties.contains_key(p) {
                continue;
            }
            let dt = l.datatype().as_str();
            let g = groups.entry((p, dt)).or_default();
            g.n += 1;
            g.distinct.insert(l);
            if let Ok(v) = l.value().trim().parse::<f64>() {
                g.range = Some(g.range.map_or((v, v), |(lo, hi)| (lo.min(v), hi.max(v))));
            }
            if dt == XSD_BOOLEAN {
                let b = booleans.entry(p).or_default();
                if matches!(l.value(), "true" | "1") {
                    b.true_count += 1;
                } else {
                    b.false_count += 1;
                }
            }
        }
        for ((p, dt), g) in groups {
            let Some(info) = sig.data_properties.get_mut(p) else {
                continue;
            };
            *info.datatypes.entry(Iri::new(dt)).or_default() += g.n;
            if crate::concept::vocab::is_numeric_datatype(dt)
                && let Some((min, max)) = g.range
            {
                let stats = NumericStats {
                    min,
                    max,
                    distinct: g.distinct.len() as u64,
                    count: g.n,
                };
                info.numeric = Some(match info.numeric.take() {
                    None => stats,
                    // Several numeric datatypes: distinct counts add up (an upper bound).
                    Some(s) => NumericStats {
                        min: s.min.min(stats.min),
                        max: s.max.max(stats.max),
                        distinct: s.distinct + stats.distinct,
                        count: s.count + stats.count,
                    },
                });
            }
        }
        for (p, b) in booleans {
            if let Some(info) = sig.data_properties.get_mut(p) {
                info.booleans = Some(b);
            }
        }
    }

    /// The data-property values of the signature's individuals (the universe must be set).
    pub fn universe_values(&self, sig: &Signature) -> UniverseValues {
        let values = self.nodes.iter().flat_map(|(x, f)| {
            let id = sig.individual_id(x.as_str());
            f.literals.iter().filter_map(move |(p, l)| {
                let id = id?;
                (!is_vocabulary(p.as_str())).then(|| (p.clone(), id, concept_literal(l)))
            })
        });
        UniverseValues::new(sig.data_properties.keys().cloned(), values)
    }

    /// The object-property edges out of the signature's individuals (the universe must be
    /// set).
    pub fn universe_edges(&self, sig: &Signature) -> UniverseEdges {
        let edges = self.nodes.iter().flat_map(|(x, f)| {
            let id = sig.individual_id(x.as_str());
            f.edges
                .iter()
                .filter_map(move |(p, y)| Some((p.clone(), id?, sig.individual_id(y.as_str()))))
        });
        UniverseEdges::new(sig.object_properties.keys().cloned(), edges)
    }
}

//! The capability probe: a handful of tiny queries, run once at start, that tell whether an
//! endpoint can answer the constructs the oracle's queries use, and which of the equivalent
//! query shapes it answers correctly. The answers to the probes are checked, not only their
//! success, since some endpoints accept a construct and ignore it, or answer it wrongly.
//!
//! Counting shapes are checked twice: on inline data (answer known whatever the graph holds)
//! and on the endpoint's own triples (a subject with two objects for one predicate and a few
//! of its neighbours), against plain `GROUP BY` counts, which every endpoint with aggregates
//! answers. The second check matters: Virtuoso 7 refuses sub-selects over inline data inside
//! `EXISTS`, yet answers the correlated shape over triple patterns with wrong rows.

use std::collections::BTreeMap;

use oxigraph::model::{NamedNode, Term};
use serde::{Deserialize, Serialize};
use spargebra::{Query, SparqlParser};

use super::SparqlBackend;
use crate::concept::{Concept, Iri, Role};
use crate::oracle::sparql::{BooleanShape, Compiler, CountingShape, QueryShapes, TransitiveShape};
use crate::oracle::{ObjectPropertyInfo, OracleError, Signature};

/// What the endpoint answered correctly. Read back by signature caches
/// (`knowledge_base::signature_cache`): a file that lacks a field is not read.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Capabilities {
    pub values: bool,
    pub property_paths: bool,
    pub not_exists: bool,
    pub aggregates: bool,
    /// A grouped sub-select inside `FILTER EXISTS`, correlated on its projected variable
    /// ([`CountingShape::Correlated`]). Virtuoso 7 refuses or mis-answers it.
    pub correlated_subselect: bool,
    /// The uncorrelated grouped sub-select joined inside `EXISTS` ([`CountingShape::Joined`]),
    /// checked on the endpoint's data only when the correlated shape fails (false when it was
    /// not checked, or the data offers nothing to check it on).
    pub joined_subselect: bool,
    /// A conjunction holding a disjunction of five `EXISTS` keeps its other conjuncts
    /// (Virtuoso 7 drops them): else [`BooleanShape::Split`] is used.
    pub wide_disjunctions: bool,
    /// An `EXISTS` nested in an `EXISTS` sees the outer binding (Comunica 4 loses it): else
    /// the HTTP backend rewrites nested existence tests into joins and `MINUS` before
    /// sending (see `backend::rewrite`).
    pub nested_exists: bool,
    /// The endpoint named itself Virtuoso in an error answer: its transitive paths are refused
    /// and large filters are not sent (see [`TransitiveShape::Unavailable`]).
    pub virtuoso: bool,
}

/// The most `EXISTS` one query may hold on Virtuoso 7 (a filter with 49 crashed it).
const VIRTUOSO_MAX_EXISTS: usize = 24;

impl Capabilities {
    /// Whether counting restrictions (n ≥ 2) can be compiled for this endpoint (in some shape).
    pub fn counting(&self) -> bool {
        self.shapes().counting != CountingShape::Unavailable
    }

    /// The query shapes to write for this endpoint: the first correct one of each construct,
    /// in order of preference (cheapest first).
    pub fn shapes(&self) -> QueryShapes {
        let counting = if !self.aggregates {
            CountingShape::Unavailable
        } else if self.correlated_subselect {
            CountingShape::Correlated
        } else if self.joined_subselect {
            CountingShape::Joined
        } else {
            CountingShape::Unavailable
        };
        let booleans = if self.wide_disjunctions {
            BooleanShape::Inline
        } else {
            BooleanShape::Split
        };
        QueryShapes {
            counting,
            booleans,
            transitive: if self.virtuoso {
                TransitiveShape::Unavailable
            } else {
                TransitiveShape::Path
            },
            max_exists: self.virtuoso.then_some(VIRTUOSO_MAX_EXISTS),
        }
    }

    /// The constructs every oracle query may use and the endpoint lacks, with what they are
    /// needed for (counting is optional: see [`Capabilities::counting`]).
    pub fn missing_required(&self) -> Vec<&'static str> {
        let mut out = self.missing();
        out.retain(|m| !m.contains("cardinality"));
        out
    }

    /// Everything the endpoint lacks, with what it is needed for.
    pub fn missing(&self) -> Vec<&'static str> {
        let mut out = Vec::new();
        if !self.values {
            out.push("VALUES (the examples of every query)");
        }
        if !self.property_paths {
            out.push("property paths (roles with inverses, sub-properties, transitivity)");
        }
        if !self.not_exists {
            out.push("FILTER NOT EXISTS (¬, ∀, ≤n)");
        }
        if !self.aggregates {
            out.push("GROUP BY / HAVING with COUNT(DISTINCT) (cardinality restrictions)");
        }
        if !self.correlated_subselect && !self.joined_subselect {
            out.push("grouped sub-selects inside EXISTS (cardinality restrictions)");
        }
        out
    }
}

const A: &str = "<urn:oxilearn:probe:a>";
const P: &str = "<urn:oxilearn:probe:p>";

fn parse(text: &str) -> Result<Query, OracleError> {
    SparqlParser::new()
        .parse_query(text)
        .map_err(|e| OracleError::BuiltinQuery {
            name: "capability probe".into(),
            message: e.to_string(),
        })
}

/// Runs a probe query; `Some(rows)` when it was answered.
fn rows(backend: &dyn SparqlBackend, text: &str) -> Result<Option<usize>, OracleError> {
    Ok(backend.select(&parse(text)?).ok().map(|t| t.rows.len()))
}

/// The IRIs in one column of an answer (`None` when the query failed).
fn iris(backend: &dyn SparqlBackend, query: &Query, column: &str) -> Option<Vec<String>> {
    let table = backend.select(query).ok()?;
    Some(
        table
            .column_values(column)
            .filter_map(|t| match t {
                Term::NamedNode(n) => Some(n.as_str().to_string()),
                _ => None,
            })
            .collect(),
    )
}

/// Whether `GROUP BY` with `COUNT(DISTINCT)` and `HAVING (COUNT(DISTINCT ?y) >= 2)` keeps
/// exactly the group with two distinct values, with the right count, on inline data. This is
/// the only use the oracle makes of aggregates: groups that hold at least one row (`≤n` is
/// `NOT EXISTS` of `≥n+1`). Counting an empty group is not asked: Comunica 4 answers
/// `COUNT(DISTINCT ?y)` over only unbound `?y` with an unbound count instead of 0, which an
/// earlier probe (`OPTIONAL` … `HAVING (COUNT(DISTINCT ?y) < 1)`) took for no aggregates.
fn aggregates_counted(backend: &dyn SparqlBackend) -> Result<bool, OracleError> {
    let query = parse(
        "SELECT ?x (COUNT(DISTINCT ?y) AS ?n) WHERE { VALUES (?x ?y) { \
         (<urn:oxilearn:probe:a> <urn:oxilearn:probe:1>) (<urn:oxilearn:probe:a> <urn:oxilearn:probe:2>) \
         (<urn:oxilearn:probe:a> <urn:oxilearn:probe:2>) (<urn:oxilearn:probe:b> <urn:oxilearn:probe:3>) } } \
         GROUP BY ?x HAVING (COUNT(DISTINCT ?y) >= 2)",
    )?;
    let Ok(table) = backend.select(&query) else {
        return Ok(false);
    };
    let (Some(cx), Some(cn)) = (table.column("x"), table.column("n")) else {
        return Ok(false);
    };
    let [row] = table.rows.as_slice() else {
        return Ok(false);
    };
    let x = matches!(row.get(cx), Some(Some(Term::NamedNode(x))) if x.as_str() == "urn:oxilearn:probe:a");
    let n = matches!(row.get(cn), Some(Some(Term::Literal(n))) if n.value() == "2");
    Ok(x && n)
}

/// Whether `EXISTS { ?x ?p ?o FILTER NOT EXISTS { ?o <probe:p> ?z } }` keeps `?x` bound: for
/// a subject of the graph and an IRI without triples, only the subject may pass. An endpoint
/// that evaluates the outer group without `?x` (Comunica 4 does, once the group holds an
/// existence test of its own) lets both pass. True when the graph offers no subject.
fn nested_exists_correlated(backend: &dyn SparqlBackend) -> Result<bool, OracleError> {
    let subject = parse("SELECT ?s WHERE { ?s ?p ?o FILTER(isIRI(?s)) } LIMIT 1")?;
    let Some(subject) = iris(backend, &subject, "s").and_then(|s| s.into_iter().next()) else {
        return Ok(true);
    };
    let query = parse(&format!(
        "SELECT ?x WHERE {{ VALUES ?x {{ <{subject}> {A} }} \
         FILTER EXISTS {{ ?x ?p ?o FILTER NOT EXISTS {{ ?o {P} ?z }} }} }}"
    ))?;
    Ok(iris(backend, &query, "x").is_some_and(|got| got == [subject]))
}

/// `(E₁ || … || E₅) && F` for a subject of the graph, with `E₁` true (`?x ?p ?o`) and `F`
/// false (a predicate no data uses): the answer must be empty. Written with triple patterns
/// only: the same with `VALUES` inside the `EXISTS` has crashed Virtuoso 7.
fn wide_disjunctions_kept(backend: &dyn SparqlBackend) -> Result<bool, OracleError> {
    let subject = parse("SELECT ?s WHERE { ?s ?p ?o FILTER(isIRI(?s)) } LIMIT 1")?;
    let Some(subject) = iris(backend, &subject, "s").and_then(|s| s.into_iter().next()) else {
        return Ok(true);
    };
    let none = |i: usize| format!("EXISTS {{ ?x <urn:oxilearn:probe:p{i}> ?o{i} }}");
    let query = parse(&format!(
        "SELECT ?x WHERE {{ VALUES ?x {{ <{subject}> }} \
         FILTER(((((EXISTS {{ ?x ?p ?o }} || {}) || {}) || {}) || {}) && {}) }}",
        none(1),
        none(2),
        none(3),
        none(4),
        none(5)
    ))?;
    Ok(backend.select(&query).is_ok_and(|t| t.rows.is_empty()))
}

/// Real data to check counting shapes on: a property, a few subjects, and how many distinct
/// IRI successors each has through it (by a plain grouped query).
struct CountingSample {
    property: String,
    subjects: Vec<NamedNode>,
    counts: BTreeMap<String, usize>,
}

/// Finds a subject with two IRI objects for one predicate; its objects join the sample, as
/// they usually have fewer successors.
fn counting_sample(backend: &dyn SparqlBackend) -> Result<Option<CountingSample>, OracleError> {
    let pair = parse(
        "SELECT ?s ?p WHERE { ?s ?p ?o1 . ?s ?p ?o2 \
         FILTER(isIRI(?s) && isIRI(?o1) && isIRI(?o2) && ?o1 != ?o2) } LIMIT 1",
    )?;
    let Ok(table) = backend.select(&pair) else {
        return Ok(None);
    };
    let (Some(Some(Term::NamedNode(s))), Some(Some(Term::NamedNode(p)))) = (
        table.rows.first().and_then(|r| r.first()),
        table.rows.first().and_then(|r| r.get(1)),
    ) else {
        return Ok(None);
    };
    let objects = parse(&format!(
        "SELECT DISTINCT ?o WHERE {{ {s} {p} ?o FILTER(isIRI(?o)) }} LIMIT 7"
    ))?;
    let mut subjects = vec![s.as_str().to_string()];
    subjects.extend(iris(backend, &objects, "o").unwrap_or_default());
    subjects.sort();
    subjects.dedup();
    let listed: Vec<String> = subjects.iter().map(|x| format!("<{x}>")).collect();
    let counted = parse(&format!(
        "SELECT ?x (COUNT(DISTINCT ?y) AS ?n) WHERE {{ VALUES ?x {{ {} }} ?x {p} ?y \
         FILTER(isIRI(?y)) }} GROUP BY ?x",
        listed.join(" ")
    ))?;
    let Ok(table) = backend.select(&counted) else {
        return Ok(None);
    };
    let (Some(cx), Some(cn)) = (table.column("x"), table.column("n")) else {
        return Ok(None);
    };
    let mut counts = BTreeMap::new();
    for row in &table.rows {
        if let (Some(Some(Term::NamedNode(x))), Some(Some(Term::Literal(n)))) =
            (row.get(cx), row.get(cn))
            && let Ok(n) = n.value().parse::<usize>()
        {
            counts.insert(x.as_str().to_string(), n);
        }
    }
    Ok(Some(CountingSample {
        property: p.as_str().to_string(),
        subjects: subjects.iter().map(NamedNode::new_unchecked).collect(),
        counts,
    }))
}

/// Whether the endpoint answers `≥t p.⊤` and `≤(t-1) p.⊤` in `shape` as the plain counts say,
/// for t = 2 and the sample's largest count. The role is written as the compiler writes real
/// roles (an alternative path with an inverse, `isIRI` guards).
fn counting_shape_agrees(
    backend: &dyn SparqlBackend,
    shape: CountingShape,
    sample: &CountingSample,
) -> Result<bool, OracleError> {
    let property = Iri::new(sample.property.as_str());
    let mut sig = Signature::default();
    sig.object_properties.insert(
        property.clone(),
        ObjectPropertyInfo {
            inverses: [Iri::new("urn:oxilearn:probe:none")].into(),
            has_non_iri_ends: true,
            ..ObjectPropertyInfo::default()
        },
    );
    let compiler = Compiler::new(&sig).with_counting(shape);
    let most = sample.counts.values().copied().max().unwrap_or(0);
    let mut thresholds = vec![2, most.max(2)];
    thresholds.dedup();
    for t in thresholds {
        let at_least: Vec<String> = sample
            .subjects
            .iter()
            .map(|x| x.as_str().to_string())
            .filter(|x| sample.counts.get(x).copied().unwrap_or(0) >= t)
            .collect();
        let fewer: Vec<String> = sample
            .subjects
            .iter()
            .map(|x| x.as_str().to_string())
            .filter(|x| !at_least.contains(x))
            .collect();
        let role = Role::new(property.clone());
        let t = u32::try_from(t).unwrap_or(u32::MAX);
        for (concept, want) in [
            (Concept::min(t, role.clone(), Concept::Top), &at_least),
            (Concept::max(t - 1, role, Concept::Top), &fewer),
        ] {
            let query = compiler.covered_query(&concept, &sample.subjects)?;
            let Some(mut got) = iris(backend, &query, "x") else {
                return Ok(false);
            };
            got.sort();
            got.dedup();
            if &got != want {
                return Ok(false);
            }
        }
    }
    Ok(true)
}

/// Probes the endpoint. The probe IRIs are not in any real data, so each query's answer is
/// known in advance.
pub fn probe(backend: &dyn SparqlBackend) -> Result<Capabilities, OracleError> {
    // The first question also tells whether the endpoint answers at all: its error (an
    // unreachable endpoint, or one without VALUES, which the oracle needs anyway) ends the
    // probe, instead of every later capability asking again through the retries.
    let values = backend
        .select(&parse(&format!(
            "SELECT ?x WHERE {{ VALUES ?x {{ {A} }} }}"
        ))?)?
        .rows
        .len()
        == 1;
    let property_paths = rows(
        backend,
        &format!("SELECT ?y WHERE {{ {A} ({P}|^{P})+ ?y }} LIMIT 1"),
    )? == Some(0);
    let not_exists = rows(
        backend,
        &format!("SELECT ?x WHERE {{ VALUES ?x {{ {A} }} FILTER NOT EXISTS {{ ?x {P} ?y }} }}"),
    )? == Some(1);
    let aggregates = aggregates_counted(backend)?;
    // Inline data, so the right answer is known whatever the graph holds: only <a> has two
    // distinct ?y; an endpoint that does not correlate ?x answers both or none.
    let correlated_text = "SELECT ?x WHERE { VALUES ?x { <urn:oxilearn:probe:a> <urn:oxilearn:probe:b> } \
         FILTER EXISTS { SELECT ?x WHERE { VALUES (?x ?y) { \
         (<urn:oxilearn:probe:a> <urn:oxilearn:probe:1>) (<urn:oxilearn:probe:a> <urn:oxilearn:probe:2>) \
         (<urn:oxilearn:probe:b> <urn:oxilearn:probe:3>) } } GROUP BY ?x HAVING (COUNT(DISTINCT ?y) >= 2) } }";
    let (correlated_subselect, virtuoso) = match backend.select(&parse(correlated_text)?) {
        Ok(t) => (t.rows.len() == 1, false),
        Err(e) => {
            let message = e.to_string();
            (
                false,
                message.contains("Virtuoso ") && message.contains(" Error "),
            )
        }
    };
    let sample = if aggregates {
        counting_sample(backend)?
    } else {
        None
    };
    let on_data = |shape| match &sample {
        Some(sample) => counting_shape_agrees(backend, shape, sample),
        None => Ok(false),
    };
    let correlated_subselect =
        correlated_subselect && (sample.is_none() || on_data(CountingShape::Correlated)?);
    // The joined shape groups every subject of the sample's property, so checking it costs
    // what the KB costs (minutes on a 7M-triple store): only when it would be used.
    let joined_subselect = aggregates && !correlated_subselect && on_data(CountingShape::Joined)?;
    let wide_disjunctions = wide_disjunctions_kept(backend)?;
    let nested_exists = nested_exists_correlated(backend)?;
    let caps = Capabilities {
        nested_exists,
        wide_disjunctions,
        virtuoso,
        values,
        property_paths,
        not_exists,
        aggregates,
        correlated_subselect,
        joined_subselect,
    };
    backend.remember_probe(&caps);
    Ok(caps)
}

/// Probes and fails with a clear message naming what the endpoint cannot answer (counting
/// restrictions are optional: the oracle then refuses them with its own clear error).
pub fn require_capabilities(backend: &dyn SparqlBackend) -> Result<Capabilities, OracleError> {
    let caps = probe(backend)?;
    check_required(&caps, &backend.name())?;
    Ok(caps)
}

/// Fails with a clear message naming what the endpoint `name` cannot answer, when the
/// probe's findings (fresh, or from a signature cache) lack a required construct.
pub fn check_required(caps: &Capabilities, name: &str) -> Result<(), OracleError> {
    let missing = caps.missing_required();
    if missing.is_empty() {
        Ok(())
    } else {
        Err(OracleError::Unsupported(format!(
            "{name} cannot answer constructs the oracle needs: {}",
            missing.join("; ")
        )))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::oracle::backend::EmbeddedBackend;

    /// An endpoint that answers nothing: it counts the questions.
    struct Unreachable(std::sync::atomic::AtomicUsize);

    impl SparqlBackend for Unreachable {
        fn select(
            &self,
            _query: &Query,
        ) -> Result<crate::oracle::backend::SolutionTable, OracleError> {
            self.0.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
            Err(OracleError::Unsupported("connection failed".into()))
        }

        fn name(&self) -> String {
            "unreachable".into()
        }
    }

    #[test]
    fn an_endpoint_that_does_not_answer_ends_the_probe_at_the_first_question() {
        let backend = Unreachable(Default::default());
        assert!(probe(&backend).is_err());
        assert_eq!(backend.0.load(std::sync::atomic::Ordering::Relaxed), 1);
    }

    #[test]
    fn oxigraph_supports_everything() {
        let store = oxigraph::store::Store::new().unwrap();
        store
            .load_from_reader(
                oxigraph::io::RdfFormat::Turtle,
                "<urn:a> <urn:p> <urn:b>, <urn:c>, <urn:d> . <urn:b> <urn:p> <urn:c> .".as_bytes(),
            )
            .unwrap();
        let caps = require_capabilities(&EmbeddedBackend::new(store)).unwrap();
        assert!(caps.missing().is_empty(), "{caps:?}");
        // The joined shape is not checked when the correlated one works.
        assert!(!caps.joined_subselect, "{caps:?}");
        assert!(caps.nested_exists, "{caps:?}");
        assert_eq!(caps.shapes().counting, CountingShape::Correlated);
        assert_eq!(caps.shapes().booleans, BooleanShape::Inline);
    }

    #[test]
    fn an_empty_store_keeps_the_inline_verdict() {
        let store = oxigraph::store::Store::new().unwrap();
        let caps = probe(&EmbeddedBackend::new(store)).unwrap();
        assert!(
            caps.correlated_subselect && !caps.joined_subselect,
            "{caps:?}"
        );
        assert!(caps.counting());
    }
}

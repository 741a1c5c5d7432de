//! The capability probe: a handful of tiny queries, run once at start, that tell whether an
//! endpoint can answer the constructs the oracle's queries use. The answers to the probes are
//! checked, not only their success, since some endpoints accept a construct and ignore it.

use serde::Serialize;
use spargebra::SparqlParser;

use super::SparqlBackend;
use crate::oracle::OracleError;

/// What the endpoint answered correctly.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Capabilities {
    pub values: bool,
    pub property_paths: bool,
    pub not_exists: bool,
    pub aggregates: bool,
    /// A grouped sub-select inside `FILTER EXISTS`, correlated on its projected variable
    /// (how `≥n`/`≤n`/`=n r.C` with n ≥ 2 are written). Virtuoso 7 refuses it.
    pub correlated_subselect: bool,
}

impl Capabilities {
    /// Whether counting restrictions (n ≥ 2) can be compiled for this endpoint.
    pub fn counting(&self) -> bool {
        self.aggregates && self.correlated_subselect
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
        if !self.correlated_subselect {
            out.push("grouped sub-selects inside EXISTS (cardinality restrictions)");
        }
        out
    }
}

const A: &str = "<urn:oxilearn:probe:a>";
const P: &str = "<urn:oxilearn:probe:p>";

/// Runs a probe query; `Some(rows)` when it was answered.
fn rows(backend: &dyn SparqlBackend, text: &str) -> Result<Option<usize>, OracleError> {
    let query = SparqlParser::new()
        .parse_query(text)
        .map_err(|e| OracleError::BuiltinQuery {
            name: "capability probe".into(),
            message: e.to_string(),
        })?;
    Ok(backend.select(&query).ok().map(|t| t.rows.len()))
}

/// Probes the endpoint. The probe IRIs are not in any real data, so each query's answer is
/// known in advance.
pub fn probe(backend: &dyn SparqlBackend) -> Result<Capabilities, OracleError> {
    let values = rows(
        backend,
        &format!("SELECT ?x WHERE {{ VALUES ?x {{ {A} }} }}"),
    )? == Some(1);
    let property_paths = rows(
        backend,
        &format!("SELECT ?y WHERE {{ {A} ({P}|^{P})+ ?y }} LIMIT 1"),
    )? == Some(0);
    let not_exists = rows(
        backend,
        &format!("SELECT ?x WHERE {{ VALUES ?x {{ {A} }} FILTER NOT EXISTS {{ ?x {P} ?y }} }}"),
    )? == Some(1);
    let aggregates = rows(
        backend,
        &format!(
            "SELECT ?x (COUNT(DISTINCT ?y) AS ?n) WHERE {{ VALUES ?x {{ {A} }} OPTIONAL {{ ?x {P} ?y }} }} GROUP BY ?x HAVING (COUNT(DISTINCT ?y) < 1)"
        ),
    )? == Some(1);
    // Inline data, so the right answer is known whatever the graph holds: only <a> has two
    // distinct ?y; an endpoint that does not correlate ?x answers both or none.
    let correlated_subselect = rows(
        backend,
        "SELECT ?x WHERE { VALUES ?x { <urn:oxilearn:probe:a> <urn:oxilearn:probe:b> } \
         FILTER EXISTS { SELECT ?x WHERE { VALUES (?x ?y) { \
         (<urn:oxilearn:probe:a> <urn:oxilearn:probe:1>) (<urn:oxilearn:probe:a> <urn:oxilearn:probe:2>) \
         (<urn:oxilearn:probe:b> <urn:oxilearn:probe:3>) } } GROUP BY ?x HAVING (COUNT(DISTINCT ?y) >= 2) } }",
    )? == Some(1);
    Ok(Capabilities {
        values,
        property_paths,
        not_exists,
        aggregates,
        correlated_subselect,
    })
}

/// Probes and fails with a clear message naming what the endpoint cannot answer (counting
/// restrictions are optional: the oracle then refuses them with its own clear error).
pub fn require_capabilities(backend: &dyn SparqlBackend) -> Result<Capabilities, OracleError> {
    let caps = probe(backend)?;
    let missing = caps.missing_required();
    if missing.is_empty() {
        Ok(caps)
    } else {
        Err(OracleError::Unsupported(format!(
            "{} cannot answer constructs the oracle needs: {}",
            backend.name(),
            missing.join("; ")
        )))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::oracle::backend::EmbeddedBackend;

    #[test]
    fn oxigraph_supports_everything() {
        let store = oxigraph::store::Store::new().unwrap();
        let caps = require_capabilities(&EmbeddedBackend::new(store)).unwrap();
        assert!(caps.missing().is_empty(), "{caps:?}");
    }
}

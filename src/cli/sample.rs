//! A bounded, deterministic sample of a KB's individuals: one `LIMIT` query over the pattern
//! that stands for "an individual of the KB" (IRIs typed with a non-vocabulary class or at an
//! end of an object-property assertion, schema entities excluded), so `generate-problems`
//! never enumerates a billion-triple endpoint's whole active domain.

use anyhow::Context;

use crate::concept::Iri;
use crate::oracle::backend::SparqlBackend;

/// The generator pattern for `?x`, shared by the sample query.
const INDIVIDUAL_PATTERN: &str = r#"
  {
    ?x a ?c
    FILTER(isIRI(?c))
    FILTER(?c = owl:NamedIndividual || (
      !STRSTARTS(STR(?c), "http://www.w3.org/2002/07/owl#") &&
      !STRSTARTS(STR(?c), "http://www.w3.org/2000/01/rdf-schema#") &&
      !STRSTARTS(STR(?c), "http://www.w3.org/1999/02/22-rdf-syntax-ns#")))
  } UNION {
    ?p a owl:ObjectProperty .
    { ?x ?p ?y } UNION { ?y ?p ?x }
  }
  FILTER(isIRI(?x))
  FILTER NOT EXISTS { ?x a owl:Class }
  FILTER NOT EXISTS { ?x a rdfs:Class }
  FILTER NOT EXISTS { ?x a owl:ObjectProperty }
  FILTER NOT EXISTS { ?x a owl:DatatypeProperty }
"#;

/// At most `limit` individuals of the KB, sorted. `ordered` asks for the smallest IRIs
/// (`ORDER BY`: the same sample on every engine, but the store sorts its whole active
/// domain); otherwise the first `limit` the store returns, which one store answers the same
/// way each time (embedded Oxigraph, an Oxigraph server, Virtuoso over unchanged data).
pub fn sample_individuals(
    backend: &dyn SparqlBackend,
    limit: usize,
    ordered: bool,
) -> anyhow::Result<Vec<Iri>> {
    let order = if ordered { "ORDER BY ?x" } else { "" };
    let text = format!(
        "PREFIX rdf: <http://www.w3.org/1999/02/22-rdf-syntax-ns#>\n\
         PREFIX rdfs: <http://www.w3.org/2000/01/rdf-schema#>\n\
         PREFIX owl: <http://www.w3.org/2002/07/owl#>\n\
         SELECT DISTINCT ?x WHERE {{ {INDIVIDUAL_PATTERN} }} {order} LIMIT {limit}"
    );
    let query = spargebra::SparqlParser::new()
        .parse_query(&text)
        .context("building the individual-sample query")?;
    let table = backend
        .select(&query)
        .context("sampling the KB's individuals")?;
    let mut out: Vec<Iri> = table
        .column_values("x")
        .filter_map(|t| match t {
            oxigraph::model::Term::NamedNode(n) => Some(Iri::new(n.as_str())),
            _ => None,
        })
        .collect();
    out.truncate(limit);
    out.sort();
    Ok(out)
}

//! A backend whose queries read the given graphs as their default graph (`FROM <g> …`), for
//! an endpoint where the caller cannot pick the dataset by protocol parameters: used to keep
//! oxilearn's own prediction graphs out of what an endpoint's union default graph shows.

use spargebra::Query;
use spargebra::algebra::QueryDataset;
use spargebra::term::NamedNode;

use super::{Capabilities, PolitenessReport, SolutionTable, SparqlBackend};
use crate::oracle::OracleError;

/// Sends every SELECT with `FROM` each of `graphs` (a query's own dataset is kept).
pub struct FromGraphs<B> {
    inner: B,
    graphs: Vec<NamedNode>,
}

impl<B: SparqlBackend> FromGraphs<B> {
    pub fn new(inner: B, graphs: Vec<NamedNode>) -> Self {
        FromGraphs { inner, graphs }
    }
}

impl<B: SparqlBackend> SparqlBackend for FromGraphs<B> {
    fn select(&self, query: &Query) -> Result<SolutionTable, OracleError> {
        let Query::Select {
            dataset: None,
            pattern,
            base_iri,
        } = query
        else {
            return self.inner.select(query);
        };
        self.inner.select(&Query::Select {
            dataset: Some(QueryDataset {
                default: self.graphs.clone(),
                named: None,
            }),
            pattern: pattern.clone(),
            base_iri: base_iri.clone(),
        })
    }

    fn name(&self) -> String {
        self.inner.name()
    }

    fn probed(&self) -> Option<Capabilities> {
        self.inner.probed()
    }

    fn remember_probe(&self, caps: &Capabilities) {
        self.inner.remember_probe(caps)
    }

    fn set_deadline(&self, deadline: Option<std::time::Instant>) {
        self.inner.set_deadline(deadline)
    }

    fn read_graphs(&self) -> Option<Vec<NamedNode>> {
        Some(self.graphs.clone())
    }

    fn politeness(&self) -> PolitenessReport {
        self.inner.politeness()
    }

    fn row_cap(&self) -> Option<usize> {
        self.inner.row_cap()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::oracle::backend::EmbeddedBackend;

    #[test]
    fn queries_read_only_the_named_graphs() {
        let store = oxigraph::store::Store::new().unwrap();
        store
            .load_from_slice(
                oxigraph::io::RdfFormat::TriG,
                "<urn:g1> { <urn:a> a <urn:C> . } <urn:g2> { <urn:b> a <urn:C> . }",
            )
            .unwrap();
        let backend = FromGraphs::new(
            EmbeddedBackend::new(store),
            vec![NamedNode::new_unchecked("urn:g1")],
        );
        let query = spargebra::SparqlParser::new()
            .parse_query("SELECT ?x WHERE { ?x a <urn:C> }")
            .unwrap();
        let rows = backend.select(&query).unwrap().rows;
        assert_eq!(rows.len(), 1);
        assert_eq!(rows[0][0].as_ref().unwrap().to_string(), "<urn:a>");
    }
}

//! Asking about individuals the KB's signature does not intern: a page of candidates that
//! the store listed (the instances of a scope, the answers of a scope query, a model's
//! support) gets an oracle of its own whose universe is just the page. That is how a model
//! is applied to a store of any size: memory and queries grow with the page, never with the
//! KB, and the page's answers are those of the store, as if the whole KB were interned.

use oxigraph::model::NamedNode;

use super::KnowledgeBase;
use crate::concept::Iri;
use crate::learn::{LearnError, Model, Prediction};
use crate::oracle::backend::SparqlBackend;
use crate::oracle::{CacheOptions, Cached, IndividualSet, MembershipOracle, SparqlOracle};

/// A page of individuals with its own cached oracle (borrowing the KB's backend).
pub struct Page<'kb> {
    // The type `SparqlOracle::over` returns for the KB's boxed backend.
    #[allow(clippy::borrowed_box)]
    oracle: Cached<SparqlOracle<&'kb Box<dyn SparqlBackend>>>,
}

impl KnowledgeBase {
    /// A page over `individuals` (sorted and deduplicated; they need not be individuals of
    /// this KB's signature). Cheap to build: no query is sent until it is asked.
    pub fn page(&self, individuals: Vec<Iri>) -> Page<'_> {
        Page {
            oracle: Cached::new(
                self.oracle.inner().over(individuals),
                CacheOptions::default(),
            ),
        }
    }
}

impl Page<'_> {
    /// The page's oracle: its signature's universe is the page.
    pub fn oracle(&self) -> &dyn MembershipOracle {
        &self.oracle
    }

    /// The page's individuals, sorted by IRI.
    pub fn iris(&self) -> &[Iri] {
        &self.oracle.signature().individuals
    }

    /// Every individual of the page, as a set over its universe.
    pub fn all(&self) -> IndividualSet {
        self.oracle.signature().all_individuals()
    }

    pub fn is_empty(&self) -> bool {
        self.iris().is_empty()
    }

    /// The model's predictions for every individual of the page, with their IRIs, sorted
    /// by IRI.
    pub fn predict(&self, model: &dyn Model) -> Result<Vec<(NamedNode, Prediction)>, LearnError> {
        let all = self.all();
        let predictions = model.predict(&self.oracle, &all)?;
        Ok(predictions
            .into_iter()
            .filter_map(|p| {
                let iri = self.iris().get(p.individual.index())?;
                Some((NamedNode::new_unchecked(iri.as_str()), p))
            })
            .collect())
    }
}

#[cfg(test)]
mod tests {
    use std::path::Path;

    use super::*;
    use crate::eval::Confusion;
    use crate::learn::{ConceptModel, QualityMeasure, Solution};
    use crate::oracle::Semantics;
    use crate::oracle::{IndividualScope, OracleOptions};

    fn family(scope: IndividualScope) -> KnowledgeBase {
        let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/family/family.ttl");
        KnowledgeBase::builder()
            .oracle_options(OracleOptions {
                scope,
                ..OracleOptions::default()
            })
            .open_files(&[path])
            .expect("the family fixture loads")
    }

    fn model_of(c: crate::concept::Concept) -> ConceptModel {
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

    #[test]
    fn a_page_answers_as_the_whole_kb_does() {
        let whole = family(IndividualScope::ActiveDomain);
        let schema = family(IndividualScope::Schema);
        assert_eq!(schema.signature().individual_count(), 0);
        let c = whole
            .parse_concept("Male and hasChild some (hasChild some Thing)")
            .expect("parses");
        let expected: Vec<String> = whole
            .iris(&whole.instances(&c).unwrap())
            .map(|i| i.as_str().to_owned())
            .collect();
        assert!(!expected.is_empty());
        let everyone: Vec<Iri> = whole.iris(&whole.individuals()).cloned().collect();
        for page_size in [1, 3, everyone.len()] {
            let mut found = Vec::new();
            for chunk in everyone.chunks(page_size) {
                let page = schema.page(chunk.to_vec());
                let model = model_of(c.clone());
                for (iri, p) in page.predict(&model).unwrap() {
                    if p.member {
                        found.push(iri.as_str().to_owned());
                    }
                }
            }
            assert_eq!(found, expected, "pages of {page_size}");
        }
    }

    #[test]
    fn a_page_may_hold_iris_the_kb_never_interned() {
        let kb = family(IndividualScope::Schema);
        let page = kb.page(vec![Iri::new("http://example.org/nobody")]);
        let c = kb.parse_concept("Male or not Male").expect("parses");
        let model = model_of(c);
        let predictions = page.predict(&model).unwrap();
        assert_eq!(predictions.len(), 1);
        // ¬Male holds of anything that is not provably male, as over the active domain.
        assert!(predictions[0].1.member);
    }
}

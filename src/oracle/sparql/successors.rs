//! The query listing role successors of examples, which lets the cache answer restrictions
//! (`∃r.C`, `∀r.C`, `≥n r.C`, …) by local set algebra once it knows the fillers' members.

use oxigraph::model::NamedNode;
use spargebra::Query;
use spargebra::algebra::GraphPattern;
use spargebra::term::Variable;

use super::Compiler;
use super::build::{values_of, var};
use crate::concept::Role;

impl Compiler<'_> {
    /// `SELECT DISTINCT ?x ?y WHERE { VALUES ?x { examples } ?x R ?y }` with `R` the role's
    /// expansion exactly as the membership conditions use it (so `∃r.C` composed from these
    /// pairs means what the compiled `∃r.C` means).
    pub fn successors_query(&self, role: &Role, examples: &[NamedNode]) -> Query {
        let x = Variable::new_unchecked("x");
        let y = Variable::new_unchecked("y");
        let values = values_of(&x, examples);
        let edges = self.role_pattern(role, var(&x), var(&y));
        Query::Select {
            dataset: None,
            pattern: GraphPattern::Distinct {
                inner: Box::new(GraphPattern::Project {
                    inner: Box::new(GraphPattern::Join {
                        left: Box::new(values),
                        right: Box::new(edges),
                    }),
                    variables: vec![x, y],
                }),
            },
            base_iri: None,
        }
    }
}

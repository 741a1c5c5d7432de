//! Which concepts built outside ρ (from the examples' neighbourhood, see
//! `learn::search::neighbourhood`) are in ρ's language: the shapes such proposals take
//! (classes, ⊓, ⊔, ∃ over forward roles), with the operator's own switches and view.

use crate::concept::{Concept, normalize};

use super::Rho;

impl Rho {
    /// `c` uses only classes the view keeps (a hidden class is not one), forward roles the
    /// signature declares, ∃ and ⊔ only where enabled, ⊓; it is normal and not provably
    /// empty by the hierarchy or declared disjointness.
    pub(crate) fn admits_concept(&self, c: &Concept) -> bool {
        self.vocabulary_fits(c) && normalize(c) == *c && !self.empty(c) && !self.redundant(c)
    }

    fn vocabulary_fits(&self, c: &Concept) -> bool {
        match c {
            Concept::Class(a) => self.view.classes.rep(a).is_some(),
            Concept::And(ops) => ops.iter().all(|op| self.vocabulary_fits(op)),
            Concept::Or(ops) => {
                self.options.use_disjunction && ops.iter().all(|op| self.vocabulary_fits(op))
            }
            Concept::Some { role, filler } => {
                self.options.use_exists
                    && !role.inverse
                    && self.view.roles.rep(&role.property).is_some()
                    && (**filler == Concept::Top || self.vocabulary_fits(filler))
            }
            _ => false,
        }
    }
}

//! Removing redundant parts of a solution before it is reported.
//!
//! A step drops one operand of a `⊓`/`⊔` or replaces the filler of an `∃`/`≥n` by `⊤`
//! anywhere in the expression; it is kept when the shorter expression has exactly the same
//! members among *all* individuals of the active domain (not only the examples), so the
//! result means the same thing in this knowledge base, under the chosen semantics. That is
//! the data-level counterpart of DL-Learner's reasoner-based minimiser: `Female ⊓ Person`
//! becomes `Female` when every female is a person, whatever the examples. Parts of `⊓` are
//! answered from the cache by local composition, so a step rarely costs a query.

use crate::concept::{Concept, length, normalize};
use crate::oracle::{IndividualSet, MembershipOracle, OracleError, Semantics};

pub struct Minimizer<'a, O: MembershipOracle + ?Sized> {
    oracle: &'a O,
    semantics: Semantics,
    universe: IndividualSet,
}

impl<'a, O: MembershipOracle + ?Sized> Minimizer<'a, O> {
    pub fn new(oracle: &'a O, semantics: Semantics) -> Self {
        let universe = oracle.signature().all_individuals();
        Minimizer {
            oracle,
            semantics,
            universe,
        }
    }

    /// The shortest equivalent found by greedy steps (shortest candidate first, so the
    /// result is deterministic).
    pub fn minimize(&self, c: &Concept) -> Result<Concept, OracleError> {
        let mut current = normalize(c);
        let target = self.members(&current)?;
        'steps: loop {
            let mut candidates: Vec<Concept> = simplifications(&current)
                .iter()
                .map(normalize)
                .filter(|d| length(d) < length(&current))
                .collect();
            candidates.sort_by(|a, b| length(a).cmp(&length(b)).then_with(|| a.cmp(b)));
            candidates.dedup();
            for candidate in candidates {
                if self.members(&candidate)? == target {
                    current = candidate;
                    continue 'steps;
                }
            }
            return Ok(current);
        }
    }

    fn members(&self, c: &Concept) -> Result<IndividualSet, OracleError> {
        self.oracle.members(c, &self.universe, self.semantics)
    }
}

/// Every expression one step simpler than `c` (not normalised).
fn simplifications(c: &Concept) -> Vec<Concept> {
    let mut out = Vec::new();
    match c {
        Concept::And(cs) | Concept::Or(cs) => {
            let rebuild = |parts: Vec<Concept>| match c {
                Concept::And(_) => Concept::And(parts),
                _ => Concept::Or(parts),
            };
            for i in 0..cs.len() {
                let mut rest = cs.clone();
                rest.remove(i);
                out.push(rebuild(rest));
                for simpler in simplifications(&cs[i]) {
                    let mut parts = cs.clone();
                    parts[i] = simpler;
                    out.push(rebuild(parts));
                }
            }
        }
        Concept::Not(inner) => {
            out.extend(simplifications(inner).into_iter().map(Concept::not));
        }
        Concept::Some { role, filler } => {
            if **filler != Concept::Top {
                out.push(Concept::some(role.clone(), Concept::Top));
            }
            out.extend(
                simplifications(filler)
                    .into_iter()
                    .map(|f| Concept::some(role.clone(), f)),
            );
        }
        Concept::Min { n, role, filler } => {
            if **filler != Concept::Top {
                out.push(Concept::min(*n, role.clone(), Concept::Top));
            }
            out.extend(
                simplifications(filler)
                    .into_iter()
                    .map(|f| Concept::min(*n, role.clone(), f)),
            );
        }
        Concept::Only { role, filler } => out.extend(
            simplifications(filler)
                .into_iter()
                .map(|f| Concept::only(role.clone(), f)),
        ),
        Concept::Max { n, role, filler } => out.extend(
            simplifications(filler)
                .into_iter()
                .map(|f| Concept::max(*n, role.clone(), f)),
        ),
        Concept::Exactly { n, role, filler } => out.extend(
            simplifications(filler)
                .into_iter()
                .map(|f| Concept::exactly(*n, role.clone(), f)),
        ),
        _ => {}
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::concept::Role;

    #[test]
    fn one_step_simplifications_cover_every_position() {
        let a = Concept::class("urn:a");
        let b = Concept::class("urn:b");
        let r = Role::new("urn:r");
        let c = Concept::And(vec![
            a.clone(),
            Concept::some(r.clone(), Concept::Or(vec![a.clone(), b.clone()])),
        ]);
        let got: Vec<Concept> = simplifications(&c).iter().map(normalize).collect();
        let some_r = |f: Concept| Concept::some(r.clone(), f);
        for expected in [
            some_r(Concept::Or(vec![a.clone(), b.clone()])),
            a.clone(),
            Concept::And(vec![a.clone(), some_r(Concept::Top)]),
            Concept::And(vec![a.clone(), some_r(b.clone())]),
            Concept::And(vec![a.clone(), some_r(a.clone())]),
        ] {
            assert!(got.contains(&normalize(&expected)), "missing {expected:?}");
        }
    }
}

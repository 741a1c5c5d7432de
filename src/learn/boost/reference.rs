//! The reference degree of one individual in a fuzzy concept, computed from first
//! principles for tests: no memo, no successor lists, no composition. Crisp parts ask the
//! oracle about the one individual; `∃r.C` tries every individual `y` of the signature
//! with the crisp question `∃r.{y}`; `∃p.F` reads the individual's own values.
//! Quadratic in the KB: for small test KBs only.

use super::concept::FuzzyConcept;
use super::tnorm::TNorm;
use crate::concept::Concept;
use crate::oracle::datatypes::numeric_value;
use crate::oracle::{IndividualId, IndividualSet, MembershipOracle, OracleError};

pub fn reference_degree(
    oracle: &dyn MembershipOracle,
    tnorm: TNorm,
    c: &FuzzyConcept,
    a: IndividualId,
) -> Result<f64, OracleError> {
    let sig = oracle.signature();
    let universe = sig.individuals.len();
    let one = IndividualSet::from_ids(universe, [a]);
    Ok(match c {
        FuzzyConcept::Top => 1.0,
        FuzzyConcept::Crisp(concept) => {
            if oracle.covered(concept, &one)?.contains(a) {
                1.0
            } else {
                0.0
            }
        }
        FuzzyConcept::Fuzzy { property, set } => oracle
            .data_values(property, &one)?
            .iter()
            .filter_map(|(_, l)| numeric_value(&l.lexical, l.datatype.as_str()))
            .map(|v| set.degree(v))
            .fold(0.0, f64::max),
        FuzzyConcept::And(parts) => {
            let mut d = 1.0;
            for p in parts {
                d = tnorm.and(d, reference_degree(oracle, tnorm, p, a)?);
            }
            d
        }
        FuzzyConcept::Some { role, filler } => {
            let mut best: f64 = 0.0;
            for (i, y) in sig.individuals.iter().enumerate() {
                let edge = Concept::HasValue {
                    role: role.clone(),
                    individual: y.clone(),
                };
                if oracle.covered(&edge, &one)?.contains(a) {
                    let y = IndividualId(i as u32);
                    best = best.max(reference_degree(oracle, tnorm, filler, y)?);
                }
            }
            best
        }
    })
}

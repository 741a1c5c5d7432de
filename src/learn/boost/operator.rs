//! The EL(D) refinement operator of Learn-One-Axiom: `ρ(C) = { C ⊓ X }` for the atoms X
//! below, which are read from the examples and the individuals reachable from them (never
//! from the whole KB):
//!
//! - named classes with a member among them;
//! - `∃b.{true}`, `∃b.{false}` for boolean data properties with both values there;
//! - `∃p.F` for every fuzzy set F of a numeric data property's fuzzy datatype, built from
//!   the property's values on those individuals (equal-width or C-means, 3/5/7 sets),
//!   and with `threshold_sets` the partition's "F or lower" / "F or higher" shoulders;
//! - `∃r.⊤` and `∃r.X` for the atoms X of r's successors (to `role_depth`), and `∃r.{a}`
//!   when r has at most `max_values` distinct successors (categorical values); when the
//!   values are classes (punning), the classes below r's range that occur as values.
//!
//! Specialising a class to a subclass is `C ⊓ B` with B an atom too, so the flat
//! conjunction of atoms covers the paper's Table 1 up to the nesting depth.

use std::collections::BTreeMap;

use super::concept::FuzzyConcept;
use super::fuzzy_set::{FuzzySet, Partition, partition};
use super::params::BoostParams;
use crate::concept::{Concept, DataRange, Iri, Literal, Role, vocab};
use crate::oracle::datatypes::numeric_value;
use crate::oracle::{IndividualSet, MembershipOracle, OracleError};

/// The fuzzy datatypes the atoms use, per data property and ∃-depth (for output).
pub type Datatypes = BTreeMap<(usize, Iri), Vec<FuzzySet>>;

/// Atoms for the individuals `level` at ∃-depth `depth`, in a deterministic order.
pub fn atoms(
    oracle: &dyn MembershipOracle,
    level: &IndividualSet,
    params: &BoostParams,
    depth: usize,
    datatypes: &mut Datatypes,
) -> Result<Vec<FuzzyConcept>, OracleError> {
    let sig = oracle.signature();
    let mut out = Vec::new();
    if level.is_empty() {
        return Ok(out);
    }
    for class in &sig.classes {
        if matches!(class.as_str(), vocab::OWL_THING | vocab::OWL_NOTHING) {
            continue;
        }
        let c = Concept::Class(class.clone());
        if !oracle.covered(&c, level)?.is_empty() {
            out.push(FuzzyConcept::Crisp(c));
        }
    }
    for (property, info) in &sig.data_properties {
        if info.booleans.is_some() {
            let values = oracle.data_values(property, level)?;
            let has = |b: bool| {
                values.iter().any(|(_, l)| {
                    l.datatype.as_str() == vocab::XSD_BOOLEAN
                        && matches!(
                            (b, &*l.lexical),
                            (true, "true" | "1") | (false, "false" | "0")
                        )
                })
            };
            if has(true) && has(false) {
                for b in [true, false] {
                    out.push(FuzzyConcept::Crisp(Concept::Data {
                        property: property.clone(),
                        range: DataRange::Value(Literal::boolean(b)),
                    }));
                }
            }
        }
        if info.numeric.is_some() {
            let values: Vec<f64> = oracle
                .data_values(property, level)?
                .iter()
                .filter_map(|(_, l)| numeric_value(&l.lexical, l.datatype.as_str()))
                .filter(|v| v.is_finite())
                .collect();
            if let Some(mut sets) = fuzzy_sets(&values, params.fuzzy_sets, params.partition) {
                if params.threshold_sets {
                    let extra = super::fuzzy_set::thresholds(&sets);
                    sets.extend(extra);
                }
                for set in &sets {
                    out.push(FuzzyConcept::Fuzzy {
                        property: property.clone(),
                        set: set.clone(),
                    });
                }
                datatypes.insert((depth, property.clone()), sets);
            }
        }
    }
    if depth >= params.role_depth {
        return Ok(out);
    }
    for property in sig.object_properties.keys() {
        let role = Role::new(property.clone());
        let Some(succ) = oracle.successors(&role, level)? else {
            out.extend(punned_values(oracle, &role, level, params)?);
            continue;
        };
        let targets = succ.targets();
        if targets.is_empty() {
            continue;
        }
        out.push(FuzzyConcept::Crisp(Concept::some(
            role.clone(),
            Concept::Top,
        )));
        if targets.len() <= params.max_values {
            for y in targets.iter() {
                if let Some(iri) = sig.individual_iri(y) {
                    out.push(FuzzyConcept::Crisp(Concept::HasValue {
                        role: role.clone(),
                        individual: iri.clone(),
                    }));
                }
            }
        }
        for inner in atoms(oracle, targets, params, depth + 1, datatypes)? {
            out.push(FuzzyConcept::some(role.clone(), inner));
        }
    }
    Ok(out)
}

/// `∃r.{v}` atoms when r's successors cannot be listed because its values are not
/// individuals of the active domain: the UCI conversions (mammographic's `hasMargin
/// circumscribed`) use classes as values (punning). The candidates are the named classes
/// directly below r's declared ranges, read from the schema (never the data), each kept
/// when some individual of `level` has it as a value.
fn punned_values(
    oracle: &dyn MembershipOracle,
    role: &Role,
    level: &IndividualSet,
    params: &BoostParams,
) -> Result<Vec<FuzzyConcept>, OracleError> {
    let sig = oracle.signature();
    let Some(info) = sig.object_properties.get(&role.property) else {
        return Ok(Vec::new());
    };
    let mut out = Vec::new();
    for (class, supers) in &sig.superclasses {
        if !supers.iter().any(|s| info.ranges.contains(s)) {
            continue;
        }
        let c = Concept::HasValue {
            role: role.clone(),
            individual: class.clone(),
        };
        if !oracle.covered(&c, level)?.is_empty() {
            out.push(FuzzyConcept::Crisp(c));
        }
    }
    if out.len() > params.max_values {
        out.clear();
    }
    Ok(out)
}

/// A property's fuzzy datatype from its values: `None` when they cannot be partitioned.
fn fuzzy_sets(values: &[f64], k: usize, how: Partition) -> Option<Vec<FuzzySet>> {
    partition(values, k, how)
}

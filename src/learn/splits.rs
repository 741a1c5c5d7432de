//! Numeric values of the data properties over the examples, which refinement operators
//! turn into split points (they read the signature only; the learner asks the oracle).
//!
//! Besides the evenly spaced split values per property, [`example_boundary_splits`] gives the
//! thresholds where the examples' coverage changes (at most [`MAX_EXAMPLE_SPLITS`] per
//! property, evenly thinned beyond): suramin's lie in gaps 0.001 wide between compounds'
//! charges that evenly spaced values miss. They are read from the examples' successor lists
//! (a query per object property and per numeric property, no labels, so one operator still
//! serves every fold of a cross-validation); [`rho_over_examples`] and
//! `KnowledgeBase::rho_for` build the operator with them.

use std::collections::BTreeMap;
use std::sync::Arc;

use crate::concept::{Iri, Number, Role};
use crate::oracle::datatypes::numeric_value;
use crate::oracle::{IndividualId, IndividualSet, MembershipOracle, OracleError, Signature};
use crate::refine::rho::{Rho, RhoOptions, numeric_split_points};

/// Per numeric data property of the signature, its values on `among` (sorted, with
/// repetitions; non-numeric values skipped).
pub fn numeric_values<O: MembershipOracle + ?Sized>(
    oracle: &O,
    among: &IndividualSet,
) -> Result<BTreeMap<Iri, Vec<f64>>, OracleError> {
    let mut out = BTreeMap::new();
    let numeric: Vec<Iri> = oracle
        .signature()
        .data_properties
        .iter()
        .filter(|(_, info)| info.numeric.is_some())
        .map(|(p, _)| p.clone())
        .collect();
    for property in numeric {
        let mut values: Vec<f64> = oracle
            .data_values(&property, among)?
            .iter()
            .filter_map(|(_, lit)| numeric_value(&lit.lexical, lit.datatype.as_str()))
            .filter(|v| v.is_finite())
            .collect();
        values.sort_by(f64::total_cmp);
        out.insert(property, values);
    }
    Ok(out)
}

/// The ρ operator over the oracle's signature with numeric split points taken from the
/// values of every individual of the signature's universe — in a learning run the examples'
/// neighbourhood, not the whole KB: the values that matter are often not the examples' own
/// (a compound has no charge, its atoms do), but they are reachable from them. No labels are used,
/// so a cross-validation fold learns nothing about its test examples this way, and one
/// operator serves every problem and fold over the same KB.
pub fn rho_over_kb<O: MembershipOracle + ?Sized>(
    oracle: &O,
    signature: Arc<Signature>,
    options: RhoOptions,
) -> Result<Rho, OracleError> {
    let splits: BTreeMap<Iri, Vec<Number>> = if options.use_numeric_data {
        numeric_values(oracle, &oracle.signature().all_individuals())?
            .into_iter()
            .map(|(p, values)| {
                let points = numeric_split_points(&values, options.max_numeric_splits);
                (p, points)
            })
            .collect()
    } else {
        BTreeMap::new()
    };
    Ok(Rho::new(signature, options).with_numeric_splits(splits))
}

/// Most boundary split values per property (evenly thinned beyond): a few hundred examples
/// would otherwise flood ρ(⊤), which offers every split value.
pub const MAX_EXAMPLE_SPLITS: usize = 32;

/// ρ for learning problems over `seeds` (their examples, without labels): as
/// [`rho_over_kb`], plus, with `use_example_splits`, the seeds' boundary split values.
pub fn rho_over_examples<O: MembershipOracle + ?Sized>(
    oracle: &O,
    signature: Arc<Signature>,
    options: RhoOptions,
    seeds: &IndividualSet,
) -> Result<Rho, OracleError> {
    let extra = options.use_numeric_data && options.use_example_splits;
    let rho = rho_over_kb(oracle, signature, options)?;
    Ok(if extra {
        rho.with_extra_numeric_splits(example_boundary_splits(oracle, seeds)?)
    } else {
        rho
    })
}

/// Per numeric data property, split values between the examples' extreme values: for each
/// seed, the least and the greatest of its own values and of its successors' values along
/// each object property. `∃r.[≤ v]` covers a seed exactly when its least value along `r` is at
/// most `v` (and `∀r.∃p.[≤ v]` when its greatest is), so between two neighbouring extremes
/// every such restriction covers the same seeds: these split values are the ones that can
/// change a one-step restriction's coverage of the examples, however fine the gaps between
/// them (quantile splits over all values miss gaps 0.001 wide). No labels are used.
pub fn example_boundary_splits<O: MembershipOracle + ?Sized>(
    oracle: &O,
    seeds: &IndividualSet,
) -> Result<BTreeMap<Iri, Vec<Number>>, OracleError> {
    let signature = oracle.signature();
    let numeric: Vec<&Iri> = signature
        .data_properties
        .iter()
        .filter(|(_, info)| info.numeric.is_some())
        .map(|(p, _)| p)
        .collect();
    if numeric.is_empty() || seeds.is_empty() {
        return Ok(BTreeMap::new());
    }
    let mut steps = Vec::new();
    for property in signature.object_properties.keys() {
        if let Some(s) = oracle.successors(&Role::new(property.clone()), seeds)? {
            steps.push(s);
        }
    }
    let mut reached = seeds.clone();
    for s in &steps {
        reached.union_with(s.targets());
    }
    let mut out = BTreeMap::new();
    for property in numeric {
        let ranges = value_ranges(oracle, property, &reached)?;
        let mut extremes: Vec<f64> = Vec::new();
        for x in seeds.iter() {
            let own = std::iter::once(ranges.get(&x).copied());
            let along = steps.iter().map(|s| {
                s.of(x)
                    .iter()
                    .filter_map(|y| ranges.get(y).copied())
                    .reduce(|a, b| (a.0.min(b.0), a.1.max(b.1)))
            });
            for (lo, hi) in own.chain(along).flatten() {
                extremes.extend([lo, hi]);
            }
        }
        let points = numeric_split_points(&extremes, MAX_EXAMPLE_SPLITS);
        if !points.is_empty() {
            out.insert(property.clone(), points);
        }
    }
    Ok(out)
}

/// The least and greatest numeric value of `property` per individual of `among` that has one.
fn value_ranges<O: MembershipOracle + ?Sized>(
    oracle: &O,
    property: &Iri,
    among: &IndividualSet,
) -> Result<BTreeMap<IndividualId, (f64, f64)>, OracleError> {
    let mut ranges: BTreeMap<IndividualId, (f64, f64)> = BTreeMap::new();
    for (id, lit) in oracle.data_values(property, among)? {
        let Some(v) = numeric_value(&lit.lexical, lit.datatype.as_str()).filter(|v| v.is_finite())
        else {
            continue;
        };
        let e = ranges.entry(id).or_insert((v, v));
        e.0 = e.0.min(v);
        e.1 = e.1.max(v);
    }
    Ok(ranges)
}

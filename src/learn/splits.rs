//! Numeric values of the data properties over the examples, which refinement operators
//! turn into split points (they read the signature only; the learner asks the oracle).

use std::collections::BTreeMap;
use std::sync::Arc;

use crate::concept::{Iri, Number};
use crate::oracle::datatypes::numeric_value;
use crate::oracle::{IndividualSet, MembershipOracle, OracleError, Signature};
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

//! Numeric values of the data properties over the examples, which refinement operators
//! turn into split points (they read the signature only; the learner asks the oracle).

use std::collections::BTreeMap;
use std::sync::Arc;

use crate::concept::{Iri, Number};
use crate::learn::Examples;
use crate::oracle::datatypes::numeric_value;
use crate::oracle::{IndividualSet, MembershipOracle, OracleError};
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
/// examples' values (so a fold's operator never sees its test examples).
pub fn rho_for_examples<O: MembershipOracle + ?Sized>(
    oracle: &O,
    options: RhoOptions,
    examples: &Examples,
) -> Result<Rho, OracleError> {
    let splits: BTreeMap<Iri, Vec<Number>> = if options.use_numeric_data {
        numeric_values(oracle, examples.all())?
            .into_iter()
            .map(|(p, values)| {
                let points = numeric_split_points(&values, options.max_numeric_splits);
                (p, points)
            })
            .collect()
    } else {
        BTreeMap::new()
    };
    let signature = Arc::new(oracle.signature().clone());
    Ok(Rho::new(signature, options).with_numeric_splits(splits))
}

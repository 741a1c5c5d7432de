//! Numeric values of the data properties over the examples, which refinement operators
//! turn into split points (they read the signature only; the learner asks the oracle).

use std::collections::BTreeMap;

use crate::concept::Iri;
use crate::oracle::datatypes::numeric_value;
use crate::oracle::{IndividualSet, MembershipOracle, OracleError};

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

//! Data-property features that are not thresholds: `∃p.Literal` (has some value of `p`) and
//! `∃p.{v}` for the non-numeric literals `v` (booleans, strings, dates as written) that at
//! least `frequency_threshold` of the set hold, the data-value analogue of `∃r.{o}`. A test
//! outcome stored as `p true` / `p false` is such a value, and neither a class nor a numeric
//! threshold can name it. Only the set's own values are read.

use std::collections::BTreeMap;

use super::FeatureParams;
use crate::concept::{Concept, DataRange, Iri, Literal, vocab};
use crate::oracle::{IndividualId, IndividualSet, MembershipOracle, OracleError};

/// Per data property with values on `set` (IRI order): `∃p.Literal`, then its frequent
/// non-numeric values, most frequent first (ties by lexical form), at most `max_values`;
/// each wrapped by `wrap`.
pub(super) fn literal_features(
    oracle: &dyn MembershipOracle,
    set: &IndividualSet,
    p: &FeatureParams,
    wrap: &dyn Fn(Concept) -> Concept,
) -> Result<Vec<Concept>, OracleError> {
    let sig = oracle.signature();
    let mut out = Vec::new();
    for property in sig.data_properties.keys() {
        let values = oracle.data_values(property, set)?;
        if values.is_empty() {
            continue;
        }
        out.push(wrap(data(
            property,
            DataRange::Datatype(Iri::new(vocab::RDFS_LITERAL)),
        )));
        for v in frequent_literals(&values, p) {
            out.push(wrap(data(property, DataRange::Value(v))));
        }
    }
    Ok(out)
}

fn data(property: &Iri, range: DataRange) -> Concept {
    Concept::Data {
        property: property.clone(),
        range,
    }
}

/// The non-numeric literals at least `frequency_threshold` individuals hold (each counted
/// once per individual), most frequent first, at most `max_values`.
fn frequent_literals(values: &[(IndividualId, Literal)], p: &FeatureParams) -> Vec<Literal> {
    let mut holders: BTreeMap<&Literal, Vec<IndividualId>> = BTreeMap::new();
    for (id, lit) in values {
        if !vocab::is_numeric_datatype(lit.datatype.as_str()) {
            holders.entry(lit).or_default().push(*id);
        }
    }
    let mut frequent: Vec<(usize, &Literal)> = holders
        .into_iter()
        .map(|(lit, mut ids)| {
            ids.sort_unstable();
            ids.dedup();
            (ids.len(), lit)
        })
        .filter(|&(n, _)| n >= p.frequency_threshold.max(1))
        .collect();
    frequent.sort_by(|a, b| b.0.cmp(&a.0).then_with(|| a.1.lexical.cmp(&b.1.lexical)));
    frequent
        .into_iter()
        .take(p.max_values)
        .map(|(_, lit)| lit.clone())
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lit(s: &str, dt: &str) -> Literal {
        Literal::typed(s, Iri::new(dt))
    }

    #[test]
    fn frequent_non_numeric_values_most_frequent_first() {
        let t = lit("true", vocab::XSD_BOOLEAN);
        let f = lit("false", vocab::XSD_BOOLEAN);
        let n = lit("1.5", vocab::XSD_DOUBLE);
        let mut values = Vec::new();
        for i in 0..5u32 {
            values.push((IndividualId(i), f.clone()));
            values.push((IndividualId(i), n.clone()));
        }
        for i in 5..8u32 {
            values.push((IndividualId(i), t.clone()));
        }
        // The same individual holding a value twice counts once.
        values.push((IndividualId(0), f.clone()));
        let p = FeatureParams {
            frequency_threshold: 3,
            ..FeatureParams::default()
        };
        assert_eq!(frequent_literals(&values, &p), vec![f.clone(), t.clone()]);
        let strict = FeatureParams {
            frequency_threshold: 4,
            ..p.clone()
        };
        assert_eq!(frequent_literals(&values, &strict), vec![f.clone()]);
        let one = FeatureParams { max_values: 1, ..p };
        assert_eq!(frequent_literals(&values, &one), vec![f]);
    }
}

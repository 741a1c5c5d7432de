//! The candidate feature concepts of a set of seeds (the examples, without labels), read from
//! their neighbourhood only: each query is bounded to the seeds, their successors or their
//! successors' successors, so the cost does not grow with the KB.

use std::collections::BTreeSet;

use super::counts::count_features;
use super::literals::literal_features;
use super::{FeatureParams, thin};
use crate::concept::{Bound, Concept, DataRange, Iri, Number, Role, vocab};
use crate::oracle::datatypes::numeric_value;
use crate::oracle::{IndividualSet, MembershipOracle, OracleError, Signature};

/// Candidates in the order they are generated: simplest first, so a later candidate with the
/// same column as an earlier one is the one dropped.
pub(super) fn candidates(
    oracle: &dyn MembershipOracle,
    seeds: &IndividualSet,
    p: &FeatureParams,
) -> Result<Vec<Concept>, OracleError> {
    let sig = oracle.signature();
    let mut out: Vec<Concept> = classes_of(oracle, seeds, p)?
        .into_iter()
        .map(Concept::Class)
        .collect();
    out.extend(numeric(oracle, seeds, p, &|f| f)?);
    out.extend(literal_features(oracle, seeds, p, &|f| f)?);
    for role in roles(sig, p.inverse) {
        let Some(succ) = oracle.successors(&role, seeds)? else {
            out.push(Concept::some(role, Concept::Top));
            continue;
        };
        let targets = succ.targets().clone();
        if targets.is_empty() {
            continue;
        }
        let wrap = |f: Concept| Concept::some(role.clone(), f);
        out.push(wrap(Concept::Top));
        out.extend(frequent_values(
            sig,
            &role,
            &succ.successor_counts(seeds),
            p,
        ));
        let classes: Vec<Concept> = classes_of(oracle, &targets, p)?
            .into_iter()
            .map(Concept::Class)
            .collect();
        out.extend(classes.iter().cloned().map(wrap));
        out.extend(numeric(oracle, &targets, p, &wrap)?);
        out.extend(literal_features(oracle, &targets, p, &wrap)?);
        out.extend(count_features(oracle, &role, seeds, &succ, classes, p)?);
        if p.depth >= 2 {
            out.extend(second_step(oracle, &role, &targets, p)?);
        }
    }
    Ok(out)
}

/// `∃r.∃s.⊤`, `∃r.∃s.C` and `∃r.∃s.{o}` over the `r`-successors `targets`.
fn second_step(
    oracle: &dyn MembershipOracle,
    first: &Role,
    targets: &IndividualSet,
    p: &FeatureParams,
) -> Result<Vec<Concept>, OracleError> {
    let sig = oracle.signature();
    let mut out = Vec::new();
    for role in roles(sig, p.inverse) {
        // Going back the way we came (`∃r.∃r⁻.⊤`) says nothing new.
        if role == first.inverted() {
            continue;
        }
        let Some(succ) = oracle.successors(&role, targets)? else {
            continue;
        };
        if succ.targets().is_empty() {
            continue;
        }
        let wrap = |f: Concept| Concept::some(first.clone(), Concept::some(role.clone(), f));
        out.push(wrap(Concept::Top));
        out.extend(
            frequent_values(sig, &role, &succ.successor_counts(targets), p)
                .into_iter()
                .map(|hv| Concept::some(first.clone(), hv)),
        );
        out.extend(
            classes_of(oracle, succ.targets(), p)?
                .into_iter()
                .map(|c| wrap(Concept::Class(c))),
        );
    }
    Ok(out)
}

/// Object properties, then (with `inverse`) their inverses, in IRI order.
fn roles(sig: &Signature, inverse: bool) -> Vec<Role> {
    let forward = sig.object_properties.keys().map(|p| Role::new(p.clone()));
    let backward = sig
        .object_properties
        .keys()
        .filter(|_| inverse)
        .map(|p| Role::inverse_of(p.clone()));
    forward.chain(backward).collect()
}

/// `∃r.{o}` for the successors at least `frequency_threshold` of the individuals reach, most
/// frequent first (at most `max_values` per role).
fn frequent_values(
    sig: &Signature,
    role: &Role,
    counts: &[(crate::oracle::IndividualId, usize)],
    p: &FeatureParams,
) -> Vec<Concept> {
    let mut frequent: Vec<(usize, &Iri)> = counts
        .iter()
        .filter(|&&(_, n)| n >= p.frequency_threshold.max(1))
        .filter_map(|&(id, n)| sig.individual_iri(id).map(|i| (n, i)))
        .collect();
    frequent.sort_by(|a, b| b.0.cmp(&a.0).then_with(|| a.1.cmp(b.1)));
    frequent
        .into_iter()
        .take(p.max_values)
        .map(|(_, iri)| Concept::HasValue {
            role: role.clone(),
            individual: iri.clone(),
        })
        .collect()
}

/// The named classes with at least one instance among `set` (one bounded query per class of
/// the signature; ignored classes and `owl:Thing` left out).
fn classes_of(
    oracle: &dyn MembershipOracle,
    set: &IndividualSet,
    p: &FeatureParams,
) -> Result<Vec<Iri>, OracleError> {
    let sig = oracle.signature();
    let names: BTreeSet<&Iri> = sig.classes.iter().chain(&sig.schema_classes).collect();
    let names: Vec<Iri> = names
        .into_iter()
        .filter(|c| c.as_str() != vocab::OWL_THING && !p.ignored_classes.contains(*c))
        .cloned()
        .collect();
    let concepts: Vec<Concept> = names.iter().cloned().map(Concept::Class).collect();
    let mut out = Vec::new();
    for (c, answer) in names.into_iter().zip(oracle.covered_batch(&concepts, set)) {
        if !answer?.is_empty() {
            out.push(c);
        }
    }
    Ok(out)
}

/// `∃p.≥t` (wrapped by `wrap`) for each numeric data property with values on `set`, `t`
/// the midpoints between neighbouring distinct values, thinned evenly to `max_thresholds`.
fn numeric(
    oracle: &dyn MembershipOracle,
    set: &IndividualSet,
    p: &FeatureParams,
    wrap: &dyn Fn(Concept) -> Concept,
) -> Result<Vec<Concept>, OracleError> {
    let sig = oracle.signature();
    let mut out = Vec::new();
    for (property, info) in &sig.data_properties {
        if info.numeric.is_none() || p.max_thresholds == 0 {
            continue;
        }
        let mut values: Vec<f64> = oracle
            .data_values(property, set)?
            .iter()
            .filter_map(|(_, l)| numeric_value(&l.lexical, l.datatype.as_str()))
            .filter(|v| v.is_finite())
            .collect();
        values.sort_by(f64::total_cmp);
        values.dedup();
        let mids: Vec<f64> = values.windows(2).map(|w| (w[0] + w[1]) / 2.0).collect();
        let datatype = info
            .datatypes
            .iter()
            .filter(|(d, _)| vocab::is_numeric_datatype(d.as_str()))
            .max_by_key(|(_, n)| **n)
            .map_or_else(|| Iri::new(vocab::XSD_DOUBLE), |(d, _)| d.clone());
        for t in thin(&mids, p.max_thresholds) {
            let Some(value) = Number::new(t) else {
                continue;
            };
            out.push(wrap(Concept::Data {
                property: property.clone(),
                range: DataRange::Numeric {
                    datatype: datatype.clone(),
                    min: Some(Bound {
                        value,
                        inclusive: true,
                    }),
                    max: None,
                },
            }));
        }
    }
    Ok(out)
}

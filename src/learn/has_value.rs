//! Candidate individuals for `∃r.{a}` (hasValue), chosen as DL-Learner's
//! `op.useHasValue`/`op.frequencyThreshold` do: an individual is a candidate filler of `r`
//! when at least `threshold` of the seeds (the examples, without their labels) have it as
//! an `r`-successor. Only the seeds' own successors are read, never the KB's individuals.

use std::collections::BTreeMap;

use crate::concept::{Iri, Role};
use crate::oracle::{IndividualSet, MembershipOracle, OracleError};

/// DL-Learner's default `op.frequencyThreshold`.
pub const DEFAULT_FREQUENCY_THRESHOLD: usize = 3;

/// Most candidates kept per property (the most frequent first): each one is a refinement
/// of `∃r.⊤`, so a hub property must not flood the operator.
pub const MAX_PER_PROPERTY: usize = 20;

/// Per object property, the individuals at least `threshold` seeds reach through it, most
/// frequent first (ties by IRI). Properties the oracle cannot list successors for are
/// skipped.
pub fn has_value_candidates<O: MembershipOracle + ?Sized>(
    oracle: &O,
    seeds: &IndividualSet,
    threshold: usize,
) -> Result<BTreeMap<Iri, Vec<Iri>>, OracleError> {
    let signature = oracle.signature();
    let mut out = BTreeMap::new();
    for property in signature.object_properties.keys() {
        let Some(successors) = oracle.successors(&Role::new(property.clone()), seeds)? else {
            continue;
        };
        let mut frequent: Vec<(usize, &Iri)> = successors
            .successor_counts(seeds)
            .into_iter()
            .filter(|&(_, n)| n >= threshold.max(1))
            .filter_map(|(id, n)| signature.individual_iri(id).map(|iri| (n, iri)))
            .collect();
        frequent.sort_by(|a, b| b.0.cmp(&a.0).then_with(|| a.1.cmp(b.1)));
        frequent.truncate(MAX_PER_PROPERTY);
        if !frequent.is_empty() {
            out.insert(
                property.clone(),
                frequent.into_iter().map(|(_, iri)| iri.clone()).collect(),
            );
        }
    }
    Ok(out)
}

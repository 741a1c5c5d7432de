//! Candidate individuals for `∃r.{a}` (hasValue), chosen as DL-Learner's
//! `op.useHasValue`/`op.frequencyThreshold` do: an individual is a candidate filler of `r`
//! when at least `threshold` of the seeds (the examples, without their labels) have it as
//! an `r`-successor, or reaches it through one more link (`∃r.∃s.{a}`). Only the seeds'
//! successors and theirs are read, never the KB's individuals.

use std::collections::BTreeMap;

use crate::concept::{Iri, Role};
use crate::oracle::{IndividualId, IndividualSet, MembershipOracle, OracleError, Successors};

/// DL-Learner's default `op.frequencyThreshold`.
pub const DEFAULT_FREQUENCY_THRESHOLD: usize = 3;

/// Most candidates kept per property (the most frequent first): each one is a refinement
/// of `∃r.⊤`, so a hub property must not flood the operator.
pub const MAX_PER_PROPERTY: usize = 20;

/// Per object property, the individuals at least `threshold` seeds reach through it, most
/// frequent first (ties by IRI). Properties the oracle cannot list successors for are
/// skipped.
///
/// A value also counts when the seeds reach it in two steps, `r` then `s` (counted once per
/// seed): a class often turns on an individual one link further away (the funder of the
/// project a person works on: `∃worksOn.∃fundedBy.{f}`), which the seeds' own successors
/// never name. The second step reads only the successors of the seeds' successors.
pub fn has_value_candidates<O: MembershipOracle + ?Sized>(
    oracle: &O,
    seeds: &IndividualSet,
    threshold: usize,
) -> Result<BTreeMap<Iri, Vec<Iri>>, OracleError> {
    let signature = oracle.signature();
    let first = first_steps(oracle, seeds)?;
    let mut middle = IndividualSet::empty(seeds.universe());
    for (_, successors) in &first {
        middle.union_with(successors.targets());
    }
    let mut out = BTreeMap::new();
    for property in signature.object_properties.keys() {
        let mut counts: BTreeMap<IndividualId, usize> = BTreeMap::new();
        if let Some((_, direct)) = first.iter().find(|(p, _)| p == property) {
            counts.extend(direct.successor_counts(seeds));
        }
        if !middle.is_empty()
            && let Some(second) = oracle.successors(&Role::new(property.clone()), &middle)?
        {
            for (value, n) in two_step_counts(seeds, &first, &second) {
                let c = counts.entry(value).or_default();
                *c = (*c).max(n);
            }
        }
        let mut frequent: Vec<(usize, &Iri)> = counts
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

/// The seeds' successors along each object property the oracle can list them for.
fn first_steps<O: MembershipOracle + ?Sized>(
    oracle: &O,
    seeds: &IndividualSet,
) -> Result<Vec<(Iri, Successors)>, OracleError> {
    let mut out = Vec::new();
    for property in oracle.signature().object_properties.keys() {
        if let Some(s) = oracle.successors(&Role::new(property.clone()), seeds)? {
            out.push((property.clone(), s));
        }
    }
    Ok(out)
}

/// Per value, how many seeds reach it through some first step and then `second`.
fn two_step_counts(
    seeds: &IndividualSet,
    first: &[(Iri, Successors)],
    second: &Successors,
) -> BTreeMap<IndividualId, usize> {
    let mut counts: BTreeMap<IndividualId, usize> = BTreeMap::new();
    for seed in seeds.iter() {
        let mut reached: Vec<IndividualId> = first
            .iter()
            .flat_map(|(_, s)| s.of(seed))
            .flat_map(|&middle| second.of(middle))
            .copied()
            .collect();
        reached.sort_unstable();
        reached.dedup();
        for value in reached {
            *counts.entry(value).or_default() += 1;
        }
    }
    counts
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::KnowledgeBase;
    use oxigraph::io::RdfFormat;
    use oxigraph::store::Store;

    const KB: &str = r#"
        @prefix : <http://example.org/hv#> .
        @prefix owl: <http://www.w3.org/2002/07/owl#> .
        :worksOn a owl:ObjectProperty . :fundedBy a owl:ObjectProperty .
        :a :worksOn :p1 . :b :worksOn :p2 . :c :worksOn :p3 . :d :worksOn :p1 .
        :p1 :fundedBy :f . :p2 :fundedBy :f . :p3 :fundedBy :f .
        :far :fundedBy :g . :far2 :fundedBy :g . :far3 :fundedBy :g .
    "#;

    fn iri(local: &str) -> Iri {
        Iri::new(format!("http://example.org/hv#{local}"))
    }

    /// `f` is one link beyond every seed's project (counted once per seed, `d` and `a`
    /// sharing `p1`); `p1` is the only project two seeds reach directly; `g` is funded
    /// outside the seeds' neighbourhood and never offered.
    #[test]
    fn values_one_link_further_count_once_per_seed() {
        let store = Store::new().unwrap();
        store
            .load_from_reader(RdfFormat::Turtle, KB.as_bytes())
            .unwrap();
        let kb = KnowledgeBase::from_store(store).unwrap();
        let sig = kb.signature();
        let seeds = IndividualSet::from_ids(
            sig.individual_count(),
            ["a", "b", "c", "d"].map(|x| sig.individual_id(iri(x).as_str()).unwrap()),
        );
        let at_least_two = has_value_candidates(kb.oracle(), &seeds, 2).unwrap();
        assert_eq!(at_least_two[&iri("worksOn")], vec![iri("p1")]);
        assert_eq!(at_least_two[&iri("fundedBy")], vec![iri("f")]);
        let at_least_four = has_value_candidates(kb.oracle(), &seeds, 4).unwrap();
        assert_eq!(
            at_least_four,
            BTreeMap::from([(iri("fundedBy"), vec![iri("f")])])
        );
        assert_eq!(
            has_value_candidates(kb.oracle(), &seeds, 5).unwrap(),
            BTreeMap::new()
        );
    }
}

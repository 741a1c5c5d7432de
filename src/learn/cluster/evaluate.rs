//! Measuring a clustering: the disjointness axioms between named classes it proposes,
//! scored against the KB's asserted ones next to a co-occurrence baseline, and the mean
//! silhouette of the clusters under `d_p`.
//!
//! A cluster tree proposes `A ⊓ B ⊑ ⊥` for named classes `A`, `B` with instances when the
//! clusters holding `A`'s known instances (`T(A)` among the clustered individuals) and those
//! holding `B`'s are disjoint sets: on the data `A ⊑ L_i1 ⊔ … ⊔ L_ik` and `B ⊑ L_j1 ⊔ …`
//! over the leaf concepts, whose proposed pairwise disjointness then entails `A ⊓ B ⊑ ⊥`.
//! (Two classes sharing an instance share its cluster, so this is never more than the
//! baseline below proposes; the clusters decide which of those pairs to keep.) The baseline proposes `A ⊓ B ⊑ ⊥` for every
//! two classes with no shared instance ([`baseline`]; [`Baseline::Populated`] only among
//! classes with instances).
//!
//! Scoring ([`score`]) reasons with the class hierarchy only (no DL reasoner): a proposal
//! `(X, Y)` is *correct* when the asserted axioms entail it (`X ⊑* A`, `Y ⊑* B` with `A`, `B`
//! asserted disjoint or complements); an asserted pair is *recalled* when the proposals
//! entail it the same way. A proposal *contradicts* the KB when some individual is an
//! instance of both (inconsistency) or some named class is below both (that class becomes
//! unsatisfiable; this includes `X ⊑* Y`).

use std::collections::{BTreeMap, BTreeSet};

use rand::SeedableRng;
use rand::rngs::StdRng;
use rand::seq::SliceRandom;
use rayon::prelude::*;
use serde::Serialize;

use super::distance::Metric;
use super::projection::Projections;
use crate::concept::{Concept, Iri};
use crate::oracle::{IndividualId, IndividualSet, MembershipOracle, OracleError, Signature};

/// An unordered pair of named classes, smaller IRI first.
pub type ClassPair = (Iri, Iri);

fn pair(a: &Iri, b: &Iri) -> ClassPair {
    if a <= b {
        (a.clone(), b.clone())
    } else {
        (b.clone(), a.clone())
    }
}

/// `T(A)` among `among` for every class (one oracle call each, in parallel).
pub fn class_instances(
    oracle: &dyn MembershipOracle,
    classes: &[Iri],
    among: &IndividualSet,
) -> Result<BTreeMap<Iri, IndividualSet>, OracleError> {
    let sets = classes
        .par_iter()
        .map(|a| oracle.truth(&Concept::Class(a.clone()), among))
        .collect::<Result<Vec<_>, _>>()?;
    Ok(classes
        .iter()
        .cloned()
        .zip(sets.into_iter().map(|t| t.true_set))
        .collect())
}

/// The class pairs a clustering proposes (see the module docs): two classes with
/// instances whose instances lie in disjoint sets of clusters.
pub fn from_clusters(
    assignment: &[(IndividualId, usize)],
    instances: &BTreeMap<Iri, IndividualSet>,
) -> BTreeSet<ClassPair> {
    let cluster_of: BTreeMap<IndividualId, usize> = assignment.iter().copied().collect();
    // The clusters holding the clustered instances of each class (classes with some).
    let homes: Vec<(&Iri, BTreeSet<usize>)> = instances
        .iter()
        .map(|(class, members)| {
            let clusters: BTreeSet<usize> = members
                .iter()
                .filter_map(|a| cluster_of.get(&a).copied())
                .collect();
            (class, clusters)
        })
        .filter(|(_, clusters)| !clusters.is_empty())
        .collect();
    let mut out = BTreeSet::new();
    for (i, (a, ka)) in homes.iter().enumerate() {
        for (b, kb) in &homes[i + 1..] {
            if ka.is_disjoint(kb) {
                out.insert(pair(a, b));
            }
        }
    }
    out
}

/// Which classes the baseline pairs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Baseline {
    /// Every named class, with instances or not.
    All,
    /// Only classes with at least one instance.
    Populated,
}

/// `A ⊓ B ⊑ ⊥` for every two classes of `instances` with no shared instance.
pub fn baseline(instances: &BTreeMap<Iri, IndividualSet>, which: Baseline) -> BTreeSet<ClassPair> {
    let classes: Vec<(&Iri, &IndividualSet)> = instances
        .iter()
        .filter(|(_, s)| which == Baseline::All || !s.is_empty())
        .collect();
    let mut out = BTreeSet::new();
    for (i, (a, sa)) in classes.iter().enumerate() {
        for (b, sb) in &classes[i + 1..] {
            if sa.intersection_count(sb) == 0 {
                out.insert(pair(a, b));
            }
        }
    }
    out
}

/// The asserted disjointness between named classes: `owl:disjointWith`,
/// `owl:AllDisjointClasses` and `owl:complementOf` pairs.
pub fn asserted(signature: &Signature) -> BTreeSet<ClassPair> {
    let mut out = BTreeSet::new();
    for (a, bs) in &signature.disjoint_classes {
        for b in bs.iter().filter(|b| *b != a) {
            out.insert(pair(a, b));
        }
    }
    for (a, b) in signature.complement_classes.iter().filter(|(a, b)| a != b) {
        out.insert(pair(a, b));
    }
    out
}

/// Precision, recall and contradictions of proposed class disjointness.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct DisjointnessScore {
    pub proposed: usize,
    pub asserted: usize,
    /// Proposals the asserted axioms entail (through the hierarchy).
    pub correct: usize,
    /// Proposals that are themselves asserted.
    pub exact: usize,
    /// Asserted pairs the proposals entail (through the hierarchy).
    pub recalled: usize,
    /// `correct / proposed` (`None` without proposals).
    pub precision: Option<f64>,
    /// `recalled / asserted` (`None` without asserted axioms).
    pub recall: Option<f64>,
    /// Proposals with an instance of both classes in the KB.
    pub inconsistent: usize,
    /// Proposals that make some named class (below both) unsatisfiable.
    pub unsatisfiable: usize,
    /// Proposals that are either.
    pub contradicting: usize,
}

/// Scores `proposed` against the asserted axioms of `signature` (its hierarchy too), with
/// `instances` the classes' instances in the KB for the consistency check.
pub fn score(
    proposed: &BTreeSet<ClassPair>,
    signature: &Signature,
    instances: &BTreeMap<Iri, IndividualSet>,
) -> DisjointnessScore {
    let gold = asserted(signature);
    let mut classes: BTreeSet<Iri> = signature.classes.clone();
    classes.extend(signature.schema_classes.iter().cloned());
    classes.extend(instances.keys().cloned());
    let sup: BTreeMap<&Iri, BTreeSet<Iri>> = classes
        .iter()
        .map(|c| (c, signature.superclasses_of(c)))
        .collect();
    let sup_of = |c: &Iri| -> BTreeSet<Iri> {
        sup.get(c)
            .cloned()
            .unwrap_or_else(|| signature.superclasses_of(c))
    };
    let entailed_by = |set: &BTreeSet<ClassPair>, (a, b): &ClassPair| -> bool {
        let (sa, sb) = (sup_of(a), sup_of(b));
        sa.iter()
            .any(|x| sb.iter().any(|y| x != y && set.contains(&pair(x, y))))
    };
    let correct = proposed.iter().filter(|p| entailed_by(&gold, p)).count();
    let exact = proposed.iter().filter(|p| gold.contains(*p)).count();
    let recalled = gold.iter().filter(|g| entailed_by(proposed, g)).count();
    let empty = IndividualSet::default();
    let mut inconsistent = 0;
    let mut unsatisfiable = 0;
    let mut contradicting = 0;
    for (a, b) in proposed {
        let shared = instances
            .get(a)
            .unwrap_or(&empty)
            .intersection_count(instances.get(b).unwrap_or(&empty))
            > 0;
        let below_both = sup.values().any(|s| s.contains(a) && s.contains(b))
            || sup_of(a).contains(b)
            || sup_of(b).contains(a);
        inconsistent += usize::from(shared);
        unsatisfiable += usize::from(below_both);
        contradicting += usize::from(shared || below_both);
    }
    let ratio = |n: usize, d: usize| (d > 0).then(|| n as f64 / d as f64);
    DisjointnessScore {
        proposed: proposed.len(),
        asserted: gold.len(),
        correct,
        exact,
        recalled,
        precision: ratio(correct, proposed.len()),
        recall: ratio(recalled, gold.len()),
        inconsistent,
        unsatisfiable,
        contradicting,
    }
}

/// The mean silhouette of the clusters under `d_p`: for each individual, `a` = its mean
/// distance to the rest of its cluster, `b` = the least mean distance to another cluster,
/// `s = (b − a) / max(a, b)` (0 in a singleton cluster). Over at most `max_sample`
/// individuals (a seeded uniform sample, each computed within the sample); `None` with
/// fewer than two clusters.
pub fn silhouette(
    projections: &Projections,
    clusters: &[usize],
    metric: Metric,
    max_sample: usize,
    seed: u64,
) -> Option<f64> {
    let mut rows: Vec<usize> = (0..projections.len()).collect();
    if rows.len() > max_sample {
        rows.shuffle(&mut StdRng::seed_from_u64(seed));
        rows.truncate(max_sample);
        rows.sort_unstable();
    }
    let k = clusters.iter().copied().max()? + 1;
    let present: BTreeSet<usize> = rows.iter().map(|&r| clusters[r]).collect();
    if present.len() < 2 {
        return None;
    }
    let values: Vec<f64> = rows
        .par_iter()
        .map(|&i| {
            let mut sum = vec![0.0; k];
            let mut count = vec![0usize; k];
            for &j in &rows {
                if j != i {
                    sum[clusters[j]] += metric.distance(projections.row(i), projections.row(j));
                    count[clusters[j]] += 1;
                }
            }
            let own = clusters[i];
            if count[own] == 0 {
                return 0.0;
            }
            let a = sum[own] / count[own] as f64;
            let b = (0..k)
                .filter(|&c| c != own && count[c] > 0)
                .map(|c| sum[c] / count[c] as f64)
                .fold(f64::INFINITY, f64::min);
            let m = a.max(b);
            if m > 0.0 && b.is_finite() {
                (b - a) / m
            } else {
                0.0
            }
        })
        .collect();
    Some(values.iter().sum::<f64>() / values.len() as f64)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn iri(s: &str) -> Iri {
        Iri::new(format!("http://e/{s}"))
    }

    fn set(ids: &[u32]) -> IndividualSet {
        IndividualSet::from_ids(6, ids.iter().map(|&i| IndividualId(i)))
    }

    #[test]
    fn proposals_scores_and_contradictions_by_hand() {
        // A = {0, 1}, B = {2, 3}, C = {1} ⊑ A, D = {} ⊑ B, E = {4, 5}.
        let instances: BTreeMap<Iri, IndividualSet> = [
            (iri("A"), set(&[0, 1])),
            (iri("B"), set(&[2, 3])),
            (iri("C"), set(&[1])),
            (iri("D"), set(&[])),
            (iri("E"), set(&[4, 5])),
        ]
        .into_iter()
        .collect();
        // Clusters: {0, 1} → 0, {2, 3, 4} → 1, {5} → 2. A, C live in 0; B in 1; E in 1 and 2;
        // D has no instance and is never proposed.
        let assignment: Vec<(IndividualId, usize)> =
            [(0, 0), (1, 0), (2, 1), (3, 1), (4, 1), (5, 2)]
                .into_iter()
                .map(|(i, k)| (IndividualId(i), k))
                .collect();
        let tct = from_clusters(&assignment, &instances);
        assert_eq!(
            tct,
            [
                pair(&iri("A"), &iri("B")),
                pair(&iri("A"), &iri("E")),
                pair(&iri("B"), &iri("C")),
                pair(&iri("C"), &iri("E")),
            ]
            .into()
        );
        // Baseline: every pair without a shared instance (D, empty, pairs with all).
        let all = baseline(&instances, Baseline::All);
        assert_eq!(all.len(), 10 - 1, "all pairs but A–C: {all:?}");
        assert_eq!(baseline(&instances, Baseline::Populated).len(), 6 - 1);

        let mut sig = Signature::default();
        for c in ["A", "B", "C", "D", "E"] {
            sig.classes.insert(iri(c));
        }
        sig.superclasses.insert(iri("C"), [iri("A")].into());
        sig.superclasses.insert(iri("D"), [iri("B")].into());
        sig.disjoint_classes.insert(iri("A"), [iri("B")].into());
        sig.disjoint_classes.insert(iri("B"), [iri("A")].into());
        let s = score(&tct, &sig, &instances);
        // A–B asserted; B–C entailed (C ⊑ A): two correct, one exact; A–B recalled.
        assert_eq!(
            (s.proposed, s.asserted, s.correct, s.exact, s.recalled),
            (4, 1, 2, 1, 1)
        );
        assert_eq!((s.precision, s.recall), (Some(0.5), Some(1.0)));
        assert_eq!(s.contradicting, 0);
        let b = score(&all, &sig, &instances);
        // Entailed among the baseline's: A–B, A–D, B–C, C–D (D ⊑ B, C ⊑ A).
        assert_eq!(b.correct, 4);
        // B–D makes D unsatisfiable (D ⊑ B).
        assert_eq!(
            (b.unsatisfiable, b.inconsistent, b.contradicting),
            (1, 0, 1)
        );
    }

    #[test]
    fn silhouette_by_hand() {
        // One feature, p = 1: clusters {0, 0.1} and {1}.
        let p = Projections::from_rows(&[vec![0.0], vec![0.1], vec![1.0]]);
        let s = silhouette(&p, &[0, 0, 1], Metric::new(1.0), 100, 1).unwrap();
        // Row 0: a = 0.1, b = 1 → 0.9; row 1: a = 0.1, b = 0.9 → 8/9; row 2: singleton → 0.
        let expected = (0.9 + 0.8 / 0.9) / 3.0;
        assert!((s - expected).abs() < 1e-12, "{s} vs {expected}");
        assert_eq!(silhouette(&p, &[0, 0, 0], Metric::new(1.0), 100, 1), None);
    }
}

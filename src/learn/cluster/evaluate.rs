//! Measuring a clustering: the disjointness axioms between named classes it proposes,
//! scored against the KB's asserted ones next to a co-occurrence baseline, and the mean
//! silhouette of the clusters under `d_p`.
//!
//! **Proposals** ([`tree_proposals`]). The tree proposes `L_i ⊓ L_j ⊑ ⊥` for every two
//! leaves; a named class is placed in the leaves holding its known instances (`T(A)` among
//! the clustered individuals), so `A ⊓ B ⊑ ⊥` follows when no leaf holds instances of both
//! (`A ⊑ L_i1 ⊔ …`, `B ⊑ L_j1 ⊔ …` on the data). Each pair of classes gets a confidence:
//! the [`separation`] of their instances over the leaves (1 − the overlap of their shares
//! per leaf), or the best separation of a pair of their named generalisations with
//! instances (superclasses, whose disjointness entails theirs). A class without clustered
//! instance leaves the clusters no evidence: such a pair gets [`PRESUMED`] (½, the uniform
//! prior, as ½ is the projection of an unknown membership) unless a generalisation is
//! separated more than that. Never proposed: pairs with a shared instance (the baseline's rule too)
//! and pairs the class hierarchy makes unsatisfiable (one below the other, or a named class
//! below both). A threshold on the confidence trades precision for recall.
//!
//! **Baseline** ([`baseline`]): `A ⊓ B ⊑ ⊥` for every two classes with no shared instance
//! ([`Baseline::Populated`] only among classes with instances); [`consistent_with_hierarchy`]
//! filters it as the proposals are filtered, to show what the clusters add.
//!
//! **Scoring** ([`score`], the same for every proposal set) reasons with the class hierarchy
//! only (no DL reasoner): a proposal `(X, Y)` is *correct* when the asserted axioms entail
//! it (`X ⊑* A`, `Y ⊑* B` with `A`, `B` asserted disjoint or complements); an asserted pair
//! is *recalled* when the proposals entail it the same way. A proposal *contradicts* the KB
//! when some individual of the whole KB is an instance of both (inconsistency) or some named
//! class is below both (that class becomes unsatisfiable; this includes `X ⊑* Y`).

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

/// Why a class pair is proposed.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "lowercase", tag = "basis")]
pub enum Basis {
    /// The clusters separate the instances of `via`, named classes with instances at or
    /// above the pair (the pair itself, or generalisations whose disjointness entails it).
    Clusters { via: ClassPair },
    /// A class of the pair has no clustered instance and no generalisation the clusters
    /// separate: the clustering has no evidence either way (confidence ½).
    Presumed,
}

/// A proposed `A ⊓ B ⊑ ⊥` with its confidence in [0, 1].
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Proposal {
    pub confidence: f64,
    #[serde(flatten)]
    pub basis: Basis,
}

/// The confidence of a pair with no evidence either way: the uniform prior, as ½ is the
/// projection of an unknown membership.
pub const PRESUMED: f64 = 0.5;

/// How far the clusters separate two sets of instances: `1 − Σ_k min(a_k, b_k)` over the
/// clusters `k`, with `a_k`, `b_k` the shares of each set in cluster `k` (1 when no
/// cluster holds both, 0 when both spread alike).
pub fn separation(a: &BTreeMap<usize, f64>, b: &BTreeMap<usize, f64>) -> f64 {
    let shared: f64 = a
        .iter()
        .filter_map(|(k, x)| b.get(k).map(|y| x.min(*y)))
        .sum();
    (1.0 - shared).clamp(0.0, 1.0)
}

/// The class pairs a clustering proposes, each with a confidence (see the module docs).
/// Every two classes of `instances` (the clustered instances of every named class) with
/// no shared instance and not made unsatisfiable by the hierarchy (one below the other, or
/// a named class below both) are scored: the best separation of a pair of their
/// generalisations with instances (each class itself or a named superclass; the
/// disjointness of those entails theirs), at least [`PRESUMED`] when a class of the pair has
/// no instance. Pairs whose separation is 0 are left out.
pub fn tree_proposals(
    assignment: &[(IndividualId, usize)],
    instances: &BTreeMap<Iri, IndividualSet>,
    signature: &Signature,
) -> BTreeMap<ClassPair, Proposal> {
    let cluster_of: BTreeMap<IndividualId, usize> = assignment.iter().copied().collect();
    // Each populated class's share of its clustered instances per cluster.
    let shares: BTreeMap<&Iri, BTreeMap<usize, f64>> = instances
        .iter()
        .filter_map(|(class, members)| {
            let mut counts: BTreeMap<usize, f64> = BTreeMap::new();
            for a in members.iter() {
                if let Some(k) = cluster_of.get(&a) {
                    *counts.entry(*k).or_default() += 1.0;
                }
            }
            let n: f64 = counts.values().sum();
            (n > 0.0).then(|| {
                counts.values_mut().for_each(|c| *c /= n);
                (class, counts)
            })
        })
        .collect();
    let hierarchy = Hierarchy::new(signature, instances.keys());
    // The populated generalisations of each class, itself first when populated.
    let general: BTreeMap<&Iri, Vec<&Iri>> = instances
        .keys()
        .map(|c| {
            let ups = hierarchy
                .sup_of(c)
                .iter()
                .filter_map(|x| shares.get_key_value(x).map(|(k, _)| *k))
                .collect();
            (c, ups)
        })
        .collect();
    let mut separated: BTreeMap<ClassPair, f64> = BTreeMap::new();
    let mut separation_of = |x: &Iri, y: &Iri| -> f64 {
        *separated.entry(pair(x, y)).or_insert_with(|| {
            if instances[x].intersection_count(&instances[y]) > 0 {
                0.0
            } else {
                separation(&shares[x], &shares[y])
            }
        })
    };
    let classes: Vec<(&Iri, &IndividualSet)> = instances.iter().collect();
    let mut out = BTreeMap::new();
    for (i, (a, sa)) in classes.iter().enumerate() {
        for (b, sb) in &classes[i + 1..] {
            if sa.intersection_count(sb) > 0 || hierarchy.below_both(a, b) {
                continue;
            }
            let mut best: Option<(f64, &Iri, &Iri)> = None;
            for x in &general[a] {
                for y in &general[b] {
                    if x == y || hierarchy.below_both(x, y) {
                        continue;
                    }
                    let v = separation_of(x, y);
                    if v > 0.0 && best.is_none_or(|(w, _, _)| v > w) {
                        best = Some((v, x, y));
                    }
                }
            }
            let empty_side = sa.is_empty() || sb.is_empty();
            let proposal = match best {
                Some((v, x, y)) if v > PRESUMED || !empty_side => Proposal {
                    confidence: v,
                    basis: Basis::Clusters {
                        via: ((*x).clone(), (*y).clone()),
                    },
                },
                _ if empty_side => Proposal {
                    confidence: PRESUMED,
                    basis: Basis::Presumed,
                },
                _ => continue,
            };
            out.insert(pair(a, b), proposal);
        }
    }
    out
}

/// The proposals with at least `min_confidence`.
pub fn at_least(
    proposals: &BTreeMap<ClassPair, Proposal>,
    min_confidence: f64,
) -> BTreeSet<ClassPair> {
    proposals
        .iter()
        .filter(|(_, p)| p.confidence >= min_confidence)
        .map(|(k, _)| k.clone())
        .collect()
}

/// `pairs` without those the class hierarchy makes unsatisfiable (one class below the
/// other, or a named class below both).
pub fn consistent_with_hierarchy(
    pairs: BTreeSet<ClassPair>,
    signature: &Signature,
) -> BTreeSet<ClassPair> {
    let hierarchy = Hierarchy::new(signature, pairs.iter().flat_map(|(a, b)| [a, b]));
    pairs
        .into_iter()
        .filter(|(a, b)| !hierarchy.below_both(a, b))
        .collect()
}

/// The named superclasses of the classes (reflexive) and which pairs some named class lies
/// below (a disjointness between them would make it unsatisfiable).
struct Hierarchy {
    sup: BTreeMap<Iri, BTreeSet<Iri>>,
    below: BTreeSet<ClassPair>,
}

impl Hierarchy {
    fn new<'a>(signature: &Signature, extra: impl Iterator<Item = &'a Iri>) -> Self {
        let mut classes: BTreeSet<Iri> = signature.classes.clone();
        classes.extend(signature.schema_classes.iter().cloned());
        classes.extend(extra.cloned());
        let sup: BTreeMap<Iri, BTreeSet<Iri>> = classes
            .into_iter()
            .map(|c| {
                let mut s = signature.superclasses_of(&c);
                s.insert(c.clone());
                (c, s)
            })
            .collect();
        let mut below = BTreeSet::new();
        for s in sup.values() {
            for x in s {
                for y in s {
                    if x < y {
                        below.insert((x.clone(), y.clone()));
                    }
                }
            }
        }
        Hierarchy { sup, below }
    }

    fn sup_of(&self, c: &Iri) -> &BTreeSet<Iri> {
        static NONE: BTreeSet<Iri> = BTreeSet::new();
        self.sup.get(c).unwrap_or(&NONE)
    }

    /// `a ⊑* b`, `b ⊑* a` or a named class below both.
    fn below_both(&self, a: &Iri, b: &Iri) -> bool {
        a == b || self.below.contains(&pair(a, b))
    }
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
    for (a, b) in gold.iter().chain(proposed) {
        classes.insert(a.clone());
        classes.insert(b.clone());
    }
    let sup: BTreeMap<Iri, BTreeSet<Iri>> = classes
        .into_iter()
        .map(|c| {
            let s = signature.superclasses_of(&c);
            (c, s)
        })
        .collect();
    let none = BTreeSet::new();
    let sup_of = |c: &Iri| -> &BTreeSet<Iri> { sup.get(c).unwrap_or(&none) };
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
        let mut sig = Signature::default();
        for c in ["A", "B", "C", "D", "E"] {
            sig.classes.insert(iri(c));
        }
        sig.superclasses.insert(iri("C"), [iri("A")].into());
        sig.superclasses.insert(iri("D"), [iri("B")].into());
        sig.disjoint_classes.insert(iri("A"), [iri("B")].into());
        sig.disjoint_classes.insert(iri("B"), [iri("A")].into());
        let proposals = tree_proposals(&assignment, &instances, &sig);
        let conf = |a: &str, b: &str| proposals.get(&pair(&iri(a), &iri(b))).map(|p| p.confidence);
        // A, C only in cluster 0; B only in 1: apart. E half in 1, half in 2: B and E share
        // no instance, but half of E sits with all of B: ½. A–C: C ⊑ A, never.
        assert_eq!(conf("A", "B"), Some(1.0));
        assert_eq!(conf("B", "C"), Some(1.0));
        assert_eq!(conf("A", "E"), Some(1.0));
        assert_eq!(conf("B", "E"), Some(0.5));
        assert_eq!(conf("A", "C"), None);
        // D has no instance: D ⊑ B, so D–B never (unsatisfiable D); D–A and D–C through
        // their generalisation B (confidence 1, basis B vs A or C); D–E presumed (B–E is
        // only ½, no better than the prior).
        assert_eq!(conf("B", "D"), None);
        assert_eq!(
            proposals[&pair(&iri("A"), &iri("D"))],
            Proposal {
                confidence: 1.0,
                basis: Basis::Clusters {
                    via: (iri("A"), iri("B"))
                }
            }
        );
        assert_eq!(conf("C", "D"), Some(1.0));
        assert_eq!(
            proposals[&pair(&iri("D"), &iri("E"))].basis,
            Basis::Presumed
        );
        assert_eq!(conf("D", "E"), Some(PRESUMED));
        let tct = at_least(&proposals, 1.0);
        assert_eq!(
            tct,
            [
                pair(&iri("A"), &iri("B")),
                pair(&iri("A"), &iri("D")),
                pair(&iri("A"), &iri("E")),
                pair(&iri("B"), &iri("C")),
                pair(&iri("C"), &iri("D")),
                pair(&iri("C"), &iri("E")),
            ]
            .into()
        );
        assert_eq!(at_least(&proposals, 0.5).len(), 8);
        // Baseline: every pair without a shared instance (D, empty, pairs with all).
        let all = baseline(&instances, Baseline::All);
        assert_eq!(all.len(), 10 - 1, "all pairs but A–C: {all:?}");
        assert_eq!(baseline(&instances, Baseline::Populated).len(), 6 - 1);

        let s = score(&tct, &sig, &instances);
        // A–B asserted; A–D, B–C, C–D entailed (C ⊑ A, D ⊑ B): four correct, one exact;
        // A–B recalled.
        assert_eq!(
            (s.proposed, s.asserted, s.correct, s.exact, s.recalled),
            (6, 1, 4, 1, 1)
        );
        assert_eq!((s.precision, s.recall), (Some(4.0 / 6.0), Some(1.0)));
        assert_eq!(s.contradicting, 0);
        let b = score(&all, &sig, &instances);
        // Entailed among the baseline's: A–B, A–D, B–C, C–D (D ⊑ B, C ⊑ A).
        assert_eq!(b.correct, 4);
        // B–D makes D unsatisfiable (D ⊑ B).
        assert_eq!(
            (b.unsatisfiable, b.inconsistent, b.contradicting),
            (1, 0, 1)
        );
        // The hierarchy filter drops exactly B–D.
        let consistent = consistent_with_hierarchy(all.clone(), &sig);
        assert_eq!(
            all.difference(&consistent).collect::<Vec<_>>(),
            [&pair(&iri("B"), &iri("D"))]
        );
        assert_eq!(score(&consistent, &sig, &instances).contradicting, 0);
    }

    #[test]
    fn a_class_without_instances_is_presumed_unless_a_generalisation_is_separated() {
        // A = {0, 1}, B = {2} share cluster 0 (A–B ½ apart: A's shares ½/½, B's 1/0);
        // F ⊑ A and G have no instance.
        let instances: BTreeMap<Iri, IndividualSet> = [
            (iri("A"), set(&[0, 1])),
            (iri("B"), set(&[2])),
            (iri("F"), set(&[])),
            (iri("G"), set(&[])),
        ]
        .into_iter()
        .collect();
        let assignment: Vec<(IndividualId, usize)> = [(0, 0), (1, 1), (2, 0)]
            .into_iter()
            .map(|(i, k)| (IndividualId(i), k))
            .collect();
        let mut sig = Signature::default();
        sig.superclasses.insert(iri("F"), [iri("A")].into());
        let p = tree_proposals(&assignment, &instances, &sig);
        let get = |a: &str, b: &str| p.get(&pair(&iri(a), &iri(b))).cloned();
        // Populated and weakly separated: the clusters' ½ stands below the prior.
        assert_eq!(get("A", "B").map(|x| x.confidence), Some(0.5));
        // F–B: the generalisation A–B gives ½, not more than the prior: presumed.
        assert_eq!(get("B", "F").map(|x| x.basis), Some(Basis::Presumed));
        assert_eq!(get("F", "G").map(|x| x.confidence), Some(PRESUMED));
        assert_eq!(get("A", "F"), None, "F ⊑ A");
    }

    #[test]
    fn separation_by_hand() {
        let shares = |v: &[(usize, f64)]| v.iter().copied().collect::<BTreeMap<usize, f64>>();
        // Shares 0.75/0.25 and 0.5/0.5 over clusters 0, 1: overlap 0.5 + 0.25.
        let s = separation(
            &shares(&[(0, 0.75), (1, 0.25)]),
            &shares(&[(0, 0.5), (1, 0.5)]),
        );
        assert!((s - 0.25).abs() < 1e-12, "{s}");
        assert_eq!(separation(&shares(&[(0, 1.0)]), &shares(&[(1, 1.0)])), 1.0);
        assert_eq!(separation(&shares(&[(2, 1.0)]), &shares(&[(2, 1.0)])), 0.0);
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

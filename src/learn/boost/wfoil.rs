//! wFoil-DL, the weak learner (the paper's Alg. 2 and 3): sequential covering of the
//! positives still to cover, each axiom `C ⊑ T` grown greedily from ⊤ by the operator's
//! atoms, choosing by weighted information gain.
//!
//! With example weights w, target degrees T(a) (1 for a plain positive, 0 for a negative)
//! and Pos the positives still to cover:
//! - confidence `cf(D) = Σ_{a∈Pos} w_a·(T(a) ⊗ D(a)) / Σ_{a∈E} w_a·D(a)` (Eq. 10);
//! - gain of `C' = C ⊓ X` over C: `p · (log₂ cf(C') − log₂ cf(C))` with
//!   `p = Σ_{a∈Pos} w_a·(T(a) ⊗ (C' ⊓ C)(a))`, the weighted positives still covered;
//! - Learn-One-Axiom stops when no refinement has positive gain, when cf ≥ θ, or when the
//!   axiom covers at most the allowed weighted share of the negatives;
//! - a positive leaves Pos once an axiom gives it a degree above τ (`cover_degree`), and
//!   candidates are scored with degrees at most τ read as 0, so the learner optimises
//!   what the boosting round will vote with (τ = 0, the paper's reading, changes nothing).
//!
//! Every candidate is scored from the atoms' degrees (asked once through the oracle) with
//! local t-norm arithmetic.

use super::concept::FuzzyConcept;
use super::tnorm::TNorm;
use crate::learn::{RunClock, Termination};
use crate::oracle::MembershipOracle;

/// The examples as the weak learner sees them (parallel slices, one entry per example).
#[derive(Clone, Copy, Debug)]
pub struct WeightedView<'a> {
    /// T(a) ∈ [0, 1]; positives have T(a) > 0.
    pub target: &'a [f64],
    /// The boosting distribution.
    pub weights: &'a [f64],
}

impl WeightedView<'_> {
    pub fn is_positive(&self, i: usize) -> bool {
        self.target[i] > 0.0
    }
}

/// The operator's atoms with their degrees on the examples.
#[derive(Clone, Debug)]
pub struct AtomTable {
    pub atoms: Vec<FuzzyConcept>,
    pub degrees: Vec<Vec<f64>>,
}

/// `cf(D)` over the positives still to cover (`pending`); 0 when D covers nothing.
pub fn confidence(t: TNorm, d: &[f64], view: WeightedView, pending: &[bool]) -> f64 {
    let mut num = 0.0;
    let mut den = 0.0;
    for i in 0..d.len() {
        let wd = view.weights[i] * d[i];
        den += wd;
        if pending[i] {
            num += view.weights[i] * t.and(view.target[i], d[i]);
        }
    }
    if den > 0.0 { num / den } else { 0.0 }
}

/// The weighted gain of `new = old ⊓ X` over `old` (−∞ when `new` has no confidence).
pub fn gain(t: TNorm, new: &[f64], old: &[f64], view: WeightedView, pending: &[bool]) -> f64 {
    let cf_new = confidence(t, new, view, pending);
    let cf_old = confidence(t, old, view, pending);
    if cf_new <= 0.0 || cf_old <= 0.0 {
        return f64::NEG_INFINITY;
    }
    let p: f64 = (0..new.len())
        .filter(|&i| pending[i])
        .map(|i| view.weights[i] * t.and(view.target[i], t.and(new[i], old[i])))
        .sum();
    p * (cf_new.log2() - cf_old.log2())
}

/// The weighted share of the negatives' weight that `d` covers.
pub fn negative_share(d: &[f64], view: WeightedView) -> f64 {
    let (mut covered, mut total) = (0.0, 0.0);
    for (i, di) in d.iter().enumerate() {
        if !view.is_positive(i) {
            covered += view.weights[i] * di;
            total += view.weights[i];
        }
    }
    if total > 0.0 { covered / total } else { 0.0 }
}

/// Limits of one weak-learner call.
#[derive(Clone, Copy, Debug)]
pub struct WeakLimits {
    pub theta: f64,
    pub max_negative_share: f64,
    pub max_axioms: usize,
    pub max_conjuncts: usize,
    pub cover_degree: f64,
    /// What an axiom must lower for sequential covering to keep it (`None`: every axiom
    /// that covers a pending positive is kept, the paper's rule).
    pub objective: Option<Objective>,
}

/// What a weak hypothesis is judged by when sequential covering decides whether one more
/// axiom helps the boosting round it is for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Objective {
    /// The weighted error ε of the paper's vote (covered above τ: for, else against).
    Error,
    /// Schapire–Singer's Z of the confidence-rated vote over the covered/uncovered blocks.
    Z,
}

impl Objective {
    /// The objective of a hypothesis with degrees `bed` (lower is better).
    pub fn of(self, bed: &[f64], view: WeightedView, tau: f64) -> f64 {
        let cut: Vec<f64> = bed
            .iter()
            .map(|d| if *d > tau { *d } else { 0.0 })
            .collect();
        let labels: Vec<f64> = (0..bed.len())
            .map(|i| if view.is_positive(i) { 1.0 } else { -1.0 })
            .collect();
        match self {
            Objective::Error => (0..bed.len())
                .filter(|&i| (cut[i] > 0.0) != view.is_positive(i))
                .map(|i| view.weights[i])
                .sum(),
            Objective::Z => super::adaboost::Blocks::of(&cut, &labels, view.weights).z(),
        }
    }
}

/// A weak hypothesis `{C₁ ⊑ T, …, Cₖ ⊑ T}` with each axiom's degrees on the examples.
#[derive(Clone, Debug, Default)]
pub struct WeakHypothesis {
    pub axioms: Vec<FuzzyConcept>,
    pub degrees: Vec<Vec<f64>>,
}

impl WeakHypothesis {
    /// `bed(K ∪ hᵢ, a:T)` per example: the best axiom's degree (each GCI bounds T(a) from
    /// below by Cⱼ(a), under Gödel and Łukasiewicz alike).
    pub fn bed(&self, n: usize) -> Vec<f64> {
        let mut out = vec![0.0_f64; n];
        for d in &self.degrees {
            for (o, x) in out.iter_mut().zip(d) {
                *o = o.max(*x);
            }
        }
        out
    }
}

/// What a weak-learner call found and what stopped it early, if anything.
pub struct WeakRun {
    pub hypothesis: WeakHypothesis,
    pub stopped: Option<Termination>,
}

/// One wFoil-DL call. `tested` counts the candidates scored (the run's concept tests).
pub fn wfoil<O: MembershipOracle + ?Sized>(
    table: &AtomTable,
    view: WeightedView,
    t: TNorm,
    limits: WeakLimits,
    clock: &RunClock<'_, O>,
    tested: &mut u64,
) -> WeakRun {
    let n = view.target.len();
    // Rows of weight 0 (held out by the inner validation) are never to cover.
    let mut pending: Vec<bool> = (0..n)
        .map(|i| view.is_positive(i) && view.weights[i] > 0.0)
        .collect();
    let mut hypothesis = WeakHypothesis::default();
    let mut stopped = None;
    while pending.iter().any(|p| *p) && hypothesis.axioms.len() < limits.max_axioms {
        let (axiom, why) = learn_one_axiom(table, view, t, limits, &pending, clock, tested);
        stopped = why;
        let Some((concept, degrees)) = axiom else {
            break;
        };
        let mut newly = 0;
        for i in 0..n {
            if pending[i] && degrees[i] > limits.cover_degree {
                pending[i] = false;
                newly += 1;
            }
        }
        if newly == 0 {
            break;
        }
        if let Some(objective) = limits.objective {
            let before = objective.of(&hypothesis.bed(n), view, limits.cover_degree);
            let mut with = hypothesis.bed(n);
            for (w, d) in with.iter_mut().zip(&degrees) {
                *w = w.max(*d);
            }
            if objective.of(&with, view, limits.cover_degree) >= before {
                break;
            }
        }
        hypothesis.axioms.push(concept);
        hypothesis.degrees.push(degrees);
        if stopped.is_some() {
            break;
        }
    }
    WeakRun {
        hypothesis,
        stopped,
    }
}

type Axiom = Option<(FuzzyConcept, Vec<f64>)>;

/// Learn-One-Axiom: the best axiom for the positives still `pending` (`None` if no atom
/// improves on ⊤), and the budget that stopped it, if one did.
pub fn learn_one_axiom<O: MembershipOracle + ?Sized>(
    table: &AtomTable,
    view: WeightedView,
    t: TNorm,
    limits: WeakLimits,
    pending: &[bool],
    clock: &RunClock<'_, O>,
    tested: &mut u64,
) -> (Axiom, Option<Termination>) {
    let n = view.target.len();
    let mut concept = FuzzyConcept::Top;
    let mut degrees = vec![1.0; n];
    let mut used = vec![false; table.atoms.len()];
    let mut scratch = vec![0.0; n];
    // What the candidates are scored on: degrees at most τ count as 0, as in the vote.
    let cut = |d: f64| if d > limits.cover_degree { d } else { 0.0 };
    let mut scored_degrees: Vec<f64> = degrees.iter().map(|d| cut(*d)).collect();
    let mut scored = vec![0.0; n];
    let mut stopped = None;
    for _ in 0..limits.max_conjuncts {
        let mut best: Option<(usize, f64, Vec<f64>)> = None;
        for (k, atom_degrees) in table.degrees.iter().enumerate() {
            if used[k] {
                continue;
            }
            if let Some(why) = clock.exhausted(*tested) {
                stopped = Some(why);
                break;
            }
            *tested += 1;
            for i in 0..n {
                scratch[i] = t.and(degrees[i], atom_degrees[i]);
                scored[i] = cut(scratch[i]);
            }
            let g = gain(t, &scored, &scored_degrees, view, pending);
            if g > best.as_ref().map_or(0.0, |b| b.1) {
                best = Some((k, g, scratch.clone()));
            }
        }
        let Some((k, _, refined)) = best else {
            break;
        };
        used[k] = true;
        concept = concept.and(&table.atoms[k]);
        degrees = refined;
        scored_degrees = degrees.iter().map(|d| cut(*d)).collect();
        if stopped.is_some()
            || confidence(t, &scored_degrees, view, pending) >= limits.theta
            || negative_share(&scored_degrees, view) <= limits.max_negative_share
        {
            break;
        }
    }
    let axiom = (concept != FuzzyConcept::Top).then_some((concept, degrees));
    (axiom, stopped)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Two positives (weights 0.4, 0.1) and two negatives (0.25 each), all positives still
    /// to cover; ⊤ against a refinement with degrees 1, 0.5, 0.2, 0.
    #[test]
    fn weighted_gain_by_hand() {
        let target = [1.0, 1.0, 0.0, 0.0];
        let weights = [0.4, 0.1, 0.25, 0.25];
        let view = WeightedView {
            target: &target,
            weights: &weights,
        };
        let pending = [true, true, false, false];
        let top = [1.0; 4];
        let new = [1.0, 0.5, 0.2, 0.0];
        let t = TNorm::Goedel;
        // cf(⊤) = 0.5 / 1; cf(new) = (0.4 + 0.05) / (0.4 + 0.05 + 0.05) = 0.9.
        assert!((confidence(t, &top, view, &pending) - 0.5).abs() < 1e-12);
        assert!((confidence(t, &new, view, &pending) - 0.9).abs() < 1e-12);
        // p = 0.45; gain = 0.45 · (log₂ 0.9 − log₂ 0.5) = 0.45 · log₂ 1.8.
        let g = gain(t, &new, &top, view, &pending);
        assert!((g - 0.45 * 1.8f64.log2()).abs() < 1e-12, "{g}");
        // 0.25 · 0.2 of the negatives' 0.5.
        assert!((negative_share(&new, view) - 0.1).abs() < 1e-12);
        // A positive already covered counts in the denominator only.
        let only_first = [true, false, false, false];
        assert!((confidence(t, &new, view, &only_first) - 0.8).abs() < 1e-12);
        // Nothing covered: no confidence, no gain.
        assert_eq!(gain(t, &[0.0; 4], &top, view, &pending), f64::NEG_INFINITY);
    }
}

//! Concepts proposed bottom-up from the examples' neighbourhood (issue 31 item 6): ρ reaches
//! `A ⊓ ∃r.∃s.(B ⊔ C)` top-down, one class level and one disjunct at a time, and over a
//! hierarchy of 1,000+ classes most of those steps are spent on classes no example's
//! successors carry. Bottom-up learners start from what the positives' neighbourhoods
//! share instead; this module does that for role paths of up to `max_steps` steps:
//!
//! 1. the walks: per role path π (only properties along which some positive has a
//!    successor), each example's π-successors ([`walk`]);
//! 2. the typing: the classes those successors (and the examples) carry, found top-down
//!    from the roots, descending only into classes some positive's neighbourhood has, so
//!    the cost is bounded by the positives' neighbourhood, not the signature or the KB;
//! 3. the covers: for each path and class B, which examples `∃π.B` covers, read off the
//!    typing without a query; fillers are grown greedily into unions `B ⊔ C ⊔ …` ordered by
//!    coverage ([`cover`]), under ⊤ and under the classes that best describe the positives
//!    themselves (the most specific class all positives share, and the best by quality).
//!
//! The proposals are scored like any refinement and enter the search tree below the
//! root, where ρ refines them further: they are guidance, not answers. Only concepts the
//! operator admits ([`Refinement::admits`]) are proposed, so hidden classes and switched-
//! off constructors stay out.

mod cover;
mod walk;

use std::collections::BTreeSet;

use crate::concept::{Concept, Iri, Role, length, normalize};
use crate::learn::{Examples, QualityMeasure};
use crate::oracle::{IndividualId, IndividualSet, MembershipOracle, OracleError};
use crate::refine::Refinement;

use cover::{Covers, Greedy};
use walk::Walk;

/// How far the proposals reach.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
pub struct NeighbourhoodLimits {
    /// Longest role path (0: classes of the examples only).
    pub max_steps: usize,
    /// Most classes in a filler's union.
    pub max_disjuncts: usize,
    /// Most role paths followed per step (those most positives reach first).
    pub max_walks: usize,
    /// Most concepts proposed (the best by their coverage first).
    pub max_proposals: usize,
}

impl Default for NeighbourhoodLimits {
    fn default() -> Self {
        NeighbourhoodLimits {
            max_steps: 2,
            max_disjuncts: 4,
            max_walks: 64,
            max_proposals: 2_000,
        }
    }
}

/// Concepts built from the examples' neighbourhood, best coverage first (see the module).
pub fn propose<O: MembershipOracle + ?Sized>(
    oracle: &O,
    examples: &Examples,
    refinement: &dyn Refinement,
    quality: QualityMeasure,
    limits: &NeighbourhoodLimits,
) -> Result<Vec<Concept>, OracleError> {
    let ids: Vec<IndividualId> = examples.all().iter().collect();
    let positive: Vec<bool> = ids
        .iter()
        .map(|x| examples.positives().contains(*x))
        .collect();
    let walks = walk::walks(oracle, &ids, &positive, limits)?;
    let typing = walk::Typing::of(oracle, &walks, &positive)?;
    let covers: Vec<Covers> = walks.iter().map(|w| Covers::along(w, &typing)).collect();
    let local = |keep: &dyn Fn(usize) -> bool| {
        IndividualSet::from_ids(ids.len(), (0..ids.len()).filter(|i| keep(*i)).map(local_id))
    };
    let pos = local(&|i| positive[i]);
    let neg = local(&|i| !positive[i]);
    let greedy = Greedy {
        quality,
        max_disjuncts: limits.max_disjuncts,
        sizes: typing.sizes(),
    };
    // Under ⊤ (where the examples' own classes are unions too) and under the classes that
    // best describe the positives themselves.
    let mut scored: Vec<Scored> = Vec::new();
    let own = &covers[0];
    let contexts = std::iter::once(None).chain(own.describing(&pos, &neg, quality).map(Some));
    for context in contexts {
        let (p, n) = match context {
            Some(k) => (own.of(k).intersection(&pos), own.of(k).intersection(&neg)),
            None => (pos.clone(), neg.clone()),
        };
        let head = context.map(|k| typing.class(k).clone());
        let first = if context.is_some() { 1 } else { 0 };
        for (w, c) in walks.iter().zip(&covers).skip(first) {
            for union in greedy.unions(c, &p, &n) {
                let fillers: Vec<&Iri> = union.classes.iter().map(|k| typing.class(*k)).collect();
                let within = context.map(|k| own.of(k));
                scored.push(Scored {
                    quality: quality.score(&cover::confusion(&union.covered, &pos, &neg, within)),
                    breadth: union
                        .classes
                        .iter()
                        .map(|k| greedy.sizes[*k as usize])
                        .sum(),
                    concept: compose(head.as_ref(), w, &fillers),
                    shape: (head.clone(), w.roles.clone(), fillers.len()),
                });
            }
        }
    }
    let out = ranked(scored, refinement, limits.max_proposals);
    Ok(out)
}

/// A proposal with its quality on the examples (from the covers) and the summed generality
/// of its filler classes.
struct Scored {
    quality: f64,
    breadth: usize,
    concept: Concept,
    /// The head class, the path and the number of fillers.
    shape: (Option<Iri>, Vec<Role>, usize),
}

/// Local example index `i` as an id of the examples' own universe.
pub(crate) fn local_id(i: usize) -> IndividualId {
    IndividualId(i as u32)
}

/// `A ⊓ ∃r₁.∃r₂.(B ⊔ C ⊔ …)` (without `A ⊓` when there is no head), normalised.
fn compose(head: Option<&Iri>, walk: &Walk, fillers: &[&Iri]) -> Concept {
    let mut c = match fillers {
        [one] => Concept::Class((*one).clone()),
        many => Concept::Or(many.iter().map(|b| Concept::Class((*b).clone())).collect()),
    };
    for role in walk.roles.iter().rev() {
        c = Concept::some(role.clone(), c);
    }
    if let Some(a) = head {
        c = Concept::And(vec![Concept::Class(a.clone()), c]);
    }
    normalize(&c)
}

/// The admitted proposals, distinct, best quality first (ties: shorter, then more specific
/// fillers, then by `Ord`), at most `max`. Of proposals of one shape with the same quality
/// only the most specific is kept: they cover the same examples, and the least general
/// generalisation of the positives is the one bottom-up learners take.
fn ranked(mut scored: Vec<Scored>, refinement: &dyn Refinement, max: usize) -> Vec<Concept> {
    scored.sort_by(|a, b| {
        b.quality
            .total_cmp(&a.quality)
            .then_with(|| length(&a.concept).cmp(&length(&b.concept)))
            .then_with(|| a.breadth.cmp(&b.breadth))
            .then_with(|| a.concept.cmp(&b.concept))
    });
    let mut seen = BTreeSet::new();
    let mut shapes = BTreeSet::new();
    scored
        .into_iter()
        .filter(|s| shapes.insert((s.quality.to_bits(), s.shape.clone())))
        .map(|s| s.concept)
        .filter(|c| refinement.admits(c) && seen.insert(c.clone()))
        .take(max)
        .collect()
}

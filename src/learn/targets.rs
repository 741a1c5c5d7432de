//! Seeded target concepts for experiments, as in the terminological-classifier papers:
//! random concepts whose positive and negative instance sets each hold at least `min_size`
//! individuals and are of the same order of magnitude (larger / smaller ≤ `max_ratio`).
//!
//! Open world (the papers): positives are entailed members `T(C)`, negatives entailed
//! non-members `F(C)`. Closed world: members vs all other individuals. Reusable by any
//! learner; the output is the list JSON that [`crate::problem::load_problems`] reads.

use std::collections::BTreeSet;

use serde::Serialize;

use crate::concept::{Concept, Vocabulary, normalize, to_manchester};
use crate::oracle::{IndividualSet, MembershipOracle, OracleError, Semantics};
use crate::refine::random::{RandomConcepts, RandomOptions};

/// What to generate.
#[derive(Clone, Debug)]
pub struct TargetOptions {
    pub count: usize,
    pub seed: u64,
    pub semantics: Semantics,
    /// Fewest positives and fewest negatives. Default 10.
    pub min_size: usize,
    /// Largest ratio between the bigger and the smaller example set. Default 10.
    pub max_ratio: f64,
    /// Random concepts tried before giving up. Default 200 per requested target.
    pub max_attempts: usize,
    /// Constructor nesting of the random concepts. Default 3.
    pub max_depth: usize,
}

impl TargetOptions {
    pub fn new(count: usize, seed: u64, semantics: Semantics) -> Self {
        TargetOptions {
            count,
            seed,
            semantics,
            min_size: 10,
            max_ratio: 10.0,
            max_attempts: count.saturating_mul(200).max(1000),
            max_depth: 3,
        }
    }
}

/// One accepted target.
#[derive(Clone, Debug, PartialEq)]
pub struct Target {
    pub concept: Concept,
    pub positives: IndividualSet,
    pub negatives: IndividualSet,
}

/// The list-JSON item written for a target.
#[derive(Serialize)]
pub struct TargetJson {
    pub name: String,
    pub concept: String,
    pub positives: Vec<String>,
    pub negatives: Vec<String>,
}

/// Draws random concepts (no data restrictions, nominals, cardinalities or inverse roles:
/// the ⊓/⊔/¬/∃/∀ language of the experiments) until `count` targets pass, or the attempts
/// run out (then fewer are returned). Targets with the same positives are kept once.
pub fn generate_targets(
    oracle: &dyn MembershipOracle,
    options: &TargetOptions,
) -> Result<Vec<Target>, OracleError> {
    let sig = oracle.signature();
    let all = sig.all_individuals();
    let mut random = RandomConcepts::new(
        sig,
        options.seed,
        RandomOptions {
            max_depth: options.max_depth.max(1),
            max_cardinality: 1,
            inverse_roles: false,
            data_restrictions: false,
            nominals: false,
            cardinalities: false,
        },
    );
    let mut seen_concepts = BTreeSet::new();
    let mut seen_positives: BTreeSet<Vec<u32>> = BTreeSet::new();
    let mut out = Vec::new();
    for _ in 0..options.max_attempts {
        if out.len() >= options.count {
            break;
        }
        let c = normalize(&random.concept());
        if matches!(c, Concept::Top | Concept::Bottom)
            || has_self(&c)
            || !seen_concepts.insert(c.clone())
        {
            continue;
        }
        let (pos, neg) = match options.semantics {
            Semantics::Open => {
                let t = oracle.truth(&c, &all)?;
                (t.true_set, t.false_set)
            }
            Semantics::Closed => {
                let covered = oracle.covered(&c, &all)?;
                let rest = all.difference(&covered);
                (covered, rest)
            }
        };
        let (small, large) = (pos.len().min(neg.len()), pos.len().max(neg.len()));
        if small < options.min_size || large as f64 > options.max_ratio * small as f64 {
            continue;
        }
        if !seen_positives.insert(pos.iter().map(|i| i.0).collect()) {
            continue;
        }
        out.push(Target {
            concept: c,
            positives: pos,
            negatives: neg,
        });
    }
    Ok(out)
}

/// `∃r.Self` is outside the experiments' language (and rarely meaningful as a target).
fn has_self(c: &Concept) -> bool {
    matches!(c, Concept::HasSelf(_)) || c.children().into_iter().any(has_self)
}

/// The targets as list JSON items named `t1`, `t2`, ….
pub fn targets_json(
    oracle: &dyn MembershipOracle,
    vocabulary: &Vocabulary,
    targets: &[Target],
) -> Vec<TargetJson> {
    let sig = oracle.signature();
    let iris = |s: &IndividualSet| sig.iris_of(s).map(|i| i.as_str().to_owned()).collect();
    targets
        .iter()
        .enumerate()
        .map(|(k, t)| TargetJson {
            name: format!("t{}", k + 1),
            concept: to_manchester(&t.concept, vocabulary),
            positives: iris(&t.positives),
            negatives: iris(&t.negatives),
        })
        .collect()
}

//! Turning the rules of the one-vs-rest theories into one multi-class model (Abudawood &
//! Flach): a rule list ordered by χ² ([`mrl`]), or a rule set that decides from the
//! training coverage of the rules that fire: its intersection ([`mrsi`]), its union
//! ([`mrsu`]), or the summed class coverages ([`cn2`]). Every method has one default rule,
//! for an example no rule fires on: the class distribution of the training examples no
//! rule covers (the training prior when every example is covered).

pub mod cn2;
pub mod mrl;
pub mod mrsi;
pub mod mrsu;

use fixedbitset::FixedBitSet;
use serde::{Deserialize, Serialize};

use super::rules::RuleTable;

/// The combination method (`--combine`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "cli", derive(clap::ValueEnum))]
#[serde(rename_all = "lowercase")]
pub enum Combine {
    /// Multi-class rule list: rules by decreasing χ², re-evaluated after each pick.
    Mrl,
    /// Multi-class rule set, intersection of the firing rules' coverages.
    Mrsi,
    /// Multi-class rule set, union of the firing rules' coverages.
    Mrsu,
    /// CN2's rule set: the firing rules' class coverages summed.
    Cn2,
}

impl Combine {
    pub const ALL: [Combine; 4] = [Combine::Mrl, Combine::Mrsi, Combine::Mrsu, Combine::Cn2];

    pub fn name(self) -> &'static str {
        match self {
            Combine::Mrl => "mrl",
            Combine::Mrsi => "mrsi",
            Combine::Mrsu => "mrsu",
            Combine::Cn2 => "cn2",
        }
    }

    pub fn from_name(name: &str) -> Option<Combine> {
        Combine::ALL.into_iter().find(|c| c.name() == name)
    }
}

/// A fitted combination: what [`decide`] needs besides the rule table.
#[derive(Clone, Debug, PartialEq)]
pub struct Combination {
    pub method: Combine,
    /// MRL: rule indices in list order (every rule once); empty for rule sets.
    pub order: Vec<usize>,
    /// MRL: the default rule's class (majority of what the list leaves uncovered).
    pub default_class: usize,
    /// Rule sets: the default rule's class counts (training examples no rule covers).
    pub default_counts: Vec<usize>,
    /// The training prior (class counts), for an empty MRSI intersection.
    pub prior: Vec<usize>,
    /// Seeds the random choice among tied classes.
    pub seed: u64,
}

/// One example's class and class distribution (MRL: all mass on its class).
#[derive(Clone, Debug, PartialEq)]
pub struct Decision {
    pub class: usize,
    pub distribution: Vec<f64>,
    pub by: DecidedBy,
}

/// What decided an example's class (the crate's multi-class measures read it).
pub use crate::eval::multiclass::DecidedBy;

/// Fits `method` on the rule table; `seed` breaks ties (MRL's order, the default class,
/// and later the classes tied in a prediction).
pub fn fit(table: &RuleTable, method: Combine, seed: u64) -> Combination {
    let prior = table.class_counts(&table.all_examples());
    let default_counts = {
        let uncovered = table.uncovered();
        if uncovered.count_ones(..) == 0 {
            prior.clone()
        } else {
            table.class_counts(&uncovered)
        }
    };
    let (order, default_class) = match method {
        Combine::Mrl => mrl::order(table, seed),
        _ => (Vec::new(), 0),
    };
    Combination {
        method,
        order,
        default_class,
        default_counts,
        prior,
        seed,
    }
}

/// The decision for an example on which the rules `firing` fire; `key` (the individual's
/// IRI) seeds the choice among tied classes, so the same individual always gets the same
/// class whatever else is predicted with it.
pub fn decide(table: &RuleTable, c: &Combination, firing: &FixedBitSet, key: &str) -> Decision {
    if c.method == Combine::Mrl {
        return mrl::decide(table, c, firing);
    }
    if firing.count_ones(..) == 0 {
        return Decision {
            by: DecidedBy::DefaultRule,
            ..from_counts(&c.default_counts, c.seed, key)
        };
    }
    let (counts, by) = match c.method {
        Combine::Mrsi => match mrsi::counts(table, firing) {
            Some(counts) => (counts, DecidedBy::Rules),
            None => (c.prior.clone(), DecidedBy::Majority),
        },
        Combine::Mrsu => (mrsu::counts(table, firing), DecidedBy::Rules),
        Combine::Cn2 => (cn2::counts(table, firing), DecidedBy::Rules),
        Combine::Mrl => unreachable!("handled above"),
    };
    Decision {
        by,
        ..from_counts(&counts, c.seed, key)
    }
}

/// Normalised counts and their most frequent class (ties by [`tie_break`]).
pub fn from_counts(counts: &[usize], seed: u64, key: &str) -> Decision {
    let total: usize = counts.iter().sum();
    let distribution = if total == 0 {
        vec![1.0 / counts.len().max(1) as f64; counts.len()]
    } else {
        counts.iter().map(|&n| n as f64 / total as f64).collect()
    };
    let best = counts.iter().copied().max().unwrap_or(0);
    let tied: Vec<usize> = (0..counts.len()).filter(|&i| counts[i] == best).collect();
    Decision {
        class: tie_break(&tied, seed, key),
        distribution,
        by: DecidedBy::Rules,
    }
}

/// One of `tied` (non-empty), chosen by a hash of `seed` and `key`: random across keys and
/// seeds, fixed for one key and seed.
pub fn tie_break(tied: &[usize], seed: u64, key: &str) -> usize {
    if tied.len() <= 1 {
        return tied.first().copied().unwrap_or(0);
    }
    let mut h: u64 = 0xcbf2_9ce4_8422_2325 ^ seed.wrapping_mul(0x9e37_79b9_7f4a_7c15);
    for b in key.bytes() {
        h ^= u64::from(b);
        h = h.wrapping_mul(0x0100_0000_01b3);
    }
    // A final mix so that neighbouring keys spread over the choices.
    h ^= h >> 33;
    h = h.wrapping_mul(0xff51_afd7_ed55_8ccd);
    h ^= h >> 33;
    tied[(h % tied.len() as u64) as usize]
}

#[cfg(test)]
pub(super) mod tests;

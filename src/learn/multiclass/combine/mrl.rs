//! MRL, the multi-class rule list: all rules ordered by χ² for their own class, decreasing,
//! each pick removing the examples it covers and the others re-evaluated on what remains;
//! ties are broken by a seeded random choice. One default rule predicts the majority class
//! of the examples the whole list leaves uncovered. The first rule that fires classifies.
//!
//! χ² is taken with the sign of the association ([`RuleCounts::signed_chi2`]): on the
//! remaining examples a rule may come to cover its class less often than chance, and a high
//! χ² would then put a rule that mostly misclassifies early in the list. The paper orders
//! by plain χ²; every positively associated rule is ordered as there.
//!
//! [`RuleCounts::signed_chi2`]: crate::learn::multiclass::chi2::RuleCounts::signed_chi2

use fixedbitset::FixedBitSet;
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

use super::{Combination, DecidedBy, Decision};
use crate::learn::multiclass::rules::RuleTable;

/// The list order (every rule once) and the default rule's class.
pub fn order(table: &RuleTable, seed: u64) -> (Vec<usize>, usize) {
    let mut rng = StdRng::seed_from_u64(seed);
    let mut remaining = table.all_examples();
    let mut left: Vec<usize> = (0..table.rules.len()).collect();
    let mut order = Vec::with_capacity(left.len());
    while !left.is_empty() {
        let scores: Vec<f64> = left
            .iter()
            .map(|&r| table.counts(r, &remaining).signed_chi2())
            .collect();
        let best = scores.iter().copied().fold(f64::NEG_INFINITY, f64::max);
        let tied: Vec<usize> = (0..left.len())
            .filter(|&i| (scores[i] - best).abs() <= 1e-9 * best.abs().max(1.0))
            .collect();
        let pick = tied[rng.random_range(0..tied.len())];
        let rule = left.remove(pick);
        remaining.difference_with(&table.rules[rule].covers);
        order.push(rule);
    }
    let counts = if remaining.count_ones(..) == 0 {
        table.class_counts(&table.all_examples())
    } else {
        table.class_counts(&remaining)
    };
    let most = counts.iter().copied().max().unwrap_or(0);
    let tied: Vec<usize> = (0..counts.len()).filter(|&i| counts[i] == most).collect();
    let default = tied[rng.random_range(0..tied.len().max(1))];
    (order, default)
}

/// The first rule of the list that fires decides; else the default rule.
pub fn decide(table: &RuleTable, c: &Combination, firing: &FixedBitSet) -> Decision {
    let k = table.classes.len();
    let one_hot = |class: usize| (0..k).map(|i| if i == class { 1.0 } else { 0.0 }).collect();
    match c.order.iter().copied().find(|&r| firing.contains(r)) {
        Some(r) => {
            let class = table.rules[r].class;
            Decision {
                class,
                distribution: one_hot(class),
                by: DecidedBy::Rule(r),
            }
        }
        None => Decision {
            class: c.default_class,
            distribution: one_hot(c.default_class),
            by: DecidedBy::DefaultRule,
        },
    }
}

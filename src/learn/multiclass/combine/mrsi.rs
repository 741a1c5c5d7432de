//! MRSI, the multi-class rule set by intersection: the training examples every firing rule
//! covers, and their class distribution, give the probabilities.

use fixedbitset::FixedBitSet;

use crate::learn::multiclass::rules::RuleTable;

/// Class counts of the intersection of the firing rules' coverages; `None` when it is empty
/// (the caller falls back to the majority class).
pub fn counts(table: &RuleTable, firing: &FixedBitSet) -> Option<Vec<usize>> {
    let mut rules = firing.ones();
    let first = rules.next()?;
    let mut common = table.rules[first].covers.clone();
    for r in rules {
        common.intersect_with(&table.rules[r].covers);
    }
    (common.count_ones(..) > 0).then(|| table.class_counts(&common))
}

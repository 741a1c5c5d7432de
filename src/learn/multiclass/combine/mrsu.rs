//! MRSU, the multi-class rule set by union: the training examples any firing rule covers,
//! each counted once, and their class distribution give the probabilities.

use fixedbitset::FixedBitSet;

use crate::learn::multiclass::rules::RuleTable;

/// Class counts of the union of the firing rules' coverages.
pub fn counts(table: &RuleTable, firing: &FixedBitSet) -> Vec<usize> {
    let mut all = FixedBitSet::with_capacity(table.labels.len());
    for r in firing.ones() {
        all.union_with(&table.rules[r].covers);
    }
    table.class_counts(&all)
}

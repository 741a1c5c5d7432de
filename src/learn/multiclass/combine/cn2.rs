//! CN2's rule-set combination: the class coverages of the firing rules summed, an example
//! covered by several of them counted once per rule (the baseline MRSU improves on).

use fixedbitset::FixedBitSet;

use crate::learn::multiclass::rules::RuleTable;

/// The summed class counts of the firing rules' coverages.
pub fn counts(table: &RuleTable, firing: &FixedBitSet) -> Vec<usize> {
    let mut sum = vec![0; table.classes.len()];
    for r in firing.ones() {
        for (s, n) in sum
            .iter_mut()
            .zip(table.class_counts(&table.rules[r].covers))
        {
            *s += n;
        }
    }
    sum
}

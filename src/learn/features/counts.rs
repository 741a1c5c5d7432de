//! Qualified counts `≥n r.C` (n ≥ 2): how many `r`-successors of a class an individual has
//! (two nitro groups, six ring atoms), which `∃r.C` cannot tell apart. The thresholds are
//! the distinct counts the set's individuals have, thinned evenly to `max_counts`; the
//! counts are read off the successor lists the other features already fetched, so nothing
//! outside the set's neighbourhood is asked.

use super::FeatureParams;
use crate::concept::{Concept, Role};
use crate::oracle::{IndividualSet, MembershipOracle, OracleError, Successors};

/// `≥n r.F` for each filler `F` (`⊤` first, then the given ones) and each count threshold
/// `n ≥ 2` of the individuals of `set`.
pub(super) fn count_features(
    oracle: &dyn MembershipOracle,
    role: &Role,
    set: &IndividualSet,
    succ: &Successors,
    fillers: Vec<Concept>,
    p: &FeatureParams,
) -> Result<Vec<Concept>, OracleError> {
    if p.max_counts == 0 {
        return Ok(Vec::new());
    }
    let fillers: Vec<Concept> = std::iter::once(Concept::Top).chain(fillers).collect();
    let mut out = Vec::new();
    for (filler, members) in fillers
        .iter()
        .zip(oracle.covered_batch(&fillers, succ.targets()))
    {
        let members = members?;
        let counts: Vec<usize> = set
            .iter()
            .map(|x| succ.of(x).iter().filter(|y| members.contains(**y)).count())
            .collect();
        for n in thresholds(counts, p.max_counts) {
            out.push(Concept::Min {
                n,
                role: role.clone(),
                filler: Box::new(filler.clone()),
            });
        }
    }
    Ok(out)
}

/// The distinct counts of at least 2, thinned evenly to at most `max`.
fn thresholds(mut counts: Vec<usize>, max: usize) -> Vec<u32> {
    counts.retain(|&n| n >= 2);
    counts.sort_unstable();
    counts.dedup();
    let xs: Vec<f64> = counts.iter().map(|&n| n as f64).collect();
    super::thin(&xs, max)
        .into_iter()
        .map(|n| n as u32)
        .collect()
}

#[cfg(test)]
mod tests {
    #[test]
    fn thresholds_are_distinct_counts_from_two() {
        assert_eq!(super::thresholds(vec![0, 1, 3, 2, 3, 5], 8), vec![2, 3, 5]);
        assert_eq!(super::thresholds(vec![0, 1, 1], 8), Vec::<u32>::new());
        let many: Vec<usize> = (0..40).collect();
        assert_eq!(super::thresholds(many, 2).len(), 2);
    }
}

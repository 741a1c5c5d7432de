//! How a search ends: a budget's stop, and the solutions it reports.

use super::solutions::{BestSolutions, Candidate};
use crate::concept::length;
use crate::learn::minimize::Minimizer;
use crate::learn::{LearnError, Solution, Termination};
use crate::oracle::{MembershipOracle, OracleError, Semantics};

/// A budget the oracle reported ends the search cleanly; any other error is an error.
pub fn budget_stop(e: OracleError) -> Result<Termination, LearnError> {
    match e.budget_exhausted() {
        Some(b) => Ok(b.into()),
        None => Err(e.into()),
    }
}

/// `c` minimised when `minimize` asks (its counts do not change); a minimisation that hits
/// a budget keeps the search's own form.
pub fn minimized<O: MembershipOracle + ?Sized>(
    oracle: &O,
    c: Candidate,
    minimize: bool,
    semantics: Semantics,
) -> Result<Solution, LearnError> {
    let concept = if minimize {
        match Minimizer::new(oracle, semantics).minimize(&c.concept) {
            Ok(m) => m,
            Err(e) if e.budget_exhausted().is_some() => c.concept,
            Err(e) => return Err(e.into()),
        }
    } else {
        c.concept
    };
    Ok(Solution {
        concept,
        confusion: c.confusion,
        quality: c.quality,
    })
}

/// The kept solutions, minimised if asked (equal coverage, so equal counts), best first
/// (then shorter, then by the concepts' order) and distinct.
pub fn report_solutions<O: MembershipOracle + ?Sized>(
    oracle: &O,
    best: &BestSolutions,
    minimize: bool,
    semantics: Semantics,
) -> Result<Vec<Solution>, LearnError> {
    let mut out: Vec<Solution> = Vec::new();
    for candidate in best.candidates() {
        let solution = minimized(oracle, candidate, minimize, semantics)?;
        if out.iter().all(|s| s.concept != solution.concept) {
            out.push(solution);
        }
    }
    out.sort_by(|a, b| {
        b.quality
            .total_cmp(&a.quality)
            .then_with(|| length(&a.concept).cmp(&length(&b.concept)))
            .then_with(|| a.concept.cmp(&b.concept))
    });
    Ok(out)
}

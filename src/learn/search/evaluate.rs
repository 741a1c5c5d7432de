//! Scoring candidates against the examples through the oracle, a batch at a time.

use rayon::prelude::*;

use crate::concept::Concept;
use crate::eval::Confusion;
use crate::learn::{Examples, QualityMeasure};
use crate::oracle::{IndividualSet, MembershipOracle, OracleError, Semantics};

/// A candidate's score.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Evaluated {
    pub confusion: Confusion,
    pub quality: f64,
    /// Misses more positives than the noise allows. Every downward refinement misses at
    /// least as many, so such a node is never worth expanding.
    pub too_weak: bool,
}

/// Scores concepts on one problem's examples, asking the oracle over the examples or over
/// a superset of them ([`Evaluator::within`]).
pub struct Evaluator<'a, O: MembershipOracle + ?Sized> {
    oracle: &'a O,
    examples: &'a Examples,
    /// The set the oracle is asked over (the examples unless a superset was given).
    among: &'a IndividualSet,
    quality: QualityMeasure,
    semantics: Semantics,
    max_false_negatives: usize,
}

impl<'a, O: MembershipOracle + ?Sized> Evaluator<'a, O> {
    /// `noise` is a fraction in [0, 1]: a concept may miss up to `ceil(noise·|E+|)`
    /// positives (DL-Learner's rule).
    pub fn new(
        oracle: &'a O,
        examples: &'a Examples,
        quality: QualityMeasure,
        semantics: Semantics,
        noise: f64,
    ) -> Self {
        let positives = examples.positives().len() as f64;
        // The epsilon keeps 0.1 × 30 = 3.0000000000000004 from becoming 4.
        let max_false_negatives = (noise * positives - 1e-9).ceil().max(0.0) as usize;
        Evaluator {
            oracle,
            examples,
            among: examples.all(),
            quality,
            semantics,
            max_false_negatives,
        }
    }

    /// Asks the oracle over `among`, a superset of the examples (cross-validation passes a
    /// problem's examples, so that every fold's answers come from one cache entry). The
    /// scores do not change: only the examples are counted.
    pub fn within(mut self, among: &'a IndividualSet) -> Self {
        self.among = among;
        self
    }

    pub fn max_false_negatives(&self) -> usize {
        self.max_false_negatives
    }

    pub fn examples(&self) -> &Examples {
        self.examples
    }

    /// The oracle the candidates are scored with.
    pub fn oracle(&self) -> &'a O {
        self.oracle
    }

    pub fn score(&self, confusion: Confusion) -> Evaluated {
        Evaluated {
            confusion,
            quality: self.quality.score(&confusion),
            too_weak: confusion.fn_ > self.max_false_negatives,
        }
    }

    pub fn evaluate(&self, c: &Concept) -> Result<Evaluated, OracleError> {
        let covered = self.oracle.members(c, self.among, self.semantics)?;
        Ok(self.score(self.examples.confusion(&covered)))
    }

    /// Scores in input order (the oracle may answer in parallel).
    pub fn evaluate_batch(&self, concepts: &[Concept]) -> Result<Vec<Evaluated>, OracleError> {
        self.answers(concepts).into_iter().collect()
    }

    /// One answer per concept, in input order.
    fn answers(&self, concepts: &[Concept]) -> Vec<Result<Evaluated, OracleError>> {
        self.members_batch(concepts)
            .into_iter()
            .map(|a| a.map(|covered| self.score(self.examples.confusion(&covered))))
            .collect()
    }

    /// The members of `among` per concept, under the evaluator's semantics.
    fn members_batch(&self, concepts: &[Concept]) -> Vec<Result<IndividualSet, OracleError>> {
        let among = self.among;
        match self.semantics {
            Semantics::Closed => self.oracle.covered_batch(concepts, among),
            Semantics::Open => concepts
                .par_iter()
                .map(|c| self.oracle.truth(c, among).map(|t| t.true_set))
                .collect(),
        }
    }

    /// As [`Evaluator::evaluate_batch_until`], each score with the members it counted
    /// (a conjunction's members are the intersection of its parts', under either semantics).
    pub fn evaluate_batch_with_members_until(
        &self,
        concepts: &[Concept],
        stop: &dyn Fn() -> bool,
    ) -> (Vec<(Evaluated, IndividualSet)>, Option<OracleError>) {
        let part = (rayon::current_num_threads() * 2).max(8);
        let mut out = Vec::with_capacity(concepts.len());
        for chunk in concepts.chunks(part) {
            if stop() {
                break;
            }
            for answer in self.members_batch(chunk) {
                match answer {
                    Ok(covered) => {
                        out.push((self.score(self.examples.confusion(&covered)), covered))
                    }
                    Err(e) => return (out, Some(e)),
                }
            }
        }
        (out, None)
    }

    /// Scores in input order until `stop` says so: the batch is scored a few candidates per
    /// thread at a time and `stop` is asked before each part, so a time budget ends a batch
    /// early instead of after the whole batch. Returns the scores of a prefix of `concepts`
    /// and the error that ended the batch, if one did (the scores before it are kept).
    pub fn evaluate_batch_until(
        &self,
        concepts: &[Concept],
        stop: &dyn Fn() -> bool,
    ) -> (Vec<Evaluated>, Option<OracleError>) {
        let (scored, failure) = self.evaluate_batch_with_members_until(concepts, stop);
        (scored.into_iter().map(|(e, _)| e).collect(), failure)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::oracle::reference::ReferenceOracle;
    use crate::oracle::{IndividualId, IndividualSet};

    #[test]
    fn too_weak_means_missing_more_positives_than_the_noise_allows() {
        let store = oxigraph::store::Store::new().unwrap();
        let oracle = ReferenceOracle::new(&store, Default::default()).unwrap();
        let set = |ids: std::ops::Range<u32>| IndividualSet::from_ids(40, ids.map(IndividualId));
        let examples = Examples::new(set(0..30), set(30..40)).unwrap();
        let confusion = |fn_| Confusion {
            tp: 30 - fn_,
            fn_,
            fp: 0,
            tn: 10,
        };
        let strict = Evaluator::new(
            &oracle,
            &examples,
            QualityMeasure::F1,
            Semantics::Closed,
            0.0,
        );
        assert!(!strict.score(confusion(0)).too_weak);
        assert!(strict.score(confusion(1)).too_weak);
        // 10 % of 30 positives: up to 3 may be missed (no rounding up to 4).
        let noisy = Evaluator::new(
            &oracle,
            &examples,
            QualityMeasure::F1,
            Semantics::Closed,
            0.1,
        );
        assert_eq!(noisy.max_false_negatives(), 3);
        assert!(!noisy.score(confusion(3)).too_weak);
        assert!(noisy.score(confusion(4)).too_weak);
        assert_eq!(noisy.score(confusion(3)).quality, confusion(3).f1());
    }
}

//! The committee of features `F_1..F_m` the distance is measured on: the KB's named classes
//! (the default), the refinements of ⊤ up to a length, or concepts the caller gives.
//! Features whose projection is the same for every training individual are dropped
//! ([`informative`]): they add nothing to any distance but would shrink every distance's
//! scale, and with it what the thresholds mean.

use super::projection::Projections;
use crate::concept::{Concept, length};
use crate::oracle::{IndividualId, Signature};
use crate::refine::Refinement;

/// Where the committee comes from.
#[derive(Clone, Debug, PartialEq)]
pub enum CommitteeSource {
    /// Every named class of the signature.
    Classes,
    /// The refinements of ⊤ of at most this length (the operator's order), at most
    /// `max_features` of them.
    Refinements {
        max_length: usize,
        max_features: usize,
    },
    Given(Vec<Concept>),
}

/// The committee's concepts, deterministic for a signature and operator.
pub fn committee(
    signature: &Signature,
    refinement: &dyn Refinement,
    source: &CommitteeSource,
) -> Vec<Concept> {
    match source {
        CommitteeSource::Classes => signature
            .classes
            .iter()
            .cloned()
            .map(Concept::Class)
            .collect(),
        CommitteeSource::Refinements {
            max_length,
            max_features,
        } => {
            let mut out: Vec<Concept> = refinement
                .refine(&Concept::Top, *max_length)
                .into_iter()
                .filter(|c| length(c) <= *max_length)
                .collect();
            out.truncate(*max_features);
            out
        }
        CommitteeSource::Given(cs) => cs.clone(),
    }
}

/// Keeps the features whose projections differ among the training individuals; returns the
/// kept features and their projections.
pub fn informative(committee: &[Concept], full: &Projections) -> (Vec<Concept>, Projections) {
    let n = full.len();
    let keep: Vec<usize> = (0..committee.len())
        .filter(|&i| n > 0 && (1..n).any(|r| full.row(r)[i] != full.row(0)[i]))
        .collect();
    let rows: Vec<Vec<f64>> = (0..n)
        .map(|r| keep.iter().map(|&i| full.row(r)[i]).collect())
        .collect();
    let individuals: Vec<IndividualId> = full.individuals().to_vec();
    let unknown: Vec<f64> = keep.iter().map(|&i| full.unknown_values()[i]).collect();
    (
        keep.iter().map(|&i| committee[i].clone()).collect(),
        Projections::from_parts(individuals, rows, unknown),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn constant_features_are_dropped() {
        let full = Projections::from_rows(&[
            vec![1.0, 0.5, 0.0],
            vec![1.0, 0.5, 1.0],
            vec![1.0, 0.5, 0.5],
        ]);
        let committee = vec![
            Concept::class("http://e/A"),
            Concept::class("http://e/B"),
            Concept::class("http://e/C"),
        ];
        let (kept, proj) = informative(&committee, &full);
        assert_eq!(kept, vec![Concept::class("http://e/C")]);
        assert_eq!(proj.features(), 1);
        assert_eq!(proj.row(1), [1.0]);
        assert_eq!(proj.individual(2), IndividualId(2));
    }
}

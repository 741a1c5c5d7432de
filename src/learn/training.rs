//! What a learner is trained on. One type covers the learners that are here and those that
//! are coming: binary positives/negatives (CELOE, TBC), weighted or fuzzy examples (a degree
//! in [0, 1] per example), multi-class labels, and unlabelled individuals (clustering).
//! A learner asks for the kind it can use and gets a clear error for any other.

use super::{Examples, LearnError};
use crate::oracle::{IndividualId, IndividualSet};

/// The examples of one learning problem.
#[derive(Clone, Debug, PartialEq)]
pub struct TrainingSet {
    kind: TrainingKind,
    /// A superset of the examples the oracle may be asked over (cross-validation passes all
    /// of a problem's examples, so every fold shares one cache). `None`: the examples.
    context: Option<IndividualSet>,
}

/// The shapes of training data.
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub enum TrainingKind {
    Binary(Examples),
    /// Each example with its degree of membership in the target, in [0, 1].
    Weighted(Vec<(IndividualId, f64)>),
    /// Each example with the index of its class in `classes`.
    MultiClass {
        classes: Vec<String>,
        labels: Vec<(IndividualId, usize)>,
    },
    Unlabelled(IndividualSet),
}

impl TrainingSet {
    /// Positives and negatives (disjoint; at least one positive).
    pub fn binary(positives: IndividualSet, negatives: IndividualSet) -> Result<Self, LearnError> {
        Ok(Self::from_examples(Examples::new(positives, negatives)?))
    }

    pub fn from_examples(examples: Examples) -> Self {
        TrainingSet {
            kind: TrainingKind::Binary(examples),
            context: None,
        }
    }

    /// Weighted (fuzzy) examples; every degree must lie in [0, 1] and no individual may
    /// appear twice.
    pub fn weighted(mut examples: Vec<(IndividualId, f64)>) -> Result<Self, LearnError> {
        if let Some((id, d)) = examples
            .iter()
            .find(|(_, d)| !(d.is_finite() && (0.0..=1.0).contains(d)))
        {
            return Err(LearnError::InvalidTraining(format!(
                "example {} has degree {d}; degrees lie in [0, 1]",
                id.0
            )));
        }
        examples.sort_by_key(|(id, _)| *id);
        if examples.windows(2).any(|w| w[0].0 == w[1].0) {
            return Err(LearnError::InvalidTraining(
                "an individual appears twice among the weighted examples".to_owned(),
            ));
        }
        Ok(TrainingSet {
            kind: TrainingKind::Weighted(examples),
            context: None,
        })
    }

    /// Multi-class labels: each label indexes `classes`; at least two classes.
    pub fn multi_class(
        classes: Vec<String>,
        mut labels: Vec<(IndividualId, usize)>,
    ) -> Result<Self, LearnError> {
        if classes.len() < 2 {
            return Err(LearnError::InvalidTraining(format!(
                "multi-class training needs at least 2 classes, not {}",
                classes.len()
            )));
        }
        if let Some((_, l)) = labels.iter().find(|(_, l)| *l >= classes.len()) {
            return Err(LearnError::InvalidTraining(format!(
                "label {l} names no class (there are {})",
                classes.len()
            )));
        }
        labels.sort_by_key(|(id, _)| *id);
        if labels.windows(2).any(|w| w[0].0 == w[1].0) {
            return Err(LearnError::InvalidTraining(
                "an individual has two labels".to_owned(),
            ));
        }
        Ok(TrainingSet {
            kind: TrainingKind::MultiClass { classes, labels },
            context: None,
        })
    }

    pub fn unlabelled(individuals: IndividualSet) -> Self {
        TrainingSet {
            kind: TrainingKind::Unlabelled(individuals),
            context: None,
        }
    }

    /// Lets the oracle be asked over `superset` (it must contain the examples).
    pub fn with_context(mut self, superset: IndividualSet) -> Self {
        self.context = Some(superset);
        self
    }

    pub fn kind(&self) -> &TrainingKind {
        &self.kind
    }

    /// A short name of the kind, for messages.
    pub fn kind_name(&self) -> &'static str {
        match self.kind {
            TrainingKind::Binary(_) => "binary (positive/negative)",
            TrainingKind::Weighted(_) => "weighted (fuzzy)",
            TrainingKind::MultiClass { .. } => "multi-class",
            TrainingKind::Unlabelled(_) => "unlabelled",
        }
    }

    /// The binary examples, or an error naming `learner` and what it was given.
    pub fn as_binary(&self, learner: &'static str) -> Result<&Examples, LearnError> {
        match &self.kind {
            TrainingKind::Binary(e) => Ok(e),
            _ => Err(LearnError::UnsupportedTraining {
                learner,
                needs: "binary (positive/negative)",
                given: self.kind_name(),
            }),
        }
    }

    /// The weighted view: binary examples become degrees 1 and 0.
    pub fn as_weighted(
        &self,
        learner: &'static str,
    ) -> Result<Vec<(IndividualId, f64)>, LearnError> {
        match &self.kind {
            TrainingKind::Weighted(w) => Ok(w.clone()),
            TrainingKind::Binary(e) => {
                let mut out: Vec<(IndividualId, f64)> = e
                    .positives()
                    .iter()
                    .map(|id| (id, 1.0))
                    .chain(e.negatives().iter().map(|id| (id, 0.0)))
                    .collect();
                out.sort_by_key(|(id, _)| *id);
                Ok(out)
            }
            _ => Err(LearnError::UnsupportedTraining {
                learner,
                needs: "weighted or binary",
                given: self.kind_name(),
            }),
        }
    }

    /// Every individual the training data names.
    pub fn individuals(&self, universe: usize) -> IndividualSet {
        match &self.kind {
            TrainingKind::Binary(e) => e.all().clone(),
            TrainingKind::Weighted(w) => IndividualSet::from_ids(universe, w.iter().map(|p| p.0)),
            TrainingKind::MultiClass { labels, .. } => {
                IndividualSet::from_ids(universe, labels.iter().map(|p| p.0))
            }
            TrainingKind::Unlabelled(s) => s.clone(),
        }
    }

    /// The set the oracle is asked over: the context if one was given, else the examples.
    pub fn context(&self, universe: usize) -> IndividualSet {
        let own = self.individuals(universe);
        match &self.context {
            Some(c) => c.union(&own),
            None => own,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn set(ids: &[u32]) -> IndividualSet {
        IndividualSet::from_ids(10, ids.iter().map(|&i| IndividualId(i)))
    }

    #[test]
    fn kinds_are_checked_and_views_refuse_what_they_cannot_show() {
        let binary = TrainingSet::binary(set(&[0, 1]), set(&[2])).unwrap();
        assert_eq!(binary.as_binary("celoe").unwrap().positives().len(), 2);
        assert_eq!(
            binary.as_weighted("x").unwrap(),
            vec![
                (IndividualId(0), 1.0),
                (IndividualId(1), 1.0),
                (IndividualId(2), 0.0)
            ]
        );
        let fuzzy = TrainingSet::weighted(vec![(IndividualId(3), 0.25)]).unwrap();
        let e = fuzzy.as_binary("celoe").unwrap_err().to_string();
        assert!(e.contains("celoe") && e.contains("weighted"), "{e}");
        assert!(TrainingSet::weighted(vec![(IndividualId(3), 1.5)]).is_err());
        assert!(TrainingSet::multi_class(vec!["a".into()], vec![]).is_err());
        assert!(
            TrainingSet::multi_class(vec!["a".into(), "b".into()], vec![(IndividualId(1), 2)])
                .is_err()
        );
        let clusters = TrainingSet::unlabelled(set(&[4, 5]));
        assert!(clusters.as_weighted("x").is_err());
        assert_eq!(clusters.with_context(set(&[6])).context(10).len(), 3);
    }
}

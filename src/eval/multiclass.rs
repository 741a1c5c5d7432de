//! The measures of a multi-class model on labelled examples (Abudawood & Flach, §2):
//! multi-class accuracy; the multi-model accuracy of the one-vs-rest binary theories (the
//! mean of their binary accuracies, which credits every default "not this class" and so
//! overstates: the paper's point); the average positive recall of the binary theories
//! weighted by class prior (`Σ_i TP_i / E`, conflicts between theories not resolved); and
//! the one-vs-rest AUC of the class probabilities weighted by class prior. Any model of a
//! multi-class problem is scored with them (a tree's one-vs-rest theories are its one-hot
//! predictions); the rule learner's outcomes also say which rules fired and what decided.

use serde::Serialize;

use super::auc_roc;

/// One example's outcome.
#[derive(Clone, Debug, PartialEq)]
pub struct Outcome {
    pub truth: usize,
    pub predicted: usize,
    /// The model's class distribution (MRL: all mass on the predicted class).
    pub distribution: Vec<f64>,
    /// Per class: whether its one-vs-rest theory (any of its rules) fires; for a model
    /// without rules, the predicted class alone.
    pub binary: Vec<bool>,
    pub by: DecidedBy,
}

/// The confusion matrix, `matrix[actual][predicted]` (the crate's one, in [`crate::eval`]).
pub use super::ConfusionMatrix;

/// What decided an example's class.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DecidedBy {
    /// A model that is not a combination of rules (a tree, a forest) as a whole.
    Model,
    /// MRL: this rule, the first of the list that fires.
    Rule(usize),
    /// A rule set: the firing rules' coverage.
    Rules,
    /// No rule fires: the default rule.
    DefaultRule,
    /// MRSI: the firing rules' coverages share no example; the training majority.
    Majority,
}

#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Scores {
    pub accuracy: f64,
    pub multi_model_accuracy: f64,
    pub average_recall: f64,
    /// `None` when no class has both members and non-members among the examples.
    pub weighted_auc: Option<f64>,
    pub confusion: ConfusionMatrix,
    /// The share of the examples the default rule decided (no rule fired).
    pub default_rule_share: f64,
    /// The share MRSI gave the training majority (the firing rules' coverages share no example).
    pub majority_share: f64,
}

/// The measures over `outcomes` (non-empty for meaningful values; all 0 when empty).
pub fn score(classes: &[String], outcomes: &[Outcome]) -> Scores {
    let k = classes.len();
    let n = outcomes.len();
    let mut confusion = ConfusionMatrix::new(classes);
    for o in outcomes {
        confusion.count(o.truth, o.predicted);
    }
    let ratio = |a: usize, b: usize| if b == 0 { 0.0 } else { a as f64 / b as f64 };
    let correct = confusion.correct();
    let mut binary_correct = 0usize;
    let mut binary_tp = 0usize;
    for o in outcomes {
        for (i, &fires) in o.binary.iter().enumerate().take(k) {
            let is_class = o.truth == i;
            if fires == is_class {
                binary_correct += 1;
            }
            if fires && is_class {
                binary_tp += 1;
            }
        }
    }
    let mut weighted = 0.0;
    let mut weight = 0.0;
    for i in 0..k {
        let scored: Vec<(f64, bool)> = outcomes
            .iter()
            .map(|o| (o.distribution.get(i).copied().unwrap_or(0.0), o.truth == i))
            .collect();
        if let Some(auc) = auc_roc(&scored) {
            let prior = ratio(scored.iter().filter(|s| s.1).count(), n);
            weighted += prior * auc;
            weight += prior;
        }
    }
    Scores {
        accuracy: ratio(correct, n),
        multi_model_accuracy: ratio(binary_correct, n * k),
        average_recall: ratio(binary_tp, n),
        weighted_auc: (weight > 0.0).then(|| weighted / weight),
        default_rule_share: ratio(
            outcomes
                .iter()
                .filter(|o| o.by == DecidedBy::DefaultRule)
                .count(),
            n,
        ),
        majority_share: ratio(
            outcomes
                .iter()
                .filter(|o| o.by == DecidedBy::Majority)
                .count(),
            n,
        ),
        confusion,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn outcome(truth: usize, predicted: usize, binary: [bool; 3]) -> Outcome {
        let mut distribution = vec![0.0; 3];
        distribution[predicted] = 1.0;
        Outcome {
            truth,
            predicted,
            distribution,
            binary: binary.to_vec(),
            by: if binary.contains(&true) {
                DecidedBy::Rules
            } else {
                DecidedBy::DefaultRule
            },
        }
    }

    #[test]
    fn empty_theories_score_two_thirds_multi_model_accuracy_on_three_classes() {
        // The paper's remark: three empty one-vs-rest theories (nothing fires) get 0.67
        // multi-model accuracy on a uniform 3-class problem; the multi-class model that
        // always predicts the default class gets 1/3.
        let classes: Vec<String> = ["a", "b", "c"].map(String::from).to_vec();
        let outcomes: Vec<Outcome> = (0..9).map(|i| outcome(i % 3, 0, [false; 3])).collect();
        let s = score(&classes, &outcomes);
        assert!((s.accuracy - 1.0 / 3.0).abs() < 1e-12);
        assert!((s.multi_model_accuracy - 2.0 / 3.0).abs() < 1e-12);
        assert_eq!(s.average_recall, 0.0);
        // One-hot scores on class a: AUC_a = (TPR + TNR) / 2 = (1 + 0) / 2; b, c: 0.5.
        assert!((s.weighted_auc.unwrap() - 0.5).abs() < 1e-12);
        assert_eq!(s.confusion.matrix, vec![vec![3, 0, 0]; 3]);
        assert_eq!((s.default_rule_share, s.majority_share), (1.0, 0.0));
    }

    #[test]
    fn conflicting_binary_theories_count_in_recall_not_in_accuracy() {
        let classes: Vec<String> = ["a", "b", "c"].map(String::from).to_vec();
        let outcomes = vec![
            // a: theories a and b both fire; the model says a.
            outcome(0, 0, [true, true, false]),
            // b: theories a and b both fire; the model says a (wrong).
            outcome(1, 0, [true, true, false]),
            // c: nothing fires; the model says c.
            outcome(2, 2, [false, false, false]),
            // c: theory c fires; the model says c.
            outcome(2, 2, [false, false, true]),
        ];
        let s = score(&classes, &outcomes);
        assert!((s.accuracy - 0.75).abs() < 1e-12);
        // Binary TPs: a on ex 0, b on ex 1, c on ex 3 = 3 of 4 examples.
        assert!((s.average_recall - 0.75).abs() < 1e-12);
        // Binary decisions right: ex0 a✓ b✗ c✓, ex1 a✗ b✓ c✓, ex2 ✓✓✗, ex3 ✓✓✓ = 9 of 12.
        assert!((s.multi_model_accuracy - 0.75).abs() < 1e-12);
        assert_eq!(
            s.confusion.matrix,
            vec![vec![1, 0, 0], vec![1, 0, 0], vec![0, 0, 2]]
        );
        // AUC per class from the one-hot distributions, weighted by prior 1/4, 1/4, 2/4:
        // a: positives {ex0} score 1, negatives ex1 1, ex2 0, ex3 0 → (0.5 + 1 + 1)/3 = 5/6;
        // b: nobody is predicted b, every score ties at 0 → 1/2; c: 1.
        let expected = 0.25 * 5.0 / 6.0 + 0.25 * 0.5 + 0.5;
        assert!((s.weighted_auc.unwrap() - expected).abs() < 1e-12);
    }
}

//! The multi-class learner's parameters.

use std::collections::BTreeSet;

use serde::Serialize;

use super::chi2::CHI2_CRITICAL_05;
use super::combine::Combine;
use crate::concept::Iri;
use crate::learn::LearnError;
use crate::learn::celoe::CeloeParams;

#[derive(Clone, Debug, Serialize)]
pub struct MultiClassParams {
    pub combine: Combine,
    /// The rule search: CELOE with these parameters on the still-uncovered examples of a
    /// class against all other classes' examples.
    pub celoe: CeloeParams,
    /// Candidates CELOE scores per rule (a test budget keeps runs short and deterministic).
    pub rule_tests: u64,
    /// Most rules per class (`None`: until the class is covered or no rule is good enough).
    pub max_rules_per_class: Option<usize>,
    /// A rule is kept when it covers its class more often than chance on the examples it
    /// was learned from and its χ² there reaches this (default: significance 0.05, 1 d.f.).
    pub min_chi2: f64,
    /// Breaks ties (MRL's order, the default class, tied classes of a prediction).
    pub seed: u64,
    /// Classes rules must not use (DL-Learner's `ignoredConcepts`).
    pub ignored_classes: BTreeSet<Iri>,
}

impl Default for MultiClassParams {
    fn default() -> Self {
        MultiClassParams {
            combine: Combine::Mrsi,
            celoe: CeloeParams::default(),
            rule_tests: 2000,
            max_rules_per_class: None,
            min_chi2: CHI2_CRITICAL_05,
            seed: 1,
            ignored_classes: BTreeSet::new(),
        }
    }
}

impl MultiClassParams {
    pub fn validate(&self) -> Result<(), LearnError> {
        self.celoe.validate()?;
        if self.rule_tests == 0 {
            return Err(LearnError::invalid("rule_tests", "must be at least 1"));
        }
        if self.max_rules_per_class == Some(0) {
            return Err(LearnError::invalid(
                "max_rules_per_class",
                "must be at least 1",
            ));
        }
        if !(self.min_chi2.is_finite() && self.min_chi2 >= 0.0) {
            return Err(LearnError::invalid(
                "min_chi2",
                "must be a finite number, at least 0",
            ));
        }
        Ok(())
    }
}

//! χ² of a rule for its class, from the 2×2 table (covered or not × of the class or not):
//! with `E` examples, `e` covered, `E_i` of class i and `e_i` covered of class i,
//! `χ² = E·(e_i·E − e·E_i)² / (e·E_i·(E−e)·(E−E_i))` (Abudawood & Flach, Definition 4).

/// The counts of one rule on a set of examples.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RuleCounts {
    /// `E`: examples.
    pub examples: usize,
    /// `e`: examples the rule covers.
    pub covered: usize,
    /// `E_i`: examples of the rule's class.
    pub of_class: usize,
    /// `e_i`: covered examples of the rule's class.
    pub covered_of_class: usize,
}

impl RuleCounts {
    /// χ²; 0 when a margin of the table is empty (the statistic is undefined there and
    /// says nothing about the rule).
    pub fn chi2(&self) -> f64 {
        let (n, e, ni, ei) = (
            self.examples as f64,
            self.covered as f64,
            self.of_class as f64,
            self.covered_of_class as f64,
        );
        let denominator = e * ni * (n - e) * (n - ni);
        if denominator <= 0.0 {
            return 0.0;
        }
        n * (ei * n - e * ni).powi(2) / denominator
    }

    /// Whether the rule covers its class more often than the class's share of the examples
    /// (`e_i/e > E_i/E`): χ² measures association in either direction, a rule is only
    /// worth something when it is positive.
    pub fn positively_associated(&self) -> bool {
        // e_i·E > e·E_i, in integers.
        self.covered_of_class * self.examples > self.covered * self.of_class
    }

    /// χ² with the sign of the association: negative for a rule that covers its class less
    /// often than chance, so ordering by it puts such rules after every useful one.
    pub fn signed_chi2(&self) -> f64 {
        if self.positively_associated() {
            self.chi2()
        } else {
            -self.chi2()
        }
    }
}

/// The χ² value of significance level 0.05 with one degree of freedom: a rule must reach it
/// to be kept by the covering learner (the usual test of a 2×2 table).
pub const CHI2_CRITICAL_05: f64 = 3.841_458_820_694_124;

#[cfg(test)]
mod tests {
    use super::*;

    fn counts(
        examples: usize,
        covered: usize,
        of_class: usize,
        covered_of_class: usize,
    ) -> RuleCounts {
        RuleCounts {
            examples,
            covered,
            of_class,
            covered_of_class,
        }
    }

    #[test]
    fn chi2_of_a_hand_table() {
        // Table: covered 30 (20 of class i, 10 not), uncovered 70 (20 of class i, 50 not).
        // Expected counts: 12, 18, 28, 42. χ² = Σ (O−E)²/E
        //   = 64/12 + 64/18 + 64/28 + 64/42 = 12.698412…
        let c = counts(100, 30, 40, 20);
        let by_cells = 64.0 / 12.0 + 64.0 / 18.0 + 64.0 / 28.0 + 64.0 / 42.0;
        assert!((c.chi2() - by_cells).abs() < 1e-9, "{}", c.chi2());
        assert!((c.chi2() - 12.698_412_698_412_7).abs() < 1e-9);
        assert!(c.positively_associated());
        assert_eq!(c.signed_chi2(), c.chi2());
        // The same table mirrored (the rule covers the other class): same χ², negative sign.
        let mirrored = counts(100, 30, 60, 10);
        assert!((mirrored.chi2() - c.chi2()).abs() < 1e-9);
        assert!(!mirrored.positively_associated());
        assert!(mirrored.signed_chi2() < 0.0);
    }

    #[test]
    fn perfect_and_degenerate_rules() {
        // A rule covering exactly the class: χ² = E.
        assert!((counts(20, 5, 5, 5).chi2() - 20.0).abs() < 1e-12);
        // Empty margins: nothing covered, everything covered, no example of the class.
        assert_eq!(counts(20, 0, 5, 0).chi2(), 0.0);
        assert_eq!(counts(20, 20, 5, 5).chi2(), 0.0);
        assert_eq!(counts(20, 4, 0, 0).chi2(), 0.0);
        // Independence: χ² = 0, not positive.
        let independent = counts(100, 50, 40, 20);
        assert_eq!(independent.chi2(), 0.0);
        assert!(!independent.positively_associated());
    }
}

//! The t-norms fuzzy conjunction is read with: Gödel (minimum) and Łukasiewicz
//! (`max(0, a + b − 1)`). ∃ is the supremum over successors under both (crisp roles).

use serde::{Deserialize, Serialize};

#[derive(Clone, Copy, Debug, PartialEq, Eq, Default, Serialize, Deserialize)]
#[cfg_attr(feature = "cli", derive(clap::ValueEnum))]
#[serde(rename_all = "lowercase")]
pub enum TNorm {
    /// a ⊗ b = min(a, b): idempotent, so `C ⊓ C = C`.
    #[default]
    #[cfg_attr(feature = "cli", value(help = "min(a, b)"))]
    Goedel,
    /// a ⊗ b = max(0, a + b − 1): conjuncts' shortfalls add up.
    #[cfg_attr(feature = "cli", value(help = "max(0, a + b − 1)"))]
    Lukasiewicz,
}

impl TNorm {
    pub fn and(self, a: f64, b: f64) -> f64 {
        match self {
            TNorm::Goedel => a.min(b),
            TNorm::Lukasiewicz => (a + b - 1.0).max(0.0),
        }
    }

    /// The dual t-conorm (fuzzy ∨): max, or `min(1, a + b)`.
    pub fn or(self, a: f64, b: f64) -> f64 {
        match self {
            TNorm::Goedel => a.max(b),
            TNorm::Lukasiewicz => (a + b).min(1.0),
        }
    }

    /// The residuated implication a ⇒ b: Gödel `1 if a ≤ b else b`, Łukasiewicz
    /// `min(1, 1 − a + b)` (the degree of a GCI `C ⊑ D` at one individual).
    pub fn implies(self, a: f64, b: f64) -> f64 {
        match self {
            TNorm::Goedel => {
                if a <= b {
                    1.0
                } else {
                    b
                }
            }
            TNorm::Lukasiewicz => (1.0 - a + b).min(1.0),
        }
    }

    /// The name in output and the Fuzzy OWL 2 ontology annotation (`zadeh` is the Gödel
    /// conjunction's logic there, `lukasiewicz` the other).
    pub fn name(self) -> &'static str {
        match self {
            TNorm::Goedel => "goedel",
            TNorm::Lukasiewicz => "lukasiewicz",
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn goedel_and_lukasiewicz_operators() {
        let g = TNorm::Goedel;
        let l = TNorm::Lukasiewicz;
        assert_eq!(g.and(0.7, 0.4), 0.4);
        assert!((l.and(0.7, 0.4) - 0.1).abs() < 1e-12);
        assert_eq!(l.and(0.3, 0.4), 0.0);
        // Both are t-norms: 1 is neutral, 0 absorbing; crisp values give Boolean ∧.
        for t in [g, l] {
            for a in [0.0, 0.25, 1.0] {
                assert_eq!(t.and(a, 1.0), a);
                assert_eq!(t.and(a, 0.0), 0.0);
            }
            assert_eq!(t.or(0.0, 1.0), 1.0);
            assert_eq!(t.implies(0.2, 0.9), 1.0);
        }
        assert_eq!(g.or(0.7, 0.4), 0.7);
        assert_eq!(l.or(0.7, 0.4), 1.0);
        assert_eq!(g.implies(0.9, 0.2), 0.2);
        assert!((l.implies(0.9, 0.2) - 0.3).abs() < 1e-12);
        // Gödel is idempotent, Łukasiewicz is not.
        assert_eq!(g.and(0.6, 0.6), 0.6);
        assert!((l.and(0.6, 0.6) - 0.2).abs() < 1e-12);
    }
}

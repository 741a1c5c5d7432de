//! The distance `d_p` of the paper over a committee of `m` features:
//! `d_p(a, b) = (1/m) · (Σ_i |π_i(a) − π_i(b)|^p)^(1/p)`, with `π_i` the projections
//! ([`super::projection`]). Values lie in `[0, m^(1/p)/m]`; thresholds are given as fractions
//! of that largest value ([`Metric::largest`]).

/// `d_p` for one `p ≥ 1` (validated by [`super::ClusterParams::validate`]).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Metric {
    pub p: f64,
}

impl Metric {
    pub fn new(p: f64) -> Self {
        Metric { p }
    }

    /// `d_p(a, b)`; 0 for an empty committee.
    pub fn distance(&self, a: &[f64], b: &[f64]) -> f64 {
        let m = a.len().min(b.len());
        if m == 0 {
            return 0.0;
        }
        let pairs = a.iter().zip(b);
        // p = 1 and p = 2 are the common cases: no powf per feature.
        let root = if self.p == 1.0 {
            pairs.map(|(x, y)| (x - y).abs()).sum::<f64>()
        } else if self.p == 2.0 {
            pairs.map(|(x, y)| (x - y) * (x - y)).sum::<f64>().sqrt()
        } else {
            pairs
                .map(|(x, y)| (x - y).abs().powf(self.p))
                .sum::<f64>()
                .powf(1.0 / self.p)
        };
        root / m as f64
    }

    /// The largest value `d_p` takes over `m` features (every projection differing by 1).
    pub fn largest(&self, m: usize) -> f64 {
        if m == 0 {
            return 0.0;
        }
        (m as f64).powf(1.0 / self.p) / m as f64
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn distances_by_hand() {
        // π(a) = (1, 0, ½, 1), π(b) = (0, 0, 1, ½): differences 1, 0, ½, ½.
        let a = [1.0, 0.0, 0.5, 1.0];
        let b = [0.0, 0.0, 1.0, 0.5];
        // p = 1: (1 + 0 + ½ + ½) / 4 = 0.5.
        assert!((Metric::new(1.0).distance(&a, &b) - 0.5).abs() < 1e-12);
        // p = 2: √(1 + ¼ + ¼) / 4 = √1.5 / 4 ≈ 0.306186.
        let d2 = Metric::new(2.0).distance(&a, &b);
        assert!((d2 - 1.5f64.sqrt() / 4.0).abs() < 1e-12, "{d2}");
        // p = 3: (1 + ⅛ + ⅛)^(1/3) / 4 = 1.25^(1/3) / 4 ≈ 0.270857.
        let d3 = Metric::new(3.0).distance(&a, &b);
        assert!((d3 - 1.25f64.cbrt() / 4.0).abs() < 1e-12, "{d3}");
        // Symmetric, zero on itself.
        assert_eq!(Metric::new(2.0).distance(&b, &a), d2);
        assert_eq!(Metric::new(2.0).distance(&a, &a), 0.0);
        // The largest value: every feature 1 apart.
        assert_eq!(Metric::new(1.0).largest(4), 1.0);
        assert!((Metric::new(2.0).largest(4) - 0.5).abs() < 1e-12);
        let ones = [1.0; 4];
        let zeros = [0.0; 4];
        assert!((Metric::new(2.0).distance(&ones, &zeros) - 0.5).abs() < 1e-12);
    }
}

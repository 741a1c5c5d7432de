//! Real AdaBoost over the weak hypotheses (the paper's Alg. 1).
//!
//! - A weak hypothesis's prediction is `hᵢ(a) = t(bed(K ∪ hᵢ, a:T))`. The extracted paper
//!   text lost the formula of t; its δ is defined for `x ∈ {−1} ∪ (0, 1]`, so
//!   `t(x) = −1` for x = 0 and `t(x) = x` otherwise: not covered is a vote against, covered
//!   to degree x a vote for of strength x. We generalise the cut to a parameter τ
//!   (`cover_degree`): `t(x) = x` for x > τ, else −1; τ = 0, the paper's reading, is the
//!   default. τ = ½ counts an individual as covered by `∃p.F` only where F is its value's
//!   dominant fuzzy set (adjacent sets of a partition cross at ½).
//! - Labels `l(a) = 1` for positives (target degree > 0), −1 for negatives.
//! - Error `ε = Σ w_a·δ(hᵢ(a), l(a))`, δ = 1 when the signs disagree.
//! - Weight `α = ½ ln((1 − ε)/ε)` ([`AlphaForm::Error`], the paper's equation, which is
//!   written with ε) or `½ ln((1 + r)/(1 − r))`, r = Σ w·l·h ([`AlphaForm::Correlation`],
//!   Schapire–Singer's confidence-rated form); ε and r are kept within [1e-10, 1 − 1e-10]
//!   so a perfect round gets a large finite α.
//! - Update `w_a ← w_a·exp(−α·l(a)·hᵢ(a)) / Z`: misclassified examples gain weight, and
//!   a correct vote of low degree lowers a weight less than a confident one.
//! - [`AlphaForm::Confidence`] instead votes like Real AdaBoost proper (Friedman, Hastie &
//!   Tibshirani's `½ ln(p/(1 − p))`; Schapire & Singer's domain-partitioning hypotheses):
//!   a round splits the examples into a covered block (to degree `WLᵢ(a)`) and an uncovered
//!   block (to degree `1 − WLᵢ(a)`), and each block votes `c = ½ ln((W₊ + ε)/(W₋ + ε))`
//!   from the weights of its positives and negatives, ε = 1/(2n) (their smoothing). The
//!   vote is `c₋ + WLᵢ(a)·(c₊ − c₋)`: a weight `α = c₊ − c₋` on the round's degree and a
//!   constant `c₋`. Unlike the −1 of the paper's t, a rule that covers few of the
//!   positives no longer votes against every individual it leaves out as strongly as it
//!   votes for those it covers: its uncovered block votes what that block holds.

use serde::{Deserialize, Serialize};

const EDGE: f64 = 1e-10;

/// How a Real AdaBoost round votes (each updates the example weights by
/// `w ← w · exp(−l(a) · vote(a)) / Z` with the real-valued vote).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default, Serialize, Deserialize)]
#[cfg_attr(feature = "cli", derive(clap::ValueEnum))]
#[serde(rename_all = "lowercase")]
pub enum AlphaForm {
    /// `α = ½ ln((1 − ε) / ε)` from the weighted error ε = Σ w·δ(h(a), l(a)), δ = 1 when the
    /// signs disagree: the form the paper's equation uses (it defines ε and δ for α);
    /// the round votes `α·t(WL(a))`.
    #[cfg_attr(feature = "cli", value(help = None::<&str>))]
    Error,
    /// Schapire–Singer's confidence-rated form `α = ½ ln((1 + r) / (1 − r))` with the
    /// weighted correlation r = Σ w·l(a)·h(a).
    #[cfg_attr(feature = "cli", value(help = None::<&str>))]
    Correlation,
    /// Real AdaBoost's confidence-rated vote: the covered and the uncovered block each vote
    /// `½ ln(W₊/W₋)` of their weights (smoothed), so the round votes
    /// `c₋ + WL(a)·(c₊ − c₋)` (see the module docs). The default.
    #[default]
    #[cfg_attr(feature = "cli", value(help = None::<&str>))]
    Confidence,
}

/// `t: [0, 1] → {−1} ∪ (τ, 1]` with the cut `tau` (see the module docs).
pub fn transform(bed: f64, tau: f64) -> f64 {
    if bed > tau { bed } else { -1.0 }
}

/// The weighted error ε of predictions `h` against labels `l` (±1) under weights `w`.
pub fn weighted_error(h: &[f64], l: &[f64], w: &[f64]) -> f64 {
    h.iter()
        .zip(l)
        .zip(w)
        .filter(|((h, l), _)| (**h > 0.0) != (**l > 0.0))
        .map(|(_, w)| w)
        .sum()
}

/// α of a round.
pub fn alpha(form: AlphaForm, h: &[f64], l: &[f64], w: &[f64]) -> f64 {
    match form {
        // A confidence-rated round's α comes from its blocks ([`Blocks::votes`]); asked
        // here, it gets the error form's.
        AlphaForm::Error | AlphaForm::Confidence => {
            let e = weighted_error(h, l, w).clamp(EDGE, 1.0 - EDGE);
            0.5 * ((1.0 - e) / e).ln()
        }
        AlphaForm::Correlation => {
            let r: f64 = h.iter().zip(l).zip(w).map(|((h, l), w)| w * l * h).sum();
            let r = r.clamp(-1.0 + EDGE, 1.0 - EDGE);
            0.5 * ((1.0 + r) / (1.0 - r)).ln()
        }
    }
}

/// The next distribution: `w·exp(−α·l·h)`, normalised to sum 1.
pub fn reweight(w: &mut [f64], alpha: f64, h: &[f64], l: &[f64]) {
    for ((w, h), l) in w.iter_mut().zip(h).zip(l) {
        *w *= (-alpha * l * h).exp();
    }
    let z: f64 = w.iter().sum();
    if z > 0.0 && z.is_finite() {
        for w in w.iter_mut() {
            *w /= z;
        }
    }
}

/// The weights of positives and negatives in a round's covered block (each example
/// counted to its degree `bed`) and in its uncovered block (to `1 − bed`).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Blocks {
    pub covered_pos: f64,
    pub covered_neg: f64,
    pub uncovered_pos: f64,
    pub uncovered_neg: f64,
}

impl Blocks {
    pub fn of(bed: &[f64], l: &[f64], w: &[f64]) -> Blocks {
        let mut b = Blocks::default();
        for ((d, l), w) in bed.iter().zip(l).zip(w) {
            let d = d.clamp(0.0, 1.0);
            if *l > 0.0 {
                b.covered_pos += w * d;
                b.uncovered_pos += w * (1.0 - d);
            } else {
                b.covered_neg += w * d;
                b.uncovered_neg += w * (1.0 - d);
            }
        }
        b
    }

    /// Schapire–Singer's `Z = 2(√(W₊W₋) of the covered block + the same of the uncovered)`:
    /// the factor by which the round shrinks the bound on the training error, which a weak
    /// learner for confidence-rated votes minimises (1 for a round that tells nothing).
    pub fn z(&self) -> f64 {
        2.0 * ((self.covered_pos * self.covered_neg).sqrt()
            + (self.uncovered_pos * self.uncovered_neg).sqrt())
    }

    /// The blocks' votes `(c₊, c₋)`, each `½ ln((W₊ + ε)/(W₋ + ε))`.
    pub fn votes(&self, smoothing: f64) -> (f64, f64) {
        let c = |p: f64, n: f64| 0.5 * ((p + smoothing) / (n + smoothing)).ln();
        (
            c(self.covered_pos, self.covered_neg),
            c(self.uncovered_pos, self.uncovered_neg),
        )
    }
}

/// Schapire–Singer's smoothing of the block votes: ε = 1/(2n) for `n` weighted examples.
pub fn smoothing(n: usize) -> f64 {
    0.5 / n.max(1) as f64
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Four examples, uniform weights: two positives covered to degrees 1 and 0.5, one
    /// positive not covered, one negative not covered.
    #[test]
    fn weights_and_alpha_after_one_round_by_hand() {
        let h = [1.0, 0.5, transform(0.0, 0.0), transform(0.0, 0.0)];
        assert_eq!(transform(0.5, 0.5), -1.0);
        assert_eq!(transform(0.51, 0.5), 0.51);
        assert_eq!(h, [1.0, 0.5, -1.0, -1.0]);
        let l = [1.0, 1.0, 1.0, -1.0];
        let mut w = [0.25; 4];
        // Only the third example's sign disagrees: ε = 0.25, α = ½ ln 3.
        assert_eq!(weighted_error(&h, &l, &w), 0.25);
        let a = alpha(AlphaForm::Error, &h, &l, &w);
        assert!((a - 0.5 * 3f64.ln()).abs() < 1e-12, "{a}");
        // r = ¼(1 + 0.5 − 1 + 1) = 0.375: α = ½ ln(1.375/0.625) = ½ ln 2.2.
        let b = alpha(AlphaForm::Correlation, &h, &l, &w);
        assert!((b - 0.5 * 2.2f64.ln()).abs() < 1e-12, "{b}");
        // exp(−α·l·h) with e^α = √3: 1/√3, 3^(−1/4), √3, 1/√3, then normalised.
        reweight(&mut w, a, &h, &l);
        let s3 = 3f64.sqrt();
        let raw = [1.0 / s3, 3f64.powf(-0.25), s3, 1.0 / s3].map(|x| 0.25 * x);
        let z: f64 = raw.iter().sum();
        for (got, want) in w.iter().zip(raw.map(|x| x / z)) {
            assert!((got - want).abs() < 1e-12, "{w:?}");
        }
        // The misclassified positive now weighs most; the weights sum to 1.
        assert!(w[2] > w[1] && w[1] > w[0] && w[0] == w[3]);
        assert!((w.iter().sum::<f64>() - 1.0).abs() < 1e-12);
        // A perfect round gets a large but finite α.
        let perfect = alpha(AlphaForm::Error, &[1.0, -1.0], &[1.0, -1.0], &[0.5, 0.5]);
        assert!(perfect.is_finite() && perfect > 10.0);
    }

    /// The same four examples under confidence-rated rounds: covered block (to degrees 1
    /// and 0.5) W₊ = 0.375, W₋ = 0; uncovered block (to 0, 0.5, 1, 1) W₊ = 0.375,
    /// W₋ = 0.25; ε = 1/(2·4) = 0.125.
    #[test]
    fn confidence_rated_votes_and_z_by_hand() {
        use super::super::model::Round;
        let bed = [1.0, 0.5, 0.0, 0.0];
        let l = [1.0, 1.0, 1.0, -1.0];
        let w = [0.25; 4];
        let b = Blocks::of(&bed, &l, &w);
        assert_eq!(
            b,
            Blocks {
                covered_pos: 0.375,
                covered_neg: 0.0,
                uncovered_pos: 0.375,
                uncovered_neg: 0.25,
            }
        );
        // Z = 2(√(0.375·0) + √(0.375·0.25)).
        assert!((b.z() - 2.0 * 0.09375f64.sqrt()).abs() < 1e-12);
        // A perfect split has Z = 0; a round that covers nothing tells nothing: Z = 1.
        let perfect = Blocks::of(&[1.0, 0.0], &[1.0, -1.0], &[0.5, 0.5]);
        assert_eq!(perfect.z(), 0.0);
        let none = Blocks::of(&[0.0, 0.0], &[1.0, -1.0], &[0.5, 0.5]);
        assert!((none.z() - 1.0).abs() < 1e-12);
        assert_eq!(smoothing(4), 0.125);
        // c₊ = ½ ln(0.5/0.125) = ln 2; c₋ = ½ ln(0.5/0.375) = ½ ln(4/3).
        let (c_pos, c_neg) = b.votes(smoothing(4));
        assert!((c_pos - 2f64.ln()).abs() < 1e-12, "{c_pos}");
        assert!((c_neg - 0.5 * (4.0f64 / 3.0).ln()).abs() < 1e-12, "{c_neg}");
        // The round votes β + α·WL with α = c₊ − c₋ = ½ ln 3, β = c₋.
        let round = Round {
            alpha: c_pos - c_neg,
            axioms: Vec::new(),
            base: Some(c_neg),
        };
        assert!((round.alpha - 0.5 * 3f64.ln()).abs() < 1e-12);
        assert!((round.vote(1.0, 0.0) - 2f64.ln()).abs() < 1e-12);
        let half = 0.5 * (4.0f64 / 3.0).ln() + 0.25 * 3f64.ln();
        assert!((round.vote(0.5, 0.0) - half).abs() < 1e-12);
        assert!((round.vote(0.0, 0.0) - c_neg).abs() < 1e-12);
        // Degrees at most τ count as uncovered; the paper's round votes α·t(WL).
        assert!((round.vote(0.5, 0.5) - c_neg).abs() < 1e-12);
        let paper = Round {
            base: None,
            ..round
        };
        assert_eq!(paper.vote(0.0, 0.0), -paper.alpha);
        assert_eq!(paper.vote(0.5, 0.0), 0.5 * paper.alpha);
    }
}

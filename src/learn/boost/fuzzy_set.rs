//! Fuzzy sets over the values of a numeric data property, and the partitions the learner
//! builds them with: equal-width partitions into 3, 5 or 7 sets (a left shoulder, triangles,
//! a right shoulder) and the same shapes around fuzzy C-means centroids. Their names read
//! well in output: `hasAge is high`.

use serde::{Deserialize, Serialize};

/// A membership function μ: ℝ → [0, 1].
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "shape", rename_all = "snake_case")]
pub enum Shape {
    /// 1 up to `a`, falling linearly to 0 at `b`, 0 after (`a < b`).
    LeftShoulder { a: f64, b: f64 },
    /// 0 up to `a`, rising to 1 at `b`, falling to 0 at `c`, 0 after (`a < b < c`).
    Triangle { a: f64, b: f64, c: f64 },
    /// 0 up to `a`, rising linearly to 1 at `b`, 1 after (`a < b`).
    RightShoulder { a: f64, b: f64 },
}

impl Shape {
    /// μ(x); NaN maps to 0.
    pub fn degree(&self, x: f64) -> f64 {
        if x.is_nan() {
            return 0.0;
        }
        let d = match *self {
            Shape::LeftShoulder { a, b } => {
                if x <= a {
                    1.0
                } else if x >= b {
                    0.0
                } else {
                    (b - x) / (b - a)
                }
            }
            Shape::Triangle { a, b, c } => {
                if x <= a || x >= c {
                    0.0
                } else if x <= b {
                    (x - a) / (b - a)
                } else {
                    (c - x) / (c - b)
                }
            }
            Shape::RightShoulder { a, b } => {
                if x <= a {
                    0.0
                } else if x >= b {
                    1.0
                } else {
                    (x - a) / (b - a)
                }
            }
        };
        d.clamp(0.0, 1.0)
    }

    /// The breakpoints, in order (for output and checks).
    pub fn points(&self) -> Vec<f64> {
        match *self {
            Shape::LeftShoulder { a, b } | Shape::RightShoulder { a, b } => vec![a, b],
            Shape::Triangle { a, b, c } => vec![a, b, c],
        }
    }

    /// Fuzzy OWL 2 datatype element (`<Datatype type="triangular" a=… b=… c=…/>`).
    pub fn fuzzy_owl2(&self) -> String {
        match *self {
            Shape::LeftShoulder { a, b } => {
                format!(r#"<Datatype type="leftshoulder" a="{a}" b="{b}" />"#)
            }
            Shape::Triangle { a, b, c } => {
                format!(r#"<Datatype type="triangular" a="{a}" b="{b}" c="{c}" />"#)
            }
            Shape::RightShoulder { a, b } => {
                format!(r#"<Datatype type="rightshoulder" a="{a}" b="{b}" />"#)
            }
        }
    }
}

/// A named fuzzy set (`high`) of a partition.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct FuzzySet {
    pub name: String,
    #[serde(flatten)]
    pub shape: Shape,
}

impl FuzzySet {
    pub fn degree(&self, x: f64) -> f64 {
        self.shape.degree(x)
    }
}

/// How a numeric property's values are partitioned.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default, Serialize, Deserialize)]
#[cfg_attr(feature = "cli", derive(clap::ValueEnum))]
#[serde(rename_all = "kebab-case")]
pub enum Partition {
    /// Equal-width partition of [min, max] (the paper's default, as in Foil-DL).
    #[default]
    #[cfg_attr(feature = "cli", value(help = "Equal-width triangles with shoulders"))]
    EqualWidth,
    /// Triangles around the centroids of 1-D fuzzy C-means (fuzzifier 2).
    #[cfg_attr(
        feature = "cli",
        value(help = "Triangles around fuzzy C-means centroids")
    )]
    CMeans,
}

/// The names of the sets of a `k`-partition, lowest first.
pub fn set_names(k: usize) -> Vec<&'static str> {
    match k {
        3 => vec!["low", "medium", "high"],
        5 => vec!["veryLow", "low", "medium", "high", "veryHigh"],
        7 => vec![
            "veryLow",
            "low",
            "fairlyLow",
            "medium",
            "fairlyHigh",
            "high",
            "veryHigh",
        ],
        _ => Vec::new(),
    }
}

/// The sets around increasing `centres` (at least two, strictly increasing): a left
/// shoulder falling from the first centre to the second, triangles peaking at the inner
/// centres with their neighbours as feet, a right shoulder rising from the last but one to
/// the last. Adjacent sets cross at ½ halfway and sum to 1 between centres (a Ruspini
/// partition), as in Foil-DL's Fig. 3.
pub fn sets_around(centres: &[f64], names: &[&str]) -> Vec<FuzzySet> {
    let k = centres.len();
    (0..k)
        .map(|i| {
            let shape = if i == 0 {
                Shape::LeftShoulder {
                    a: centres[0],
                    b: centres[1],
                }
            } else if i == k - 1 {
                Shape::RightShoulder {
                    a: centres[k - 2],
                    b: centres[k - 1],
                }
            } else {
                Shape::Triangle {
                    a: centres[i - 1],
                    b: centres[i],
                    c: centres[i + 1],
                }
            };
            FuzzySet {
                name: names
                    .get(i)
                    .map_or_else(|| format!("set{i}"), |n| (*n).to_owned()),
                shape,
            }
        })
        .collect()
}

/// The thresholds a partition implies: for each inner set F (a triangle), the union of F
/// with every set below it (`mediumOrLower`, a left shoulder falling from F's peak to the
/// next centre) and with every set above it (`mediumOrHigher`, a right shoulder rising from
/// the previous centre to F's peak). In a Ruspini partition these are exactly those unions
/// under the Łukasiewicz t-conorm (the bounded sum; the sets sum to 1 between centres),
/// which EL(D) cannot write; they give the learner "at most" and "at least" tests where a
/// single triangle only says "about".
pub fn thresholds(sets: &[FuzzySet]) -> Vec<FuzzySet> {
    let mut out = Vec::new();
    for set in sets {
        if let Shape::Triangle { a, b, c } = set.shape {
            out.push(FuzzySet {
                name: format!("{}OrLower", set.name),
                shape: Shape::LeftShoulder { a: b, b: c },
            });
            out.push(FuzzySet {
                name: format!("{}OrHigher", set.name),
                shape: Shape::RightShoulder { a, b },
            });
        }
    }
    out
}

/// `k` equally spaced centres over the range of `values` between their 1st and 99th
/// percentiles (nearest rank; the whole range when that leaves nothing): a single stray
/// value, such as mammographic's one BI-RADS of 55 among values 0–6, must not squash every
/// set into one corner (the shoulders still cover what lies beyond). `None` when fewer than
/// two distinct finite values exist (a constant property separates nothing).
pub fn equal_width_centres(values: &[f64], k: usize) -> Option<Vec<f64>> {
    let (lo, hi) = trimmed_range(values).or_else(|| range(values))?;
    Some(
        (0..k)
            .map(|i| lo + (hi - lo) * i as f64 / (k - 1) as f64)
            .collect(),
    )
}

fn trimmed_range(values: &[f64]) -> Option<(f64, f64)> {
    let mut xs: Vec<f64> = values.iter().copied().filter(|v| v.is_finite()).collect();
    if xs.is_empty() {
        return None;
    }
    xs.sort_by(f64::total_cmp);
    let rank = |q: f64| xs[((q * xs.len() as f64).ceil() as usize).clamp(1, xs.len()) - 1];
    let (lo, hi) = (rank(0.01), rank(0.99));
    (hi > lo).then_some((lo, hi))
}

fn range(values: &[f64]) -> Option<(f64, f64)> {
    let finite = values.iter().copied().filter(|v| v.is_finite());
    let lo = finite.clone().fold(f64::INFINITY, f64::min);
    let hi = finite.fold(f64::NEG_INFINITY, f64::max);
    (lo.is_finite() && hi > lo).then_some((lo, hi))
}

/// Centroids of 1-D fuzzy C-means with fuzzifier m = 2, started from the equal-width
/// centres (deterministic), at most 100 iterations or until no centre moves by more than
/// 1e-9 of the range; sorted, and `None` if they do not stay strictly increasing (too few
/// distinct values for `k` clusters).
pub fn c_means_centres(values: &[f64], k: usize) -> Option<Vec<f64>> {
    let (lo, hi) = range(values)?;
    let xs: Vec<f64> = values.iter().copied().filter(|v| v.is_finite()).collect();
    let mut c = equal_width_centres(&xs, k)?;
    for _ in 0..100 {
        let mut num = vec![0.0; k];
        let mut den = vec![0.0; k];
        for &x in &xs {
            let d: Vec<f64> = c.iter().map(|ci| (x - ci).abs()).collect();
            if let Some(j) = d.iter().position(|&dj| dj == 0.0) {
                num[j] += x;
                den[j] += 1.0;
                continue;
            }
            for j in 0..k {
                // u_j = 1 / Σ_l (d_j/d_l)^2 for m = 2; weight u_j^2.
                let s: f64 = d.iter().map(|dl| (d[j] / dl).powi(2)).sum();
                let u = 1.0 / s;
                num[j] += u * u * x;
                den[j] += u * u;
            }
        }
        let next: Vec<f64> = (0..k)
            .map(|j| if den[j] > 0.0 { num[j] / den[j] } else { c[j] })
            .collect();
        let moved = next
            .iter()
            .zip(&c)
            .map(|(a, b)| (a - b).abs())
            .fold(0.0, f64::max);
        c = next;
        if moved <= 1e-9 * (hi - lo) {
            break;
        }
    }
    c.sort_by(f64::total_cmp);
    c.windows(2).all(|w| w[0] < w[1]).then_some(c)
}

/// The partition of `values` into `k` named sets (k ∈ {3, 5, 7}); `None` when the values
/// cannot be partitioned (fewer than two distinct values).
pub fn partition(values: &[f64], k: usize, how: Partition) -> Option<Vec<FuzzySet>> {
    let centres = match how {
        Partition::EqualWidth => equal_width_centres(values, k)?,
        Partition::CMeans => c_means_centres(values, k)?,
    };
    Some(sets_around(&centres, &set_names(k)))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// On centres 0, 10, 20: `mediumOrLower` is 1 up to the medium peak, ½ halfway to the
    /// high peak, 0 from there; `mediumOrHigher` the mirror image. Each is the bounded sum
    /// of the sets it unites, and shoulders bring no threshold of their own.
    #[test]
    fn threshold_sets_are_the_unions_of_neighbouring_sets() {
        let sets = sets_around(&[0.0, 10.0, 20.0], &set_names(3));
        let t = thresholds(&sets);
        let names: Vec<&str> = t.iter().map(|s| s.name.as_str()).collect();
        assert_eq!(names, ["mediumOrLower", "mediumOrHigher"]);
        let xs = [-5.0, 0.0, 5.0, 10.0, 15.0, 20.0, 25.0];
        assert_eq!(
            xs.map(|x| t[0].degree(x)),
            [1.0, 1.0, 1.0, 1.0, 0.5, 0.0, 0.0]
        );
        assert_eq!(
            xs.map(|x| t[1].degree(x)),
            [0.0, 0.0, 0.5, 1.0, 1.0, 1.0, 1.0]
        );
        for x in xs {
            let sum = |r: std::ops::Range<usize>| {
                sets[r].iter().map(|s| s.degree(x)).sum::<f64>().min(1.0)
            };
            assert_eq!(t[0].degree(x), sum(0..2), "{x}");
            assert_eq!(t[1].degree(x), sum(1..3), "{x}");
        }
        // Five sets: three inner ones, six thresholds.
        assert_eq!(
            thresholds(&sets_around(&[0.0, 1.0, 2.0, 3.0, 4.0], &set_names(5))).len(),
            6
        );
    }

    #[test]
    fn membership_functions_at_their_breakpoints_and_between() {
        let l = Shape::LeftShoulder { a: 10.0, b: 20.0 };
        assert_eq!(
            [0.0, 10.0, 15.0, 20.0, 30.0].map(|x| l.degree(x)),
            [1.0, 1.0, 0.5, 0.0, 0.0]
        );
        let t = Shape::Triangle {
            a: 10.0,
            b: 20.0,
            c: 40.0,
        };
        assert_eq!(
            [10.0, 15.0, 20.0, 30.0, 40.0, 50.0].map(|x| t.degree(x)),
            [0.0, 0.5, 1.0, 0.5, 0.0, 0.0]
        );
        let r = Shape::RightShoulder { a: 20.0, b: 40.0 };
        assert_eq!(
            [0.0, 20.0, 25.0, 40.0, 99.0].map(|x| r.degree(x)),
            [0.0, 0.0, 0.25, 1.0, 1.0]
        );
        assert_eq!(r.degree(f64::NAN), 0.0);
    }

    #[test]
    fn equal_width_partitions_are_ruspini_with_readable_names() {
        // [0, 100] into 3: centres 0, 50, 100.
        let sets = partition(&[100.0, 0.0, 30.0], 3, Partition::EqualWidth).unwrap();
        let names: Vec<&str> = sets.iter().map(|s| s.name.as_str()).collect();
        assert_eq!(names, ["low", "medium", "high"]);
        assert_eq!(sets[0].shape, Shape::LeftShoulder { a: 0.0, b: 50.0 });
        assert_eq!(
            sets[1].shape,
            Shape::Triangle {
                a: 0.0,
                b: 50.0,
                c: 100.0
            }
        );
        assert_eq!(sets[2].shape, Shape::RightShoulder { a: 50.0, b: 100.0 });
        for x in [0.0, 12.5, 30.0, 50.0, 77.0, 100.0] {
            let sum: f64 = sets.iter().map(|s| s.degree(x)).sum();
            assert!((sum - 1.0).abs() < 1e-12, "{x}: {sum}");
        }
        // [0, 6] into 7: each set is fully true at its own centre 0, 1, …, 6.
        let seven = partition(&[0.0, 6.0], 7, Partition::EqualWidth).unwrap();
        for (i, s) in seven.iter().enumerate() {
            assert_eq!(s.degree(i as f64), 1.0, "{}", s.name);
        }
        assert_eq!(seven[3].name, "medium");
        assert!(partition(&[5.0, 5.0], 3, Partition::EqualWidth).is_none());
        // One stray value among 200 does not stretch the partition (1st–99th percentile).
        let mut skewed: Vec<f64> = (0..199).map(|i| f64::from(i % 7)).collect();
        skewed.push(55.0);
        assert_eq!(equal_width_centres(&skewed, 3).unwrap(), [0.0, 3.0, 6.0]);
    }

    #[test]
    fn c_means_finds_the_clusters_of_separated_values() {
        let values = [1.0, 1.1, 0.9, 5.0, 5.2, 4.8, 9.0, 9.1, 8.9];
        let c = c_means_centres(&values, 3).unwrap();
        for (got, want) in c.iter().zip([1.0, 5.0, 9.0]) {
            assert!((got - want).abs() < 0.05, "{c:?}");
        }
        let sets = partition(&values, 3, Partition::CMeans).unwrap();
        assert_eq!(sets[1].degree(c[1]), 1.0);
    }
}

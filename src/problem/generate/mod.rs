//! Node-classification problems with train/test splits, written as files the CLI reads
//! (issue 31 item 7): learners are compared on problems we make ourselves, never tuned on
//! the shared ones. [`nodes`] draws a synthetic KB whose class is decided by links to
//! specific individuals and numeric thresholds, with label noise and class imbalance;
//! [`labelled`] turns a property of an existing KB (e.g. carcinogenesis' `amesTestPositive`)
//! into labels and writes the KB without it, so the label cannot be read off the features.

pub mod deep;
pub mod labelled;
pub mod nodes;

use std::fmt::Write as _;
use std::path::Path;

use rand::rngs::StdRng;
use rand::seq::SliceRandom;

/// An individual's IRI and its class index.
pub type Labelled = (String, usize);

/// Labelled individuals split into training and test examples.
#[derive(Clone, Debug)]
pub struct Split {
    /// The problem's name (a binary problem's name in the JSON files).
    pub name: String,
    /// Class names; a binary problem has exactly two, the positive class first.
    pub classes: Vec<String>,
    /// (individual IRI, class index), training examples.
    pub train: Vec<(String, usize)>,
    pub test: Vec<(String, usize)>,
}

/// Splits `labelled` per class (stratified): a `test_fraction` of each class (at least one
/// example of a class with two or more) goes to the test side, the order drawn by `rng`.
pub fn stratified(
    labelled: &[Labelled],
    classes: usize,
    test_fraction: f64,
    rng: &mut StdRng,
) -> (Vec<Labelled>, Vec<Labelled>) {
    let (mut train, mut test) = (Vec::new(), Vec::new());
    for c in 0..classes {
        let mut members: Vec<&Labelled> = labelled.iter().filter(|l| l.1 == c).collect();
        members.shuffle(rng);
        let n = members.len();
        let mut k = (n as f64 * test_fraction).round() as usize;
        if k == 0 && n >= 2 && test_fraction > 0.0 {
            k = 1;
        }
        test.extend(members[..k].iter().map(|l| (*l).clone()));
        train.extend(members[k..].iter().map(|l| (*l).clone()));
    }
    train.sort();
    test.sort();
    (train, test)
}

/// Writes `split` into `dir`: `train.tsv` and `test.tsv` (columns `individual`, `class`:
/// read with `--label-column class`) and, for two classes, `train.json` and `test.json`
/// (list JSON, one problem named after the split, the first class positive).
pub fn write_split(dir: &Path, split: &Split) -> std::io::Result<()> {
    std::fs::create_dir_all(dir)?;
    for (file, rows) in [("train", &split.train), ("test", &split.test)] {
        let mut tsv = String::from("individual\tclass\n");
        for (iri, c) in rows {
            let _ = writeln!(tsv, "{iri}\t{}", split.classes[*c]);
        }
        std::fs::write(dir.join(format!("{file}.tsv")), tsv)?;
        if split.classes.len() == 2 {
            let side = |c: usize| -> Vec<&str> {
                rows.iter()
                    .filter(|r| r.1 == c)
                    .map(|r| r.0.as_str())
                    .collect()
            };
            let json = serde_json::json!([{
                "name": split.name,
                "positives": side(0),
                "negatives": side(1),
            }]);
            let text = serde_json::to_string_pretty(&json).map_err(std::io::Error::other)?;
            std::fs::write(dir.join(format!("{file}.json")), format!("{text}\n"))?;
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use rand::SeedableRng;

    use super::*;

    #[test]
    fn the_split_is_stratified_and_disjoint() {
        let labelled: Vec<(String, usize)> = (0..50)
            .map(|i| (format!("i{i:02}"), usize::from(i % 5 == 0)))
            .collect();
        let mut rng = StdRng::seed_from_u64(3);
        let (train, test) = stratified(&labelled, 2, 0.2, &mut rng);
        assert_eq!(train.len() + test.len(), 50);
        assert_eq!(test.iter().filter(|t| t.1 == 1).count(), 2);
        assert_eq!(test.iter().filter(|t| t.1 == 0).count(), 8);
        assert!(test.iter().all(|t| !train.contains(t)));
    }
}

//! A node-classification problem from a property of an existing KB: each subject of the
//! property is labelled by its value (a literal's lexical form, or an IRI), and the KB is
//! written again without the property, so no learner can read the label off its features
//! (carcinogenesis' compounds by `amesTestPositive`, the mutagenicity task).

use std::collections::BTreeMap;
use std::io::Write;
use std::path::Path;

use oxigraph::model::{NamedOrBlankNode, Term};
use oxigraph::store::Store;
use rand::SeedableRng;
use rand::rngs::StdRng;

use super::{Split, stratified};
use crate::files::load_file;

/// The labelled problem and how many statements of the property were dropped.
pub struct Labelled {
    pub split: Split,
    pub dropped: usize,
}

/// Reads `input`, writes it without `property` to `output` (N-Triples) and splits the
/// property's subjects by value. `positive` names the first class (binary problems: the
/// positives); by default `true` when present, else the smallest class.
pub fn from_property(
    input: &Path,
    output: &Path,
    property: &str,
    positive: Option<&str>,
    test_fraction: f64,
    seed: u64,
) -> Result<Labelled, String> {
    let store = Store::new().map_err(|e| e.to_string())?;
    load_file(&store, input, None).map_err(|e| e.to_string())?;
    let mut file = std::io::BufWriter::new(
        std::fs::File::create(output).map_err(|e| format!("{}: {e}", output.display()))?,
    );
    let mut values: BTreeMap<String, String> = BTreeMap::new();
    let mut dropped = 0;
    for q in store.iter() {
        let q = q.map_err(|e| e.to_string())?;
        if q.predicate.as_str() != property {
            writeln!(file, "{} {} {} .", q.subject, q.predicate, q.object)
                .map_err(|e| format!("{}: {e}", output.display()))?;
            continue;
        }
        dropped += 1;
        if let NamedOrBlankNode::NamedNode(s) = &q.subject {
            let value = match &q.object {
                Term::Literal(l) => l.value().to_owned(),
                Term::NamedNode(n) => n.as_str().to_owned(),
                other => other.to_string(),
            };
            values.insert(s.as_str().to_owned(), value);
        }
    }
    file.flush()
        .map_err(|e| format!("{}: {e}", output.display()))?;
    if values.is_empty() {
        return Err(format!("{}: no statement of {property}", input.display()));
    }
    let classes = class_order(&values, positive)?;
    let labelled: Vec<(String, usize)> = values
        .into_iter()
        .map(|(iri, v)| {
            let c = classes.iter().position(|c| *c == v).unwrap_or(0);
            (iri, c)
        })
        .collect();
    let mut rng = StdRng::seed_from_u64(seed);
    let (train, test) = stratified(&labelled, classes.len(), test_fraction, &mut rng);
    let name = property
        .rsplit(['#', '/'])
        .next()
        .unwrap_or(property)
        .to_owned();
    Ok(Labelled {
        split: Split {
            name,
            classes,
            train,
            test,
        },
        dropped,
    })
}

/// The distinct values, `positive` (or `true`, or the rarest) first.
fn class_order(
    values: &BTreeMap<String, String>,
    positive: Option<&str>,
) -> Result<Vec<String>, String> {
    let mut counts: BTreeMap<&str, usize> = BTreeMap::new();
    for v in values.values() {
        *counts.entry(v).or_default() += 1;
    }
    let first = match positive {
        Some(p) if counts.contains_key(p) => p.to_owned(),
        Some(p) => {
            return Err(format!(
                "no subject has the value {p:?} (values: {})",
                counts.keys().copied().collect::<Vec<_>>().join(", ")
            ));
        }
        None if counts.contains_key("true") => "true".to_owned(),
        None => counts
            .iter()
            .min_by_key(|(_, n)| **n)
            .map(|(v, _)| (*v).to_owned())
            .unwrap_or_default(),
    };
    let mut classes = vec![first.clone()];
    classes.extend(
        counts
            .keys()
            .filter(|v| **v != first)
            .map(|v| (*v).to_owned()),
    );
    Ok(classes)
}

//! Synthetic large KBs: a real KB replicated `k` times with renamed individuals.
//!
//! The scale benchmark (`bench scale`, issue 9) needs KBs whose ABox grows while the schema
//! and the learning problem stay the same. Copy 0 keeps the original IRIs, so a problem's
//! examples still name the same individuals; copies 1…k−1 rename every individual `x` to
//! `x_copyN`. Schema triples (about classes, properties, the ontology, restrictions held in
//! blank nodes) are written once; a triple whose subject is an individual is written once
//! per copy, with its object renamed too when that is an individual. So every copy is an
//! isomorphic, disconnected image of the original ABox: a concept has the same members
//! among the original individuals at every `k`.
//!
//! The input is read through [`load_file`] (so every format the loader knows works) into a
//! store the size of the input; the output is streamed, so memory does not grow with `k`.
//! A blank-node subject is treated as schema (written once, unrenamed): anonymous
//! individuals, rare in learning KBs, are not replicated.

use std::collections::BTreeSet;
use std::fs::File;
use std::io::{BufWriter, Write};
use std::path::{Path, PathBuf};

use oxigraph::model::{NamedNode, NamedOrBlankNode, Quad, Term};
use oxigraph::store::{StorageError, Store};

use super::{LoadError, load_file};

const RDF: &str = "http://www.w3.org/1999/02/22-rdf-syntax-ns#";
const RDFS: &str = "http://www.w3.org/2000/01/rdf-schema#";
const OWL: &str = "http://www.w3.org/2002/07/owl#";
const XSD: &str = "http://www.w3.org/2001/XMLSchema#";

/// Vocabulary predicates whose subject and object are *not* thereby schema: typing, identity
/// between individuals, list cells, annotations, and `owl:hasValue` (its object is an
/// individual or a literal).
const NEUTRAL_VOCAB_PREDICATES: &[&str] = &[
    "http://www.w3.org/1999/02/22-rdf-syntax-ns#type",
    "http://www.w3.org/1999/02/22-rdf-syntax-ns#first",
    "http://www.w3.org/1999/02/22-rdf-syntax-ns#rest",
    "http://www.w3.org/2002/07/owl#sameAs",
    "http://www.w3.org/2002/07/owl#differentFrom",
    "http://www.w3.org/2002/07/owl#hasValue",
    "http://www.w3.org/2002/07/owl#versionInfo",
    "http://www.w3.org/2000/01/rdf-schema#label",
    "http://www.w3.org/2000/01/rdf-schema#comment",
    "http://www.w3.org/2000/01/rdf-schema#seeAlso",
    "http://www.w3.org/2000/01/rdf-schema#isDefinedBy",
];

/// Types that make their subject an individual rather than a schema entity.
const INDIVIDUAL_TYPES: &[&str] = &[
    "http://www.w3.org/2002/07/owl#NamedIndividual",
    "http://www.w3.org/2002/07/owl#Thing",
];

/// What stopped a replication.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum ReplicateError {
    #[error("replicating a KB needs at least one copy (k ≥ 1), not k = 0")]
    NoCopies,
    #[error(transparent)]
    Load(#[from] LoadError),
    #[error("reading the loaded KB back: {0}")]
    Store(#[from] StorageError),
    #[error("writing {path}: {cause}")]
    Write {
        path: PathBuf,
        cause: std::io::Error,
    },
}

/// What a replication wrote.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub struct ReplicationReport {
    /// Copies of the ABox (copy 0 is the original).
    pub copies: usize,
    /// Distinct triples of the input.
    pub input_triples: usize,
    /// Input triples written once (schema, blank-node subjects).
    pub schema_triples: usize,
    /// Input triples written once per copy (an individual as subject).
    pub abox_triples: usize,
    /// Distinct individuals of the input (each has `copies` images in the output).
    pub individuals: usize,
    /// Triples written: `schema_triples + copies × abox_triples`.
    pub output_triples: usize,
}

/// The IRI of `iri`'s image in copy `copy`: the IRI itself for copy 0, else `iri_copyN`.
pub fn copy_iri(iri: &str, copy: usize) -> String {
    if copy == 0 {
        iri.to_owned()
    } else {
        format!("{iri}_copy{copy}")
    }
}

/// Replicates the KB file `input` `copies` times into `output` (N-Triples; gzipped when the
/// name ends in `.gz`). The file is written under a temporary name and renamed at the end,
/// so an existing `output` is always complete.
pub fn replicate_file(
    input: &Path,
    output: &Path,
    copies: usize,
) -> Result<ReplicationReport, ReplicateError> {
    if copies == 0 {
        return Err(ReplicateError::NoCopies);
    }
    let store = Store::new()?;
    load_file(&store, input, None)?;
    let write_err = |cause| ReplicateError::Write {
        path: output.to_owned(),
        cause,
    };
    let tmp = tmp_name(output);
    let file = File::create(&tmp).map_err(write_err)?;
    let gzip = output
        .file_name()
        .and_then(|n| n.to_str())
        .is_some_and(|n| n.ends_with(".gz"));
    let result = if gzip {
        let mut enc =
            flate2::write::GzEncoder::new(BufWriter::new(file), flate2::Compression::fast());
        replicate_store(&store, copies, &mut enc)
            .and_then(|r| enc.finish().and_then(|mut w| w.flush()).map(|()| r))
    } else {
        let mut w = BufWriter::new(file);
        replicate_store(&store, copies, &mut w).and_then(|r| w.flush().map(|()| r))
    };
    let report = match result {
        Ok(r) => r,
        Err(e) => {
            let _ = std::fs::remove_file(&tmp);
            return Err(write_err(e));
        }
    };
    std::fs::rename(&tmp, output).map_err(write_err)?;
    Ok(report)
}

fn tmp_name(output: &Path) -> PathBuf {
    let mut name = output.file_name().unwrap_or_default().to_os_string();
    name.push(format!(".tmp{}", std::process::id()));
    output.with_file_name(name)
}

/// Writes the default graph of `store` replicated `copies` times to `out` as N-Triples:
/// schema triples first, then the ABox copy by copy (copy 0 unrenamed). Deterministic:
/// the store's triple order, which is sorted.
pub fn replicate_store(
    store: &Store,
    copies: usize,
    out: &mut dyn Write,
) -> std::io::Result<ReplicationReport> {
    let quads: Vec<Quad> = store
        .iter()
        .collect::<Result<_, _>>()
        .map_err(std::io::Error::other)?;
    let schema = schema_iris(&quads);
    let is_individual = |n: &NamedNode| !schema.contains(n.as_str());
    let mut individuals: BTreeSet<&str> = BTreeSet::new();
    let (mut schema_triples, mut abox) = (Vec::new(), Vec::new());
    for q in &quads {
        match &q.subject {
            NamedOrBlankNode::NamedNode(s) if is_individual(s) => {
                individuals.insert(s.as_str());
                if let Term::NamedNode(o) = &q.object
                    && is_individual(o)
                {
                    individuals.insert(o.as_str());
                }
                abox.push(q);
            }
            _ => schema_triples.push(q),
        }
    }
    for q in &schema_triples {
        writeln!(out, "{} {} {} .", q.subject, q.predicate, q.object)?;
    }
    // Rendered once, so a copy is string concatenation: `<s` `_copyN` `> <p> ` then the
    // object, renamed (`<o` `_copyN` `> .`) or verbatim (`"lit" .`).
    let rendered: Vec<(String, String, bool)> = abox
        .iter()
        .filter_map(|q| {
            let NamedOrBlankNode::NamedNode(s) = &q.subject else {
                return None;
            };
            let (object, renamed) = match &q.object {
                Term::NamedNode(o) if is_individual(o) => (format!("<{}", o.as_str()), true),
                o => (format!("{o} ."), false),
            };
            let head = format!("<{}", s.as_str());
            let middle = format!("> {} {object}", q.predicate);
            Some((head, middle, renamed))
        })
        .collect();
    for copy in 0..copies {
        // `copy_iri`'s naming, as a suffix.
        let suffix = copy_iri("", copy);
        for (head, middle, renamed) in &rendered {
            out.write_all(head.as_bytes())?;
            out.write_all(suffix.as_bytes())?;
            out.write_all(middle.as_bytes())?;
            if *renamed {
                out.write_all(suffix.as_bytes())?;
                out.write_all(b"> .")?;
            }
            out.write_all(b"\n")?;
        }
    }
    Ok(ReplicationReport {
        copies,
        input_triples: quads.len(),
        schema_triples: schema_triples.len(),
        abox_triples: abox.len(),
        individuals: individuals.len(),
        output_triples: schema_triples.len() + copies * abox.len(),
    })
}

fn is_vocab(iri: &str) -> bool {
    [RDF, RDFS, OWL, XSD].iter().any(|ns| iri.starts_with(ns))
}

/// IRIs that name schema entities: vocabulary IRIs, every predicate, every `rdf:type` object,
/// subjects typed with a vocabulary class (`owl:Class`, `owl:ObjectProperty`, …, but not
/// `owl:NamedIndividual`/`owl:Thing`), and both ends of schema axioms (`rdfs:subClassOf`,
/// `rdfs:domain`, `owl:onProperty`, …).
fn schema_iris(quads: &[Quad]) -> BTreeSet<String> {
    let mut schema = BTreeSet::new();
    let mut add = |t: &Term| {
        if let Term::NamedNode(n) = t {
            schema.insert(n.as_str().to_owned());
        }
    };
    for q in quads {
        let p = q.predicate.as_str();
        add(&Term::NamedNode(q.predicate.clone()));
        let subject: Term = q.subject.clone().into();
        if p == NEUTRAL_VOCAB_PREDICATES[0] {
            add(&q.object);
            if let Term::NamedNode(o) = &q.object
                && is_vocab(o.as_str())
                && !INDIVIDUAL_TYPES.contains(&o.as_str())
            {
                add(&subject);
            }
        } else if is_vocab(p) && !NEUTRAL_VOCAB_PREDICATES.contains(&p) {
            add(&subject);
            add(&q.object);
        }
        for t in [&subject, &q.object] {
            if let Term::NamedNode(n) = t
                && is_vocab(n.as_str())
            {
                add(t);
            }
        }
    }
    schema
}

#[cfg(test)]
mod tests {
    use super::*;

    const KB: &str = r#"
@prefix : <http://example.org/kb#> .
@prefix owl: <http://www.w3.org/2002/07/owl#> .
@prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .
@prefix xsd: <http://www.w3.org/2001/XMLSchema#> .
:Person a owl:Class .
:Parent a owl:Class ; rdfs:subClassOf :Person ;
    owl:equivalentClass [ a owl:Restriction ; owl:onProperty :hasChild ; owl:someValuesFrom :Person ] .
:hasChild a owl:ObjectProperty ; rdfs:domain :Person ; rdfs:range :Person .
:age a owl:DatatypeProperty .
:ann a owl:NamedIndividual , :Parent ; :hasChild :bob ; :age "41"^^xsd:integer .
:bob a :Person ; rdfs:label "Bob" .
"#;

    fn kb_file(dir: &Path) -> PathBuf {
        std::fs::create_dir_all(dir).unwrap();
        let path = dir.join("kb.ttl");
        std::fs::write(&path, KB).unwrap();
        path
    }

    fn tmp_dir(name: &str) -> PathBuf {
        std::env::temp_dir().join(format!("oxilearn-replicate-{name}-{}", std::process::id()))
    }

    fn load(path: &Path) -> Store {
        let store = Store::new().unwrap();
        load_file(&store, path, None).unwrap();
        store
    }

    fn has(store: &Store, s: &str, p: &str, o: &str) -> bool {
        let q = oxigraph::model::Triple::new(
            NamedNode::new(s).unwrap(),
            NamedNode::new(p).unwrap(),
            NamedNode::new(o).unwrap(),
        );
        store
            .contains(oxigraph::model::QuadRef::new(
                q.subject.as_ref(),
                q.predicate.as_ref(),
                q.object.as_ref(),
                oxigraph::model::GraphNameRef::DefaultGraph,
            ))
            .unwrap()
    }

    const EX: &str = "http://example.org/kb#";
    const TYPE: &str = "http://www.w3.org/1999/02/22-rdf-syntax-ns#type";

    #[test]
    fn counts_grow_with_k_and_only_the_abox_is_copied() {
        let dir = tmp_dir("counts");
        let input = kb_file(&dir);
        // ann: 2 types, hasChild, age; bob: type, label → 6 ABox triples, 2 individuals.
        let mut schema = None;
        for k in [1, 2, 5] {
            let out = dir.join(format!("kb-x{k}.nt"));
            let r = replicate_file(&input, &out, k).unwrap();
            assert_eq!(r.abox_triples, 6, "k = {k}");
            assert_eq!(r.individuals, 2);
            assert_eq!(r.schema_triples + r.abox_triples, r.input_triples);
            assert_eq!(r.output_triples, r.schema_triples + k * 6);
            let first = *schema.get_or_insert(r.schema_triples);
            assert_eq!(
                r.schema_triples, first,
                "the schema is written once at every k"
            );
            assert_eq!(load(&out).len().unwrap(), r.output_triples);
        }
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn copy_zero_is_the_original_and_copies_are_renamed_images() {
        let dir = tmp_dir("copy0");
        let input = kb_file(&dir);
        let one = dir.join("kb-x1.nt");
        replicate_file(&input, &one, 1).unwrap();
        let original = load(&input);
        let replicated = load(&one);
        assert_eq!(replicated.len().unwrap(), original.len().unwrap());
        for q in original.iter() {
            let q = q.unwrap();
            // Blank nodes are relabelled by the loader; every other triple is kept verbatim.
            if q.subject.is_named_node() && !q.object.is_blank_node() {
                assert!(replicated.contains(&q).unwrap(), "k = 1 lost {q}");
            }
        }

        let three = dir.join("kb-x3.nt.gz");
        replicate_file(&input, &three, 3).unwrap();
        let store = load(&three);
        let (ann, bob) = (format!("{EX}ann"), format!("{EX}bob"));
        let has_child = format!("{EX}hasChild");
        for c in 0..3 {
            let (a, b) = (copy_iri(&ann, c), copy_iri(&bob, c));
            assert!(has(&store, &a, &has_child, &b), "copy {c}");
            assert!(has(&store, &a, TYPE, &format!("{EX}Parent")), "copy {c}");
        }
        // No edge between copies, and the schema is not renamed.
        assert!(!has(&store, &copy_iri(&ann, 1), &has_child, &bob));
        assert!(!has(
            &store,
            &copy_iri(&format!("{EX}Parent"), 1),
            TYPE,
            "http://www.w3.org/2002/07/owl#Class"
        ));
        assert_eq!(copy_iri(&ann, 0), ann);
        assert_eq!(copy_iri(&ann, 7), format!("{EX}ann_copy7"));
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn zero_copies_is_refused() {
        let dir = tmp_dir("zero");
        let input = kb_file(&dir);
        let err = replicate_file(&input, &dir.join("out.nt"), 0).unwrap_err();
        assert!(matches!(err, ReplicateError::NoCopies), "{err}");
        let _ = std::fs::remove_dir_all(&dir);
    }
}

//! OWL/XML, functional and Manchester syntax: parsed by horned-owl, written back out as
//! N-Triples in memory, so the rest of the loader only ever deals with RDF.
//!
//! horned-owl drops constructs it does not understand without failing, so the number of
//! top-level items in the source is compared with the number of components it produced.

use std::panic::{AssertUnwindSafe, catch_unwind};

use horned_owl::error::{HornedError, Location};
use horned_owl::io::ParserConfiguration;
use horned_owl::io::rdf::writer::write_to_rdf_format;
use horned_owl::model::{
    AnnotatedComponent, ArcAnnotatedComponent, ArcStr, Build, Component, DisjointClasses,
    MutableOntology,
};
use horned_owl::ontology::component_mapped::ComponentMappedOntology;
use horned_owl::ontology::set::SetOntology;

use super::KbFormat;
use super::census;

/// N-Triples text of an OWL document plus completeness warnings.
pub(crate) struct Converted {
    pub ntriples: Vec<u8>,
    pub warnings: Vec<String>,
}

/// A horned-owl failure, already turned into text (its errors are not `Send`).
pub(crate) struct OwlFailure {
    pub byte_offset: Option<u64>,
    pub message: String,
}

impl OwlFailure {
    fn msg(message: impl Into<String>) -> Self {
        Self {
            byte_offset: None,
            message: message.into(),
        }
    }
}

/// Parses `text` (in `format`, one of the OWL syntaxes) and converts it to N-Triples.
pub(crate) fn convert(text: &str, format: KbFormat) -> Result<Converted, OwlFailure> {
    // horned-owl is not guaranteed panic-free on arbitrary input; a panic must not escape.
    catch_unwind(AssertUnwindSafe(|| convert_inner(text, format))).unwrap_or_else(|_| {
        Err(OwlFailure::msg(
            "horned-owl panicked while parsing this document (treated as a syntax error)",
        ))
    })
}

fn convert_inner(text: &str, format: KbFormat) -> Result<Converted, OwlFailure> {
    let mut warnings = Vec::new();
    let (ontology, produced) = parse(text, format)?;
    match census::expected_components(text, format) {
        Some(expected) if expected > produced => warnings.push(format!(
            "horned-owl read {produced} of the {expected} axioms and declarations in the file: \
             {} were dropped (constructs it does not support) or were duplicates",
            expected - produced
        )),
        Some(_) => {}
        // Only Manchester syntax has no cheap count (a frame holds many axioms).
        None => warnings.push(
            "could not check that every axiom was read: horned-owl skips Manchester-syntax \
             constructs it does not support without failing, and this syntax gives no \
             independent count of the axioms"
                .to_owned(),
        ),
    }
    let mapped: ComponentMappedOntology<ArcStr, ArcAnnotatedComponent> =
        split_disjoint_classes(ontology).into();
    let ntriples = write_to_rdf_format(Vec::new(), &mapped, "nt")
        .map_err(|e| OwlFailure::msg(format!("cannot convert to RDF: {e}")))?;
    Ok(Converted { ntriples, warnings })
}

/// The parsed ontology and how many logical components (not its ID) it holds.
///
/// OWL/XML is streamed so duplicates still count; the others only give a set.
fn parse(text: &str, format: KbFormat) -> Result<(SetOntology<ArcStr>, usize), OwlFailure> {
    let config = || {
        let mut c = ParserConfiguration::new(Build::new_arc());
        c.local_only = true;
        c
    };
    let mut input = text.as_bytes();
    match format {
        KbFormat::OwlXml => {
            let mut ontology = SetOntology::default();
            let mut produced = 0;
            for item in horned_owl::io::owx::reader::read_to_stream(&mut input, config()) {
                if let horned_owl::io::StreamComponent::Component(ac) = item.map_err(failure)? {
                    produced += usize::from(is_counted(&ac.component));
                    ontology.insert(ac);
                }
            }
            Ok((ontology, produced))
        }
        KbFormat::OwlFunctional => {
            let (ontology, _): (SetOntology<ArcStr>, _) =
                horned_owl::io::ofn::reader::read(&mut input, config()).map_err(failure)?;
            let produced = counted(&ontology);
            Ok((ontology, produced))
        }
        KbFormat::Manchester => {
            let (ontology, _): (SetOntology<ArcStr>, _) =
                horned_owl::io::omn::reader::read(&mut input, config()).map_err(failure)?;
            let produced = counted(&ontology);
            Ok((ontology, produced))
        }
        other => Err(OwlFailure::msg(format!("{other} is not an OWL syntax"))),
    }
}

/// Replaces each `DisjointClasses` of more than two classes by its pairs.
///
/// horned-owl 4.0.0 renders an n-ary `DisjointClasses(A B C)` as `A disjointWith B`,
/// `A disjointWith C` only, losing `B`/`C`; the pairs say the same thing and render right.
fn split_disjoint_classes(ontology: SetOntology<ArcStr>) -> SetOntology<ArcStr> {
    let mut out = SetOntology::default();
    for ac in ontology {
        match &ac.component {
            Component::DisjointClasses(DisjointClasses(members)) if members.len() > 2 => {
                for (i, a) in members.iter().enumerate() {
                    for b in &members[i + 1..] {
                        out.insert(AnnotatedComponent::new(
                            DisjointClasses(vec![a.clone(), b.clone()]),
                            ac.ann.clone(),
                        ));
                    }
                }
            }
            _ => {
                out.insert(ac);
            }
        }
    }
    out
}

fn counted(ontology: &SetOntology<ArcStr>) -> usize {
    ontology
        .iter()
        .filter(|ac| is_counted(&ac.component))
        .count()
}

/// Everything but the ontology header, which is not an item inside the document body.
fn is_counted(component: &Component<ArcStr>) -> bool {
    !matches!(component, Component::OntologyID(_) | Component::DocIRI(_))
}

fn failure(e: HornedError) -> OwlFailure {
    let byte_offset = match &e {
        HornedError::ParserError(_, loc) | HornedError::ValidityError(_, loc) => match loc {
            Location::BytePosition(p) => Some(*p),
            Location::ByteSpan(r) => Some(r.start),
            Location::Unknown => None,
        },
        _ => None,
    };
    OwlFailure {
        byte_offset,
        message: e.to_string(),
    }
}

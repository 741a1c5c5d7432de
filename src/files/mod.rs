//! Loading knowledge-base files into an Oxigraph store.
//!
//! Real KB files are messy: gzipped, mislabelled, in Latin-1, full of DTD entities, or in
//! an OWL-only syntax. [`load_file`] takes care of all of that and reports what it guessed,
//! so the learners above only ever see a populated [`oxigraph::store::Store`].
//!
//! The OWL-only syntaxes (OWL/XML, functional, Manchester) are read by horned-owl (LGPL-3.0)
//! and need the `owl` feature; without it such files fail with
//! [`LoadError::FeatureDisabled`], which names the feature. DL-Learner's own `.kb` syntax
//! ([`KbFormat::DlLearnerKb`]) is read by a parser of its own into OWL triples.

mod bench;
#[cfg(feature = "owl")]
mod census;
mod decode;
mod dl_kb;
mod entities;
mod error;
mod format;
mod load;
#[cfg(feature = "owl")]
mod owl;
mod rdf;
mod replicate;
mod sniff;

pub use bench::measure_load;
pub use dl_kb::DL_LEARNER_NAMESPACE;
pub use error::LoadError;
pub use format::{KbFormat, UnknownFormatName};
pub use load::{LoadReport, load_file, load_file_into_graph, load_files};
pub use replicate::{ReplicateError, ReplicationReport, copy_iri, replicate_file, replicate_store};

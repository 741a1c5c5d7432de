//! The KB file formats and how a file name or a user's `--format` maps to one.

use std::fmt;
use std::path::Path;
use std::str::FromStr;

/// A serialization of a knowledge base.
///
/// The RDF family goes through Oxigraph's parsers; the OWL-specific syntaxes go through
/// horned-owl and are turned into RDF triples.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum KbFormat {
    RdfXml,
    Turtle,
    NTriples,
    NQuads,
    TriG,
    /// OWL 2 XML (`.owx`).
    OwlXml,
    /// OWL 2 functional-style syntax (`.ofn`).
    OwlFunctional,
    /// OWL 2 Manchester syntax (`.omn`), read by horned-owl.
    Manchester,
    /// DL-Learner's own knowledge-base syntax (`.kb`): `male(stefan).`,
    /// `hasChild(stefan,markus).`, `BOTTOM = (male AND female).` (see `kb::dl_kb`).
    DlLearnerKb,
}

impl KbFormat {
    /// The format suggested by the file name (a trailing `.gz` is ignored).
    ///
    /// `.owl`, `.rdf` and `.xml` say RdfXml here; the loader still sniffs the content,
    /// since such files are often Turtle, N-Triples or OWL/XML in disguise.
    pub fn from_path(path: &Path) -> Option<Self> {
        let name = path.file_name()?.to_str()?.to_ascii_lowercase();
        let name = name.strip_suffix(".gz").unwrap_or(&name);
        let ext = name.rsplit_once('.')?.1;
        Self::from_extension(ext)
    }

    fn from_extension(ext: &str) -> Option<Self> {
        Some(match ext {
            "rdf" | "owl" | "xml" | "rdfxml" => Self::RdfXml,
            "ttl" | "turtle" => Self::Turtle,
            "nt" | "ntriples" => Self::NTriples,
            "nq" | "nquads" => Self::NQuads,
            "trig" => Self::TriG,
            "owx" => Self::OwlXml,
            "ofn" | "fss" => Self::OwlFunctional,
            "omn" => Self::Manchester,
            "kb" => Self::DlLearnerKb,
            _ => return None,
        })
    }

    /// True for formats read by horned-owl rather than by Oxigraph.
    pub fn is_owl_syntax(self) -> bool {
        matches!(self, Self::OwlXml | Self::OwlFunctional | Self::Manchester)
    }

    /// True when a parser for `self` also accepts every document of `other`
    /// (Turtle reads N-Triples, TriG reads Turtle, N-Quads reads N-Triples).
    pub(crate) fn accepts(self, other: Self) -> bool {
        self == other
            || matches!(
                (self, other),
                (Self::Turtle, Self::NTriples)
                    | (Self::TriG, Self::Turtle | Self::NTriples)
                    | (Self::NQuads, Self::NTriples)
            )
    }

    /// The Oxigraph parser format, for the RDF family.
    pub(crate) fn rdf_format(self) -> Option<oxigraph::io::RdfFormat> {
        use oxigraph::io::RdfFormat;
        Some(match self {
            Self::RdfXml => RdfFormat::RdfXml,
            Self::Turtle => RdfFormat::Turtle,
            Self::NTriples => RdfFormat::NTriples,
            Self::NQuads => RdfFormat::NQuads,
            Self::TriG => RdfFormat::TriG,
            Self::OwlXml | Self::OwlFunctional | Self::Manchester | Self::DlLearnerKb => {
                return None;
            }
        })
    }

    /// The name accepted by [`FromStr`].
    pub fn name(self) -> &'static str {
        match self {
            Self::RdfXml => "rdfxml",
            Self::Turtle => "turtle",
            Self::NTriples => "ntriples",
            Self::NQuads => "nquads",
            Self::TriG => "trig",
            Self::OwlXml => "owlxml",
            Self::OwlFunctional => "ofn",
            Self::Manchester => "manchester",
            Self::DlLearnerKb => "dl-learner-kb",
        }
    }
}

impl fmt::Display for KbFormat {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A `--format` value that names no format.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error(
    "unknown KB format {0:?} (expected one of: rdfxml, turtle, ntriples, nquads, trig, owlxml, ofn, manchester, dl-learner-kb)"
)]
#[non_exhaustive]
pub struct UnknownFormatName(pub String);

impl FromStr for KbFormat {
    type Err = UnknownFormatName;

    /// Accepts the names above, common aliases (`rdf/xml`, `ttl`, `nt`, `owx`,
    /// `functional`, `omn`, `kb`) and extensions, case-insensitively.
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let lower = s.trim().to_ascii_lowercase();
        let lower = lower.trim_start_matches('.');
        match lower {
            "rdf/xml" | "rdf-xml" => Some(Self::RdfXml),
            "n-triples" => Some(Self::NTriples),
            "n-quads" => Some(Self::NQuads),
            "owlxml" | "owl/xml" | "owl-xml" => Some(Self::OwlXml),
            "functional" | "owlfunctional" | "ofs" => Some(Self::OwlFunctional),
            "manchester" => Some(Self::Manchester),
            "dl-learner-kb" | "dllearner-kb" | "dllearner" | "kbfile" | "kb file" => {
                Some(Self::DlLearnerKb)
            }
            other => Self::from_extension(other),
        }
        .ok_or_else(|| UnknownFormatName(s.to_owned()))
    }
}

//! The loading pipeline: read → gunzip → decode → pick the format → parse → bulk-load.

use std::path::{Path, PathBuf};

use oxigraph::model::NamedNode;
use oxigraph::store::Store;

use super::decode::{decode, read_bytes};
#[cfg(feature = "owl")]
use super::owl;
use super::sniff::sniff;
use super::{KbFormat, LoadError, entities, rdf};

/// What one file contributed to the store.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct LoadReport {
    pub path: PathBuf,
    /// The format actually parsed (after sniffing, or as forced by the caller).
    pub format: KbFormat,
    /// Statements parsed from the file (a statement repeated in the file counts twice;
    /// for OWL syntaxes, the triples of horned-owl's RDF rendering).
    pub triples_loaded: usize,
    /// Things the loader had to guess or could not check; empty on a clean file. They do not
    /// repeat the file's name (that is `path`): print them as `{path}: {warning}`.
    pub warnings: Vec<String>,
}

/// Loads one KB file into the default graph. `format` forces the syntax; with `None` it
/// comes from the content when recognisable, else from the extension.
pub fn load_file(
    store: &Store,
    path: &Path,
    format: Option<KbFormat>,
) -> Result<LoadReport, LoadError> {
    load_file_into_graph(store, path, format, None)
}

/// Loads several files into the default graph, stopping at the first failure.
pub fn load_files(
    store: &Store,
    paths: &[PathBuf],
    format: Option<KbFormat>,
) -> Result<Vec<LoadReport>, LoadError> {
    paths.iter().map(|p| load_file(store, p, format)).collect()
}

/// Like [`load_file`], but into the named graph `graph` when given.
pub fn load_file_into_graph(
    store: &Store,
    path: &Path,
    format: Option<KbFormat>,
    graph: Option<NamedNode>,
) -> Result<LoadReport, LoadError> {
    let decoded = decode(path, read_bytes(path)?)?;
    let mut warnings = decoded.warnings;
    let text = decoded.text;
    let format = choose_format(path, &text, format, &mut warnings)?;

    let triples_loaded = if format == KbFormat::DlLearnerKb {
        let ntriples = super::dl_kb::to_ntriples(&text).map_err(|e| LoadError::Syntax {
            path: path.to_owned(),
            line: Some(e.line),
            column: Some(e.column),
            message: e.message,
        })?;
        rdf::load(
            store,
            path,
            &ntriples,
            KbFormat::NTriples,
            graph.as_ref(),
            &mut warnings,
        )?
    } else if format.is_owl_syntax() {
        let ntriples = owl_to_ntriples(path, &text, format, &mut warnings)?;
        rdf::load(
            store,
            path,
            &ntriples,
            KbFormat::NTriples,
            graph.as_ref(),
            &mut warnings,
        )?
    } else {
        let text = if format == KbFormat::RdfXml {
            expand_entities(path, &text, format)?
        } else {
            text.as_str().into()
        };
        rdf::load(
            store,
            path,
            text.as_bytes(),
            format,
            graph.as_ref(),
            &mut warnings,
        )?
    };

    if triples_loaded == 0 {
        let reason = if text.trim().is_empty() {
            "the file is empty".to_owned()
        } else {
            format!("it parsed as {format} but holds no statements")
        };
        return Err(LoadError::Empty {
            path: path.to_owned(),
            reason,
        });
    }
    Ok(LoadReport {
        path: path.to_owned(),
        format,
        triples_loaded,
        warnings,
    })
}

/// Forced format, else sniffed content (unless the extension names a superset syntax),
/// else the extension.
fn choose_format(
    path: &Path,
    text: &str,
    forced: Option<KbFormat>,
    warnings: &mut Vec<String>,
) -> Result<KbFormat, LoadError> {
    if let Some(f) = forced {
        return Ok(f);
    }
    let by_name = KbFormat::from_path(path);
    match (by_name, sniff(text)) {
        // `.kb` has no other meaning worth guessing at.
        (Some(KbFormat::DlLearnerKb), _) => Ok(KbFormat::DlLearnerKb),
        (Some(named), Some(seen)) if named.accepts(seen) => Ok(named),
        (Some(named), Some(seen)) => {
            warnings.push(format!(
                "the name suggests {named} but the content is {seen}; reading it as {seen}"
            ));
            Ok(seen)
        }
        (Some(named), None) => Ok(named),
        (None, Some(seen)) => Ok(seen),
        (None, None) => Err(LoadError::UnknownFormat {
            path: path.to_owned(),
            reason: if text.trim().is_empty() {
                "the file is empty".to_owned()
            } else {
                "unknown extension and unrecognised content; pass a format explicitly".to_owned()
            },
        }),
    }
}

/// An OWL-syntax document as N-Triples, through horned-owl.
#[cfg(feature = "owl")]
fn owl_to_ntriples(
    path: &Path,
    text: &str,
    format: KbFormat,
    warnings: &mut Vec<String>,
) -> Result<Vec<u8>, LoadError> {
    let text = expand_entities(path, text, format)?;
    let converted = owl::convert(&text, format).map_err(|f| LoadError::Syntax {
        path: path.to_owned(),
        line: f.byte_offset.map(|o| line_col(&text, o).0),
        column: f.byte_offset.map(|o| line_col(&text, o).1),
        message: f.message,
    })?;
    warnings.extend(converted.warnings);
    Ok(converted.ntriples)
}

/// Without horned-owl the OWL-only syntaxes cannot be read: say which feature brings them.
#[cfg(not(feature = "owl"))]
fn owl_to_ntriples(
    path: &Path,
    _text: &str,
    format: KbFormat,
    _warnings: &mut Vec<String>,
) -> Result<Vec<u8>, LoadError> {
    Err(LoadError::FeatureDisabled {
        path: path.to_owned(),
        format,
        feature: "owl",
    })
}

fn expand_entities<'a>(
    path: &Path,
    text: &'a str,
    format: KbFormat,
) -> Result<super::decode::Text<'a>, LoadError> {
    entities::expand(text).map_err(|reason| LoadError::Syntax {
        path: path.to_owned(),
        line: None,
        column: None,
        message: format!("in the DOCTYPE of this {format} file: {reason}"),
    })
}

/// 1-based line and column of a byte offset.
#[cfg(feature = "owl")]
fn line_col(text: &str, offset: u64) -> (u64, u64) {
    let offset = usize::try_from(offset)
        .unwrap_or(usize::MAX)
        .min(text.len());
    let mut cut = offset;
    while !text.is_char_boundary(cut) {
        cut -= 1;
    }
    let before = &text[..cut];
    let line = before.matches('\n').count() + 1;
    let column = before.rsplit('\n').next().map_or(0, |l| l.chars().count()) + 1;
    (line as u64, column as u64)
}

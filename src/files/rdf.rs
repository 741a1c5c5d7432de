//! Feeding RDF text to Oxigraph's bulk loader while counting statements.

use std::path::Path;

use oxigraph::io::{RdfParser, RdfSyntaxError};
use oxigraph::model::{GraphName, NamedNode};
use oxigraph::store::{StorageError, Store};

use super::{KbFormat, LoadError};

/// What can stop the bulk load: a bad statement or the store itself.
enum Stop {
    Syntax(RdfSyntaxError),
    Storage(StorageError),
}

impl From<RdfSyntaxError> for Stop {
    fn from(e: RdfSyntaxError) -> Self {
        Self::Syntax(e)
    }
}

impl From<StorageError> for Stop {
    fn from(e: StorageError) -> Self {
        Self::Storage(e)
    }
}

/// Parses `data` as `format` into `graph` (the default graph when `None`; named graphs of
/// N-Quads/TriG files are kept) and returns the number of statements read.
///
/// Everything is committed only when the whole file parsed, so a broken file leaves the
/// store as it was.
pub(crate) fn load(
    store: &Store,
    path: &Path,
    data: &[u8],
    format: KbFormat,
    graph: Option<&NamedNode>,
    warnings: &mut Vec<String>,
) -> Result<usize, LoadError> {
    let Some(rdf_format) = format.rdf_format() else {
        return Err(LoadError::UnknownFormat {
            path: path.to_owned(),
            reason: format!("{format} is not an RDF syntax"),
        });
    };
    let mut parser = RdfParser::from_format(rdf_format).rename_blank_nodes();
    if let Some(base) = base_iri(path) {
        match parser.clone().with_base_iri(base.as_str()) {
            Ok(p) => parser = p,
            Err(e) => warnings.push(format!("no base IRI from the file's location: {e}")),
        }
    }
    if let Some(g) = graph {
        parser = parser.with_default_graph(GraphName::NamedNode(g.clone()));
    }
    let mut count = 0usize;
    let quads = parser.for_slice(data).inspect(|r| {
        if r.is_ok() {
            count += 1;
        }
    });
    let mut loader = store.bulk_loader();
    let result: Result<(), Stop> = loader.load_ok_quads(quads);
    match result {
        Ok(()) => loader.commit().map_err(|cause| LoadError::Store {
            path: path.to_owned(),
            cause,
        })?,
        Err(Stop::Storage(cause)) => {
            return Err(LoadError::Store {
                path: path.to_owned(),
                cause,
            });
        }
        Err(Stop::Syntax(e)) => return Err(syntax_error(path, &e)),
    }
    Ok(count)
}

fn syntax_error(path: &Path, e: &RdfSyntaxError) -> LoadError {
    let start = e.location().map(|l| l.start);
    LoadError::Syntax {
        path: path.to_owned(),
        line: start.map(|p| p.line + 1),
        column: start.map(|p| p.column + 1),
        message: e.to_string(),
    }
}

/// `file:///…` IRI of the file, so relative IRIs without `xml:base`/`@base` still resolve.
fn base_iri(path: &Path) -> Option<String> {
    let absolute = std::path::absolute(path).ok()?;
    let mut iri = String::from("file://");
    for c in absolute.to_str()?.chars() {
        match c {
            '\\' => iri.push('/'),
            c if c.is_ascii_alphanumeric() || "/-._~".contains(c) => iri.push(c),
            c => {
                let mut buf = [0u8; 4];
                for b in c.encode_utf8(&mut buf).bytes() {
                    iri.push_str(&format!("%{b:02X}"));
                }
            }
        }
    }
    Some(iri)
}

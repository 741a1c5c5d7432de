//! Writing a whole dataset to an N-Quads or TriG file: quads sorted (the same store, the same
//! bytes), written to a temporary file beside the target and renamed into place, so a
//! failure never leaves a half-written file where the old one was.

use std::io::{BufWriter, Write};
use std::path::{Path, PathBuf};

use oxigraph::io::{RdfFormat, RdfSerializer};
use oxigraph::model::Quad;
use oxigraph::store::Store;

use super::EnrichError;
use super::canonical::relabel_blank_nodes;

/// The dataset syntax for `path`'s extension (`.nq`, `.trig`).
pub fn dataset_format(path: &Path) -> Result<RdfFormat, EnrichError> {
    let ext = path
        .extension()
        .and_then(|e| e.to_str())
        .map(str::to_ascii_lowercase);
    match ext.as_deref() {
        Some("nq" | "nquads") => Ok(RdfFormat::NQuads),
        Some("trig") => Ok(RdfFormat::TriG),
        _ => Err(file_error(
            path,
            "expected a .nq (N-Quads) or .trig (TriG) file name: other syntaxes cannot hold \
             named graphs",
        )),
    }
}

/// Writes every quad of `store`, sorted, blank nodes labelled by their surroundings (see
/// [`relabel_blank_nodes`]), to `path`; returns how many.
pub fn write_dataset_file(store: &Store, path: &Path) -> Result<usize, EnrichError> {
    let format = dataset_format(path)?;
    let quads: Vec<Quad> = store
        .iter()
        .collect::<Result<_, _>>()
        .map_err(|e| EnrichError::Store(e.to_string()))?;
    let mut quads: Vec<(String, Quad)> = relabel_blank_nodes(quads)
        .into_iter()
        .map(|q| (q.to_string(), q))
        .collect();
    // The default graph first, then graph by graph, so TriG groups each graph's triples.
    let graph_key = |q: &Quad| (!q.graph_name.is_default_graph(), q.graph_name.to_string());
    quads.sort_by(|a, b| {
        graph_key(&a.1)
            .cmp(&graph_key(&b.1))
            .then_with(|| a.0.cmp(&b.0))
    });
    replace_file(path, |temporary| {
        write_quads(temporary, format, quads.iter().map(|(_, q)| q))
    })?;
    Ok(quads.len())
}

fn write_quads<'a>(
    path: &Path,
    format: RdfFormat,
    quads: impl Iterator<Item = &'a Quad>,
) -> std::io::Result<()> {
    let file = std::fs::File::create(path)?;
    let mut serializer = RdfSerializer::from_format(format).for_writer(BufWriter::new(file));
    for q in quads {
        serializer.serialize_quad(q)?;
    }
    let mut writer = serializer.finish()?;
    writer.flush()?;
    writer.into_inner().map_err(|e| e.into_error())?.sync_all()
}

/// Writes `bytes` to `path` through a temporary file renamed into place.
pub fn write_atomically(path: &Path, bytes: &[u8]) -> Result<(), EnrichError> {
    replace_file(path, |temporary| {
        let mut f = std::fs::File::create(temporary)?;
        f.write_all(bytes)?;
        f.sync_all()
    })
}

/// Runs `write` on a temporary file beside `path`, then renames it into place; on any
/// failure the temporary file is removed and `path` is left as it was.
fn replace_file(
    path: &Path,
    write: impl FnOnce(&Path) -> std::io::Result<()>,
) -> Result<(), EnrichError> {
    let temporary = temporary_beside(path);
    if let Err(e) = write(&temporary) {
        let _ = std::fs::remove_file(&temporary);
        return Err(file_error(path, &e.to_string()));
    }
    std::fs::rename(&temporary, path).map_err(|e| {
        let _ = std::fs::remove_file(&temporary);
        file_error(
            path,
            &format!("renaming {} into place: {e}", temporary.display()),
        )
    })
}

/// `dir/.name.oxilearn-tmp-PID`: on the same file system, so the rename is atomic.
fn temporary_beside(path: &Path) -> PathBuf {
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    path.with_file_name(format!(".{name}.oxilearn-tmp-{}", std::process::id()))
}

fn file_error(path: &Path, message: &str) -> EnrichError {
    EnrichError::File {
        path: path.to_owned(),
        message: message.to_owned(),
    }
}

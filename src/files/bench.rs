//! A load-speed probe for the `bench` command.

use std::path::Path;
use std::time::{Duration, Instant};

use oxigraph::store::Store;

use super::{LoadError, load_file};

/// Loads `path` into a fresh in-memory store; returns the statements read and the wall time.
pub fn measure_load(path: &Path) -> Result<(usize, Duration), LoadError> {
    let store = Store::new().map_err(|cause| LoadError::Store {
        path: path.to_owned(),
        cause,
    })?;
    let start = Instant::now();
    let report = load_file(&store, path, None)?;
    Ok((report.triples_loaded, start.elapsed()))
}

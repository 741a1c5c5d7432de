//! Helpers shared by integration tests (`mod common;` in each group file, `tests/<group>.rs`;
//! its modules `use crate::common;`). Not every test uses every helper.
#![allow(dead_code)]

#[cfg(feature = "cli")]
pub mod cli_run;
pub mod concept_eval;
pub mod concept_gen;
pub mod datasets;
pub mod mock_endpoint;
pub mod social;
#[cfg(feature = "http")]
pub mod store_endpoint;

use std::path::{Path, PathBuf};
use std::sync::Arc;

use oxigraph::store::Store;
use oxilearn::files;
use oxilearn::oracle::backend::EmbeddedBackend;
use oxilearn::oracle::reference::ReferenceOracle;
use oxilearn::oracle::{OracleOptions, Signature, SparqlOracle};

pub fn repo_path(rel: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join(rel)
}

/// `../shared/datasets/<rel>` if present; otherwise a visible skip, or a failure in CI (see
/// [`datasets::datasets_or_skip`]).
pub fn shared_dataset(rel: &str) -> Option<PathBuf> {
    datasets::datasets_or_skip(rel)
}

/// `<tmp>/oxilearn-<suite>-<pid>/<name>`: a file of this test binary's run, its directory created.
/// A group's modules share the process (and pid): each passes its own `suite`.
pub fn temp_path(suite: &str, name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("oxilearn-{suite}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temporary directory");
    dir.join(name)
}

/// The endpoint URL in the environment variable `var` (set by `.ci/servers/up.sh`), or `None`
/// with a visible skip; in CI a missing server is a failure, not a skip.
pub fn endpoint_from_env(var: &str) -> Option<String> {
    match std::env::var(var) {
        Ok(url) if !url.is_empty() => Some(url),
        _ if std::env::var_os("CI").is_some() => {
            panic!("{var} is not set: CI must start the servers (.ci/servers/up.sh)")
        }
        _ => {
            eprintln!(
                "skipping: {var} not set (run .ci/servers/up.sh and source target/servers/env.sh)"
            );
            None
        }
    }
}

/// A store with the given files loaded.
pub fn store_of(files: &[PathBuf]) -> Store {
    let store = Store::new().expect("in-memory store");
    for f in files {
        files::load_file(&store, f, None)
            .unwrap_or_else(|e| panic!("loading {}: {e}", f.display()));
    }
    store
}

/// The embedded SPARQL oracle and the reference evaluator over one store.
pub struct Pair {
    pub store: Store,
    pub sparql: SparqlOracle<EmbeddedBackend>,
    pub reference: ReferenceOracle,
}

impl Pair {
    pub fn signature(&self) -> Arc<Signature> {
        self.sparql.shared_signature()
    }
}

/// The oracle pair over RDF given inline (a test's own tiny KB).
pub fn pair_of_text(format: oxigraph::io::RdfFormat, text: &str) -> Pair {
    let store = Store::new().expect("in-memory store");
    store
        .load_from_reader(format, text.as_bytes())
        .expect("the test's RDF parses");
    let sparql = SparqlOracle::new(
        EmbeddedBackend::new(store.clone()),
        OracleOptions::default(),
    )
    .expect("signature loads");
    let reference =
        ReferenceOracle::new(&store, sparql.shared_signature()).expect("reference copy");
    Pair {
        store,
        sparql,
        reference,
    }
}

pub fn pair(files: &[PathBuf]) -> Pair {
    pair_with(files, OracleOptions::default())
}

pub fn pair_with(files: &[PathBuf], options: OracleOptions) -> Pair {
    let store = store_of(files);
    let sparql =
        SparqlOracle::new(EmbeddedBackend::new(store.clone()), options).expect("signature loads");
    let reference =
        ReferenceOracle::new(&store, sparql.shared_signature()).expect("reference copy");
    Pair {
        store,
        sparql,
        reference,
    }
}

/// A deterministic sample of at most `n` individuals, spread over the id range.
pub fn sample(universe: usize, n: usize) -> oxilearn::oracle::IndividualSet {
    let step = (universe / n.max(1)).max(1);
    oxilearn::oracle::IndividualSet::from_ids(
        universe,
        (0..universe)
            .step_by(step)
            .map(|i| oxilearn::oracle::IndividualId(i as u32)),
    )
}

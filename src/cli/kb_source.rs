//! Opening a knowledge base for a command: load the files, read the signature, wrap the
//! oracle in the cache.

use std::path::PathBuf;
use std::str::FromStr;
use std::sync::Arc;

use anyhow::{Context, bail};
use oxigraph::store::Store;

use super::args::KbArgs;
use crate::concept::{self, Concept, Vocabulary};
use crate::kb::{self, KbFormat};
use crate::oracle::backend::EmbeddedBackend;
use crate::oracle::{CacheOptions, Cached, OracleOptions, Signature, SparqlOracle};

/// The oracle stack every command uses over an embedded store.
pub type EmbeddedOracle = Cached<SparqlOracle<EmbeddedBackend>>;

/// A loaded knowledge base, ready to answer.
pub struct Session {
    pub store: Store,
    pub oracle: EmbeddedOracle,
    pub vocabulary: Vocabulary,
    pub triples: usize,
}

impl Session {
    pub fn signature(&self) -> Arc<Signature> {
        self.oracle.inner().shared_signature()
    }

    /// Parses a concept typed by the user against the KB's names.
    pub fn parse_concept(&self, text: &str) -> anyhow::Result<Concept> {
        concept::parse(text, &self.vocabulary).with_context(|| format!("parsing concept `{text}`"))
    }

    pub fn manchester(&self, c: &Concept) -> String {
        concept::to_manchester(c, &self.vocabulary)
    }

    pub fn dl(&self, c: &Concept) -> String {
        concept::to_dl(c, &self.vocabulary)
    }
}

/// Loads the files into a fresh in-memory store.
pub fn load_store(files: &[PathBuf], format: Option<&str>) -> anyhow::Result<(Store, usize)> {
    if files.is_empty() {
        bail!("no knowledge base given: pass --kb FILE");
    }
    let format = format
        .map(|f| KbFormat::from_str(f).map_err(|e| anyhow::anyhow!("--format {f}: {e}")))
        .transpose()?;
    let store = Store::new().context("creating the in-memory store")?;
    let mut triples = 0;
    for file in files {
        let report = kb::load_file(&store, file, format)
            .with_context(|| format!("loading {}", file.display()))?;
        for warning in &report.warnings {
            eprintln!("warning: {}: {warning}", file.display());
        }
        triples += report.triples_loaded;
    }
    Ok((store, triples))
}

/// Opens the KB named by `--kb`, or `fallback` (e.g. a .conf file's `ks.fileName`).
pub fn open(args: &KbArgs, fallback: Option<PathBuf>) -> anyhow::Result<Session> {
    let files = if args.kb.is_empty() {
        fallback.into_iter().collect()
    } else {
        args.kb.clone()
    };
    let (store, triples) = load_store(&files, args.format.as_deref())?;
    session_over(store, triples)
}

/// Wraps an already filled store.
pub fn session_over(store: Store, triples: usize) -> anyhow::Result<Session> {
    let oracle = SparqlOracle::new(
        EmbeddedBackend::new(store.clone()),
        OracleOptions::default(),
    )
    .context("reading the signature")?;
    let vocabulary = oracle.signature_ref().vocabulary();
    Ok(Session {
        store,
        oracle: Cached::new(oracle, CacheOptions::default()),
        vocabulary,
        triples,
    })
}

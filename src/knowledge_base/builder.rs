//! Opening a knowledge base: the source (a store, files, an endpoint, any backend) and the
//! options the oracle and its cache are built with.

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Instant;

use oxigraph::store::Store;

#[cfg(feature = "http")]
use super::signature_cache::{CacheOutcome, SignatureCache};
use super::{KnowledgeBase, KnowledgeBaseError};
use crate::files::{self, KbFormat, LoadReport};
#[cfg(feature = "http")]
use crate::oracle::backend::HttpOptions;
use crate::oracle::backend::{EmbeddedBackend, QueryLog, SparqlBackend};
use crate::oracle::{
    CacheOptions, Cached, OracleOptions, SchemaAnswers, SparqlOracle, load_signature_with,
};

/// Options for opening a knowledge base; finish with one of the `open_*` methods.
#[derive(Clone, Debug, Default)]
pub struct KnowledgeBaseBuilder {
    oracle: OracleOptions,
    cache: CacheOptions,
    format: Option<KbFormat>,
    query_log: Option<PathBuf>,
    include_predictions: bool,
    #[cfg(feature = "http")]
    signature_cache: Option<SignatureCache>,
}

impl KnowledgeBaseBuilder {
    /// How queries are written (passed through whole to [`SparqlOracle::new`]).
    pub fn oracle_options(mut self, options: OracleOptions) -> Self {
        self.oracle = options;
        self
    }

    /// Bounds of the answer cache.
    pub fn cache_options(mut self, options: CacheOptions) -> Self {
        self.cache = options;
        self
    }

    /// Forces the syntax of the files (by default it comes from the content and extension).
    pub fn format(mut self, format: KbFormat) -> Self {
        self.format = Some(format);
        self
    }

    /// Writes every SELECT sent to the store, with its time and rows, as a JSON line to
    /// `path` (created or truncated; see [`QueryLog`]). The log starts before anything is
    /// asked, so an endpoint's capability probe and the signature's queries are in it.
    pub fn log_queries(mut self, path: impl Into<PathBuf>) -> Self {
        self.query_log = Some(path.into());
        self
    }

    /// Also read the graphs of predictions oxilearn wrote (`enrich`), which are left out by
    /// default so that learning never takes its own output for facts (see
    /// [`EmbeddedBackend`]; at an endpoint whose default graph shows them, the other graphs
    /// are named instead).
    pub fn include_predictions(mut self, include: bool) -> Self {
        self.include_predictions = include;
        self
    }

    /// Keep an endpoint's schema answers and capability probe in `dir` (see
    /// [`super::signature_cache`] for what is kept and when it is fresh), so that the next
    /// open of the same endpoint and graphs checks one fingerprint query instead of sending
    /// them again. Only endpoints are cached: an embedded store reads its schema in
    /// milliseconds and has no identity to key a file on.
    #[cfg(feature = "http")]
    pub fn signature_cache(mut self, dir: impl Into<PathBuf>) -> Self {
        let refresh = self.signature_cache.as_ref().is_some_and(|c| c.refreshes());
        self.signature_cache = Some(SignatureCache::new(dir).refresh(refresh));
        self
    }

    /// Ignore what the signature cache holds for the endpoint and rewrite it (after the
    /// endpoint's software changed, say); no effect without [`Self::signature_cache`].
    #[cfg(feature = "http")]
    pub fn refresh_signature(mut self, refresh: bool) -> Self {
        self.signature_cache = self.signature_cache.map(|c| c.refresh(refresh));
        self
    }

    /// The embedded backend over `store`, with or without the prediction graphs.
    fn embedded(&self, store: &Store) -> Box<dyn SparqlBackend> {
        if self.include_predictions {
            Box::new(EmbeddedBackend::including_predictions(store.clone()))
        } else {
            Box::new(EmbeddedBackend::new(store.clone()))
        }
    }

    /// Over the caller's store, which stays usable (a `Store` is a shared handle).
    pub fn open_store(self, store: Store) -> Result<KnowledgeBase, KnowledgeBaseError> {
        let start = Instant::now();
        let triples = store.len().map_err(KnowledgeBaseError::Store)?;
        let backend = self.logged(self.embedded(&store))?;
        let opened = Opened {
            store: Some(store),
            triples,
            reports: Vec::new(),
            warnings: Vec::new(),
            schema: None,
        };
        self.finish(backend, opened, start)
    }

    /// Over a store the caller filled with [`files::load_file`] (to time loading on its own,
    /// say), with the reports of those loads: the triple count and the loader's warnings
    /// come from them, as with [`Self::open_files`].
    pub fn open_loaded(
        self,
        store: Store,
        reports: Vec<LoadReport>,
    ) -> Result<KnowledgeBase, KnowledgeBaseError> {
        let start = Instant::now();
        let backend = self.logged(self.embedded(&store))?;
        self.finish(backend, Opened::loaded(store, reports), start)
    }

    /// Loads the files into a fresh in-memory store (see [`files::load_file`] for the formats).
    pub fn open_files<P: AsRef<Path>>(
        self,
        paths: &[P],
    ) -> Result<KnowledgeBase, KnowledgeBaseError> {
        if paths.is_empty() {
            return Err(KnowledgeBaseError::NoFiles);
        }
        let start = Instant::now();
        let store = Store::new().map_err(KnowledgeBaseError::Store)?;
        let mut reports = Vec::with_capacity(paths.len());
        for path in paths {
            reports.push(files::load_file(&store, path.as_ref(), self.format)?);
        }
        let backend = self.logged(self.embedded(&store))?;
        self.finish(backend, Opened::loaded(store, reports), start)
    }

    /// Over a SPARQL endpoint: the capability probe runs first, so the oracle writes only
    /// query shapes the endpoint answers correctly; what it cannot answer becomes a warning.
    #[cfg(feature = "http")]
    pub fn open_endpoint(self, options: HttpOptions) -> Result<KnowledgeBase, KnowledgeBaseError> {
        use super::signature_cache::CacheKey;
        use crate::oracle::backend::{HttpBackend, check_required, probe};
        use crate::oracle::sparql::TransitiveShape;

        let start = Instant::now();
        let endpoint = options.endpoint.clone();
        let mut warnings = Vec::new();
        let chosen_graphs = !options.default_graphs.is_empty();
        let (default_graphs, named_graphs) =
            (options.default_graphs.clone(), options.named_graphs.clone());
        let probe_error = |source| KnowledgeBaseError::Probe {
            endpoint: endpoint.clone(),
            source,
        };
        let backend = HttpBackend::new(options).map_err(|source| KnowledgeBaseError::Endpoint {
            endpoint: endpoint.clone(),
            source,
        })?;
        // Logged from the first request on, the probe included.
        let mut backend = self.logged(Box::new(backend))?;
        let mut from_graphs = Vec::new();
        if !(self.include_predictions || chosen_graphs) {
            let kept =
                super::remote_predictions::without_predictions(backend).map_err(probe_error)?;
            backend = kept.backend;
            warnings.extend(kept.warning);
            from_graphs = kept.graphs;
        }
        // The probe's findings and the schema answers: from the cache when fresh, else read
        // (the probe first, so that the schema queries are written in the shapes it picks)
        // and cached.
        let mut lookup = self.signature_cache.as_ref().map(|cache| {
            cache.lookup(
                backend.as_ref(),
                CacheKey {
                    endpoint: backend.name(),
                    default_graphs,
                    named_graphs,
                    from_graphs,
                },
            )
        });
        let fresh = lookup.as_mut().and_then(|l| {
            warnings.append(&mut l.warnings);
            l.take_fresh()
        });
        let (caps, schema, cache) = match fresh {
            Some((caps, schema)) => {
                backend.remember_probe(&caps);
                (caps, Some(schema), Some(CacheOutcome::Used))
            }
            None => {
                let caps = probe(backend.as_ref()).map_err(probe_error)?;
                match &lookup {
                    Some(lookup) => {
                        let schema = SchemaAnswers::load(backend.as_ref()).map_err(|source| {
                            KnowledgeBaseError::Signature {
                                backend: endpoint.clone(),
                                source,
                            }
                        })?;
                        let (outcome, warning) = lookup.store(&caps, &schema);
                        warnings.extend(warning);
                        (caps, Some(schema), Some(outcome))
                    }
                    None => (caps, None, None),
                }
            }
        };
        check_required(&caps, &backend.name()).map_err(probe_error)?;
        if !caps.counting() {
            warnings.push(format!(
                "{endpoint} cannot answer grouped sub-selects correctly: cardinality \
                 restrictions with n ≥ 2 are composed from successor lists where the cache \
                 can, and refused otherwise"
            ));
        }
        if caps.shapes().transitive == TransitiveShape::Unavailable {
            warnings.push(format!(
                "{endpoint} is Virtuoso, which answers transitive property paths wrongly: \
                 concepts over transitive roles will be refused"
            ));
        }
        let opened = Opened {
            store: None,
            triples: 0,
            reports: Vec::new(),
            warnings,
            schema,
        };
        // The backend remembers the probe's findings, so the oracle writes those shapes.
        let mut kb = self.finish(backend, opened, start)?;
        kb.signature_cache = cache.zip(lookup.map(|l| l.path().to_path_buf()));
        Ok(kb)
    }

    /// Over any backend (a caller's own [`SparqlBackend`]); no store, no triple count.
    pub fn open_backend(
        self,
        backend: Box<dyn SparqlBackend>,
    ) -> Result<KnowledgeBase, KnowledgeBaseError> {
        let backend = self.logged(backend)?;
        let opened = Opened {
            store: None,
            triples: 0,
            reports: Vec::new(),
            warnings: Vec::new(),
            schema: None,
        };
        self.finish(backend, opened, Instant::now())
    }

    /// The backend, wrapped in the query log when one was asked for.
    fn logged(
        &self,
        backend: Box<dyn SparqlBackend>,
    ) -> Result<Box<dyn SparqlBackend>, KnowledgeBaseError> {
        Ok(match &self.query_log {
            Some(path) => Box::new(QueryLog::create(backend, path).map_err(|source| {
                KnowledgeBaseError::QueryLog {
                    path: path.clone(),
                    source,
                }
            })?),
            None => backend,
        })
    }

    fn finish(
        self,
        backend: Box<dyn SparqlBackend>,
        opened: Opened,
        start: Instant,
    ) -> Result<KnowledgeBase, KnowledgeBaseError> {
        let name = backend.name();
        let signature_error = |source| KnowledgeBaseError::Signature {
            backend: name.clone(),
            source,
        };
        let oracle = match &opened.schema {
            Some(schema) => {
                let signature = load_signature_with(backend.as_ref(), &self.oracle.scope, schema)
                    .map_err(signature_error)?;
                SparqlOracle::with_signature(backend, Arc::new(signature), self.oracle)
            }
            None => SparqlOracle::new(backend, self.oracle).map_err(signature_error)?,
        };
        let vocabulary = oracle.signature_ref().vocabulary();
        Ok(KnowledgeBase {
            store: opened.store,
            oracle: Cached::new(oracle, self.cache),
            vocabulary,
            triples: opened.triples,
            load_time: start.elapsed(),
            reports: opened.reports,
            warnings: opened.warnings,
            #[cfg(feature = "http")]
            signature_cache: None,
        })
    }
}

/// What a source contributed before the signature is read.
struct Opened {
    store: Option<Store>,
    triples: usize,
    reports: Vec<LoadReport>,
    warnings: Vec<String>,
    /// The schema answers when they were read already (an endpoint's signature cache).
    schema: Option<SchemaAnswers>,
}

impl Opened {
    /// A store filled from files: their triples and warnings (`path: warning`).
    fn loaded(store: Store, reports: Vec<LoadReport>) -> Self {
        let warnings = reports
            .iter()
            .flat_map(|r| {
                r.warnings
                    .iter()
                    .map(|w| format!("{}: {w}", r.path.display()))
            })
            .collect();
        Opened {
            triples: reports.iter().map(|r| r.triples_loaded).sum(),
            store: Some(store),
            reports,
            warnings,
            schema: None,
        }
    }
}

//! The front door for embedding: one [`KnowledgeBase`] over a caller's Oxigraph store, KB
//! files or a SPARQL endpoint, with everything a learner needs from it.
//!
//! Without it a caller assembles a backend, the SPARQL oracle, its cache, the vocabulary and
//! the example sets from seven modules, and must remember details such as probing an
//! endpoint before reading its signature. A `KnowledgeBase` does that once:
//!
//! - built by [`KnowledgeBase::from_store`] (the store is shared, not copied: oxilearn only
//!   reads it), [`KnowledgeBase::from_files`] (a fresh in-memory store) or
//!   `KnowledgeBase::from_endpoint` (feature `http`; the capability probe runs first), or
//!   through [`KnowledgeBase::builder`] to pass [`OracleOptions`] and [`CacheOptions`];
//! - it gives the cached oracle learners fit through ([`KnowledgeBase::oracle`]), the
//!   signature, the vocabulary concepts are parsed and printed with, the example sets of a
//!   learning problem, and the ρ operator over the KB;
//! - it keeps what opening cost and found: triples, load time, loader and probe warnings.

use std::path::Path;
use std::sync::Arc;
use std::time::{Duration, Instant};

use oxigraph::store::{StorageError, Store};

use crate::concept::{self, Concept, Iri, ParseError, Vocabulary};
use crate::kb::{self, KbFormat, LoadError, LoadReport};
use crate::learn::{Examples, LearnError, splits};
#[cfg(feature = "http")]
use crate::oracle::backend::HttpOptions;
use crate::oracle::backend::{EmbeddedBackend, SparqlBackend};
use crate::oracle::{
    CacheOptions, Cached, IndividualSet, MembershipOracle, OracleError, OracleOptions, Signature,
    SparqlOracle,
};
use crate::problem::{self, LearningProblem, ProblemError};
use crate::refine::rho::{Rho, RhoOptions};

/// The oracle stack of a [`KnowledgeBase`]: the SPARQL oracle over any backend, cached.
pub type KbOracle = Cached<SparqlOracle<Box<dyn SparqlBackend>>>;

/// Why a knowledge base could not be opened or asked. Each variant says what was being done;
/// the cause is the [`source`](std::error::Error::source).
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum KnowledgeBaseError {
    #[error("no knowledge-base file given")]
    NoFiles,
    #[error("creating the in-memory store")]
    Store(#[source] StorageError),
    /// A file failed to load (the error names it).
    #[error(transparent)]
    Load(#[from] LoadError),
    #[error("reading the signature from {backend}")]
    Signature {
        backend: String,
        #[source]
        source: OracleError,
    },
    /// The endpoint could not be reached, or answered the capability probe wrongly.
    #[error("probing {endpoint}")]
    Probe {
        endpoint: String,
        #[source]
        source: OracleError,
    },
    #[error("parsing concept `{text}`")]
    Concept {
        text: String,
        #[source]
        source: ParseError,
    },
    /// Reading, selecting or checking learning problems.
    #[error(transparent)]
    Problem(#[from] ProblemError),
    #[error("problem {problem}")]
    Examples {
        problem: String,
        #[source]
        source: LearnError,
    },
    #[error("asking the knowledge base")]
    Oracle(#[source] OracleError),
}

/// Options for opening a knowledge base; finish with one of the `open_*` methods.
#[derive(Clone, Debug, Default)]
pub struct KnowledgeBaseBuilder {
    oracle: OracleOptions,
    cache: CacheOptions,
    format: Option<KbFormat>,
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

    /// Over the caller's store, which stays usable (a `Store` is a shared handle).
    pub fn open_store(self, store: Store) -> Result<KnowledgeBase, KnowledgeBaseError> {
        let start = Instant::now();
        let triples = store.len().map_err(KnowledgeBaseError::Store)?;
        let backend = Box::new(EmbeddedBackend::new(store.clone()));
        let opened = Opened {
            store: Some(store),
            triples,
            reports: Vec::new(),
            warnings: Vec::new(),
        };
        self.finish(backend, opened, start)
    }

    /// Loads the files into a fresh in-memory store (see [`kb::load_file`] for the formats).
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
            reports.push(kb::load_file(&store, path.as_ref(), self.format)?);
        }
        let warnings = reports
            .iter()
            .flat_map(|r| {
                r.warnings
                    .iter()
                    .map(|w| format!("{}: {w}", r.path.display()))
            })
            .collect();
        let opened = Opened {
            triples: reports.iter().map(|r| r.triples_loaded).sum(),
            store: Some(store.clone()),
            reports,
            warnings,
        };
        self.finish(Box::new(EmbeddedBackend::new(store)), opened, start)
    }

    /// Over a SPARQL endpoint: the capability probe runs first, so the oracle writes only
    /// query shapes the endpoint answers correctly; what it cannot answer becomes a warning.
    #[cfg(feature = "http")]
    pub fn open_endpoint(self, options: HttpOptions) -> Result<KnowledgeBase, KnowledgeBaseError> {
        use crate::oracle::backend::{HttpBackend, require_capabilities};
        use crate::oracle::sparql::TransitiveShape;

        let start = Instant::now();
        let endpoint = options.endpoint.clone();
        let probe_error = |source| KnowledgeBaseError::Probe {
            endpoint: endpoint.clone(),
            source,
        };
        let backend = HttpBackend::new(options).map_err(probe_error)?;
        let caps = require_capabilities(&backend).map_err(probe_error)?;
        let mut warnings = Vec::new();
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
        };
        // The backend remembers the probe's findings, so the oracle writes those shapes.
        self.finish(Box::new(backend), opened, start)
    }

    /// Over any backend (a caller's own [`SparqlBackend`]); no store, no triple count.
    pub fn open_backend(
        self,
        backend: Box<dyn SparqlBackend>,
    ) -> Result<KnowledgeBase, KnowledgeBaseError> {
        let opened = Opened {
            store: None,
            triples: 0,
            reports: Vec::new(),
            warnings: Vec::new(),
        };
        self.finish(backend, opened, Instant::now())
    }

    fn finish(
        self,
        backend: Box<dyn SparqlBackend>,
        opened: Opened,
        start: Instant,
    ) -> Result<KnowledgeBase, KnowledgeBaseError> {
        let name = backend.name();
        let oracle = SparqlOracle::new(backend, self.oracle).map_err(|source| {
            KnowledgeBaseError::Signature {
                backend: name,
                source,
            }
        })?;
        let vocabulary = oracle.signature_ref().vocabulary();
        Ok(KnowledgeBase {
            store: opened.store,
            oracle: Cached::new(oracle, self.cache),
            vocabulary,
            triples: opened.triples,
            load_time: start.elapsed(),
            reports: opened.reports,
            warnings: opened.warnings,
        })
    }
}

/// What a source contributed before the signature is read.
struct Opened {
    store: Option<Store>,
    triples: usize,
    reports: Vec<LoadReport>,
    warnings: Vec<String>,
}

/// A knowledge base ready to answer: the cached oracle, its signature and vocabulary, and
/// what opening it found. Cheap to share by reference across threads (the oracle is `Sync`).
pub struct KnowledgeBase {
    store: Option<Store>,
    oracle: KbOracle,
    vocabulary: Vocabulary,
    triples: usize,
    load_time: Duration,
    reports: Vec<LoadReport>,
    warnings: Vec<String>,
}

impl KnowledgeBase {
    /// Options first: `KnowledgeBase::builder().oracle_options(…).open_files(&paths)`.
    pub fn builder() -> KnowledgeBaseBuilder {
        KnowledgeBaseBuilder::default()
    }

    /// Over the caller's store, with default options.
    pub fn from_store(store: Store) -> Result<Self, KnowledgeBaseError> {
        Self::builder().open_store(store)
    }

    /// Loads the files into a fresh in-memory store, with default options.
    pub fn from_files<P: AsRef<Path>>(paths: &[P]) -> Result<Self, KnowledgeBaseError> {
        Self::builder().open_files(paths)
    }

    /// Over a SPARQL endpoint (probed first), with default oracle and cache options.
    #[cfg(feature = "http")]
    pub fn from_endpoint(options: HttpOptions) -> Result<Self, KnowledgeBaseError> {
        Self::builder().open_endpoint(options)
    }

    /// The cached membership oracle: what learners fit and models predict through.
    pub fn oracle(&self) -> &KbOracle {
        &self.oracle
    }

    pub fn signature(&self) -> &Signature {
        self.oracle.signature()
    }

    /// The signature as a shared handle (what refinement operators keep).
    pub fn shared_signature(&self) -> Arc<Signature> {
        self.oracle.inner().shared_signature()
    }

    /// The names concepts are parsed and printed with (prefixes, local names).
    pub fn vocabulary(&self) -> &Vocabulary {
        &self.vocabulary
    }

    /// The store, when the KB is embedded (`None` over an endpoint or a custom backend).
    pub fn store(&self) -> Option<&Store> {
        self.store.as_ref()
    }

    /// Statements loaded from the files (a statement repeated in a file counts twice), the
    /// quads of a caller's store, 0 over an endpoint.
    pub fn triples(&self) -> usize {
        self.triples
    }

    /// Time to load the files (or probe the endpoint) and read the signature.
    pub fn load_time(&self) -> Duration {
        self.load_time
    }

    /// One report per loaded file, in order (empty unless built from files).
    pub fn load_reports(&self) -> &[LoadReport] {
        &self.reports
    }

    /// What the loader guessed or could not check (`path: warning`) and what the endpoint
    /// cannot answer; empty for a clean source.
    pub fn warnings(&self) -> &[String] {
        &self.warnings
    }

    /// Every individual of the active domain.
    pub fn individuals(&self) -> IndividualSet {
        self.signature().all_individuals()
    }

    /// The IRIs of a set's members, in id order.
    pub fn iris<'a>(&'a self, set: &'a IndividualSet) -> impl Iterator<Item = &'a Iri> + 'a {
        self.signature().iris_of(set)
    }

    /// A concept in Manchester or DL syntax, with names resolved against the KB.
    pub fn parse_concept(&self, text: &str) -> Result<Concept, KnowledgeBaseError> {
        concept::parse(text, &self.vocabulary).map_err(|source| KnowledgeBaseError::Concept {
            text: text.to_owned(),
            source,
        })
    }

    /// Manchester syntax with the KB's short names.
    pub fn manchester(&self, c: &Concept) -> String {
        concept::to_manchester(c, &self.vocabulary)
    }

    /// DL syntax with the KB's short names.
    pub fn dl(&self, c: &Concept) -> String {
        concept::to_dl(c, &self.vocabulary)
    }

    /// The individuals of the KB that are instances of `c` (closed world).
    pub fn instances(&self, c: &Concept) -> Result<IndividualSet, KnowledgeBaseError> {
        self.oracle
            .covered(c, &self.individuals())
            .map_err(KnowledgeBaseError::Oracle)
    }

    /// The learning problems of a file or SML-Bench folder (see [`problem::load_problems`]),
    /// only those named (all when `names` is empty).
    pub fn load_problems(
        path: &Path,
        names: &[String],
    ) -> Result<Vec<LearningProblem>, KnowledgeBaseError> {
        Ok(problem::select(problem::load_problems(path)?, names)?)
    }

    /// A problem's examples as sets over this KB; every example that is not an individual
    /// of the KB is reported at once.
    pub fn examples(&self, p: &LearningProblem) -> Result<Examples, KnowledgeBaseError> {
        let sig = self.signature();
        problem::check_examples(p, |iri| sig.individual_id(iri).is_some())?;
        // Every example is an individual now, so the lookups cannot fail.
        let set = |iris: &[String]| {
            sig.set_of(iris.iter().map(String::as_str))
                .unwrap_or_else(|_| sig.empty_set())
        };
        Examples::new(set(&p.positives), set(&p.negatives)).map_err(|source| {
            KnowledgeBaseError::Examples {
                problem: p.name.clone(),
                source,
            }
        })
    }

    /// The ρ refinement operator over this KB, its numeric split points read from the values
    /// of every individual (one operator serves every problem and fold over the KB).
    pub fn rho(&self, options: RhoOptions) -> Result<Rho, KnowledgeBaseError> {
        splits::rho_over_kb(&self.oracle, self.shared_signature(), options)
            .map_err(KnowledgeBaseError::Oracle)
    }
}

impl std::fmt::Debug for KnowledgeBase {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("KnowledgeBase")
            .field("backend", &self.oracle.inner().backend().name())
            .field("individuals", &self.signature().individual_count())
            .field("triples", &self.triples)
            .field("load_time", &self.load_time)
            .finish_non_exhaustive()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn family() -> KnowledgeBase {
        let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/family/family.ttl");
        KnowledgeBase::from_files(&[path]).expect("the family fixture loads")
    }

    #[test]
    fn from_files_and_from_store_see_the_same_kb() {
        let files = family();
        let store = files.store().expect("embedded").clone();
        let shared = KnowledgeBase::from_store(store).expect("opens over the store");
        let iris = |kb: &KnowledgeBase| -> Vec<String> {
            kb.iris(&kb.individuals())
                .map(|i| i.as_str().to_owned())
                .collect()
        };
        assert_eq!(iris(&files), iris(&shared));
        assert_eq!(files.signature().classes, shared.signature().classes);
        assert_eq!(shared.triples(), files.store().unwrap().len().unwrap());
        assert!(files.triples() >= shared.triples());
        assert_eq!(files.load_reports().len(), 1);
        assert!(files.warnings().is_empty(), "{:?}", files.warnings());
    }

    #[test]
    fn concepts_parse_print_and_answer() {
        let kb = family();
        let c = kb
            .parse_concept("Male and (hasChild some Thing)")
            .expect("parses");
        assert_eq!(kb.manchester(&c), "Male and hasChild some Thing");
        assert_eq!(kb.dl(&c), "Male ⊓ ∃hasChild.⊤");
        let fathers = kb.instances(&c).expect("answers");
        let males = kb.instances(&kb.parse_concept("Male").unwrap()).unwrap();
        assert!(!fathers.is_empty());
        assert!(fathers.is_subset(&males));
    }

    #[test]
    fn unknown_names_and_examples_are_errors_naming_them() {
        let kb = family();
        let err = kb.parse_concept("NoSuchClass").expect_err("unknown name");
        assert!(matches!(err, KnowledgeBaseError::Concept { .. }));
        assert!(err.to_string().contains("NoSuchClass"), "{err}");

        let problems = KnowledgeBase::load_problems(
            &Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/family/problems.json"),
            &[],
        )
        .expect("problems load");
        let mut p = problems[0].clone();
        p.negatives.push("http://example.org/nobody".to_owned());
        let err = kb.examples(&p).expect_err("an example outside the KB");
        assert!(
            matches!(
                err,
                KnowledgeBaseError::Problem(ProblemError::NotInKb { .. })
            ),
            "{err:?}"
        );
        assert!(
            err.to_string().contains("http://example.org/nobody"),
            "{err}"
        );
    }

    #[test]
    fn examples_are_the_problem_individuals() {
        let kb = family();
        let problems = KnowledgeBase::load_problems(
            &Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/family/problems.json"),
            &[],
        )
        .expect("problems load");
        let p = &problems[0];
        let ex = kb.examples(p).expect("examples");
        let positives: Vec<&str> = kb.iris(ex.positives()).map(|i| i.as_str()).collect();
        let mut expected: Vec<&str> = p.positives.iter().map(String::as_str).collect();
        expected.sort_by_key(|iri| kb.signature().individual_id(iri));
        assert_eq!(positives, expected);
        assert_eq!(ex.negatives().len(), p.negatives.len());
    }

    #[test]
    fn no_files_is_an_error() {
        let none: [&Path; 0] = [];
        assert!(matches!(
            KnowledgeBase::from_files(&none),
            Err(KnowledgeBaseError::NoFiles)
        ));
    }
}

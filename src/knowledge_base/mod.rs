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

mod builder;
mod candidates;
mod error;
mod page;
#[cfg(feature = "http")]
mod remote_predictions;
#[cfg(feature = "http")]
pub mod signature_cache;

use std::path::Path;
use std::sync::Arc;
use std::time::Duration;

use oxigraph::store::Store;

pub use builder::KnowledgeBaseBuilder;
pub use candidates::{CandidatePages, Candidates, ScopeQuery};
pub use error::KnowledgeBaseError;
pub use page::Page;
#[cfg(feature = "http")]
use signature_cache::CacheOutcome;

use crate::concept::{self, Concept, Iri, Vocabulary};
use crate::files::LoadReport;
use crate::learn::{Examples, splits};
#[cfg(feature = "http")]
use crate::oracle::backend::HttpOptions;
use crate::oracle::backend::SparqlBackend;
use crate::oracle::{Cached, IndividualSet, MembershipOracle, Signature, SparqlOracle};
use crate::problem::{self, LearningProblem};
use crate::refine::rho::{Rho, RhoOptions};

/// The oracle stack of a [`KnowledgeBase`]: the SPARQL oracle over any backend, cached.
pub type KbOracle = Cached<SparqlOracle<Box<dyn SparqlBackend>>>;

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
    /// How opening an endpoint used its signature cache, and the cache file.
    #[cfg(feature = "http")]
    signature_cache: Option<(CacheOutcome, std::path::PathBuf)>,
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

    /// How opening used the signature cache (see
    /// [`KnowledgeBaseBuilder::signature_cache`]) and its file; `None` without a cache.
    #[cfg(feature = "http")]
    pub fn signature_cache(&self) -> Option<(&CacheOutcome, &Path)> {
        self.signature_cache
            .as_ref()
            .map(|(outcome, path)| (outcome, path.as_path()))
    }

    /// Every individual of the active domain: for questions over the whole KB (`instances`,
    /// classifying everything); learners ask only about a problem's examples.
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

    /// A problem's examples as sets over this KB, checked for a learner (at least one
    /// positive, no example both positive and negative); every example that is not an
    /// individual of the KB is reported at once.
    pub fn examples(&self, p: &LearningProblem) -> Result<Examples, KnowledgeBaseError> {
        let (positives, negatives) = self.example_sets(p)?;
        Examples::new(positives, negatives).map_err(|source| KnowledgeBaseError::Examples {
            problem: p.name.clone(),
            source,
        })
    }

    /// A problem's positive and negative examples as sets over this KB, without the checks
    /// a learner needs (for scoring a concept or a model on them); every example that is
    /// not an individual of the KB is reported at once.
    pub fn example_sets(
        &self,
        p: &LearningProblem,
    ) -> Result<(IndividualSet, IndividualSet), KnowledgeBaseError> {
        let sig = self.signature();
        problem::check_examples(p, |iri| sig.individual_id(iri).is_some())?;
        // Every example is an individual now, so the lookups cannot fail.
        let set = |iris: &[String]| {
            sig.set_of(iris.iter().map(String::as_str))
                .unwrap_or_else(|_| sig.empty_set())
        };
        Ok((set(&p.positives), set(&p.negatives)))
    }

    /// The ρ refinement operator over this KB, its numeric split points read from the values
    /// of every individual (one operator serves every problem and fold over the KB).
    pub fn rho(&self, options: RhoOptions) -> Result<Rho, KnowledgeBaseError> {
        splits::rho_over_kb(&self.oracle, self.shared_signature(), options)
            .map_err(KnowledgeBaseError::Oracle)
    }

    /// The ρ operator for problems over `seeds` (every problem's examples, without labels:
    /// one operator still serves every fold), with the seeds' boundary split values when
    /// `options.use_example_splits`.
    pub fn rho_for(
        &self,
        options: RhoOptions,
        seeds: &IndividualSet,
    ) -> Result<Rho, KnowledgeBaseError> {
        splits::rho_over_examples(&self.oracle, self.shared_signature(), options, seeds)
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
    use crate::problem::ProblemError;

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
    fn a_store_loaded_by_the_caller_opens_with_its_reports_and_logs_its_queries() {
        let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/family/family.ttl");
        let store = Store::new().unwrap();
        let report = crate::files::load_file(&store, &path, None).expect("loads");
        let log =
            std::env::temp_dir().join(format!("oxilearn-open-loaded-{}.jsonl", std::process::id()));
        let kb = KnowledgeBase::builder()
            .log_queries(&log)
            .open_loaded(store, vec![report.clone()])
            .expect("opens");
        assert_eq!(kb.triples(), report.triples_loaded);
        assert_eq!(kb.load_reports(), std::slice::from_ref(&report));
        assert_eq!(kb.iris(&kb.individuals()).count(), {
            let files = family();
            files.individuals().len()
        });
        // Reading the signature already asked the store: those queries are in the log.
        let logged = std::fs::read_to_string(&log).expect("the log exists");
        assert!(logged.lines().count() > 0);
        assert!(logged.lines().all(|l| l.contains("\"query\"")));
        let _ = std::fs::remove_file(&log);
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

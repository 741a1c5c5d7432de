//! A signature cache on disk, per endpoint and graph set: the answers of the schema queries
//! ([`SchemaAnswers`]) and the capability probe's findings, so that a second run against
//! the same endpoint sends one cheap query instead of some thirty before reading the
//! examples' neighbourhood.
//!
//! **What is cached.** Only what depends on the schema and on the endpoint software: the
//! schema answers and the probe. Never the neighbourhood (it depends on the examples and on
//! data that changes without the schema), nor anything of an embedded store, whose schema
//! queries take milliseconds and which has no identity to key a file on.
//!
//! **Freshness rule.** Before anything else the fingerprint queries
//! (`queries/fingerprint_*.rq`, and `entity_fingerprint.rq` over the entities of
//! `schema_entities.rq`; see [`crate::oracle::schema_fingerprint`]) are sent: per schema predicate, declaration type and
//! predicate used on declared schema entities, a triple count and two checksums of the
//! triples' terms, all computed by the store over the schema only. The cache is used when
//! its fingerprint, endpoint URL, graph set, file format and the text of the schema queries
//! are all the same as now; otherwise everything is read from the endpoint and the file is
//! rewritten. A schema change is missed only when it keeps every count and both 16-bit
//! checksums of its group (odds of about one in four billion per changed triple). The
//! probe's findings follow the same rule: after upgrading the endpoint's software, pass
//! `--refresh-signature` (the builder's [`SignatureCache::refresh`]) once.
//!
//! **Failure.** A file that cannot be read or parsed is ignored with a warning and
//! rewritten; one that cannot be written leaves a warning; neither fails the run. Writes go
//! to a temporary file in the same directory, then a rename, so a reader never sees half a
//! file. An endpoint that cannot answer the fingerprint query (no `MD5`, say) is read
//! without the cache, with a warning.

use std::collections::BTreeMap;
use std::ffi::OsString;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::str::FromStr;
use std::time::{SystemTime, UNIX_EPOCH};

use oxigraph::model::Term;
use serde::{Deserialize, Serialize};
use spargebra::term::Variable;

use crate::oracle::backend::{Capabilities, SolutionTable, SparqlBackend};
use crate::oracle::{Fnv64, SchemaAnswers, schema_fingerprint, schema_queries_digest};

/// The environment variable that names the cache directory (see [`default_dir`]).
pub const CACHE_DIR_VAR: &str = "OXILEARN_CACHE_DIR";

/// The layout of the cache file; a file of another layout is not read.
const FORMAT: u32 = 1;

/// The directory signature caches go to by default: `$OXILEARN_CACHE_DIR` (empty: no
/// cache), else `$XDG_CACHE_HOME/oxilearn`, else `$HOME/.cache/oxilearn`; `None` when
/// none is set.
pub fn default_dir() -> Option<PathBuf> {
    dir_from(|name| std::env::var_os(name))
}

/// [`default_dir`] with the environment given.
fn dir_from(env: impl Fn(&str) -> Option<OsString>) -> Option<PathBuf> {
    if let Some(dir) = env(CACHE_DIR_VAR) {
        return (!dir.is_empty()).then(|| PathBuf::from(dir));
    }
    let set = |name: &str| env(name).filter(|v| !v.is_empty());
    if let Some(xdg) = set("XDG_CACHE_HOME") {
        return Some(PathBuf::from(xdg).join("oxilearn"));
    }
    set("HOME").map(|home| PathBuf::from(home).join(".cache").join("oxilearn"))
}

/// Where signature caches live, and whether to ignore (and rewrite) what is there.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SignatureCache {
    dir: PathBuf,
    refresh: bool,
}

/// Which endpoint and graphs a cache entry is for: its file name is a digest of this, and
/// the file repeats it, so two keys never share an entry.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct CacheKey {
    /// The endpoint URL, without credentials.
    pub endpoint: String,
    pub default_graphs: Vec<String>,
    pub named_graphs: Vec<String>,
    /// The graphs every query reads with `FROM` (those without oxilearn's predictions).
    pub from_graphs: Vec<String>,
}

/// How opening used the cache.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum CacheOutcome {
    /// The cached schema answers and probe findings were fresh and used.
    Used,
    /// Read from the endpoint and written to the cache (no entry yet, a stale, unreadable or
    /// other-version entry, or a refresh was asked for).
    Written,
    /// Read from the endpoint, not cached: the fingerprint could not be read, or the file
    /// not written (the warnings say why).
    Bypassed,
}

/// What the cache says about one endpoint, before the endpoint is read.
pub struct Lookup {
    path: PathBuf,
    key: CacheKey,
    /// `None`: the endpoint could not compute it (then nothing is read or written).
    fingerprint: Option<String>,
    fresh: Option<(Capabilities, SchemaAnswers)>,
    /// Cache problems, as warnings for the user.
    pub warnings: Vec<String>,
}

/// The file's contents.
#[derive(Serialize, Deserialize)]
struct CacheFile {
    format: u32,
    /// The oxilearn version that wrote it (informative).
    written_by: String,
    /// [`schema_queries_digest`] of the writer.
    queries: String,
    key: CacheKey,
    fingerprint: String,
    probe: Capabilities,
    /// Query name → its answer (terms in N-Triples syntax, `null` when unbound).
    tables: BTreeMap<String, StoredTable>,
}

#[derive(Serialize, Deserialize)]
struct StoredTable {
    variables: Vec<String>,
    rows: Vec<Vec<Option<String>>>,
}

impl SignatureCache {
    pub fn new(dir: impl Into<PathBuf>) -> Self {
        SignatureCache {
            dir: dir.into(),
            refresh: false,
        }
    }

    /// Ignore what the cache holds and rewrite it (`--refresh-signature`).
    pub fn refresh(mut self, refresh: bool) -> Self {
        self.refresh = refresh;
        self
    }

    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// Whether what the cache holds is ignored and rewritten.
    pub fn refreshes(&self) -> bool {
        self.refresh
    }

    /// The file of `key`'s entry.
    pub fn path(&self, key: &CacheKey) -> PathBuf {
        let mut hash = Fnv64::default();
        hash.write(key.endpoint.as_bytes());
        hash.write(&[0]);
        for (tag, list) in [
            ("default", &key.default_graphs),
            ("named", &key.named_graphs),
            ("from", &key.from_graphs),
        ] {
            hash.write(tag.as_bytes());
            for g in list {
                hash.write(&[1]);
                hash.write(g.as_bytes());
            }
            hash.write(&[0]);
        }
        self.dir
            .join(format!("signature-{:016x}.json", hash.finish()))
    }

    /// Sends the fingerprint query and reads `key`'s entry; fresh when everything in the
    /// freshness rule matches (see the module docs) and no refresh was asked for.
    pub fn lookup(&self, backend: &dyn SparqlBackend, key: CacheKey) -> Lookup {
        let path = self.path(&key);
        let mut lookup = Lookup {
            path,
            key,
            fingerprint: None,
            fresh: None,
            warnings: Vec::new(),
        };
        match fingerprint(backend) {
            Ok(f) => lookup.fingerprint = Some(f),
            Err(message) => {
                lookup.warnings.push(format!(
                    "{} cannot answer the schema fingerprint query, so its signature is not \
                     cached: {message}",
                    lookup.key.endpoint
                ));
                return lookup;
            }
        }
        if self.refresh {
            return lookup;
        }
        match read(&lookup.path) {
            Ok(None) => {}
            Ok(Some(file)) => lookup.fresh = fresh(file, &lookup),
            Err(message) => lookup.warnings.push(format!(
                "ignoring the signature cache {}: {message} (it is rewritten)",
                lookup.path.display()
            )),
        }
        lookup
    }
}

impl Lookup {
    /// The cache file of this endpoint.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// The cached probe findings and schema answers, when they are fresh.
    pub fn take_fresh(&mut self) -> Option<(Capabilities, SchemaAnswers)> {
        self.fresh.take()
    }

    /// Writes what was read from the endpoint (atomically); what happened, and why not
    /// when it was not written (a warning).
    pub fn store(
        &self,
        probe: &Capabilities,
        schema: &SchemaAnswers,
    ) -> (CacheOutcome, Option<String>) {
        let Some(fingerprint) = &self.fingerprint else {
            return (CacheOutcome::Bypassed, None);
        };
        let file = CacheFile {
            format: FORMAT,
            written_by: concat!("oxilearn ", env!("CARGO_PKG_VERSION")).to_owned(),
            queries: schema_queries_digest(),
            key: self.key.clone(),
            fingerprint: fingerprint.clone(),
            probe: probe.clone(),
            tables: schema
                .tables()
                .iter()
                .map(|(name, table)| (name.clone(), StoredTable::of(table)))
                .collect(),
        };
        match write_atomically(&self.path, &file) {
            Ok(()) => (CacheOutcome::Written, None),
            Err(e) => (
                CacheOutcome::Bypassed,
                Some(format!(
                    "could not write the signature cache {}: {e}",
                    self.path.display()
                )),
            ),
        }
    }
}

/// The fingerprint of the endpoint's schema now (see [`schema_fingerprint`]), or why not
/// (the error's first line: the query follows in its text).
fn fingerprint(backend: &dyn SparqlBackend) -> Result<String, String> {
    schema_fingerprint(backend)
        .map_err(|e| e.to_string().lines().next().unwrap_or_default().to_owned())
}

/// The entry at `path`: `None` when there is none, an error when it cannot be read or is
/// not a cache file.
fn read(path: &Path) -> Result<Option<CacheFile>, String> {
    let text = match std::fs::read(path) {
        Ok(text) => text,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(e) => return Err(e.to_string()),
    };
    serde_json::from_slice(&text)
        .map(Some)
        .map_err(|e| format!("not a signature cache file ({e})"))
}

/// The probe findings and schema answers of `file`, when it is fresh for `lookup`.
fn fresh(file: CacheFile, lookup: &Lookup) -> Option<(Capabilities, SchemaAnswers)> {
    let current = file.format == FORMAT
        && file.queries == schema_queries_digest()
        && file.key == lookup.key
        && Some(&file.fingerprint) == lookup.fingerprint.as_ref();
    if !current {
        return None;
    }
    let mut tables = BTreeMap::new();
    for (name, stored) in file.tables {
        tables.insert(name, stored.table()?);
    }
    Some((file.probe, SchemaAnswers::from_tables(tables)?))
}

impl StoredTable {
    fn of(table: &SolutionTable) -> Self {
        StoredTable {
            variables: table
                .variables
                .iter()
                .map(|v| v.as_str().to_owned())
                .collect(),
            rows: table
                .rows
                .iter()
                .map(|row| {
                    row.iter()
                        .map(|cell| cell.as_ref().map(Term::to_string))
                        .collect()
                })
                .collect(),
        }
    }

    /// The table back; `None` when a variable or term does not parse.
    fn table(self) -> Option<SolutionTable> {
        let variables = self
            .variables
            .into_iter()
            .map(Variable::new)
            .collect::<Result<Vec<_>, _>>()
            .ok()?;
        let rows = self
            .rows
            .into_iter()
            .map(|row| {
                row.into_iter()
                    .map(|cell| match cell {
                        None => Some(None),
                        Some(t) => Term::from_str(&t).ok().map(Some),
                    })
                    .collect::<Option<Vec<_>>>()
            })
            .collect::<Option<Vec<_>>>()?;
        Some(SolutionTable { variables, rows })
    }
}

/// Writes `file` to a temporary file beside `path`, then renames it over `path`.
fn write_atomically(path: &Path, file: &CacheFile) -> std::io::Result<()> {
    let dir = path.parent().unwrap_or_else(|| Path::new("."));
    std::fs::create_dir_all(dir)?;
    let nanos = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map(|d| d.subsec_nanos())
        .unwrap_or_default();
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let tmp = dir.join(format!(".{name}.{}.{nanos}.tmp", std::process::id()));
    let written = (|| {
        let mut out = std::io::BufWriter::new(std::fs::File::create(&tmp)?);
        serde_json::to_writer(&mut out, file)?;
        out.flush()?;
        out.into_inner().map_err(|e| e.into_error())?.sync_all()?;
        std::fs::rename(&tmp, path)
    })();
    if written.is_err() {
        let _ = std::fs::remove_file(&tmp);
    }
    written
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::oracle::OracleError;
    use crate::oracle::backend::{EmbeddedBackend, probe};
    use spargebra::Query;

    #[test]
    fn the_directory_follows_the_environment() {
        let env = |pairs: &'static [(&'static str, &'static str)]| {
            move |name: &str| {
                pairs
                    .iter()
                    .find(|(k, _)| *k == name)
                    .map(|(_, v)| OsString::from(v))
            }
        };
        const ALL: &[(&str, &str)] = &[
            (CACHE_DIR_VAR, "/c"),
            ("XDG_CACHE_HOME", "/x"),
            ("HOME", "/h"),
        ];
        assert_eq!(dir_from(env(ALL)), Some(PathBuf::from("/c")));
        assert_eq!(
            dir_from(env(&[(CACHE_DIR_VAR, "")])),
            None,
            "empty: no cache"
        );
        assert_eq!(
            dir_from(env(&[("XDG_CACHE_HOME", "/x"), ("HOME", "/h")])),
            Some(PathBuf::from("/x/oxilearn"))
        );
        assert_eq!(
            dir_from(env(&[("XDG_CACHE_HOME", ""), ("HOME", "/h")])),
            Some(PathBuf::from("/h/.cache/oxilearn"))
        );
        assert_eq!(dir_from(env(&[])), None);
    }

    /// An embedded store that cannot compute MD5 (as some endpoints cannot).
    struct NoHashes(EmbeddedBackend);

    impl SparqlBackend for NoHashes {
        fn select(&self, query: &Query) -> Result<SolutionTable, OracleError> {
            if query.to_string().contains("MD5") {
                return Err(OracleError::Backend {
                    backend: "no-hashes".into(),
                    message: "MD5 is not supported".into(),
                    query: query.to_string(),
                });
            }
            self.0.select(query)
        }

        fn name(&self) -> String {
            "no-hashes".into()
        }
    }

    fn key() -> CacheKey {
        CacheKey {
            endpoint: "http://example.org/sparql".into(),
            default_graphs: vec!["http://example.org/g".into()],
            named_graphs: Vec::new(),
            from_graphs: Vec::new(),
        }
    }

    fn dir(name: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!(
            "oxilearn-signature-cache-unit-{name}-{}",
            std::process::id()
        ));
        let _ = std::fs::remove_dir_all(&dir);
        dir
    }

    #[test]
    fn without_a_fingerprint_nothing_is_read_or_written() {
        let store = oxigraph::store::Store::new().unwrap();
        let backend = NoHashes(EmbeddedBackend::new(store));
        let cache = SignatureCache::new(dir("no-fingerprint"));
        let mut lookup = cache.lookup(&backend, key());
        assert!(lookup.take_fresh().is_none());
        assert!(
            lookup.warnings[0].contains("cannot answer the schema fingerprint query")
                && lookup.warnings[0].contains("MD5 is not supported"),
            "{:?}",
            lookup.warnings
        );
        let caps = probe(&backend).unwrap();
        let schema = SchemaAnswers::load(&backend).unwrap();
        assert_eq!(lookup.store(&caps, &schema), (CacheOutcome::Bypassed, None));
        assert!(!lookup.path().exists());
    }

    #[test]
    fn an_entry_round_trips_and_other_keys_do_not_read_it() {
        let store = oxigraph::store::Store::new().unwrap();
        store
            .load_from_reader(
                oxigraph::io::RdfFormat::Turtle,
                "@prefix owl: <http://www.w3.org/2002/07/owl#> .
                 @prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .
                 <urn:A> a owl:Class ; rdfs:subClassOf [ a owl:Restriction ] ;
                     rdfs:label \"A\"@en, \"1\"^^<http://www.w3.org/2001/XMLSchema#integer> .
                 <urn:p> a owl:ObjectProperty ; rdfs:domain <urn:A> ."
                    .as_bytes(),
            )
            .unwrap();
        let backend = EmbeddedBackend::new(store);
        let cache = SignatureCache::new(dir("round-trip"));
        let mut first = cache.lookup(&backend, key());
        assert!(first.take_fresh().is_none() && first.warnings.is_empty());
        let caps = probe(&backend).unwrap();
        let schema = SchemaAnswers::load(&backend).unwrap();
        assert_eq!(first.store(&caps, &schema), (CacheOutcome::Written, None));
        let (cached_caps, cached_schema) =
            cache.lookup(&backend, key()).take_fresh().expect("fresh");
        assert_eq!(cached_caps, caps);
        // Blank nodes, language tags and datatypes survive the file.
        assert_eq!(cached_schema, schema);
        let mut other = key();
        other.default_graphs.push("http://example.org/h".into());
        assert_ne!(cache.path(&other), cache.path(&key()));
        assert!(cache.lookup(&backend, other).take_fresh().is_none());
        assert!(
            cache
                .clone()
                .refresh(true)
                .lookup(&backend, key())
                .take_fresh()
                .is_none()
        );
        let _ = std::fs::remove_dir_all(cache.dir());
    }
}

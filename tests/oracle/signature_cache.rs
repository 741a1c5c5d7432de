//! The endpoint signature cache (`KnowledgeBaseBuilder::signature_cache`, the CLI's
//! `OXILEARN_CACHE_DIR` and `--refresh-signature`): used while the schema's fingerprint is
//! unchanged (counted in the query log), refreshed when the schema changes, rewritten on
//! request, a corrupt file ignored with a warning, and the signature from the cache equal to
//! the one read fresh. Over an in-process endpoint (always), and over the CI servers
//! (`OXILEARN_TEST_OXIGRAPH`, `OXILEARN_TEST_VIRTUOSO`: skipped locally without them,
//! failing in CI).

use crate::common;

use std::path::{Path, PathBuf};
use std::process::Command;

use oxigraph::store::Store;
use oxilearn::concept::Iri;
use oxilearn::oracle::backend::HttpOptions;
use oxilearn::oracle::{IndividualScope, Neighbourhood, OracleOptions, Signature};
use oxilearn::signature_cache::CacheOutcome;
use oxilearn::{KnowledgeBase, KnowledgeBaseBuilder};

use common::store_endpoint::store_endpoint;

const FAMILY: &str = "http://example.org/family#";

/// A fresh directory of this test run.
fn temp_dir(name: &str) -> PathBuf {
    let dir = common::temp_path("signature-cache", name);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("temporary directory");
    dir
}

/// The family problems' examples, as a learning run's scope.
fn family_scope() -> IndividualScope {
    let problems =
        oxilearn::problem::load_problems(&common::repo_path("fixtures/family/problems.json"))
            .expect("family problems");
    let seeds = problems
        .iter()
        .flat_map(|p| p.positives.iter().chain(&p.negatives))
        .map(|s| Iri::new(s.as_str()));
    IndividualScope::Neighbourhood(Neighbourhood::of(seeds))
}

fn builder(scope: &IndividualScope) -> KnowledgeBaseBuilder {
    KnowledgeBase::builder().oracle_options(OracleOptions {
        scope: scope.clone(),
        ..OracleOptions::default()
    })
}

/// Opens `options` with the cache in `cache` (and `refresh`), logging queries to `log`.
fn open_cached(
    options: HttpOptions,
    scope: &IndividualScope,
    cache: &Path,
    refresh: bool,
    log: &Path,
) -> KnowledgeBase {
    builder(scope)
        .signature_cache(cache)
        .refresh_signature(refresh)
        .log_queries(log)
        .open_endpoint(options)
        .expect("the endpoint opens")
}

/// The queries of a log, in order.
fn logged(log: &Path) -> Vec<String> {
    std::fs::read_to_string(log)
        .expect("the query log")
        .lines()
        .map(|l| {
            let v: serde_json::Value = serde_json::from_str(l).expect("a JSON line");
            v["query"].as_str().expect("the query").to_owned()
        })
        .collect()
}

/// Whether the log holds the capability probe and the schema queries.
fn probed_and_read_schema(queries: &[String]) -> bool {
    let probe = queries.iter().any(|q| q.contains("urn:oxilearn:probe"));
    // complement_classes.rq (the fingerprint names owl:complementOf too, with MD5).
    let schema = queries
        .iter()
        .any(|q| q.contains("owl#complementOf") && !q.contains("MD5"));
    assert_eq!(
        probe, schema,
        "the probe and the schema queries go together"
    );
    probe
}

/// Everything the signature says, serialised, plus what it does not serialise.
fn summary(sig: &Signature) -> serde_json::Value {
    serde_json::json!({
        "signature": serde_json::to_value(sig).expect("serialisable"),
        "asserted_types": sig.asserted_types.as_ref().map(|t| t.len()),
        "values": sig.universe_values.as_ref().map(|t| t.len()),
        "edges": sig.universe_edges.as_ref().map(|t| t.len()),
    })
}

fn family_store() -> Store {
    common::store_of(&[common::repo_path("fixtures/family/family.ttl")])
}

#[test]
fn a_fresh_cache_replaces_the_probe_and_the_schema_queries() {
    let store = family_store();
    let endpoint = store_endpoint(store, |_, _| false);
    let scope = family_scope();
    let cache = temp_dir("fresh");
    let (log1, log2) = (cache.join("first.jsonl"), cache.join("second.jsonl"));

    let first = open_cached(
        HttpOptions::local(endpoint.url()),
        &scope,
        &cache,
        false,
        &log1,
    );
    let (outcome, path) = first.signature_cache().expect("a cache was configured");
    assert_eq!(outcome, &CacheOutcome::Written);
    assert!(
        path.starts_with(&cache) && path.is_file(),
        "{}",
        path.display()
    );
    assert!(first.warnings().is_empty(), "{:?}", first.warnings());

    let second = open_cached(
        HttpOptions::local(endpoint.url()),
        &scope,
        &cache,
        false,
        &log2,
    );
    assert_eq!(second.signature_cache().unwrap().0, &CacheOutcome::Used);
    let (q1, q2) = (logged(&log1), logged(&log2));
    assert!(probed_and_read_schema(&q1));
    assert!(!probed_and_read_schema(&q2), "{q2:#?}");
    // One fingerprint query instead of the probe's and the schema's; the neighbourhood is
    // read either way.
    assert!(q2.len() + 20 <= q1.len(), "{} then {}", q1.len(), q2.len());
    // The fingerprint comes first (after the check for oxilearn's prediction graphs).
    assert!(q2.iter().take(2).any(|q| q.contains("MD5")), "{q2:#?}");

    // The signature from the cache is the one read fresh (and without a cache at all).
    let uncached = builder(&scope)
        .open_endpoint(HttpOptions::local(endpoint.url()))
        .expect("opens without a cache");
    assert!(uncached.signature_cache().is_none());
    assert_eq!(summary(second.signature()), summary(first.signature()));
    assert_eq!(summary(second.signature()), summary(uncached.signature()));
    // And it answers the same.
    let c = second
        .parse_concept("Female and hasChild some Thing")
        .unwrap();
    assert_eq!(
        second.instances(&c).unwrap(),
        uncached.instances(&c).unwrap()
    );
}

#[test]
fn a_schema_change_is_seen_and_the_cache_rewritten() {
    let store = family_store();
    let endpoint = store_endpoint(store.clone(), |_, _| false);
    let scope = family_scope();
    let cache = temp_dir("change");
    let log = cache.join("log.jsonl");
    let open = || {
        open_cached(
            HttpOptions::local(endpoint.url()),
            &scope,
            &cache,
            false,
            &log,
        )
    };
    let before = open();
    assert_eq!(before.signature_cache().unwrap().0, &CacheOutcome::Written);
    let sub = Iri::new(format!("{FAMILY}Grandmother"));
    let sup = Iri::new(format!("{FAMILY}Elder"));
    assert!(!before.signature().superclasses_of(&sub).contains(&sup));
    assert_eq!(open().signature_cache().unwrap().0, &CacheOutcome::Used);

    // A new subclass axiom (and class) in the data the endpoint serves.
    store
        .update(&format!(
            "PREFIX rdfs: <http://www.w3.org/2000/01/rdf-schema#>
             INSERT DATA {{ <{sub}> rdfs:subClassOf <{sup}> }}",
            sub = sub.as_str(),
            sup = sup.as_str()
        ))
        .expect("update");
    let after = open();
    assert_eq!(after.signature_cache().unwrap().0, &CacheOutcome::Written);
    assert!(after.signature().superclasses_of(&sub).contains(&sup));
    assert!(after.signature().classes.contains(&sup));
    assert!(probed_and_read_schema(&logged(&log)));
    // The rewritten entry is fresh again, and still knows the new axiom.
    let again = open();
    assert_eq!(again.signature_cache().unwrap().0, &CacheOutcome::Used);
    assert!(again.signature().superclasses_of(&sub).contains(&sup));

    // A new predicate on a declared class changes what the schema says too (it is an
    // annotation, not a role: schema_predicates).
    store
        .update(&format!(
            "INSERT DATA {{ <{FAMILY}Female> <http://example.org/meta#note> \"new\" }}"
        ))
        .expect("update");
    let annotated = open();
    assert_eq!(
        annotated.signature_cache().unwrap().0,
        &CacheOutcome::Written
    );
    let note = Iri::new("http://example.org/meta#note");
    assert!(!annotated.signature().data_properties.contains_key(&note));
}

#[test]
fn refreshing_ignores_a_fresh_cache_and_rewrites_it() {
    let endpoint = store_endpoint(family_store(), |_, _| false);
    let scope = family_scope();
    let cache = temp_dir("refresh");
    let log = cache.join("log.jsonl");
    let first = open_cached(
        HttpOptions::local(endpoint.url()),
        &scope,
        &cache,
        false,
        &log,
    );
    let path = first.signature_cache().unwrap().1.to_path_buf();
    // Mark the entry (still a valid, fresh one): a refresh must replace it.
    let written = std::fs::read_to_string(&path).unwrap();
    let marked = written.replacen("\"written_by\":\"oxilearn ", "\"written_by\":\"marked ", 1);
    assert_ne!(marked, written);
    std::fs::write(&path, &marked).unwrap();
    let reused = open_cached(
        HttpOptions::local(endpoint.url()),
        &scope,
        &cache,
        false,
        &log,
    );
    assert_eq!(reused.signature_cache().unwrap().0, &CacheOutcome::Used);
    let refreshed = open_cached(
        HttpOptions::local(endpoint.url()),
        &scope,
        &cache,
        true,
        &log,
    );
    assert_eq!(
        refreshed.signature_cache().unwrap().0,
        &CacheOutcome::Written
    );
    assert!(probed_and_read_schema(&logged(&log)));
    assert_eq!(std::fs::read_to_string(&path).unwrap(), written);
    assert_eq!(summary(refreshed.signature()), summary(first.signature()));
}

#[test]
fn a_corrupt_or_unwritable_cache_is_a_warning_never_a_failure() {
    let endpoint = store_endpoint(family_store(), |_, _| false);
    let scope = family_scope();
    let cache = temp_dir("corrupt");
    let log = cache.join("log.jsonl");
    let open = || {
        open_cached(
            HttpOptions::local(endpoint.url()),
            &scope,
            &cache,
            false,
            &log,
        )
    };
    let first = open();
    let path = first.signature_cache().unwrap().1.to_path_buf();
    let reference = summary(first.signature());

    for garbage in ["{ not json", "{\"format\": 1}", ""] {
        std::fs::write(&path, garbage).unwrap();
        let kb = open();
        assert_eq!(kb.signature_cache().unwrap().0, &CacheOutcome::Written);
        assert!(
            kb.warnings()
                .iter()
                .any(|w| w.contains("ignoring the signature cache") && w.contains("signature-")),
            "{garbage:?}: {:?}",
            kb.warnings()
        );
        assert_eq!(summary(kb.signature()), reference);
        // Rewritten: fresh again.
        assert_eq!(open().signature_cache().unwrap().0, &CacheOutcome::Used);
    }

    // A directory where the file should be: neither read nor written, the run goes on.
    std::fs::remove_file(&path).unwrap();
    std::fs::create_dir_all(path.join("blocked")).unwrap();
    let kb = open();
    assert_eq!(kb.signature_cache().unwrap().0, &CacheOutcome::Bypassed);
    assert!(
        kb.warnings()
            .iter()
            .any(|w| w.contains("could not write the signature cache")),
        "{:?}",
        kb.warnings()
    );
    assert_eq!(summary(kb.signature()), reference);
    // No temporary file is left behind.
    let leftovers: Vec<_> = std::fs::read_dir(&cache)
        .unwrap()
        .filter_map(Result::ok)
        .filter(|e| e.file_name().to_string_lossy().ends_with(".tmp"))
        .collect();
    assert!(leftovers.is_empty(), "{leftovers:?}");
}

#[test]
fn each_graph_set_has_its_own_entry() {
    let endpoint = store_endpoint(family_store(), |_, _| false);
    let scope = IndividualScope::Schema;
    let cache = temp_dir("graphs");
    let log = cache.join("log.jsonl");
    let plain = open_cached(
        HttpOptions::local(endpoint.url()),
        &scope,
        &cache,
        false,
        &log,
    );
    let graph = HttpOptions::local(endpoint.url()).with_default_graph("http://example.org/g");
    let other = open_cached(graph, &scope, &cache, false, &log);
    assert_eq!(other.signature_cache().unwrap().0, &CacheOutcome::Written);
    assert_ne!(
        plain.signature_cache().unwrap().1,
        other.signature_cache().unwrap().1
    );
}

/// `oxilearn learn` against `url`, with the cache in `cache`; the queries it logged.
fn learn_logged(url: &str, cache: &Path, log: &Path, extra: &[&str]) -> Vec<String> {
    let out = Command::new(env!("CARGO_BIN_EXE_oxilearn"))
        .args(["learn", "--endpoint", url, "--problems"])
        .arg(common::repo_path("fixtures/family/problems.json"))
        .args(["--max-tests", "200", "--json", "--quiet", "--log-queries"])
        .arg(log)
        .args(extra)
        .env("OXILEARN_CACHE_DIR", cache)
        .output()
        .expect("runs oxilearn");
    assert!(
        out.status.success(),
        "learn failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    logged(log)
}

#[test]
fn the_cli_caches_in_oxilearn_cache_dir_and_refreshes_on_request() {
    let endpoint = store_endpoint(family_store(), |_, _| false);
    let cache = temp_dir("cli");
    let log = cache.join("log.jsonl");
    let url = endpoint.url();
    let first = learn_logged(&url, &cache, &log, &[]);
    assert!(probed_and_read_schema(&first));
    let entries = std::fs::read_dir(&cache)
        .unwrap()
        .filter_map(Result::ok)
        .filter(|e| e.file_name().to_string_lossy().starts_with("signature-"))
        .count();
    assert_eq!(entries, 1, "one cache file in OXILEARN_CACHE_DIR");
    let second = learn_logged(&url, &cache, &log, &[]);
    assert!(!probed_and_read_schema(&second));
    let third = learn_logged(&url, &cache, &log, &["--refresh-signature"]);
    assert!(probed_and_read_schema(&third));
    // The same run either way: the same queries once the signature is read.
    let tail = |q: &[String]| q.iter().filter(|q| !q.contains("MD5")).count();
    assert_eq!(tail(&first), tail(&third));
}

/// A SPARQL Update sent to `url` (`update=`, form-encoded).
fn update(url: &str, text: &str) {
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    let response = runtime
        .block_on(async {
            reqwest::Client::new()
                .post(url)
                .form(&[("update", text)])
                .timeout(std::time::Duration::from_secs(60))
                .send()
                .await
        })
        .unwrap_or_else(|e| panic!("update at {url}: {e}"));
    assert!(
        response.status().is_success(),
        "update at {url}: HTTP {}",
        response.status()
    );
}

/// Against a CI server: a graph of its own (the family fixture's schema and a few
/// individuals), read twice through the cache, then changed.
fn remote_cache(query_url: &str, update_url: &str) {
    let graph = format!(
        "http://oxilearn.test/signature-cache/{}-{}",
        std::process::id(),
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .unwrap()
            .subsec_nanos()
    );
    let family = std::fs::read_to_string(common::repo_path("fixtures/family/family.ttl")).unwrap();
    let store = Store::new().unwrap();
    store
        .load_from_reader(oxigraph::io::RdfFormat::Turtle, family.as_bytes())
        .unwrap();
    let triples: Vec<String> = store
        .iter()
        .map(|q| q.unwrap())
        .filter(|q| !q.subject.is_blank_node() && !q.object.is_blank_node())
        .map(|q| format!("{} {} {} .", q.subject, q.predicate, q.object))
        .collect();
    update(
        update_url,
        &format!(
            "INSERT DATA {{ GRAPH <{graph}> {{ {} }} }}",
            triples.join("\n")
        ),
    );
    let scope = family_scope();
    let cache = temp_dir(&format!("remote-{}", query_url.len()));
    let log = cache.join("log.jsonl");
    let options = || HttpOptions::local(query_url).with_default_graph(&graph);
    let result = std::panic::catch_unwind(|| {
        let first = open_cached(options(), &scope, &cache, false, &log);
        assert_eq!(first.signature_cache().unwrap().0, &CacheOutcome::Written);
        let second = open_cached(options(), &scope, &cache, false, &log);
        assert_eq!(second.signature_cache().unwrap().0, &CacheOutcome::Used);
        assert!(!probed_and_read_schema(&logged(&log)));
        assert_eq!(summary(second.signature()), summary(first.signature()));
        let uncached = builder(&scope).open_endpoint(options()).unwrap();
        assert_eq!(summary(second.signature()), summary(uncached.signature()));
        // The shapes the cached probe picks are the probed ones.
        assert_eq!(
            second.oracle().inner().shapes(),
            uncached.oracle().inner().shapes()
        );

        let sub = format!("{FAMILY}Grandmother");
        let sup = format!("{FAMILY}Elder");
        update(
            update_url,
            &format!(
                "INSERT DATA {{ GRAPH <{graph}> {{ <{sub}> \
                 <http://www.w3.org/2000/01/rdf-schema#subClassOf> <{sup}> }} }}"
            ),
        );
        let after = open_cached(options(), &scope, &cache, false, &log);
        assert_eq!(after.signature_cache().unwrap().0, &CacheOutcome::Written);
        assert!(
            after
                .signature()
                .superclasses_of(&Iri::new(sub.as_str()))
                .contains(&Iri::new(sup.as_str()))
        );
    });
    update(update_url, &format!("DROP SILENT GRAPH <{graph}>"));
    if let Err(panic) = result {
        std::panic::resume_unwind(panic);
    }
}

#[test]
fn the_oxigraph_server_is_cached_and_refreshed() {
    let Some(url) = common::endpoint_from_env("OXILEARN_TEST_OXIGRAPH") else {
        return;
    };
    remote_cache(&url, &url.replace("/query", "/update"));
}

#[test]
fn virtuoso_is_cached_and_refreshed() {
    let Some(url) = common::endpoint_from_env("OXILEARN_TEST_VIRTUOSO") else {
        return;
    };
    remote_cache(&url, &url);
}

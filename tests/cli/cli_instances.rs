//! `oxilearn instances`: the store-listed answer (closed world) holds the same members as
//! the library's `KnowledgeBase::instances` over the interned active domain, the paged
//! open-world answer does not depend on the page size, `--limit` truncation is reported on
//! stderr and in JSON, and the JSON keys stay stable.

use crate::common;

use common::cli_run::{fails_with, json, oxilearn};
use oxilearn::KnowledgeBase;

const FAMILY: &str = "fixtures/family/family.ttl";

const CONCEPTS: &[&str] = &[
    "Male",
    "not Male",
    "Male and (hasChild some Thing)",
    "hasChild only Male",
    "not (hasChild some Female)",
    "Thing",
    "Nothing",
];

fn library_members(concept: &str) -> Vec<String> {
    let kb = KnowledgeBase::from_files(&[format!("{}/{FAMILY}", env!("CARGO_MANIFEST_DIR"))])
        .expect("opens the family fixture");
    let c = kb.parse_concept(concept).expect("parses");
    let set = kb.instances(&c).expect("answers");
    kb.iris(&set).map(|i| i.as_str().to_string()).collect()
}

fn strings(v: &serde_json::Value) -> Vec<String> {
    v.as_array()
        .expect("an array")
        .iter()
        .map(|s| s.as_str().expect("a string").to_string())
        .collect()
}

#[test]
fn answer_matches_the_library_for_several_concepts() {
    for concept in CONCEPTS {
        let expected = library_members(concept);
        let v = json(&["instances", "--kb", FAMILY, "--concept", concept, "--json"]);
        assert_eq!(strings(&v["individuals"]), expected, "{concept}");
        assert_eq!(v["count"], expected.len(), "{concept}");
        assert_eq!(v["truncated"], false, "{concept}");
        let open = |page: &str| {
            json(&[
                "instances",
                "--kb",
                FAMILY,
                "--concept",
                concept,
                "--semantics",
                "open",
                "--page-size",
                page,
                "--json",
            ])
        };
        let whole = open("10000");
        for page in ["1", "3"] {
            let v = open(page);
            for key in ["individuals", "non_instances", "unknown_count"] {
                assert_eq!(v[key], whole[key], "{concept} open, page {page}: {key}");
            }
        }
        // Text mode lists the same individuals, one per line.
        let out = oxilearn(&["instances", "--kb", FAMILY, "--concept", concept]);
        assert!(out.status.success());
        let text = String::from_utf8_lossy(&out.stdout);
        let listed: Vec<String> = text
            .lines()
            .filter_map(|l| l.strip_prefix("  "))
            .map(str::to_string)
            .collect();
        assert_eq!(listed, expected, "{concept} text");
    }
}

#[test]
fn limit_truncates_and_says_so() {
    let all = library_members("Male");
    assert!(all.len() > 3);
    let args = [
        "instances",
        "--kb",
        FAMILY,
        "--concept",
        "Male",
        "--limit",
        "3",
        "--json",
    ];
    let v = json(&args);
    assert_eq!(v["truncated"], true);
    assert_eq!(v["count"], 3);
    // Which three the store returns first is its own order (no sort of the whole answer);
    // they are members, listed sorted.
    let listed = strings(&v["individuals"]);
    assert!(listed.iter().all(|i| all.contains(i)), "{listed:?}");
    assert!(listed.is_sorted(), "{listed:?}");
    for key in [
        "concept",
        "dl",
        "semantics",
        "count",
        "individuals",
        "truncated",
    ] {
        assert!(v.get(key).is_some(), "JSON key {key}");
    }
    let out = oxilearn(&args);
    assert!(String::from_utf8_lossy(&out.stderr).contains("truncated:"));

    // A limit the answer fits in is not a truncation.
    let n = all.len().to_string();
    let v = json(&[
        "instances",
        "--kb",
        FAMILY,
        "--concept",
        "Male",
        "--limit",
        &n,
        "--json",
    ]);
    assert_eq!(v["truncated"], false);
    assert_eq!(v["count"], all.len());
}

#[test]
fn zero_limit_or_page_is_a_clear_error() {
    let err = fails_with(&[
        "instances",
        "--kb",
        FAMILY,
        "--concept",
        "Male",
        "--limit",
        "0",
    ]);
    assert!(err.contains("--limit"), "{err}");
    let err = fails_with(&[
        "instances",
        "--kb",
        FAMILY,
        "--concept",
        "Male",
        "--page-size",
        "0",
    ]);
    assert!(err.contains("--page-size"), "{err}");
    // Individuals are not read first: a bare individual name says how to write it instead.
    let err = fails_with(&[
        "instances",
        "--kb",
        FAMILY,
        "--concept",
        "hasChild value mark",
    ]);
    assert!(err.contains("full IRI"), "{err}");
    let v = json(&[
        "instances",
        "--kb",
        FAMILY,
        "--concept",
        "hasChild value <http://example.org/family#lucy>",
        "--json",
    ]);
    assert!(v["count"].as_u64().unwrap() > 0, "{v}");
}

/// On an endpoint nothing reads every individual unless asked for by name: `signature`
/// reads the schema alone (and says so), open-world `instances` lists the provable
/// instances from the store's indexes, the same as the whole-KB answer.
#[cfg(feature = "http")]
#[test]
fn on_an_endpoint_whole_kb_answers_are_asked_for_by_name() {
    let store = oxigraph::store::Store::new().unwrap();
    oxilearn::files::load_file(&store, &common::repo_path(FAMILY), None).unwrap();
    let endpoint = common::store_endpoint::store_endpoint(store, |_, _| false);
    let url = endpoint.url();
    let out = oxilearn(&["signature", "--endpoint", &url, "--json"]);
    assert!(out.status.success());
    let schema: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(schema["counts"]["individuals"], 0);
    assert!(schema["counts"]["classes"].as_u64().unwrap() > 0);
    assert!(String::from_utf8_lossy(&out.stderr).contains("--whole-kb"));
    let whole = json(&["signature", "--endpoint", &url, "--whole-kb", "--json"]);
    assert!(whole["counts"]["individuals"].as_u64().unwrap() > 0);

    for concept in [
        "Male",
        "Male and (hasChild some Thing)",
        "hasChild some Female",
    ] {
        let args = |extra: &[&'static str]| {
            let mut a = vec![
                "instances",
                "--concept",
                concept,
                "--semantics",
                "open",
                "--page-size",
                "3",
                "--json",
            ];
            a.extend_from_slice(extra);
            a
        };
        let mut bounded_args = args(&[]);
        bounded_args.extend(["--endpoint", url.as_str()]);
        let out = oxilearn(&bounded_args);
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        let bounded: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
        assert!(bounded["non_instances"].is_null(), "{bounded}");
        assert!(String::from_utf8_lossy(&out.stderr).contains("--whole-kb"));
        let file = json(&args(&["--kb", FAMILY]));
        assert_eq!(bounded["individuals"], file["individuals"], "{concept}");
    }
    let err = fails_with(&[
        "instances",
        "--endpoint",
        &url,
        "--concept",
        "not Male",
        "--semantics",
        "open",
    ]);
    assert!(err.contains("--whole-kb"), "{err}");
}

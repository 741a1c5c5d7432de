//! `learn --describe-class` (class learning) and problems defined by SPARQL queries
//! (`--positives-query`/`--negatives-query`, JSON `positives_query`/`negatives_query`).

use crate::common;

use common::cli_run::{fails_with, json};
use oxigraph::sparql::{QueryResults, SparqlEvaluator};
use serde_json::Value;

const FAMILY: &str = "fixtures/family/family.ttl";
const FAM: &str = "http://example.org/family#";

/// Males with a child against females: what the queries below select.
pub const POSITIVES_QUERY: &str = "PREFIX fam: <http://example.org/family#> \
     SELECT DISTINCT ?p WHERE { ?p a fam:Male ; fam:hasChild ?c }";
pub const NEGATIVES_QUERY: &str =
    "PREFIX fam: <http://example.org/family#> SELECT ?n WHERE { ?n a fam:Female }";

fn temp(name: &str) -> std::path::PathBuf {
    common::temp_path("describe-class", name)
}

/// The one variable's IRIs of `query` over the family fixture, evaluated by Oxigraph
/// directly (not by oxilearn).
pub fn answers(query: &str) -> Vec<String> {
    let store = common::store_of(&[std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join(FAMILY)]);
    let QueryResults::Solutions(rows) = SparqlEvaluator::new()
        .parse_query(query)
        .unwrap()
        .on_store(&store)
        .execute()
        .unwrap()
    else {
        panic!("a SELECT")
    };
    let mut out: Vec<String> = rows
        .map(|r| match r.unwrap().values()[0].clone() {
            Some(oxigraph::model::Term::NamedNode(n)) => n.into_string(),
            other => panic!("not an IRI: {other:?}"),
        })
        .collect();
    out.sort();
    out.dedup();
    out
}

/// The best solution's Manchester text and counts, what "the same solution" compares.
pub fn best(run: &Value) -> (String, Value, Value, Value, Value) {
    let s = &run["solutions"][0];
    (
        s["manchester"].as_str().unwrap().to_owned(),
        s["tp"].clone(),
        s["fp"].clone(),
        s["tn"].clone(),
        s["fn"].clone(),
    )
}

fn learn(rest: &[&str]) -> Value {
    let mut args = vec!["learn", "--kb", FAMILY, "--quiet", "--json"];
    if !rest.contains(&"--max-tests") {
        args.extend(["--max-tests", "3000"]);
    }
    args.extend_from_slice(rest);
    json(&args)[0].clone()
}

#[test]
fn describing_father_finds_a_perfect_definition_without_father() {
    let father = format!("{FAM}Father");
    let run = learn(&["--describe-class", &father]);
    // The positives are the closed-world instances of Father (frank has a child but is not
    // typed Father: the fixture's inconsistency on purpose).
    let instances = json(&[
        "instances",
        "--kb",
        FAMILY,
        "--concept",
        &format!("<{father}>"),
        "--json",
    ]);
    let listed = instances["individuals"]
        .as_array()
        .or_else(|| instances.as_array())
        .map_or(0, Vec::len);
    assert_eq!(
        run["positives"].as_u64().unwrap() as usize,
        listed,
        "{instances}"
    );
    assert!(run["negatives"].as_u64().unwrap() > 0);
    let s = &run["solutions"][0];
    assert_eq!(s["f1"].as_f64(), Some(1.0), "{run}");
    for solution in run["solutions"].as_array().unwrap() {
        let text = solution["manchester"].as_str().unwrap();
        assert!(!text.contains("Father"), "{text} uses the described class");
    }
    let cl = &run["class_learning"];
    assert_eq!(cl["class"], father.as_str());
    assert_eq!(cl["equivalent_class"][0]["f1"].as_f64(), Some(1.0), "{cl}");
    for sub in cl["subclass_of"].as_array().unwrap() {
        assert_eq!(sub["recall"].as_f64(), Some(1.0));
    }
}

#[test]
fn the_described_class_equivalents_are_hidden_too() {
    // Person ≡ Human: describing Human must not answer Person.
    let run = learn(&[
        "--describe-class",
        &format!("{FAM}Human"),
        "--max-tests",
        "300",
    ]);
    for solution in run["solutions"].as_array().unwrap() {
        let text = solution["manchester"].as_str().unwrap();
        assert!(
            !text.contains("Person") && !text.contains("Human"),
            "{text}"
        );
    }
}

#[test]
fn an_unknown_class_exits_2_naming_close_candidates() {
    let err = fails_with(&[
        "learn",
        "--kb",
        FAMILY,
        "--describe-class",
        &format!("{FAM}Fathr"),
    ]);
    assert!(
        err.contains("Fathr") && err.contains(&format!("<{FAM}Father>")),
        "{err}"
    );
}

#[test]
fn the_sample_is_bounded_and_seeded() {
    let male = format!("{FAM}Male");
    let run = |seed: &str| {
        learn(&[
            "--describe-class",
            &male,
            "--max-examples",
            "3",
            "--example-seed",
            seed,
            "--max-tests",
            "50",
        ])
    };
    let a = run("7");
    assert_eq!(a["positives"], 3);
    assert!(a["negatives"].as_u64().unwrap() <= 3);
    assert_eq!(a["positives"], run("7")["positives"]);
    assert_eq!(best(&a), best(&run("7")));
}

#[test]
fn a_problem_defined_by_queries_learns_what_the_listed_problem_learns() {
    let positives = answers(POSITIVES_QUERY);
    let negatives = answers(NEGATIVES_QUERY);
    assert!(positives.len() >= 3 && negatives.len() >= 3);
    let listed = temp("listed.json");
    std::fs::write(
        &listed,
        serde_json::json!({"positive_examples": positives, "negative_examples": negatives})
            .to_string(),
    )
    .unwrap();
    let expected = learn(&["--problems", listed.to_str().unwrap()]);
    let by_flags = learn(&[
        "--positives-query",
        POSITIVES_QUERY,
        "--negatives-query",
        NEGATIVES_QUERY,
    ]);
    assert_eq!(
        by_flags["positives"].as_u64().unwrap() as usize,
        positives.len()
    );
    assert_eq!(
        by_flags["negatives"].as_u64().unwrap() as usize,
        negatives.len()
    );
    assert_eq!(best(&by_flags), best(&expected));
    // `@FILE` and both JSON forms.
    let file = temp("positives.rq");
    std::fs::write(&file, POSITIVES_QUERY).unwrap();
    let at = format!("@{}", file.display());
    let by_file = learn(&[
        "--positives-query",
        &at,
        "--negatives-query",
        NEGATIVES_QUERY,
    ]);
    assert_eq!(best(&by_file), best(&expected));
    let single = temp("single.json");
    let one =
        serde_json::json!({"positives_query": POSITIVES_QUERY, "negatives_query": NEGATIVES_QUERY});
    std::fs::write(&single, one.to_string()).unwrap();
    assert_eq!(
        best(&learn(&["--problems", single.to_str().unwrap()])),
        best(&expected)
    );
    let list = temp("list.json");
    std::fs::write(&list, Value::Array(vec![one]).to_string()).unwrap();
    assert_eq!(
        best(&learn(&["--problems", list.to_str().unwrap()])),
        best(&expected)
    );
}

#[test]
fn a_positives_query_alone_gets_sampled_negatives() {
    let run = learn(&["--positives-query", POSITIVES_QUERY, "--max-tests", "300"]);
    let positives = answers(POSITIVES_QUERY);
    assert_eq!(run["positives"].as_u64().unwrap() as usize, positives.len());
    assert!(run["negatives"].as_u64().unwrap() > 0, "{run}");
}

#[test]
fn a_bad_query_and_a_missing_problem_are_clear_errors() {
    let err = fails_with(&[
        "learn",
        "--kb",
        FAMILY,
        "--positives-query",
        "SELECT ?a ?b WHERE { ?a ?p ?b }",
    ]);
    assert!(err.contains("one projected variable"), "{err}");
    let err = fails_with(&["learn", "--kb", FAMILY]);
    assert!(
        err.contains("--describe-class") && err.contains("--problems"),
        "{err}"
    );
}

#[test]
fn a_dl_learner_class_learning_conf_runs() {
    let run = json(&[
        "learn",
        "--problems",
        "fixtures/dllearner/old_class.conf",
        "--max-tests",
        "500",
        "--quiet",
        "--json",
    ])[0]
        .clone();
    assert!(run["positives"].as_u64().unwrap() > 0 && run["negatives"].as_u64().unwrap() > 0);
    assert!(
        run["class_learning"]["class"]
            .as_str()
            .unwrap()
            .ends_with("man"),
        "{run}"
    );
    for solution in run["solutions"].as_array().unwrap() {
        let text = solution["manchester"].as_str().unwrap();
        assert!(
            !text
                .split(|c: char| !c.is_alphanumeric())
                .any(|w| w == "man"),
            "{text}"
        );
    }
}

//! oxilearn's SPARQL functions over a caller's store (family fixture): `member` and `score`
//! answer what the model predicts, `covers` what the oracle answers for the expression; a
//! filter over every individual costs the oracle one computation, memoised for later
//! queries; wrong constant arguments fail the query before it runs, wrong per-row ones are
//! reported after.

use std::collections::BTreeSet;
use std::path::Path;

use oxilearn::KnowledgeBase;
use oxilearn::eval::Confusion;
use oxilearn::learn::{ConceptModel, Model, QualityMeasure, Solution};
use oxilearn::oracle::{MembershipOracle, Semantics};
use oxilearn::oxigraph::model::Term;
use oxilearn::oxigraph::sparql::{QueryResults, SparqlEvaluator};
use oxilearn::oxigraph::store::Store;
use oxilearn::sparql_functions::{FunctionError, SparqlFunctions};

const UNCLE: &str = "Male and hasSibling some (hasChild some Thing)";
const FATHER: &str = "Male and hasChild some Thing";

fn family_store() -> Store {
    let store = Store::new().unwrap();
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/family/family.ttl");
    oxilearn::kb::load_file(&store, &path, None).expect("the family fixture loads");
    store
}

/// A concept model of two solutions: `UNCLE` (quality 0.9, the membership) and `FATHER`
/// (quality 0.5, only raises scores).
fn uncle_model(kb: &KnowledgeBase) -> ConceptModel {
    let solution = |text: &str, quality: f64| Solution {
        concept: oxilearn::concept::normalize(&kb.parse_concept(text).unwrap()),
        confusion: Confusion::default(),
        quality,
    };
    ConceptModel {
        quality_measure: QualityMeasure::F1,
        semantics: Semantics::Closed,
        solutions: vec![solution(UNCLE, 0.9), solution(FATHER, 0.5)],
    }
}

fn setup() -> (Store, SparqlFunctions) {
    let store = family_store();
    let functions = SparqlFunctions::new(KnowledgeBase::from_store(store.clone()).unwrap());
    let model = uncle_model(functions.knowledge_base());
    functions.add_model("Uncle", Box::new(model));
    (store, functions)
}

/// The values of `?x` (and of `?v` when bound) of a SELECT, as N-Triples terms.
fn select(store: &Store, f: &SparqlFunctions, query: &str) -> Vec<(String, Option<Term>)> {
    let q = f.prepare(SparqlEvaluator::new(), query).expect("prepares");
    let QueryResults::Solutions(rows) = q.on_store(store).execute().expect("runs") else {
        panic!("not a SELECT")
    };
    let out = rows
        .map(|r| {
            let r = r.expect("a row");
            (r.get("x").unwrap().to_string(), r.get("v").cloned())
        })
        .collect();
    assert!(q.errors().is_empty(), "{:?}", q.errors().messages());
    out
}

fn iris(kb: &KnowledgeBase, text: &str) -> BTreeSet<String> {
    let set = kb.instances(&kb.parse_concept(text).unwrap()).unwrap();
    kb.iris(&set).map(|i| format!("<{}>", i.as_str())).collect()
}

#[test]
fn member_filter_gives_the_model_members_with_one_computation() {
    let (store, f) = setup();
    let kb = f.knowledge_base();
    let before = f.oracle_stats();
    let got: BTreeSet<String> = select(
        &store,
        &f,
        r#"SELECT DISTINCT ?x WHERE { ?x ?p ?o FILTER(<urn:oxilearn:member>(?x, "Uncle")) }"#,
    )
    .into_iter()
    .map(|(x, _)| x)
    .collect();
    let expected = iris(kb, UNCLE);
    assert!(!expected.is_empty());
    assert_eq!(got, expected);
    // Exactly what one prediction over every individual costs on a fresh KB (the model's
    // two solutions, split into the parts the cache answers), not a query per row.
    let first = f.oracle_stats().queries_sent - before.queries_sent;
    let fresh = KnowledgeBase::from_store(store.clone()).unwrap();
    let fresh_before = fresh.oracle().stats().queries_sent;
    uncle_model(&fresh)
        .predict(fresh.oracle(), &fresh.individuals())
        .unwrap();
    let one_prediction = fresh.oracle().stats().queries_sent - fresh_before;
    assert_eq!(first, one_prediction);
    let rows = select(&store, &f, "SELECT ?x WHERE { ?x ?p ?o }").len();
    assert!(
        first * 10 < rows as u64,
        "{first} queries for {rows} rows over {} individuals",
        kb.individuals().len()
    );
    // Memoised: the same filter again asks nothing.
    let again = f.oracle_stats().queries_sent;
    select(
        &store,
        &f,
        r#"SELECT ?x WHERE { ?x a ?t FILTER(<urn:oxilearn:member>(?x, "Uncle")) }"#,
    );
    assert_eq!(f.oracle_stats().queries_sent, again);
}

#[test]
fn score_is_the_best_covering_solution_quality() {
    let (store, f) = setup();
    let kb = f.knowledge_base();
    let rows = select(
        &store,
        &f,
        r#"SELECT DISTINCT ?x ?v WHERE { ?x ?p ?o BIND(<urn:oxilearn:score>(?x, "Uncle") AS ?v) }"#,
    );
    let uncles = iris(kb, UNCLE);
    let fathers = iris(kb, FATHER);
    let mut seen = 0;
    for (x, v) in rows {
        let Some(Term::Literal(v)) = v else {
            // Not an individual of the KB (e.g. a class IRI): no value.
            assert!(
                kb.signature()
                    .individual_id(x.trim_matches(['<', '>']))
                    .is_none()
            );
            continue;
        };
        assert_eq!(
            v.datatype().as_str(),
            "http://www.w3.org/2001/XMLSchema#double"
        );
        let expected = if uncles.contains(&x) {
            0.9
        } else if fathers.contains(&x) {
            0.5
        } else {
            0.0
        };
        assert_eq!(v.value().parse::<f64>().unwrap(), expected, "{x}");
        seen += 1;
    }
    assert!(seen > 0);
}

#[test]
fn covers_answers_constant_and_per_row_expressions() {
    let (store, f) = setup();
    let kb = f.knowledge_base();
    let got: BTreeSet<String> = select(
        &store,
        &f,
        r#"SELECT DISTINCT ?x WHERE { ?x ?p ?o FILTER(<urn:oxilearn:covers>(?x, "Male and hasChild some Thing")) }"#,
    )
    .into_iter()
    .map(|(x, _)| x)
    .collect();
    assert_eq!(got, iris(kb, FATHER));
    // The expression from a variable: checked and answered row by row.
    let got: BTreeSet<String> = select(
        &store,
        &f,
        r#"SELECT DISTINCT ?x WHERE { VALUES ?e { "Female" } ?x ?p ?o FILTER(<urn:oxilearn:covers>(?x, ?e)) }"#,
    )
    .into_iter()
    .map(|(x, _)| x)
    .collect();
    assert_eq!(got, iris(kb, "Female"));
}

#[test]
fn wrong_constant_arguments_fail_the_query_with_a_message() {
    let (_, f) = setup();
    let err = |q: &str| match f.prepare(SparqlEvaluator::new(), q) {
        Err(e) => e,
        Ok(_) => panic!("accepted: {q}"),
    };
    let e = err(r#"ASK { ?x ?p ?o FILTER(<urn:oxilearn:member>(?x, "Aunt")) }"#);
    assert!(matches!(e, FunctionError::Call(_)));
    let text = e.to_string();
    assert!(
        text.contains("\"Aunt\"") && text.contains("loaded: Uncle"),
        "{text}"
    );
    let text =
        err(r#"ASK { ?x ?p ?o FILTER(<urn:oxilearn:covers>(?x, "Male and and")) }"#).to_string();
    assert!(text.contains("Male and and"), "{text}");
    let text =
        err(r#"ASK { ?x ?p ?o FILTER(<urn:oxilearn:covers>(?x, "NoSuchClass")) }"#).to_string();
    assert!(text.contains("NoSuchClass"), "{text}");
    let text = err(r#"ASK { ?x ?p ?o FILTER(<urn:oxilearn:member>(?x)) }"#).to_string();
    assert!(text.contains("2 arguments"), "{text}");
    let text =
        err(r#"ASK { ?x ?p ?o FILTER(<urn:oxilearn:score>(?x, <http://e/Uncle>)) }"#).to_string();
    assert!(text.contains("must be a string"), "{text}");
    let text = err(r#"ASK { ?x ?p ?o FILTER(<urn:oxilearn:predict>(?x, "Uncle")) }"#).to_string();
    assert!(text.contains("unknown function"), "{text}");
    assert!(matches!(
        f.prepare(SparqlEvaluator::new(), "SELECT WHERE"),
        Err(FunctionError::Syntax(_))
    ));
}

#[test]
fn wrong_per_row_arguments_give_no_value_and_are_reported() {
    let (store, f) = setup();
    let q = f
        .prepare(
            SparqlEvaluator::new(),
            r#"SELECT ?x WHERE { VALUES ?m { "Aunt" } ?x ?p ?o FILTER(<urn:oxilearn:member>(?x, ?m)) }"#,
        )
        .expect("a variable argument is checked per row");
    let QueryResults::Solutions(rows) = q.on_store(&store).execute().unwrap() else {
        panic!()
    };
    assert_eq!(rows.count(), 0);
    let messages = q.errors().messages();
    assert_eq!(messages.len(), 1, "{messages:?}");
    assert!(messages[0].contains("\"Aunt\""), "{messages:?}");
}

#[test]
fn saved_models_load_by_name() {
    let (_, f) = setup();
    let kb = f.knowledge_base();
    let model = uncle_model(kb);
    let text = oxilearn::learn::document::to_json(
        &model,
        serde_json::json!({}),
        Some("Uncle"),
        kb.signature(),
    )
    .unwrap();
    let (header, warnings) = f.add_model_json("uncle2", &text).expect("loads");
    assert_eq!(header.problem.as_deref(), Some("Uncle"));
    assert!(warnings.is_empty(), "{warnings:?}");
    assert_eq!(f.model_names(), ["Uncle", "uncle2"]);
    assert!(f.model("uncle2").unwrap().concept().is_some());
    assert!(f.add_model_json("bad", "{}").is_err());
}

//! oxilearn's SPARQL functions over a caller's store (family fixture): `member` and `score`
//! answer what the model predicts, `covers` what the oracle answers for the expression, for
//! every IRI exactly as over a KB that interned the whole active domain, while the functions
//! read only the schema; a call asks about its own individual only (as many queries on a KB
//! ten times larger), and answers are memoised for later rows and queries; wrong constant
//! arguments fail the query before it runs, wrong per-row ones and failures of the store are
//! reported after.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

use oxilearn::KnowledgeBase;
use oxilearn::eval::Confusion;
use oxilearn::learn::{ConceptModel, Model, QualityMeasure, Solution};
use oxilearn::oracle::{IndividualScope, MembershipOracle, OracleOptions, Semantics};
use oxilearn::oxigraph::io::RdfFormat;
use oxilearn::oxigraph::model::Term;
use oxilearn::oxigraph::sparql::{QueryResults, SparqlEvaluator};
use oxilearn::oxigraph::store::Store;
use oxilearn::sparql_functions::{FunctionError, SparqlFunctions};

const UNCLE: &str = "Male and hasSibling some (hasChild some Thing)";
const FATHER: &str = "Male and hasChild some Thing";

fn family_store() -> Store {
    let store = Store::new().unwrap();
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/family/family.ttl");
    oxilearn::files::load_file(&store, &path, None).expect("the family fixture loads");
    store
}

/// A concept model of two solutions: `UNCLE` (quality 0.9, the membership) and `FATHER`
/// (quality 0.5, only raises scores).
fn uncle_model(kb: &KnowledgeBase) -> ConceptModel {
    uncle_model_under(kb, Semantics::Closed)
}

fn uncle_model_under(kb: &KnowledgeBase, semantics: Semantics) -> ConceptModel {
    let solution = |text: &str, quality: f64| Solution {
        concept: oxilearn::concept::normalize(&kb.parse_concept(text).unwrap()),
        confusion: Confusion::default(),
        quality,
    };
    ConceptModel {
        quality_measure: QualityMeasure::F1,
        semantics,
        solutions: vec![solution(UNCLE, 0.9), solution(FATHER, 0.5)],
    }
}

/// The functions over `store` as `oxilearn serve` opens them (the schema only), with the
/// Uncle model.
fn functions_over(store: &Store) -> SparqlFunctions {
    let functions = SparqlFunctions::over_store(store.clone()).unwrap();
    assert_eq!(functions.knowledge_base().signature().individual_count(), 0);
    let model = uncle_model(functions.knowledge_base());
    functions.add_model("Uncle", Box::new(model));
    functions
}

fn setup() -> (Store, SparqlFunctions) {
    let store = family_store();
    let functions = functions_over(&store);
    (store, functions)
}

/// The KB over the whole active domain: what the functions answered from before they read
/// the schema only, the reference here.
fn whole_kb(store: &Store) -> KnowledgeBase {
    KnowledgeBase::builder()
        .oracle_options(OracleOptions {
            scope: IndividualScope::ActiveDomain,
            ..OracleOptions::default()
        })
        .open_store(store.clone())
        .unwrap()
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
    assert_eq!(
        kb.signature().scope.kind,
        oxilearn::oracle::ScopeKind::ActiveDomain
    );
    let set = kb.instances(&kb.parse_concept(text).unwrap()).unwrap();
    kb.iris(&set).map(|i| format!("<{}>", i.as_str())).collect()
}

/// Expressions over every constructor the functions compile (closed world): `⊤`, `¬C`, `∀`,
/// `≤` hold of individuals without any assertion, so they tell a domain check apart.
const EXPRESSIONS: &[&str] = &[
    "Male",
    "not Male",
    "Thing",
    "Nothing",
    "Person and not Parent",
    "hasChild only Male",
    "hasChild max 1 Thing",
    "hasChild min 2 Thing",
    "hasChild exactly 2 Thing",
    "Male or hasChild some Thing",
    "inverse hasChild some Female",
    "hasAncestor some Male",
    "hasSibling value <http://example.org/family#anna>",
    "{<http://example.org/family#anna>, <http://example.org/family#paul>}",
    "hasAge some xsd:integer[>= 50]",
    "isAlive value true",
    "NonPerson",
    "<urn:x:Undeclared>",
];

/// Family plus what tells individuals apart from other IRIs: an instance of a class the
/// schema does not declare, a subject with only a literal value.
fn family_with_strangers() -> Store {
    let store = family_store();
    store
        .load_from_slice(
            RdfFormat::NTriples,
            r#"<urn:x:stranger> <http://www.w3.org/1999/02/22-rdf-syntax-ns#type> <urn:x:Undeclared> .
<urn:x:named-only> <http://example.org/family#hasName> "only a name" .
"#,
        )
        .unwrap();
    store
}

/// Every IRI of the store (subjects, predicates, objects) and one it never mentions.
fn every_iri(store: &Store) -> Vec<String> {
    let mut out = BTreeSet::from(["urn:x:nowhere".to_owned()]);
    for q in store.iter() {
        let q = q.unwrap();
        if let oxilearn::oxigraph::model::NamedOrBlankNode::NamedNode(s) = &q.subject {
            out.insert(s.as_str().to_owned());
        }
        out.insert(q.predicate.as_str().to_owned());
        if let Term::NamedNode(o) = &q.object {
            out.insert(o.as_str().to_owned());
        }
    }
    out.into_iter().collect()
}

/// One row per IRI: the value of each bound variable (`m`, `s`, `o`, `c0`, …) as text.
type Rows = BTreeMap<String, BTreeMap<String, String>>;

fn answers_of(store: &Store, f: &SparqlFunctions, iris: &[String]) -> Rows {
    let mut binds = vec![
        r#"BIND(<urn:oxilearn:member>(?x, "Uncle") AS ?m)"#.to_owned(),
        r#"BIND(<urn:oxilearn:score>(?x, "Uncle") AS ?s)"#.to_owned(),
        r#"BIND(<urn:oxilearn:member>(?x, "UncleOpen") AS ?o)"#.to_owned(),
    ];
    for (i, e) in EXPRESSIONS.iter().enumerate() {
        binds.push(format!(
            "BIND(<urn:oxilearn:covers>(?x, {}) AS ?c{i})",
            serde_json::to_string(e).unwrap()
        ));
    }
    let values: Vec<String> = iris.iter().map(|i| format!("<{i}>")).collect();
    let query = format!(
        "SELECT * WHERE {{ VALUES ?x {{ {} }} {} }}",
        values.join(" "),
        binds.join(" ")
    );
    let q = f.prepare(SparqlEvaluator::new(), &query).expect("prepares");
    let QueryResults::Solutions(rows) = q.on_store(store).execute().expect("runs") else {
        panic!("not a SELECT")
    };
    let mut out = Rows::new();
    for row in rows {
        let row = row.unwrap();
        let Some(Term::NamedNode(x)) = row.get("x") else {
            panic!("no ?x")
        };
        let values = row
            .iter()
            .filter(|(v, _)| v.as_str() != "x")
            .map(|(v, t)| {
                let text = match t {
                    Term::Literal(l) => l.value().to_owned(),
                    other => other.to_string(),
                };
                (v.as_str().to_owned(), text)
            })
            .collect();
        out.insert(x.as_str().to_owned(), values);
    }
    assert!(q.errors().is_empty(), "{:?}", q.errors().messages());
    out
}

/// What the functions answered before: every answer computed over the whole KB, nothing for
/// an IRI that is not one of its individuals.
fn answers_over_the_whole_kb(store: &Store, iris: &[String]) -> Rows {
    let kb = whole_kb(store);
    let all = kb.individuals();
    let sig = kb.signature();
    let closed = uncle_model(&kb);
    let open = uncle_model_under(&kb, Semantics::Open);
    let predictions = closed.predict(kb.oracle(), &all).unwrap();
    let open_members = kb
        .oracle()
        .members(open.concept().unwrap(), &all, Semantics::Open)
        .unwrap();
    let covered: Vec<_> = EXPRESSIONS
        .iter()
        .map(|e| kb.instances(&kb.parse_concept(e).unwrap()).unwrap())
        .collect();
    let mut out = Rows::new();
    for iri in iris {
        let mut values = BTreeMap::new();
        if let Some(id) = sig.individual_id(iri) {
            let p = predictions.iter().find(|p| p.individual == id).unwrap();
            values.insert("m".to_owned(), p.member.to_string());
            if let Some(r) = p.ranking_value() {
                // As the function writes it: an xsd:double's canonical form.
                let literal = oxilearn::oxigraph::model::Literal::from(r);
                values.insert("s".to_owned(), literal.value().to_owned());
            }
            values.insert("o".to_owned(), open_members.contains(id).to_string());
            for (i, set) in covered.iter().enumerate() {
                values.insert(format!("c{i}"), set.contains(id).to_string());
            }
        }
        out.insert(iri.clone(), values);
    }
    out
}

#[test]
fn every_answer_is_the_whole_kb_answer_while_only_the_schema_is_read() {
    let store = family_with_strangers();
    let f = functions_over(&store);
    let open = uncle_model_under(f.knowledge_base(), Semantics::Open);
    f.add_model("UncleOpen", Box::new(open));
    let iris = every_iri(&store);
    let expected = answers_over_the_whole_kb(&store, &iris);
    let got = answers_of(&store, &f, &iris);
    // The reference saw individuals, schema entities, literal-only subjects and strangers.
    let with_values = expected.values().filter(|v| !v.is_empty()).count();
    assert!(
        with_values > 20 && with_values < iris.len(),
        "{with_values}"
    );
    assert!(!expected["urn:x:stranger"].is_empty());
    assert!(expected["urn:x:named-only"].is_empty());
    assert!(expected["urn:x:Undeclared"].is_empty());
    assert!(expected["http://example.org/family#Male"].is_empty());
    for iri in &iris {
        assert_eq!(got[iri], expected[iri], "{iri}");
    }
}

/// The queries one call sends and the rows they bring back, on fresh functions over
/// `store`.
fn cost_of_one_call(store: &Store, call: &str) -> (u64, u64) {
    let f = functions_over(store);
    let before = f.oracle_stats();
    let query = format!("SELECT ?v WHERE {{ BIND({call} AS ?v) }}");
    let q = f.prepare(SparqlEvaluator::new(), &query).unwrap();
    assert_eq!(
        f.oracle_stats().queries_sent,
        before.queries_sent,
        "prepare asks the store nothing"
    );
    let QueryResults::Solutions(rows) = q.on_store(store).execute().unwrap() else {
        panic!()
    };
    let values: Vec<_> = rows.map(|r| r.unwrap().get("v").cloned()).collect();
    assert!(values[0].is_some(), "{call}: {values:?}");
    assert!(q.errors().is_empty(), "{:?}", q.errors().messages());
    let after = f.oracle_stats();
    (
        after.queries_sent - before.queries_sent,
        after.rows_received - before.rows_received,
    )
}

#[test]
fn one_call_costs_the_same_on_a_kb_ten_times_larger() {
    let small = family_store();
    let mut replicated = Vec::new();
    oxilearn::files::replicate_store(&small, 10, &mut replicated).unwrap();
    let large = Store::new().unwrap();
    large
        .load_from_slice(RdfFormat::NTriples, &replicated)
        .unwrap();
    // The schema is written once, the ABox ten times.
    assert!(large.len().unwrap() > 5 * small.len().unwrap());
    let paul = "<http://example.org/family#paul>";
    for call in [
        format!(r#"<urn:oxilearn:member>({paul}, "Uncle")"#),
        format!(r#"<urn:oxilearn:score>({paul}, "Uncle")"#),
        format!(r#"<urn:oxilearn:covers>({paul}, "Male and hasChild only (not Male)")"#),
        format!(r#"<urn:oxilearn:covers>({paul}, "hasAncestor some Thing")"#),
    ] {
        let small_cost = cost_of_one_call(&small, &call);
        let large_cost = cost_of_one_call(&large, &call);
        // The domain check and the expressions: a query each, a row at most each (the
        // answers over the whole KB would bring back ten times the rows here).
        let (queries, rows) = small_cost;
        assert!(queries > 0 && queries <= 3, "{call}: {queries} queries");
        assert!(rows <= queries, "{call}: {rows} rows");
        assert_eq!(small_cost, large_cost, "{call}");
    }
}

#[test]
fn member_filter_gives_the_model_members_and_repeated_rows_read_the_memo() {
    let (store, f) = setup();
    let whole = whole_kb(&store);
    let got: BTreeSet<String> = select(
        &store,
        &f,
        r#"SELECT DISTINCT ?x WHERE { ?x ?p ?o FILTER(<urn:oxilearn:member>(?x, "Uncle")) }"#,
    )
    .into_iter()
    .map(|(x, _)| x)
    .collect();
    let expected = iris(&whole, UNCLE);
    assert!(!expected.is_empty());
    assert_eq!(got, expected);
    // A query per distinct subject at most (its domain check, then the expression), not
    // one per row.
    let sent = f.oracle_stats().queries_sent;
    let rows = select(&store, &f, "SELECT ?x WHERE { ?x ?p ?o }").len();
    let subjects = select(&store, &f, "SELECT DISTINCT ?x WHERE { ?x ?p ?o }").len();
    assert!(
        sent <= 2 * subjects as u64,
        "{sent} queries, {subjects} subjects"
    );
    assert!(sent * 2 < rows as u64, "{sent} queries for {rows} rows");
    // Memoised: the same filter again, and another query over the same individuals, ask
    // nothing.
    select(
        &store,
        &f,
        r#"SELECT ?x WHERE { ?x a ?t FILTER(<urn:oxilearn:member>(?x, "Uncle")) }"#,
    );
    assert_eq!(f.oracle_stats().queries_sent, sent);
}

#[test]
fn score_is_the_best_covering_solution_quality() {
    let (store, f) = setup();
    let whole = whole_kb(&store);
    let rows = select(
        &store,
        &f,
        r#"SELECT DISTINCT ?x ?v WHERE { ?x ?p ?o BIND(<urn:oxilearn:score>(?x, "Uncle") AS ?v) }"#,
    );
    let uncles = iris(&whole, UNCLE);
    let fathers = iris(&whole, FATHER);
    let mut seen = 0;
    for (x, v) in rows {
        let Some(Term::Literal(v)) = v else {
            // Not an individual of the KB (e.g. a class IRI): no value.
            assert!(
                whole
                    .signature()
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
fn a_store_failure_on_a_row_is_reported_as_one() {
    let store = family_store();
    // Without grouped sub-selects, `min 2` over one individual cannot be answered.
    let kb = KnowledgeBase::builder()
        .oracle_options(OracleOptions {
            scope: IndividualScope::Schema,
            counting: false,
            ..OracleOptions::default()
        })
        .open_store(store.clone())
        .unwrap();
    let f = SparqlFunctions::new(kb);
    let q = f
        .prepare(
            SparqlEvaluator::new(),
            r#"SELECT ?v WHERE { BIND(<urn:oxilearn:covers>(<http://example.org/family#george>, "hasChild min 2 Thing") AS ?v) }"#,
        )
        .expect("the expression parses: the failure comes with the row");
    let QueryResults::Solutions(rows) = q.on_store(&store).execute().unwrap() else {
        panic!()
    };
    let values: Vec<_> = rows.map(|r| r.unwrap().get("v").cloned()).collect();
    assert_eq!(values, [None]);
    assert!(q.errors().store_failed(), "{:?}", q.errors().messages());
    assert!(!q.errors().is_empty());
}

#[test]
fn covers_answers_constant_and_per_row_expressions() {
    let (store, f) = setup();
    let whole = whole_kb(&store);
    let kb = &whole;
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

#[test]
fn an_update_calls_the_functions_row_by_row() {
    let (store, f) = setup();
    let whole = whole_kb(&store);
    let prepared = f
        .prepare_update(
            SparqlEvaluator::new(),
            r#"INSERT { ?x a <urn:x:Uncle> } WHERE { ?x a ?t FILTER(<urn:oxilearn:member>(?x, "Uncle")) }"#,
        )
        .expect("prepares");
    let errors = prepared.errors();
    prepared.update.on_store(&store).execute().expect("runs");
    assert!(errors.is_empty(), "{:?}", errors.messages());
    let got: BTreeSet<String> = select(&store, &f, "SELECT ?x WHERE { ?x a <urn:x:Uncle> }")
        .into_iter()
        .map(|(x, _)| x)
        .collect();
    assert_eq!(got, iris(&whole, UNCLE));
}

//! Loading messy KB files: fixtures we wrote, garbage, and the shared real datasets.

use crate::common::datasets;

use std::path::{Path, PathBuf};

use oxigraph::model::{GraphNameRef, LiteralRef, NamedNode, NamedNodeRef, QuadRef, TermRef};
use oxigraph::store::Store;
use oxilearn::files::{KbFormat, LoadError, load_file, load_file_into_graph, load_files};

const RDF_TYPE: &str = "http://www.w3.org/1999/02/22-rdf-syntax-ns#type";
const RDFS_LABEL: &str = "http://www.w3.org/2000/01/rdf-schema#label";
const RDFS_SUBCLASS: &str = "http://www.w3.org/2000/01/rdf-schema#subClassOf";

fn fixture(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("fixtures/loading")
        .join(name)
}

fn nn(iri: &str) -> NamedNodeRef<'_> {
    NamedNodeRef::new(iri).expect("valid IRI in test")
}

fn has(store: &Store, s: &str, p: &str, o: TermRef<'_>) -> bool {
    store
        .contains(QuadRef::new(nn(s), nn(p), o, GraphNameRef::DefaultGraph))
        .expect("store query")
}

fn load(name: &str) -> (Store, oxilearn::files::LoadReport) {
    let store = Store::new().expect("store");
    let report = load_file(&store, &fixture(name), None)
        .unwrap_or_else(|e| panic!("loading {name} failed: {e}"));
    (store, report)
}

#[test]
fn latin1_rdfxml_is_transcoded() {
    let (store, report) = load("latin1.rdf");
    assert_eq!(report.format, KbFormat::RdfXml);
    assert_eq!(report.triples_loaded, 2);
    let label = LiteralRef::new_language_tagged_literal_unchecked("Café de la Gare, à côté", "fr");
    assert!(has(
        &store,
        "http://example.org/cafe#place1",
        RDFS_LABEL,
        label.into()
    ));
    assert!(has(
        &store,
        "http://example.org/cafe#place1",
        RDF_TYPE,
        nn("http://example.org/cafe#Café").into()
    ));
}

#[test]
fn utf16_with_bom_is_transcoded() {
    let (store, report) = load("utf16.rdf");
    assert_eq!(report.triples_loaded, 2);
    let label = LiteralRef::new_language_tagged_literal_unchecked("Café de la Gare, à côté", "fr");
    assert!(has(
        &store,
        "http://example.org/cafe#place1",
        RDFS_LABEL,
        label.into()
    ));
}

#[test]
fn turtle_behind_owl_extension_is_sniffed() {
    let (store, report) = load("turtle_saved_as.owl");
    assert_eq!(report.format, KbFormat::Turtle);
    assert_eq!(report.triples_loaded, 5);
    assert!(
        report.warnings.iter().any(|w| w.contains("turtle")),
        "{report:?}"
    );
    assert!(has(
        &store,
        "http://example.org/zoo#Cat",
        RDFS_SUBCLASS,
        nn("http://example.org/zoo#Animal").into()
    ));
}

#[test]
fn ntriples_behind_rdf_extension_is_sniffed() {
    let (_, report) = load("ntriples_saved_as.rdf");
    assert_eq!(report.format, KbFormat::NTriples);
    assert_eq!(report.triples_loaded, 3);
}

#[test]
fn doctype_entities_are_expanded() {
    let (store, report) = load("entities.owl");
    assert_eq!(report.format, KbFormat::RdfXml);
    assert_eq!(report.triples_loaded, 6);
    assert!(has(
        &store,
        "http://example.org/fam#Parent",
        RDFS_SUBCLASS,
        nn("http://example.org/fam#Person").into()
    ));
    assert!(has(
        &store,
        "http://example.org/fam#ann",
        "http://www.w3.org/2000/01/rdf-schema#comment",
        LiteralRef::new_simple_literal("Tom & Ann").into()
    ));
}

#[test]
fn gzipped_turtle_is_inflated() {
    let (store, report) = load("small.ttl.gz");
    assert_eq!(report.format, KbFormat::Turtle);
    assert_eq!(report.triples_loaded, 3);
    assert!(has(
        &store,
        "http://example.org/gz#c",
        "http://example.org/gz#q",
        LiteralRef::new_simple_literal("done").into()
    ));
}

#[test]
#[cfg(feature = "owl")]
fn owl_xml_goes_through_horned_owl() {
    for name in ["small.owx", "owx_saved_as.owl"] {
        let (store, report) = load(name);
        assert_eq!(report.format, KbFormat::OwlXml, "{name}");
        assert!(
            report.warnings.iter().all(|w| !w.contains("dropped")),
            "{report:?}"
        );
        assert!(has(
            &store,
            "http://example.org/owx#Parent",
            RDFS_SUBCLASS,
            nn("http://example.org/owx#Person").into()
        ));
        assert!(has(
            &store,
            "http://example.org/owx#ann",
            RDF_TYPE,
            nn("http://example.org/owx#Parent").into()
        ));
    }
}

#[test]
#[cfg(feature = "owl")]
fn owl_xml_dropped_items_are_reported() {
    let (_, report) = load("dropped_item.owx");
    assert!(
        report.warnings.iter().any(|w| w.contains("1 were dropped")),
        "{report:?}"
    );
}

#[test]
#[cfg(feature = "owl")]
fn functional_syntax_goes_through_horned_owl() {
    let (store, report) = load("small.ofn");
    assert_eq!(report.format, KbFormat::OwlFunctional);
    assert!(report.warnings.is_empty(), "{report:?}");
    assert!(has(
        &store,
        "http://example.org/ofn#ann",
        "http://example.org/ofn#hasChild",
        nn("http://example.org/ofn#bob").into()
    ));
    // All three pairs of the three-way disjointness must survive the RDF rendering.
    let disjoint = "http://www.w3.org/2002/07/owl#disjointWith";
    let pairs = store
        .quads_for_pattern(None, Some(nn(disjoint)), None, None)
        .count();
    assert_eq!(pairs, 3);
    assert!(has(
        &store,
        "http://example.org/ofn#Parent",
        disjoint,
        nn("http://www.w3.org/2002/07/owl#Nothing").into()
    ));
}

#[test]
#[cfg(feature = "owl")]
fn manchester_syntax_goes_through_horned_owl() {
    let (store, report) = load("small.omn");
    assert_eq!(report.format, KbFormat::Manchester);
    // One plain-words warning (no axiom count exists for this syntax), without the path:
    // the caller prints `path: warning`, so a path inside it would appear twice.
    assert_eq!(report.warnings.len(), 1, "{report:?}");
    assert!(report.warnings[0].contains("Manchester"), "{report:?}");
    assert!(!report.warnings[0].contains("small.omn"), "{report:?}");
    assert!(!report.warnings[0].contains("census"), "{report:?}");
    assert!(has(
        &store,
        "http://example.org/omn#ann",
        RDF_TYPE,
        nn("http://example.org/omn#Parent").into()
    ));
}

/// Without horned-owl (`--no-default-features`) the OWL-only syntaxes fail with an error
/// that names the file and the feature, and RDF/XML `.owl` files still load.
#[test]
#[cfg(not(feature = "owl"))]
fn owl_syntaxes_need_the_owl_feature() {
    let store = Store::new().expect("store");
    for name in ["small.owx", "small.ofn", "small.omn"] {
        let err = load_file(&store, &fixture(name), None).expect_err(name);
        assert!(
            matches!(err, LoadError::FeatureDisabled { feature: "owl", .. }),
            "{err:?}"
        );
        let text = err.to_string();
        assert!(text.contains(name) && text.contains("`owl`"), "{text}");
    }
    assert!(load_file(&store, &fixture("entities.owl"), None).is_ok());
}

#[test]
fn broken_turtle_names_file_and_line() {
    let store = Store::new().expect("store");
    let err = load_file(&store, &fixture("broken.ttl"), None).expect_err("must fail");
    let msg = err.to_string();
    assert!(msg.contains("broken.ttl"), "{msg}");
    assert!(
        matches!(err, LoadError::Syntax { line: Some(4), .. }),
        "{msg} / {err:?}"
    );
    assert!(msg.contains("line 4"), "{msg}");
    assert!(
        store.is_empty().expect("store"),
        "a failed file must not leave triples"
    );
}

#[test]
fn empty_files_are_errors() {
    let store = Store::new().expect("store");
    for name in ["empty.ttl", "only_prefixes.ttl"] {
        let err = load_file(&store, &fixture(name), None).expect_err(name);
        let msg = err.to_string();
        assert!(msg.starts_with("no triples in"), "{msg}");
        assert!(msg.contains(name), "{msg}");
    }
}

#[test]
fn missing_file_is_an_io_error_naming_it() {
    let store = Store::new().expect("store");
    let err = load_file(&store, &fixture("nope.ttl"), None).expect_err("missing");
    assert!(matches!(err, LoadError::Io { .. }));
    assert!(err.to_string().contains("nope.ttl"));
}

#[test]
fn forced_format_overrides_sniffing() {
    let store = Store::new().expect("store");
    // Forcing RDF/XML onto Turtle must fail, not silently sniff.
    let err = load_file(
        &store,
        &fixture("turtle_saved_as.owl"),
        Some(KbFormat::RdfXml),
    );
    assert!(err.is_err());
    let ok = load_file(
        &store,
        &fixture("turtle_saved_as.owl"),
        Some(KbFormat::Turtle),
    )
    .expect("forced turtle");
    assert!(ok.warnings.is_empty());
}

#[test]
fn format_names_parse() {
    for (s, f) in [
        ("turtle", KbFormat::Turtle),
        ("RDFXML", KbFormat::RdfXml),
        ("ntriples", KbFormat::NTriples),
        ("nquads", KbFormat::NQuads),
        ("trig", KbFormat::TriG),
        ("owlxml", KbFormat::OwlXml),
        ("ofn", KbFormat::OwlFunctional),
        ("omn", KbFormat::Manchester),
    ] {
        assert_eq!(s.parse::<KbFormat>(), Ok(f));
    }
    assert!("bogus".parse::<KbFormat>().is_err());
    assert_eq!(
        KbFormat::from_path(Path::new("a/b.nt.gz")),
        Some(KbFormat::NTriples)
    );
    assert_eq!(
        KbFormat::from_path(Path::new("x.OWL")),
        Some(KbFormat::RdfXml)
    );
    assert_eq!(
        KbFormat::from_path(Path::new("x.owx")),
        Some(KbFormat::OwlXml)
    );
    assert_eq!(KbFormat::from_path(Path::new("x")), None);
}

#[test]
fn named_graph_and_several_files() {
    let store = Store::new().expect("store");
    let g = NamedNode::new("http://example.org/graph").expect("iri");
    let r = load_file_into_graph(&store, &fixture("small.ttl.gz"), None, Some(g.clone()))
        .expect("load");
    assert_eq!(r.triples_loaded, 3);
    assert_eq!(
        store
            .quads_for_pattern(None, None, None, Some(g.as_ref().into()))
            .count(),
        3
    );
    let reports = load_files(
        &store,
        &[fixture("latin1.rdf"), fixture("entities.owl")],
        None,
    )
    .expect("load");
    assert_eq!(reports.len(), 2);
}

/// Garbage of every kind must give an error naming the file, never a panic.
#[test]
fn garbage_never_panics() {
    let dir = std::env::temp_dir().join(format!("oxilearn-kb-garbage-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("tmp dir");
    let gz = std::fs::read(fixture("small.ttl.gz")).expect("fixture");
    let mut noise = Vec::new();
    let mut x: u32 = 12345;
    for _ in 0..4096 {
        x = x.wrapping_mul(1_103_515_245).wrapping_add(12345);
        noise.push((x >> 16) as u8);
    }
    let cases: Vec<(&str, Vec<u8>)> = vec![
        ("truncated.ttl.gz", gz[..gz.len() / 2].to_vec()),
        ("noise.owl", noise.clone()),
        ("noise.gz", [&[0x1f, 0x8b][..], &noise].concat()),
        ("noise.owx", noise.clone()),
        ("noise.ofn", noise.clone()),
        ("noise.omn", noise.clone()),
        ("noise.ttl", noise.clone()),
        ("noise", noise),
        ("half.owx", include_bytes!("../../fixtures/loading/small.owx")[..300].to_vec()),
        ("half.ofn", include_bytes!("../../fixtures/loading/small.ofn")[..200].to_vec()),
        ("half.owl", include_bytes!("../../fixtures/loading/entities.owl")[..120].to_vec()),
        ("fake.ofn", b"Ontology(<http://x> SubClassOf(".to_vec()),
        ("fake.omn", b"Prefix: : <http://x#>\nClass: (((".to_vec()),
        ("bad-entity.owl", b"<?xml version=\"1.0\"?><!DOCTYPE rdf:RDF [<!ENTITY a SYSTEM \"x\">]><rdf:RDF/>".to_vec()),
        ("laughs.owl", b"<!DOCTYPE r [<!ENTITY a \"&a;&a;\">]><rdf:RDF xmlns:rdf=\"http://www.w3.org/1999/02/22-rdf-syntax-ns#\">&a;</rdf:RDF>".to_vec()),
        ("bad-encoding.rdf", b"<?xml version=\"1.0\" encoding=\"klingon\"?><rdf:RDF/>".to_vec()),
    ];
    let store = Store::new().expect("store");
    for (name, bytes) in cases {
        let path = dir.join(name);
        std::fs::write(&path, bytes).expect("write");
        // A panic here fails the test, which is the point.
        let err = load_file(&store, &path, None).expect_err(name);
        println!("{err}");
        assert!(err.to_string().contains(name), "{name}: {err}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// Every real KB file loads to a plausible number of triples.
#[test]
fn real_datasets_load() {
    let Some(dir) = datasets::datasets_or_skip("") else {
        return;
    };
    // (file, minimum, maximum) — the datasets README's figures where it gives them, else a
    // loose range.
    let expected: &[(&str, usize, usize)] = &[
        ("family/family-benchmark_rich_background.owl", 2_032, 2_032),
        ("family-poor/family-benchmark.owl", 1_000, 100_000),
        ("carcinogenesis/carcinogenesis.nt.gz", 74_227, 74_227),
        ("father/father.owl", 17, 17),
        ("trains/trains.owl", 50, 10_000),
        ("trains/trains2.owl", 50, 10_000),
        ("mdm/MDM0.73.owl", 1_193, 1_193),
        ("wine/wine.rdf", 3_256, 3_256),
        ("biopax/biopax.owl", 3_047, 3_047),
        ("uobm/univ-bench-dl.owl", 100, 10_000),
        ("uobm/lubm-univ-bench.owl", 100, 10_000),
        ("animals/animals.owl", 100, 10_000),
        ("mammographic/mammographic.owl", 6_823, 6_823),
        ("lymphography/lymphography.owl", 2_198, 2_198),
        ("suramin/suramin.owl", 13_507, 13_507),
        ("heart/heart.owl", 4_118, 4_118),
        ("fuzzytrains/fuzzyTrains_v5.0.owl", 50, 10_000),
        ("fuzzytrains/fuzzytrains.owl", 50, 10_000),
        ("literals/doubles.owl", 10, 1_000),
    ];
    let mut failures = Vec::new();
    for (file, min, max) in expected {
        let path = dir.join(file);
        if !path.exists() {
            println!("skipping {file}: absent");
            continue;
        }
        let store = Store::new().expect("store");
        match load_file(&store, &path, None) {
            Ok(r) => {
                let distinct = store.len().expect("len");
                println!(
                    "{file}: {} statements ({distinct} distinct) as {}, {} warnings {:?}",
                    r.triples_loaded,
                    r.format,
                    r.warnings.len(),
                    r.warnings
                );
                if r.triples_loaded < *min || r.triples_loaded > *max {
                    failures.push(format!("{file}: {} not in {min}..={max}", r.triples_loaded));
                }
            }
            Err(e) => failures.push(e.to_string()),
        }
    }
    assert!(failures.is_empty(), "{failures:#?}");
}

// DL-Learner's `.kb` syntax (fixtures/dllearner, hand-written).

const FOO: &str = "http://localhost/foo#";
const OWL: &str = "http://www.w3.org/2002/07/owl#";

fn dllearner(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("fixtures/dllearner")
        .join(name)
}

fn foo(local: &str) -> String {
    format!("{FOO}{local}")
}

fn ask(store: &Store, pattern: &str) -> bool {
    let q = format!(
        "PREFIX : <{FOO}> PREFIX owl: <{OWL}> \
         PREFIX rdfs: <http://www.w3.org/2000/01/rdf-schema#> \
         PREFIX xsd: <http://www.w3.org/2001/XMLSchema#> ASK {{ {pattern} }}"
    );
    match oxigraph::sparql::SparqlEvaluator::new()
        .parse_query(&q)
        .expect("test query parses")
        .on_store(store)
        .execute()
        .expect("query runs")
    {
        oxigraph::sparql::QueryResults::Boolean(b) => b,
        _ => panic!("ASK gives a boolean"),
    }
}

#[test]
fn dl_learner_kb_abox_and_rbox_become_owl() {
    let store = Store::new().expect("store");
    let report = load_file(&store, &dllearner("family.kb"), None).expect("family.kb loads");
    assert_eq!(report.format, KbFormat::DlLearnerKb);
    assert!(report.warnings.is_empty(), "{:?}", report.warnings);
    let iri = |s: &str| NamedNode::new(foo(s)).expect("iri");
    // C(i) and r(a,b)
    assert!(has(
        &store,
        &foo("heinrich"),
        RDF_TYPE,
        iri("man").as_ref().into()
    ));
    assert!(has(
        &store,
        &foo("heinrich"),
        &foo("married"),
        iri("susi").as_ref().into()
    ));
    // BOTTOM = (man AND woman): disjointness
    assert!(ask(&store, ":man owl:disjointWith :woman"));
    // the RBox
    assert!(ask(
        &store,
        ":married a owl:FunctionalProperty, owl:SymmetricProperty"
    ));
    assert!(ask(&store, ":hasSibling a owl:SymmetricProperty"));
    assert!(ask(&store, ":hasDescendant a owl:TransitiveProperty"));
    assert!(ask(&store, ":hasChild owl:inverseOf :hasParent"));
    assert!(ask(&store, ":hasChild rdfs:subPropertyOf :hasDescendant"));
    // declarations
    assert!(ask(
        &store,
        ":man a owl:Class . :hasChild a owl:ObjectProperty . :otto a owl:NamedIndividual"
    ));
    // a quoted full IRI stays as it is
    assert!(ask(
        &store,
        "<http://example.org/other#r2d2> a <http://example.org/other#Robot>"
    ));
}

#[test]
fn dl_learner_kb_concepts_and_tbox_become_owl() {
    let store = Store::new().expect("store");
    load_file(&store, &dllearner("concepts.kb"), None).expect("concepts.kb loads");
    for (what, pattern) in [
        (
            "= AND EXISTS TOP",
            ":parent owl:equivalentClass [ owl:intersectionOf ( :person [ owl:onProperty :hasChild ; owl:someValuesFrom owl:Thing ] ) ]",
        ),
        ("SUB", ":father rdfs:subClassOf :parent"),
        (
            "SUBCLASSOF",
            ":mother rdfs:subClassOf [ owl:intersectionOf ( :parent :woman ) ]",
        ),
        (
            "SUBCONCEPTOF NOT",
            ":childless rdfs:subClassOf [ owl:intersectionOf ( :person [ owl:complementOf [ owl:onProperty :hasChild ; owl:someValuesFrom owl:Thing ] ] ) ]",
        ),
        (
            "ALL OR FORALL",
            ":happy owl:equivalentClass [ owl:unionOf ( [ owl:onProperty :hasChild ; owl:allValuesFrom :happy ] [ owl:onProperty :hasFriend ; owl:allValuesFrom :happy ] ) ]",
        ),
        (
            ">=",
            ":bigFamily owl:equivalentClass [ owl:onProperty :hasChild ; owl:minQualifiedCardinality 3 ; owl:onClass :person ]",
        ),
        (
            "<=",
            ":smallFamily owl:equivalentClass [ owl:onProperty :hasChild ; owl:maxQualifiedCardinality 1 ; owl:onClass owl:Thing ]",
        ),
        (
            "NEG SOME BOTTOM",
            ":nice owl:equivalentClass [ owl:intersectionOf ( [ owl:complementOf :grumpy ] [ owl:onProperty :likes ; owl:someValuesFrom [ owl:unionOf ( :cake owl:Nothing ) ] ] ) ]",
        ),
        (
            "IS FALSE",
            ":vegan owl:equivalentClass [ owl:onProperty :eatsMeat ; owl:hasValue false ]",
        ),
        (
            "IS TRUE",
            ":adult owl:equivalentClass [ owl:onProperty :isAdult ; owl:hasValue true ]",
        ),
        (
            "HASVALUE",
            ":friendOfAnna owl:equivalentClass [ owl:onProperty :hasFriend ; owl:hasValue :anna ]",
        ),
        (
            "STRINGVALUE",
            ":named owl:equivalentClass [ owl:onProperty :hasName ; owl:hasValue \"Anna\" ]",
        ),
        ("DOMAIN", ":hasChild rdfs:domain :person"),
        ("RANGE", ":hasChild rdfs:range :person"),
        ("OPDOMAIN", ":hasFriend rdfs:domain :person"),
        ("OBJECTPROPERTYRANGE", ":likes rdfs:range owl:Thing"),
        (
            "DPDOMAIN",
            ":isAdult rdfs:domain :person ; a owl:DatatypeProperty",
        ),
        ("DPRANGE BOOLEAN", ":isAdult rdfs:range xsd:boolean"),
        ("DATATYPEPROPERTYRANGE INTEGER", ":age rdfs:range xsd:int"),
        (
            "complex assertion",
            ":anna a [ owl:intersectionOf ( :person [ owl:complementOf :parent ] ) ]",
        ),
        ("atomic assertion", ":anna a :person"),
    ] {
        assert!(ask(&store, pattern), "{what}: {pattern}");
    }
}

#[test]
fn dl_learner_kb_is_recognised_without_its_extension() {
    let dir = std::env::temp_dir().join(format!("oxilearn-kb-sniff-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("tmp dir");
    let file = dir.join("facts.txt");
    std::fs::copy(dllearner("family.kb"), &file).expect("copy");
    let store = Store::new().expect("store");
    let report = load_file(&store, &file, None).expect("sniffed");
    assert_eq!(report.format, KbFormat::DlLearnerKb);
    assert_eq!(
        "dl-learner-kb".parse::<KbFormat>(),
        Ok(KbFormat::DlLearnerKb)
    );
    assert_eq!("kb".parse::<KbFormat>(), Ok(KbFormat::DlLearnerKb));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn dl_learner_kb_errors_give_line_and_column() {
    for (name, line, column, needle) in [
        ("missing_dot.kb", 3, 1, "expected '.'"),
        ("negated_role.kb", 2, 1, "negated role assertions"),
        ("bad_concept.kb", 2, 14, "write parentheses"),
    ] {
        let store = Store::new().expect("store");
        let e = load_file(&store, &dllearner(name), None).expect_err(name);
        match &e {
            LoadError::Syntax {
                line: l, column: c, ..
            } => assert_eq!((*l, *c), (Some(line), Some(column)), "{name}: {e}"),
            other => panic!("{name}: expected a syntax error, got {other}"),
        }
        let msg = e.to_string();
        assert!(msg.contains(name) && msg.contains(needle), "{msg}");
        // Nothing of a broken file reaches the store.
        assert!(store.is_empty().expect("store"), "{name}");
    }
}

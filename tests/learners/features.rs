//! Neighbourhood features on `fixtures/assays` (compounds with a boolean assay outcome and
//! parts of two kinds): the table has the frequent non-numeric data values (`assay value
//! true`), `∃p.Literal` for the data properties, qualified counts (`hasPart min 2 Nitro`)
//! with their columns right when asked for, no value features for numeric literals, and
//! neither values nor counts when the thresholds rule them out (counts are off by default).

use oxilearn::concept::{Concept, DataRange, Iri, parse_manchester};
use oxilearn::learn::features::{FeatureParams, FeatureTable};
use oxilearn::oracle::backend::EmbeddedBackend;
use oxilearn::oracle::{
    CacheOptions, Cached, IndividualId, IndividualSet, MembershipOracle, OracleOptions,
    SparqlOracle,
};

const EX: &str = "http://example.org/assays#";
const COMPOUNDS: usize = 60;

type Oracle = Cached<SparqlOracle<EmbeddedBackend>>;

fn oracle() -> Oracle {
    let kb = std::fs::read_to_string("fixtures/assays/assays.ttl").expect("the fixture");
    let store = oxigraph::store::Store::new().unwrap();
    store
        .load_from_reader(oxigraph::io::RdfFormat::Turtle, kb.as_bytes())
        .unwrap();
    let sparql = SparqlOracle::new(EmbeddedBackend::new(store), OracleOptions::default()).unwrap();
    Cached::new(sparql, CacheOptions::default())
}

fn compounds(o: &Oracle) -> Vec<IndividualId> {
    (0..COMPOUNDS)
        .map(|i| {
            o.signature()
                .individual_id(&format!("{EX}c{i}"))
                .expect("a compound")
        })
        .collect()
}

fn table(o: &Oracle, params: &FeatureParams) -> (FeatureTable, Vec<IndividualId>) {
    let rows = compounds(o);
    let among = IndividualSet::from_ids(o.signature().individual_count(), rows.iter().copied());
    (FeatureTable::build(o, &rows, &among, params).unwrap(), rows)
}

fn concept(o: &Oracle, text: &str) -> Concept {
    parse_manchester(text, &o.signature().vocabulary()).expect(text)
}

/// `∃p.Literal`: has some value of `p`.
fn has_some_value(property: &str) -> Concept {
    Concept::Data {
        property: Iri::new(format!("{EX}{property}")),
        range: DataRange::Datatype(Iri::new("http://www.w3.org/2000/01/rdf-schema#Literal")),
    }
}

/// The rows (compound numbers) a feature holds for, if the table has it.
fn column(t: &FeatureTable, c: &Concept) -> Option<Vec<usize>> {
    let i = t.concepts.iter().position(|x| x == c)?;
    Some(t.columns[i].ones().collect())
}

#[test]
fn boolean_values_and_counts_are_features_with_the_right_columns() {
    let o = oracle();
    let params = FeatureParams {
        max_counts: 4,
        ..FeatureParams::default()
    };
    let (t, _) = table(&o, &params);
    let assay_true = concept(&o, &format!("<{EX}assay> value true"));
    let expected: Vec<usize> = (0..COMPOUNDS).filter(|i| i % 4 == 0).collect();
    assert_eq!(column(&t, &assay_true), Some(expected));
    // `assay false` is a different column; `assay` has no value for every fourth compound.
    let assay_false = concept(&o, &format!("<{EX}assay> value false"));
    let expected: Vec<usize> = (0..COMPOUNDS).filter(|i| matches!(i % 4, 1 | 2)).collect();
    assert_eq!(column(&t, &assay_false), Some(expected));
    let tested = has_some_value("assay");
    let expected: Vec<usize> = (0..COMPOUNDS).filter(|i| i % 4 != 3).collect();
    assert_eq!(column(&t, &tested), Some(expected));
    let two_nitro = concept(&o, &format!("<{EX}hasPart> min 2 <{EX}Nitro>"));
    let expected: Vec<usize> = (0..COMPOUNDS).filter(|i| (i / 4) % 3 == 2).collect();
    assert_eq!(column(&t, &two_nitro), Some(expected));
    let three_rings = concept(&o, &format!("<{EX}hasPart> min 3 <{EX}Ring>"));
    let expected: Vec<usize> = (0..COMPOUNDS).filter(|i| i % 5 >= 3).collect();
    assert_eq!(column(&t, &three_rings), Some(expected));
    // Numeric literals get thresholds, not value features.
    assert!(!t.concepts.iter().any(|c| matches!(
        c,
        Concept::Data { property, range: DataRange::Value(_) }
            if property.as_str() == format!("{EX}weight")
    )));
}

#[test]
fn thresholds_rule_out_rare_values_and_counts() {
    let o = oracle();
    let strict = FeatureParams {
        frequency_threshold: COMPOUNDS,
        ..FeatureParams::default()
    };
    let (t, _) = table(&o, &strict);
    assert!(column(&t, &concept(&o, &format!("<{EX}assay> value true"))).is_none());
    assert!(
        !t.concepts.iter().any(|c| matches!(c, Concept::Min { .. })),
        "{:?}",
        t.concepts
    );
    // `∃p.Literal` does not depend on the frequency threshold.
    let tested = has_some_value("assay");
    assert!(column(&t, &tested).is_some());
}

//! A fixed test vocabulary and proptest strategies for random concepts over it.
//!
//! The vocabulary has awkward names on purpose: `Person`, `knows` and `alice` are ambiguous
//! local names, `hasChild` is both an object property and (in another namespace) a data
//! property, `ex:2ndClass`, `ex:and` and `<http://other.org/x#a.b>` cannot be printed bare,
//! and some IRIs used by the generator are not in the table at all.

use oxilearn::concept::{
    Bound, Concept, DataRange, EntityKind, Iri, Literal, Number, Role, Vocabulary, vocab,
};
use proptest::prelude::*;

pub const EX: &str = "http://example.org/";
pub const EX2: &str = "http://example.org/other#";

pub const CLASSES: &[&str] = &[
    "http://example.org/Person",
    "http://example.org/other#Person",
    "http://example.org/Male",
    "http://example.org/Female",
    "http://example.org/2ndClass",
    "http://example.org/and",
    "http://other.org/x#a.b",
];
/// Classes the generator uses that the table does not list.
pub const EXTRA_CLASSES: &[&str] = &["http://unknown.org/X", vocab::OWL_THING];
pub const OBJECT_PROPERTIES: &[&str] = &[
    "http://example.org/hasChild",
    "http://example.org/knows",
    "http://example.org/other#knows",
    "http://example.org/has-part",
];
pub const EXTRA_OBJECT_PROPERTIES: &[&str] = &["http://unknown.org/r"];
pub const DATA_PROPERTIES: &[&str] = &[
    "http://example.org/hasAge",
    "http://example.org/height",
    "http://example.org/name",
    "http://example.org/other#hasChild",
];
pub const INDIVIDUALS: &[&str] = &[
    "http://example.org/alice",
    "http://example.org/bob",
    "http://example.org/other#alice",
    "http://other.org/i.1",
];
pub const EXTRA_INDIVIDUALS: &[&str] = &["http://unknown.org/zed"];

/// The table the generated concepts are printed and parsed with.
pub fn vocabulary() -> Vocabulary {
    let mut v = Vocabulary::new();
    v.add_prefix("ex", EX);
    v.add_prefix("ex2", EX2);
    for (kind, iris) in [
        (EntityKind::Class, CLASSES),
        (EntityKind::ObjectProperty, OBJECT_PROPERTIES),
        (EntityKind::DataProperty, DATA_PROPERTIES),
        (EntityKind::Individual, INDIVIDUALS),
    ] {
        for iri in iris {
            v.add(kind, Iri::new(*iri));
        }
    }
    v
}

fn pick(lists: &[&'static [&'static str]]) -> BoxedStrategy<Iri> {
    let all: Vec<&'static str> = lists.iter().flat_map(|l| l.iter().copied()).collect();
    prop::sample::select(all).prop_map(Iri::new).boxed()
}

pub fn class_iri() -> BoxedStrategy<Iri> {
    pick(&[CLASSES, EXTRA_CLASSES])
}

pub fn individual() -> BoxedStrategy<Iri> {
    pick(&[INDIVIDUALS, EXTRA_INDIVIDUALS])
}

pub fn role() -> BoxedStrategy<Role> {
    (
        pick(&[OBJECT_PROPERTIES, EXTRA_OBJECT_PROPERTIES]),
        any::<bool>(),
    )
        .prop_map(|(property, inverse)| Role { property, inverse })
        .boxed()
}

pub fn data_property() -> BoxedStrategy<Iri> {
    pick(&[DATA_PROPERTIES])
}

fn xsd(local: &str) -> Iri {
    Iri::new(format!("{}{local}", vocab::XSD))
}

/// Literals of every shape the printers distinguish: canonical and non-canonical numbers,
/// booleans, strings with escapes, language tags, custom datatypes.
pub fn literal() -> BoxedStrategy<Literal> {
    prop_oneof![
        any::<i64>().prop_map(Literal::integer),
        (0u32..1000).prop_map(|n| Literal::typed(format!("0{n}"), vocab::XSD_INTEGER)),
        (0u32..1000).prop_map(|n| Literal::typed(format!("+{n}"), vocab::XSD_INTEGER)),
        (any::<i32>(), 0u32..10_000)
            .prop_map(|(i, f)| Literal::typed(format!("{i}.{f:04}"), vocab::XSD_DECIMAL)),
        (any::<i16>(), 0u32..100, -300i32..300)
            .prop_map(|(i, f, e)| Literal::typed(format!("{i}.{f}e{e}"), vocab::XSD_DOUBLE)),
        (any::<i16>(), 0u32..100)
            .prop_map(|(i, f)| Literal::typed(format!("{i}.{f}"), vocab::XSD_DOUBLE)),
        (any::<i16>(), 0u32..100)
            .prop_map(|(i, f)| Literal::typed(format!("{i}.{f}"), vocab::XSD_FLOAT)),
        any::<bool>().prop_map(Literal::boolean),
        Just(Literal::typed("1", vocab::XSD_BOOLEAN)),
        ".*".prop_map(Literal::string),
        (
            "[a-z \"\\\\⊓]{0,8}",
            prop::sample::select(vec!["en", "en-GB", "fr", "de-1996"])
        )
            .prop_map(|(s, lang)| Literal::lang_string(s, lang)),
        "[a-z0-9]{0,5}".prop_map(|s| Literal::typed(s, xsd("int"))),
        "[a-z]{0,5}".prop_map(|s| Literal::typed(s, format!("{EX}myType").as_str())),
        "[a-z]{0,5}".prop_map(|s| Literal::typed(s, "http://unknown.org/dt.v1")),
    ]
    .boxed()
}

pub fn number() -> BoxedStrategy<Number> {
    prop_oneof![
        (-1000i32..1000).prop_map(f64::from),
        -1e6f64..1e6,
        prop::num::f64::NORMAL | prop::num::f64::SUBNORMAL | prop::num::f64::ZERO,
    ]
    .prop_filter_map("finite", Number::new)
    .boxed()
}

fn bound() -> BoxedStrategy<Bound> {
    (number(), any::<bool>())
        .prop_map(|(value, inclusive)| Bound { value, inclusive })
        .boxed()
}

/// A numeric range with at least one bound and lower ≤ upper.
pub fn numeric_range() -> BoxedStrategy<DataRange> {
    let datatype = prop::sample::select(vec![
        "integer",
        "decimal",
        "double",
        "int",
        "nonNegativeInteger",
    ])
    .prop_map(xsd);
    let bounds = prop_oneof![
        bound().prop_map(|b| (Some(b), None)),
        bound().prop_map(|b| (None, Some(b))),
        (bound(), bound()).prop_map(|(a, b)| if a.value <= b.value {
            (Some(a), Some(b))
        } else {
            (Some(b), Some(a))
        }),
    ];
    (datatype, bounds)
        .prop_map(|(datatype, (min, max))| DataRange::Numeric { datatype, min, max })
        .boxed()
}

pub fn data_range() -> BoxedStrategy<DataRange> {
    let datatype = prop::sample::select(vec![
        vocab::XSD_INTEGER,
        vocab::XSD_STRING,
        vocab::XSD_BOOLEAN,
        vocab::RDFS_LITERAL,
        "http://unknown.org/dt.v1",
    ])
    .prop_map(|dt| DataRange::Datatype(Iri::new(dt)));
    prop_oneof![
        literal().prop_map(DataRange::Value),
        datatype,
        numeric_range()
    ]
    .boxed()
}

/// Concepts without sub-concepts.
pub fn atom() -> BoxedStrategy<Concept> {
    prop_oneof![
        Just(Concept::Top),
        Just(Concept::Bottom),
        class_iri().prop_map(Concept::Class),
        prop::collection::vec(individual(), 0..4).prop_map(Concept::OneOf),
        (role(), individual())
            .prop_map(|(role, individual)| Concept::HasValue { role, individual }),
        role().prop_map(Concept::HasSelf),
        (data_property(), data_range())
            .prop_map(|(property, range)| Concept::Data { property, range }),
    ]
    .boxed()
}

fn count() -> BoxedStrategy<u32> {
    prop_oneof![8 => 0u32..5, 1 => Just(u32::MAX)].boxed()
}

/// Well-formed concepts of depth ≤ 4 using every constructor (`And`/`Or` have 2–4 operands).
pub fn concept() -> BoxedStrategy<Concept> {
    concept_with_arity(2)
}

/// Like [`concept`] but `And`/`Or` may have 0 or 1 operands (not well-formed; printers must
/// still cope).
pub fn loose_concept() -> BoxedStrategy<Concept> {
    concept_with_arity(0)
}

fn concept_with_arity(min_operands: usize) -> BoxedStrategy<Concept> {
    atom()
        .prop_recursive(3, 48, 4, move |inner| {
            let ops = prop::collection::vec(inner.clone(), min_operands..5);
            prop_oneof![
                inner.clone().prop_map(Concept::not),
                ops.clone().prop_map(Concept::And),
                ops.prop_map(Concept::Or),
                (role(), inner.clone()).prop_map(|(r, f)| Concept::some(r, f)),
                (role(), inner.clone()).prop_map(|(r, f)| Concept::only(r, f)),
                (count(), role(), inner.clone()).prop_map(|(n, r, f)| Concept::min(n, r, f)),
                (count(), role(), inner.clone()).prop_map(|(n, r, f)| Concept::max(n, r, f)),
                (count(), role(), inner).prop_map(|(n, r, f)| Concept::exactly(n, r, f)),
            ]
        })
        .boxed()
}

//! Property and example tests for the concept language: printing and parsing round-trip,
//! normalisation is idempotent and preserves instances, errors name candidates.

use crate::common;

use common::concept_eval::interpretation;
use common::concept_gen::{concept, loose_concept, vocabulary};
use oxilearn::concept::{
    Concept, DataRange, NameError, ParseError, depth, length, normalize, parse, parse_dl,
    parse_manchester, to_dl, to_dl_full, to_manchester, to_manchester_full,
};
use proptest::prelude::*;

/// Only ¬ in front of atoms, no ⊓ directly in ⊓ (or ⊔ in ⊔), operands sorted and distinct,
/// at least two of them and none ⊤/⊥.
fn is_normal(c: &Concept) -> bool {
    let children_normal = || c.children().into_iter().all(is_normal);
    match c {
        Concept::Not(x) => {
            matches!(
                **x,
                Concept::Class(_)
                    | Concept::OneOf(_)
                    | Concept::HasValue { .. }
                    | Concept::HasSelf(_)
                    | Concept::Data { .. }
                    | Concept::Max { n: u32::MAX, .. }
                    | Concept::Exactly { n: u32::MAX, .. }
            ) && is_normal(x)
        }
        Concept::And(cs) | Concept::Or(cs) => {
            let same = |x: &Concept| {
                matches!(
                    (c, x),
                    (Concept::And(_), Concept::And(_)) | (Concept::Or(_), Concept::Or(_))
                )
            };
            cs.len() >= 2
                && cs.windows(2).all(|w| w[0] < w[1])
                && !cs.iter().any(same)
                && !cs
                    .iter()
                    .any(|x| matches!(x, Concept::Top | Concept::Bottom))
                && children_normal()
        }
        Concept::Min { n, .. } => *n >= 2 && children_normal(),
        Concept::Max { n, .. } | Concept::Exactly { n, .. } => *n >= 1 && children_normal(),
        Concept::OneOf(v) => !v.is_empty() && v.windows(2).all(|w| w[0] < w[1]),
        _ => children_normal(),
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    #[test]
    fn manchester_round_trips(c in concept()) {
        let v = vocabulary();
        let text = to_manchester(&c, &v);
        prop_assert_eq!(parse_manchester(&text, &v), Ok(c.clone()), "text: {}", text);
        prop_assert_eq!(parse(&text, &v), Ok(c), "auto-detect, text: {}", text);
    }

    #[test]
    fn dl_round_trips(c in concept()) {
        let v = vocabulary();
        let text = to_dl(&c, &v);
        prop_assert_eq!(parse_dl(&text, &v), Ok(c.clone()), "text: {}", text);
        prop_assert_eq!(parse(&text, &v), Ok(c), "auto-detect, text: {}", text);
    }

    #[test]
    fn full_iri_printing_round_trips(c in concept()) {
        // With the table, `<…>` names resolve to themselves and keep their kinds.
        let v = vocabulary();
        let m = to_manchester_full(&c);
        prop_assert_eq!(parse_manchester(&m, &v), Ok(c.clone()), "text: {}", m);
        let d = to_dl_full(&c);
        prop_assert_eq!(parse_dl(&d, &v), Ok(c), "text: {}", d);
    }

    #[test]
    fn normalize_is_idempotent_and_normal(c in concept()) {
        let once = normalize(&c);
        prop_assert_eq!(normalize(&once), once.clone());
        prop_assert!(is_normal(&once), "{:?}", once);
        // Normal forms are well-formed, so they round-trip as well.
        let v = vocabulary();
        prop_assert_eq!(parse(&to_dl(&once, &v), &v), Ok(once.clone()));
        prop_assert_eq!(parse(&to_manchester(&once, &v), &v), Ok(once));
    }

    #[test]
    fn normalize_preserves_instances(c in concept(), i in interpretation()) {
        prop_assert_eq!(i.eval(&normalize(&c)), i.eval(&c));
    }

    #[test]
    fn printing_and_measuring_never_panic(c in loose_concept()) {
        let v = vocabulary();
        for text in [to_manchester(&c, &v), to_dl(&c, &v), to_manchester_full(&c), to_dl_full(&c)] {
            let _ = parse(&text, &v);
        }
        prop_assert!(depth(&c) >= 1 && length(&c) >= 1);
        let n = normalize(&c);
        prop_assert_eq!(normalize(&n), n);
    }

    #[test]
    fn parsing_garbage_never_panics(s in "[ a-zA-Z0-9:<>(){}\\[\\],.\"^@=⊤⊥¬⊓⊔∃∀≥≤⁻&|~-]{0,40}") {
        let v = vocabulary();
        let _ = parse(&s, &v);
    }
}

#[test]
fn examples() {
    let v = vocabulary();
    let c = parse("Male and (hasChild some Thing)", &v);
    assert!(
        c.is_err(),
        "hasChild is ambiguous across property kinds: {c:?}"
    );
    let c = parse("Male and (ex:hasChild some Thing)", &v).unwrap();
    assert_eq!(to_manchester(&c, &v), "Male and ex:hasChild some Thing");
    assert_eq!(to_dl(&c, &v), "Male ⊓ ∃ex:hasChild.⊤");
    assert_eq!(parse("Male ⊓ ∃ex:hasChild.⊤", &v), Ok(c.clone()));
    assert_eq!(length(&c), 5);

    let c = parse("hasAge some xsd:integer[>= 18]", &v).unwrap();
    assert!(matches!(
        c,
        Concept::Data {
            range: DataRange::Numeric { .. },
            ..
        }
    ));
    assert_eq!(to_dl(&c, &v), "∃hasAge.xsd:integer[≥ 18]");
    assert_eq!(length(&c), 3);

    let c = parse("inverse ex:hasChild some ex:Person", &v).unwrap();
    assert_eq!(to_dl(&c, &v), "∃ex:hasChild⁻.ex:Person");
    assert_eq!(to_manchester(&c, &v), "inverse ex:hasChild some ex:Person");

    // Names that cannot be bare fall back to prefixed or full forms.
    let c = parse("<http://other.org/x#a.b> or ex:2ndClass or ex:and", &v).unwrap();
    assert_eq!(
        to_manchester(&c, &v),
        "<http://other.org/x#a.b> or ex:2ndClass or ex:and"
    );
}

#[test]
fn ambiguous_and_unknown_names_list_candidates() {
    let v = vocabulary();
    let err = parse_manchester("Male and Person", &v).unwrap_err();
    let ParseError::Name {
        at,
        error: NameError::Ambiguous { candidates, .. },
    } = &err
    else {
        panic!("{err:?}")
    };
    assert_eq!(at.column, 10);
    assert_eq!(
        candidates,
        &[
            "<http://example.org/Person>",
            "<http://example.org/other#Person>"
        ]
    );
    assert_eq!(
        err.to_string(),
        "line 1, column 10: ambiguous class name `Person`: it could be \
         <http://example.org/Person>, <http://example.org/other#Person>; \
         write a prefixed name or a <full IRI>"
    );

    let err = parse_dl("∃hasChild.⊤", &v).unwrap_err();
    assert!(
        err.to_string()
            .contains("ambiguous property name `hasChild`"),
        "{err}"
    );

    let err = parse_manchester("Femal", &v).unwrap_err();
    assert_eq!(
        err.to_string(),
        "line 1, column 1: unknown class `Femal` (did you mean Female?)"
    );
    let err = parse_manchester("ex:Male and {alise}", &v).unwrap_err();
    let ParseError::Name {
        error: NameError::Unknown { suggestions, .. },
        ..
    } = &err
    else {
        panic!("{err:?}")
    };
    assert_eq!(suggestions, &["ex2:alice", "ex:alice"]);
}

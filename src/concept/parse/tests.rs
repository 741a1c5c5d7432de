use super::*;
use crate::concept::model::{Bound, DataRange, Iri, Literal, Number, Role, vocab};
use crate::concept::test_vocab::{ex, vocab};
use crate::concept::vocabulary::NameError;

fn class(local: &str) -> Concept {
    Concept::Class(ex(local))
}

fn role(local: &str) -> Role {
    Role::new(ex(local))
}

fn man(text: &str) -> Concept {
    match parse_manchester(text, &vocab()) {
        Ok(c) => c,
        Err(e) => panic!("{text}: {e}"),
    }
}

fn dl(text: &str) -> Concept {
    match parse_dl(text, &vocab()) {
        Ok(c) => c,
        Err(e) => panic!("{text}: {e}"),
    }
}

fn bound(v: f64, inclusive: bool) -> Option<Bound> {
    Some(Bound {
        value: Number::new(v).unwrap(),
        inclusive,
    })
}

fn age(range: DataRange) -> Concept {
    Concept::Data {
        property: ex("hasAge"),
        range,
    }
}

fn numeric(dt: &str, min: Option<Bound>, max: Option<Bound>) -> DataRange {
    DataRange::Numeric {
        datatype: Iri::new(dt),
        min,
        max,
    }
}

#[test]
fn manchester_precedence() {
    assert_eq!(
        man("Male and (hasChild some Thing)"),
        Concept::And(vec![
            class("Male"),
            Concept::some(role("hasChild"), Concept::Top)
        ])
    );
    assert_eq!(
        man("not Male and Female or Nothing"),
        Concept::Or(vec![
            Concept::And(vec![Concept::not(class("Male")), class("Female")]),
            Concept::Bottom
        ])
    );
    // Restrictions take a unary filler.
    assert_eq!(
        man("hasChild some Male and Female"),
        Concept::And(vec![
            Concept::some(role("hasChild"), class("Male")),
            class("Female")
        ])
    );
    assert_eq!(
        man("hasChild some not hasChild only Male"),
        Concept::some(
            role("hasChild"),
            Concept::not(Concept::only(role("hasChild"), class("Male")))
        )
    );
    // Flat chains, nested parentheses.
    assert_eq!(
        man("Male AND Female and ex:Person"),
        Concept::And(vec![class("Male"), class("Female"), class("Person")])
    );
    assert_eq!(
        man("(Male and Female) and Male"),
        Concept::And(vec![
            Concept::And(vec![class("Male"), class("Female")]),
            class("Male")
        ])
    );
    assert_eq!(man("Male that Female"), man("Male and Female"));
}

#[test]
fn manchester_restrictions() {
    assert_eq!(
        man("inverse hasChild some ex:Person"),
        Concept::some(role("hasChild").inverted(), class("Person"))
    );
    assert_eq!(
        man("inverse(hasChild) some ex:Person"),
        man("inverse hasChild some ex:Person")
    );
    assert_eq!(
        man("hasChild min 2"),
        Concept::min(2, role("hasChild"), Concept::Top)
    );
    assert_eq!(
        man("hasChild max 1 Male or Female"),
        Concept::Or(vec![
            Concept::max(1, role("hasChild"), class("Male")),
            class("Female")
        ])
    );
    assert_eq!(
        man("hasChild exactly 0 Male"),
        Concept::exactly(0, role("hasChild"), class("Male"))
    );
    assert_eq!(
        man("knows value alice"),
        Concept::HasValue {
            role: role("knows"),
            individual: ex("alice")
        }
    );
    assert_eq!(
        man("{alice, bob}"),
        Concept::OneOf(vec![ex("alice"), ex("bob")])
    );
    assert_eq!(man("knows Self"), Concept::HasSelf(role("knows")));
    assert_eq!(
        man("knows some {alice}"),
        Concept::some(role("knows"), Concept::OneOf(vec![ex("alice")]))
    );
    assert_eq!(man("owl:Thing"), Concept::Class(Iri::new(vocab::OWL_THING)));
    assert_eq!(
        man("<http://example.org/Male> or http://example.org/Female"),
        Concept::Or(vec![class("Male"), class("Female")])
    );
}

#[test]
fn manchester_data() {
    assert_eq!(
        man("hasAge some xsd:integer[>= 18]"),
        age(numeric(vocab::XSD_INTEGER, bound(18.0, true), None))
    );
    assert_eq!(
        man("hasAge some xsd:double[> 1.5, <= 3]"),
        age(numeric(
            vocab::XSD_DOUBLE,
            bound(1.5, false),
            bound(3.0, true)
        ))
    );
    assert_eq!(
        man("hasAge some xsd:integer"),
        age(DataRange::Datatype(Iri::new(vocab::XSD_INTEGER)))
    );
    assert_eq!(
        man("hasAge value 18"),
        age(DataRange::Value(Literal::integer(18)))
    );
    assert_eq!(man("hasAge some {18}"), man("hasAge value 18"));
    assert_eq!(
        man("hasAge value true"),
        age(DataRange::Value(Literal::boolean(true)))
    );
    assert_eq!(
        man("name value \"abc\"@en"),
        Concept::Data {
            property: ex("name"),
            range: DataRange::Value(Literal::lang_string("abc", "en"))
        }
    );
    assert_eq!(
        man("hasAge value \"5\"^^xsd:int"),
        age(DataRange::Value(Literal::typed(
            "5",
            "http://www.w3.org/2001/XMLSchema#int"
        )))
    );
    assert_eq!(
        man("hasAge value 1.5"),
        age(DataRange::Value(Literal::typed("1.5", vocab::XSD_DECIMAL)))
    );
    assert_eq!(
        man("hasAge value 1.5e3"),
        age(DataRange::Value(Literal::typed("1.5e3", vocab::XSD_DOUBLE)))
    );
    assert_eq!(
        man("hasAge value 1.5f"),
        age(DataRange::Value(Literal::typed("1.5", vocab::XSD_FLOAT)))
    );
    assert_eq!(
        man("hasAge value -7"),
        age(DataRange::Value(Literal::integer(-7)))
    );
}

fn man_err(text: &str) -> ParseError {
    match parse_manchester(text, &vocab()) {
        Ok(c) => panic!("{text} parsed as {c:?}"),
        Err(e) => e,
    }
}

fn dl_err(text: &str) -> ParseError {
    match parse_dl(text, &vocab()) {
        Ok(c) => panic!("{text} parsed as {c:?}"),
        Err(e) => e,
    }
}

#[test]
fn unsupported_data_constructs_are_refused() {
    for (text, needle) in [
        ("hasAge only xsd:integer", "only"),
        ("hasAge min 2 xsd:integer", "cardinality"),
        ("hasAge some xsd:string[>= 1]", "non-numeric"),
        ("hasAge some xsd:integer[pattern \"a\"]", "pattern"),
        ("hasAge some xsd:integer[>= 1, > 2]", "lower bound"),
        ("hasAge some (xsd:integer or xsd:string)", "data range"),
        ("hasAge some not xsd:integer", "complement"),
        ("hasAge some {1, 2}", "more than one literal"),
        (
            "hasAge some xsd:integer or xsd:string",
            "datatype, not a class",
        ),
    ] {
        let err = man_err(text);
        assert!(
            matches!(err, ParseError::Unsupported { .. }),
            "{text}: {err}"
        );
        assert!(err.to_string().contains(needle), "{text}: {err}");
    }
    for text in [
        "∀hasAge.xsd:integer",
        "≥2 hasAge.xsd:integer",
        "∃hasAge.xsd:string[≥ 1]",
    ] {
        assert!(
            matches!(dl_err(text), ParseError::Unsupported { .. }),
            "{text}"
        );
    }
}

#[test]
fn errors_have_positions_and_expectations() {
    let err = man_err("Male and and Female");
    assert_eq!(err.position().column, 10);
    assert_eq!(
        err.to_string(),
        "line 1, column 10: expected a class expression, found `and`"
    );
    let err = man_err("Male Female");
    assert!(err.to_string().contains("expected end of input"), "{err}");
    let err = man_err("(Male");
    assert!(
        err.to_string().contains("expected `)`, found end of input"),
        "{err}"
    );
    assert!(matches!(
        man_err("hasChild value 5"),
        ParseError::Invalid { .. }
    ));
    assert!(matches!(
        man_err("hasChild min -1"),
        ParseError::Invalid { .. }
    ));
    assert!(matches!(
        man_err("inverse hasAge some Thing"),
        ParseError::Invalid { .. }
    ));
}

#[test]
fn name_errors_are_wrapped() {
    let err = man_err("Male and\n  Person");
    let ParseError::Name { at, error: source } = &err else {
        panic!("{err:?}")
    };
    assert_eq!((at.line, at.column), (2, 3));
    let NameError::Ambiguous { candidates, .. } = source else {
        panic!("{source:?}")
    };
    assert_eq!(
        candidates,
        &[
            "<http://example.org/Person>",
            "<http://example.org/other#Person>"
        ]
    );
    assert!(
        err.to_string().contains("ambiguous class name `Person`"),
        "{err}"
    );
    let err = man_err("Mael");
    assert_eq!(
        err.to_string(),
        "line 1, column 1: unknown class `Mael` (did you mean Male?)"
    );
    let err = dl_err("∃hasChlid.⊤");
    assert!(err.to_string().contains("did you mean hasChild"), "{err}");
}

#[test]
fn dl_syntax() {
    assert_eq!(
        dl("Male ⊓ ∃hasChild.⊤"),
        man("Male and hasChild some Thing")
    );
    assert_eq!(dl("Male AND EXISTS hasChild.TOP"), dl("Male ⊓ ∃hasChild.⊤"));
    assert_eq!(dl("Male & exists hasChild.top"), dl("Male ⊓ ∃hasChild.⊤"));
    assert_eq!(
        dl("∃hasChild.Male ⊓ Female"),
        Concept::And(vec![
            Concept::some(role("hasChild"), class("Male")),
            class("Female")
        ])
    );
    assert_eq!(dl("¬Male ⊔ ⊥"), man("not Male or Nothing"));
    assert_eq!(dl("~Male | BOTTOM"), man("not Male or Nothing"));
    assert_eq!(dl("NOT Male OR BOTTOM"), man("not Male or Nothing"));
    assert_eq!(dl("∀hasChild.¬Male"), man("hasChild only not Male"));
    assert_eq!(dl("FORALL hasChild.~Male"), man("hasChild only not Male"));
    assert_eq!(dl("≥2 hasChild.Male"), man("hasChild min 2 Male"));
    assert_eq!(dl(">= 2 hasChild.Male"), man("hasChild min 2 Male"));
    assert_eq!(dl("≤1 hasChild.Male"), man("hasChild max 1 Male"));
    assert_eq!(dl("<= 1 hasChild"), man("hasChild max 1"));
    assert_eq!(dl("=3 hasChild.Male"), man("hasChild exactly 3 Male"));
    assert_eq!(dl("∃hasChild⁻.Male"), man("inverse hasChild some Male"));
    assert_eq!(
        dl("EXISTS hasChild^-.Male"),
        man("inverse hasChild some Male")
    );
    assert_eq!(dl("∃knows.{alice}"), man("knows value alice"));
    assert_eq!(dl("∃knows.({alice})"), man("knows some {alice}"));
    assert_eq!(dl("∃knows.{alice, bob}"), man("knows some {alice, bob}"));
    assert_eq!(dl("{alice, bob}"), man("{alice, bob}"));
    assert_eq!(dl("∃knows.Self"), man("knows Self"));
    assert_eq!(dl("∃hasAge.{18}"), man("hasAge value 18"));
    assert_eq!(dl("∃hasAge.xsd:integer"), man("hasAge some xsd:integer"));
    assert_eq!(
        dl("∃hasAge.xsd:integer[≥ 18, < 65]"),
        age(numeric(
            vocab::XSD_INTEGER,
            bound(18.0, true),
            bound(65.0, false)
        ))
    );
    assert_eq!(
        dl("∃hasAge.xsd:integer[>= 18, < 65]"),
        dl("∃hasAge.xsd:integer[≥ 18, < 65]")
    );
    assert_eq!(
        dl("(Male ⊓ Female) ⊓ Male"),
        man("(Male and Female) and Male")
    );
    assert_eq!(
        dl("∃<http://example.org/hasChild>.<http://example.org/Male>"),
        man("hasChild some Male")
    );
}

#[test]
fn auto_detect() {
    let v = vocab();
    let both = |text: &str| parse(text, &v).unwrap_or_else(|e| panic!("{text}: {e}"));
    assert_eq!(
        both("Male ⊓ ∃hasChild.⊤"),
        man("Male and hasChild some Thing")
    );
    assert_eq!(
        both("Male and hasChild some Thing"),
        man("Male and hasChild some Thing")
    );
    assert_eq!(both("EXISTS hasChild.TOP"), man("hasChild some Thing"));
    assert_eq!(both("Male AND Female"), man("Male and Female"));
    // Only DL parses this although no marker says so.
    assert_eq!(both("Male OR Female"), man("Male or Female"));
    // A marker inside a string does not switch to DL.
    assert_eq!(
        both("name value \"a ⊓ b\""),
        Concept::Data {
            property: ex("name"),
            range: DataRange::Value(Literal::string("a ⊓ b"))
        }
    );
    assert!(looks_like_dl("∃r.A"));
    assert!(looks_like_dl(">= 2 r.A"));
    assert!(!looks_like_dl("Topic and B"));
    assert!(!looks_like_dl("hasAge some xsd:integer[>= 18]"));
    // Both fail: the error of the preferred syntax.
    let err = parse("Male and", &v).unwrap_err();
    assert!(err.to_string().contains("class expression"), "{err}");
}

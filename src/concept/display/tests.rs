use super::*;
use crate::concept::model::{Bound, DataRange, Number, Role};
use crate::concept::parse::{parse_dl, parse_manchester};
use crate::concept::test_vocab::{ex, vocab};

fn class(local: &str) -> Concept {
    Concept::Class(ex(local))
}

fn role(local: &str) -> Role {
    Role::new(ex(local))
}

/// Prints in both syntaxes, checks the expected text and that it parses back.
fn check(c: &Concept, manchester: &str, dl: &str) {
    let v = vocab();
    assert_eq!(to_manchester(c, &v), manchester);
    assert_eq!(to_dl(c, &v), dl);
    assert_eq!(
        parse_manchester(manchester, &v).as_ref(),
        Ok(c),
        "{manchester}"
    );
    assert_eq!(parse_dl(dl, &v).as_ref(), Ok(c), "{dl}");
}

#[test]
fn parentheses_are_minimal_but_keep_nesting() {
    let (m, f) = (class("Male"), class("Female"));
    check(
        &Concept::And(vec![
            m.clone(),
            Concept::some(role("hasChild"), Concept::Top),
        ]),
        "Male and hasChild some Thing",
        "Male ⊓ ∃hasChild.⊤",
    );
    check(
        &Concept::Or(vec![
            Concept::And(vec![m.clone(), f.clone()]),
            Concept::Bottom,
        ]),
        "Male and Female or Nothing",
        "Male ⊓ Female ⊔ ⊥",
    );
    check(
        &Concept::And(vec![Concept::Or(vec![m.clone(), f.clone()]), m.clone()]),
        "(Male or Female) and Male",
        "(Male ⊔ Female) ⊓ Male",
    );
    check(
        &Concept::And(vec![Concept::And(vec![m.clone(), f.clone()]), m.clone()]),
        "(Male and Female) and Male",
        "(Male ⊓ Female) ⊓ Male",
    );
    check(
        &Concept::Or(vec![m.clone(), Concept::Or(vec![f.clone(), m.clone()])]),
        "Male or (Female or Male)",
        "Male ⊔ (Female ⊔ Male)",
    );
    check(
        &Concept::not(Concept::And(vec![m.clone(), f.clone()])),
        "not (Male and Female)",
        "¬(Male ⊓ Female)",
    );
    check(
        &Concept::some(role("hasChild"), Concept::Or(vec![m.clone(), f.clone()])),
        "hasChild some (Male or Female)",
        "∃hasChild.(Male ⊔ Female)",
    );
    check(
        &Concept::not(Concept::some(role("hasChild"), Concept::not(m.clone()))),
        "not hasChild some not Male",
        "¬∃hasChild.¬Male",
    );
}

#[test]
fn restrictions() {
    let m = class("Male");
    check(
        &Concept::some(role("hasChild").inverted(), class("Person")),
        "inverse hasChild some ex:Person",
        "∃hasChild⁻.ex:Person",
    );
    check(
        &Concept::min(2, role("hasChild"), m.clone()),
        "hasChild min 2 Male",
        "≥2 hasChild.Male",
    );
    check(
        &Concept::max(0, role("hasChild"), Concept::Top),
        "hasChild max 0 Thing",
        "≤0 hasChild.⊤",
    );
    check(
        &Concept::exactly(1, role("hasChild").inverted(), m),
        "inverse hasChild exactly 1 Male",
        "=1 hasChild⁻.Male",
    );
    check(
        &Concept::HasValue {
            role: role("knows"),
            individual: ex("alice"),
        },
        "knows value alice",
        "∃knows.{alice}",
    );
    check(
        &Concept::some(role("knows"), Concept::OneOf(vec![ex("alice")])),
        "knows some {alice}",
        "∃knows.({alice})",
    );
    check(
        &Concept::HasSelf(role("knows")),
        "knows Self",
        "∃knows.Self",
    );
    check(&Concept::OneOf(vec![]), "{}", "{}");
}

#[test]
fn literals_and_ranges() {
    let data = |range| Concept::Data {
        property: ex("hasAge"),
        range,
    };
    let b = |v: f64, inclusive| {
        Some(Bound {
            value: Number::new(v).unwrap(),
            inclusive,
        })
    };
    check(
        &data(DataRange::Numeric {
            datatype: Iri::new(vocab::XSD_INTEGER),
            min: b(18.0, true),
            max: None,
        }),
        "hasAge some xsd:integer[>= 18]",
        "∃hasAge.xsd:integer[≥ 18]",
    );
    check(
        &data(DataRange::Numeric {
            datatype: Iri::new(vocab::XSD_DOUBLE),
            min: b(-1.5, false),
            max: b(1e21, true),
        }),
        "hasAge some xsd:double[> -1.5, <= 1000000000000000000000]",
        "∃hasAge.xsd:double[> -1.5, ≤ 1000000000000000000000]",
    );
    let cases = [
        (Literal::integer(18), "18"),
        (
            Literal::typed("018", vocab::XSD_INTEGER),
            "\"018\"^^xsd:integer",
        ),
        (Literal::typed("1.50", vocab::XSD_DECIMAL), "1.50"),
        (
            Literal::typed("1.5", vocab::XSD_DOUBLE),
            "\"1.5\"^^xsd:double",
        ),
        (Literal::typed("1.5E3", vocab::XSD_DOUBLE), "1.5E3"),
        (Literal::typed("2", vocab::XSD_FLOAT), "2f"),
        (Literal::boolean(false), "false"),
        (
            Literal::typed("1", vocab::XSD_BOOLEAN),
            "\"1\"^^xsd:boolean",
        ),
        (
            Literal::string("say \"hi\"\\\n"),
            "\"say \\\"hi\\\"\\\\\\n\"",
        ),
        (Literal::lang_string("chat", "fr"), "\"chat\"@fr"),
        (Literal::typed("x", ex("myType")), "\"x\"^^ex:myType"),
    ];
    for (lit, text) in cases {
        check(
            &data(DataRange::Value(lit)),
            &format!("hasAge value {text}"),
            &format!("∃hasAge.{{{text}}}"),
        );
    }
}

#[test]
fn full_iris_for_logs() {
    let c = Concept::And(vec![
        class("Male"),
        Concept::some(role("hasChild"), Concept::Top),
    ]);
    assert_eq!(
        to_manchester_full(&c),
        "<http://example.org/Male> and <http://example.org/hasChild> some Thing"
    );
    assert_eq!(
        to_dl_full(&c),
        "<http://example.org/Male> ⊓ ∃<http://example.org/hasChild>.⊤"
    );
}

#[test]
fn degenerate_junctions_print_equivalently() {
    let v = vocab();
    assert_eq!(to_manchester(&Concept::And(vec![]), &v), "Thing");
    assert_eq!(to_dl(&Concept::Or(vec![]), &v), "⊥");
    let single = Concept::And(vec![Concept::Or(vec![class("Male"), class("Female")])]);
    let inside = Concept::And(vec![single, class("Male")]);
    assert_eq!(to_manchester(&inside, &v), "(Male or Female) and Male");
}

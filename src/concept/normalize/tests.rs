use super::*;
use crate::concept::model::{Bound, Iri, Literal, Number, Role};

fn a() -> Concept {
    Concept::class("http://e/A")
}
fn b() -> Concept {
    Concept::class("http://e/B")
}
fn c() -> Concept {
    Concept::class("http://e/C")
}
fn r() -> Role {
    Role::new("http://e/r")
}
fn not(x: Concept) -> Concept {
    Concept::not(x)
}
fn n(x: &Concept) -> Concept {
    let once = normalize(x);
    assert_eq!(normalize(&once), once, "not idempotent on {x:?}");
    once
}

#[test]
fn negation_is_pushed_inwards() {
    assert_eq!(n(&not(not(a()))), a());
    assert_eq!(n(&not(Concept::Top)), Concept::Bottom);
    assert_eq!(n(&not(Concept::Bottom)), Concept::Top);
    assert_eq!(n(&not(a())), not(a()));
    assert_eq!(
        n(&not(Concept::And(vec![a(), b()]))),
        Concept::Or(vec![not(a()), not(b())])
    );
    assert_eq!(
        n(&not(Concept::Or(vec![a(), b()]))),
        Concept::And(vec![not(a()), not(b())])
    );
    assert_eq!(
        n(&not(Concept::some(r(), a()))),
        Concept::only(r(), not(a()))
    );
    assert_eq!(
        n(&not(Concept::only(r(), a()))),
        Concept::some(r(), not(a()))
    );
    assert_eq!(
        n(&not(Concept::min(3, r(), a()))),
        Concept::max(2, r(), a())
    );
    // ¬≥1 r.A = ≤0 r.A = ∀r.¬A
    assert_eq!(
        n(&not(Concept::min(1, r(), a()))),
        Concept::only(r(), not(a()))
    );
    assert_eq!(n(&not(Concept::min(0, r(), a()))), Concept::Bottom);
    assert_eq!(
        n(&not(Concept::max(2, r(), a()))),
        Concept::min(3, r(), a())
    );
    // ¬≤0 r.A = ≥1 r.A = ∃r.A
    assert_eq!(n(&not(Concept::max(0, r(), a()))), Concept::some(r(), a()));
    assert_eq!(
        n(&not(Concept::exactly(2, r(), a()))),
        Concept::Or(vec![Concept::min(3, r(), a()), Concept::max(1, r(), a())])
    );
    assert_eq!(
        n(&not(Concept::exactly(0, r(), a()))),
        Concept::some(r(), a())
    );
    // ¬=1 r.A = ≤0 r.A ⊔ ≥2 r.A
    assert_eq!(
        n(&not(Concept::exactly(1, r(), a()))),
        Concept::Or(vec![
            Concept::only(r(), not(a())),
            Concept::min(2, r(), a())
        ])
    );
    let big = Concept::max(u32::MAX, r(), a());
    assert_eq!(n(&not(big.clone())), not(big));
    let big = Concept::exactly(u32::MAX, r(), a());
    assert_eq!(n(&not(big.clone())), not(big));
}

#[test]
fn negated_atoms_stay() {
    let hv = Concept::HasValue {
        role: r(),
        individual: Iri::new("http://e/i"),
    };
    assert_eq!(n(&not(hv.clone())), not(hv));
    assert_eq!(n(&not(Concept::HasSelf(r()))), not(Concept::HasSelf(r())));
    let data = Concept::Data {
        property: Iri::new("http://e/p"),
        range: DataRange::Value(Literal::integer(1)),
    };
    assert_eq!(n(&not(data.clone())), not(data));
    assert_eq!(n(&not(Concept::OneOf(vec![]))), Concept::Top);
    let i = Iri::new("http://e/i");
    let j = Iri::new("http://e/j");
    assert_eq!(
        n(&not(Concept::OneOf(vec![j.clone(), i.clone(), j.clone()]))),
        not(Concept::OneOf(vec![i, j]))
    );
}

#[test]
fn junctions() {
    assert_eq!(
        n(&Concept::And(vec![c(), Concept::And(vec![b(), a()]), a()])),
        Concept::And(vec![a(), b(), c()])
    );
    assert_eq!(
        n(&Concept::Or(vec![Concept::Or(vec![c(), b()]), a()])),
        Concept::Or(vec![a(), b(), c()])
    );
    assert_eq!(n(&Concept::And(vec![a(), Concept::Top])), a());
    assert_eq!(n(&Concept::Or(vec![a(), Concept::Bottom])), a());
    assert_eq!(
        n(&Concept::And(vec![a(), Concept::Bottom])),
        Concept::Bottom
    );
    assert_eq!(n(&Concept::Or(vec![a(), Concept::Top])), Concept::Top);
    assert_eq!(n(&Concept::And(vec![a(), b(), not(a())])), Concept::Bottom);
    assert_eq!(n(&Concept::Or(vec![not(a()), b(), a()])), Concept::Top);
    // Complements of compound operands are found too: ∃r.A ⊓ ∀r.¬A = ⊥.
    assert_eq!(
        n(&Concept::And(vec![
            Concept::some(r(), a()),
            Concept::only(r(), not(a()))
        ])),
        Concept::Bottom
    );
    assert_eq!(n(&Concept::And(vec![])), Concept::Top);
    assert_eq!(n(&Concept::Or(vec![])), Concept::Bottom);
    assert_eq!(n(&Concept::And(vec![a(), a()])), a());
    assert_eq!(n(&Concept::Or(vec![b()])), b());
    // Flattening after simplification of an operand: A ⊓ ¬(¬B ⊔ ¬C) = A ⊓ B ⊓ C.
    assert_eq!(
        n(&Concept::And(vec![
            a(),
            not(Concept::Or(vec![not(b()), not(c())]))
        ])),
        Concept::And(vec![a(), b(), c()])
    );
}

#[test]
fn owl_thing_and_nothing() {
    assert_eq!(n(&Concept::class(vocab::OWL_THING)), Concept::Top);
    assert_eq!(n(&Concept::class(vocab::OWL_NOTHING)), Concept::Bottom);
    assert_eq!(n(&not(Concept::class(vocab::OWL_THING))), Concept::Bottom);
    assert_eq!(
        n(&Concept::And(vec![a(), Concept::class(vocab::OWL_THING)])),
        a()
    );
}

#[test]
fn restrictions() {
    assert_eq!(n(&Concept::min(0, r(), a())), Concept::Top);
    assert_eq!(n(&Concept::min(1, r(), a())), Concept::some(r(), a()));
    assert_eq!(n(&Concept::min(2, r(), a())), Concept::min(2, r(), a()));
    assert_eq!(n(&Concept::some(r(), Concept::Bottom)), Concept::Bottom);
    assert_eq!(n(&Concept::min(3, r(), Concept::Bottom)), Concept::Bottom);
    assert_eq!(n(&Concept::only(r(), Concept::Top)), Concept::Top);
    assert_eq!(n(&Concept::max(2, r(), Concept::Bottom)), Concept::Top);
    assert_eq!(n(&Concept::max(0, r(), Concept::Bottom)), Concept::Top);
    assert_eq!(n(&Concept::max(0, r(), a())), Concept::only(r(), not(a())));
    assert_eq!(n(&Concept::max(0, r(), not(a()))), Concept::only(r(), a()));
    assert_eq!(
        n(&Concept::exactly(0, r(), a())),
        Concept::only(r(), not(a()))
    );
    assert_eq!(
        n(&Concept::exactly(2, r(), Concept::Bottom)),
        Concept::Bottom
    );
    assert_eq!(
        n(&Concept::exactly(2, r(), a())),
        Concept::exactly(2, r(), a())
    );
    // Fillers are normalised recursively.
    assert_eq!(
        n(&Concept::some(r(), not(not(Concept::And(vec![b(), a()]))))),
        Concept::some(r(), Concept::And(vec![a(), b()]))
    );
    assert_eq!(
        n(&Concept::only(r(), Concept::Or(vec![a(), not(a())]))),
        Concept::Top
    );
    let hv = Concept::HasValue {
        role: r().inverted(),
        individual: Iri::new("http://e/i"),
    };
    assert_eq!(n(&hv), hv);
}

#[test]
fn empty_numeric_ranges_are_bottom() {
    let range = |lo: f64, lo_inc, hi: f64, hi_inc| Concept::Data {
        property: Iri::new("http://e/p"),
        range: DataRange::Numeric {
            datatype: Iri::new(vocab::XSD_INTEGER),
            min: Some(Bound {
                value: Number::new(lo).unwrap(),
                inclusive: lo_inc,
            }),
            max: Some(Bound {
                value: Number::new(hi).unwrap(),
                inclusive: hi_inc,
            }),
        },
    };
    assert_eq!(n(&range(5.0, true, 3.0, true)), Concept::Bottom);
    assert_eq!(n(&range(5.0, true, 5.0, false)), Concept::Bottom);
    let point = range(5.0, true, 5.0, true);
    assert_eq!(n(&point), point);
}

#[test]
fn deep_concepts_stay_cheap() {
    // Alternating ¬/⊓/⊔/∃ 40 levels deep: the complement checks must not compound.
    let mut c = a();
    for i in 0..40 {
        c = match i % 3 {
            0 => not(Concept::And(vec![b(), c])),
            1 => Concept::some(r(), Concept::Or(vec![c, not(a())])),
            _ => not(Concept::only(r(), Concept::And(vec![c, b()]))),
        };
    }
    let once = n(&c);
    assert!(crate::concept::metrics::depth(&once) > 20);
    // ¬=n r.C mentions C twice (≤(n−1) r.C ⊔ ≥(n+1) r.C), so nesting doubles the *output*;
    // at depth 10 that is ~1000 nodes and must stay fast.
    let mut c = a();
    for i in 0..10 {
        c = not(Concept::exactly(1 + i % 2, r(), Concept::And(vec![c, b()])));
    }
    n(&c);
}

//! Each rule on a small hand-written signature.
//!
//! Classes: Person ≡ Human; Male, Female, Parent ⊑ Person; Father ⊑ Male, Parent;
//! Mother ⊑ Female, Parent; Pet. Male disjoint with Female, Pet with Person.
//! Roles: hasChild (Person → Person) with sub-role hasSon (→ Male); hasPet (Person → Pet);
//! eats (domain Pet); owner (functional, Pet → Person); likes (no domain or range).
//! Data: age (numeric, domain Person), happy (boolean).

use std::collections::{BTreeMap, BTreeSet};
use std::sync::Arc;

use super::*;
use crate::concept::{Bound, DataRange, Literal, Role, vocab};
use crate::oracle::{BooleanStats, DataPropertyInfo, NumericStats, ObjectPropertyInfo};

const EX: &str = "http://example.org/t#";

fn iri(local: &str) -> Iri {
    Iri::new(format!("{EX}{local}"))
}
fn class(local: &str) -> Concept {
    Concept::Class(iri(local))
}
fn role(local: &str) -> Role {
    Role::new(iri(local))
}
fn not(c: Concept) -> Concept {
    Concept::not(c)
}
fn some(r: &str, c: Concept) -> Concept {
    Concept::some(role(r), c)
}
fn only(r: &str, c: Concept) -> Concept {
    Concept::only(role(r), c)
}
fn and(cs: Vec<Concept>) -> Concept {
    normalize(&Concept::And(cs))
}
fn num(v: f64) -> Number {
    Number::new(v).expect("finite")
}
fn age(lo: Option<f64>, hi: Option<f64>) -> Concept {
    let b = |v: f64| Bound {
        value: num(v),
        inclusive: true,
    };
    Concept::Data {
        property: iri("age"),
        range: DataRange::Numeric {
            datatype: Iri::new(vocab::XSD_INTEGER),
            min: lo.map(b),
            max: hi.map(b),
        },
    }
}

fn signature() -> Signature {
    let mut s = Signature::default();
    let set = |xs: &[&str]| xs.iter().map(|x| iri(x)).collect::<BTreeSet<Iri>>();
    s.classes = set(&[
        "Person", "Human", "Male", "Female", "Parent", "Father", "Mother", "Pet",
    ]);
    for (c, sups) in [
        ("Person", &["Human"][..]),
        ("Human", &["Person"]),
        ("Male", &["Person"]),
        ("Female", &["Person"]),
        ("Parent", &["Person"]),
        ("Father", &["Male", "Parent"]),
        ("Mother", &["Female", "Parent"]),
    ] {
        s.superclasses.insert(iri(c), set(sups));
    }
    s.disjoint_classes.insert(iri("Male"), set(&["Female"]));
    s.disjoint_classes.insert(iri("Female"), set(&["Male"]));
    s.disjoint_classes.insert(iri("Pet"), set(&["Person"]));
    s.disjoint_classes.insert(iri("Person"), set(&["Pet"]));
    let prop = |d: &[&str], r: &[&str], sup: &[&str], functional| ObjectPropertyInfo {
        domains: set(d),
        ranges: set(r),
        super_properties: set(sup),
        functional,
        declared: true,
        ..ObjectPropertyInfo::default()
    };
    s.object_properties
        .insert(iri("hasChild"), prop(&["Person"], &["Person"], &[], false));
    s.object_properties
        .insert(iri("hasSon"), prop(&[], &["Male"], &["hasChild"], false));
    s.object_properties
        .insert(iri("hasPet"), prop(&["Person"], &["Pet"], &[], false));
    s.object_properties
        .insert(iri("eats"), prop(&["Pet"], &[], &[], false));
    s.object_properties
        .insert(iri("owner"), prop(&["Pet"], &["Person"], &[], true));
    s.object_properties
        .insert(iri("likes"), prop(&[], &[], &[], false));
    s.data_properties.insert(
        iri("age"),
        DataPropertyInfo {
            domains: set(&["Person"]),
            datatypes: BTreeMap::from([(Iri::new(vocab::XSD_INTEGER), 10)]),
            numeric: Some(NumericStats {
                min: 1.0,
                max: 90.0,
                distinct: 10,
                count: 10,
            }),
            ..DataPropertyInfo::default()
        },
    );
    s.data_properties.insert(
        iri("happy"),
        DataPropertyInfo {
            booleans: Some(BooleanStats {
                true_count: 3,
                false_count: 0,
            }),
            ..DataPropertyInfo::default()
        },
    );
    s
}

fn rho_with(options: RhoOptions) -> Rho {
    Rho::new(Arc::new(signature()), options).with_numeric_splits(BTreeMap::from([(
        iri("age"),
        vec![num(30.0), num(10.0), num(20.0)],
    )]))
}

fn rho() -> Rho {
    rho_with(RhoOptions::default())
}

fn refs(c: &Concept, max_len: usize) -> Vec<Concept> {
    rho().refine(c, max_len)
}

fn has(v: &[Concept], c: &Concept) -> bool {
    v.contains(&normalize(c))
}

#[test]
fn top_at_length_one_is_the_most_general_classes() {
    // Person ≡ Human collapse to Human (the smaller IRI).
    assert_eq!(refs(&Concept::Top, 1), vec![class("Human"), class("Pet")]);
}

#[test]
fn top_negates_the_most_specific_classes() {
    let r = refs(&Concept::Top, 2);
    for leaf in ["Father", "Mother", "Pet"] {
        assert!(has(&r, &not(class(leaf))), "¬{leaf}");
    }
    assert!(!has(&r, &not(class("Male"))));
    let no_neg = rho_with(RhoOptions {
        use_negation: false,
        ..RhoOptions::default()
    });
    assert!(!has(
        &no_neg.refine(&Concept::Top, 2),
        &not(class("Father"))
    ));
}

#[test]
fn top_offers_restrictions_on_the_most_general_roles() {
    let r = refs(&Concept::Top, 4);
    assert!(has(&r, &some("hasChild", Concept::Top)));
    assert!(has(&r, &some("likes", Concept::Top)));
    // a sub-role is reached by refinement, not offered at the top
    assert!(!has(&r, &some("hasSon", Concept::Top)));
    // ∀r.⊤ is ⊤ in normal form: ρ offers its refinements, in range(r), on every role (∀ is
    // antitone in the role, so the sub-role's are not reached from the super-role's)
    assert!(has(&r, &only("hasChild", class("Male"))));
    assert!(has(&r, &only("hasSon", class("Father"))));
    assert!(
        !has(&r, &only("hasChild", class("Pet"))),
        "Pet is disjoint with range(hasChild)"
    );
    // ≤(limit−1) r.⊤ on every role, and ≤0 = ∀r.⊥ for a functional role
    assert!(has(&r, &Concept::max(4, role("hasChild"), Concept::Top)));
    assert!(has(&r, &Concept::max(4, role("hasSon"), Concept::Top)));
    assert!(has(&r, &only("owner", Concept::Bottom)));
    // data: every split value (the default), or only the widest bounds (DL-Learner's M)
    assert!(has(&r, &age(Some(10.0), None)));
    assert!(has(&r, &age(None, Some(30.0))));
    assert!(has(&r, &age(Some(20.0), None)));
    assert!(has(&r, &age(None, Some(10.0))));
    let widest = rho_with(RhoOptions {
        every_split_in_top: false,
        ..RhoOptions::default()
    })
    .refine(&Concept::Top, 4);
    assert!(has(&widest, &age(Some(10.0), None)));
    assert!(has(&widest, &age(None, Some(30.0))));
    assert!(!has(&widest, &age(Some(20.0), None)));
    assert!(!has(&widest, &age(None, Some(10.0))));
    let happy = |b| Concept::Data {
        property: iri("happy"),
        range: DataRange::Value(Literal::boolean(b)),
    };
    assert!(has(&r, &happy(true)));
    assert!(!has(&r, &happy(false)), "no false value occurs");
    // disjunctions of M elements up to the limit
    assert!(has(&r, &Concept::Or(vec![class("Human"), class("Pet")])));
    assert!(has(
        &r,
        &Concept::Or(vec![class("Pet"), not(class("Father"))])
    ));
    assert!(r.iter().all(|c| length(c) <= 4));
}

#[test]
fn boolean_existential_language_has_no_all_cardinality_or_data() {
    let r = rho_with(RhoOptions::boolean_existential());
    let top = r.refine(&Concept::Top, 5);
    assert!(has(&top, &some("hasChild", Concept::Top)));
    assert!(has(&top, &not(class("Father"))));
    for c in &top {
        let s = format!("{c:?}");
        assert!(
            !s.contains("Only") && !s.contains("Max") && !s.contains("Min") && !s.contains("Data"),
            "{s}"
        );
    }
    assert!(
        !r.refine(&some("hasChild", Concept::Top), 4)
            .iter()
            .any(|c| matches!(c, Concept::Min { .. }))
    );
}

#[test]
fn class_goes_to_direct_subclasses() {
    let r = refs(&class("Person"), 1);
    assert_eq!(r, vec![class("Female"), class("Male"), class("Parent")]);
    // the equivalent class has the same subclasses
    assert_eq!(refs(&class("Human"), 1), r);
    assert_eq!(refs(&class("Male"), 1), vec![class("Father")]);
    assert!(refs(&class("Father"), 1).is_empty());
}

#[test]
fn negation_goes_to_direct_superclasses() {
    let r = refs(&not(class("Father")), 2);
    assert_eq!(r, vec![not(class("Male")), not(class("Parent"))]);
    // ¬Person's superclass would be ⊤: nothing
    assert!(refs(&not(class("Person")), 2).is_empty());
}

#[test]
fn append_uses_the_class_as_context() {
    let r = refs(&class("Male"), 5);
    assert!(has(&r, &and(vec![class("Male"), class("Parent")])));
    assert!(
        !has(&r, &and(vec![class("Male"), class("Female")])),
        "disjoint"
    );
    assert!(
        !has(&r, &and(vec![class("Male"), class("Human")])),
        "adds nothing"
    );
    assert!(
        !has(&r, &and(vec![class("Male"), not(class("Mother"))])),
        "adds nothing"
    );
    assert!(has(
        &r,
        &and(vec![class("Male"), some("hasChild", Concept::Top)])
    ));
    assert!(has(
        &r,
        &and(vec![class("Male"), some("likes", Concept::Top)])
    ));
    assert!(
        !has(&r, &and(vec![class("Male"), some("eats", Concept::Top)])),
        "domain Pet"
    );
    assert!(has(&r, &and(vec![class("Male"), age(Some(10.0), None)])));
    // without disjointness pruning the pair is offered
    let plain = rho_with(RhoOptions {
        disjointness_pruning: false,
        ..RhoOptions::default()
    });
    let r = plain.refine(&class("Male"), 3);
    assert!(has(&r, &and(vec![class("Male"), class("Female")])));
}

#[test]
fn exists_refines_filler_in_range_subroles_and_cardinality() {
    let c = some("hasChild", Concept::Top);
    let r = refs(&c, 4);
    assert!(has(&r, &some("hasChild", class("Male"))));
    assert!(
        !has(&r, &some("hasChild", class("Human"))),
        "range already says Person"
    );
    assert!(
        !has(&r, &some("hasChild", class("Pet"))),
        "disjoint with the range"
    );
    assert!(has(&r, &some("hasSon", Concept::Top)));
    assert!(has(&r, &Concept::min(2, role("hasChild"), Concept::Top)));
    // a functional role never has two successors
    let r = refs(&some("owner", Concept::Top), 4);
    assert!(!r.iter().any(|c| matches!(c, Concept::Min { .. })));
    // without range awareness the filler starts from the top classes
    let plain = rho_with(RhoOptions {
        domain_range_aware: false,
        ..RhoOptions::default()
    });
    assert!(has(&plain.refine(&c, 3), &some("hasChild", class("Human"))));
}

#[test]
fn has_value_from_exists_top() {
    let r = rho_with(RhoOptions {
        use_has_value: true,
        ..RhoOptions::default()
    })
    .with_has_value_candidates(BTreeMap::from([(iri("likes"), vec![iri("bob")])]));
    let hv = Concept::HasValue {
        role: role("likes"),
        individual: iri("bob"),
    };
    assert!(has(&r.refine(&some("likes", Concept::Top), 3), &hv));
    assert!(has(&r.refine(&Concept::Top, 3), &hv));
}

#[test]
fn only_refines_filler_superroles_and_bottom() {
    let r = refs(&only("hasSon", class("Father")), 4);
    assert!(
        has(&r, &only("hasSon", Concept::Bottom)),
        "Father has no subclasses"
    );
    assert!(has(&r, &only("hasChild", class("Father"))), "super-role");
    let r = refs(&only("hasChild", class("Male")), 4);
    assert!(has(&r, &only("hasChild", class("Father"))));
    assert!(
        !has(&r, &only("hasChild", Concept::Bottom)),
        "Male has a subclass"
    );
    assert!(
        !has(&r, &only("hasSon", class("Male"))),
        "a sub-role is upward for ∀"
    );
    // ∀r.⊥ only climbs to super-roles; on a top role it has no refinement (as RhoDRDown)
    assert_eq!(
        refs(&only("hasSon", Concept::Bottom), 8),
        vec![only("hasChild", Concept::Bottom)]
    );
    assert!(refs(&only("hasChild", Concept::Bottom), 8).is_empty());
}

#[test]
fn cardinalities_step_within_the_limit() {
    let ge = |n| Concept::min(n, role("hasChild"), Concept::Top);
    let le = |n| Concept::max(n, role("hasChild"), Concept::Top);
    // ≤n is antitone in the role: ≤2 hasSon.⊤ → ≤2 hasChild.⊤
    assert!(has(
        &refs(&Concept::max(2, role("hasSon"), Concept::Top), 4),
        &le(2)
    ));
    assert!(has(&refs(&ge(2), 4), &ge(3)));
    assert!(
        !refs(&ge(5), 4)
            .iter()
            .any(|c| matches!(c, Concept::Min { n: 6, .. }))
    );
    let r = refs(&ge(2), 5);
    assert!(has(&r, &Concept::min(2, role("hasChild"), class("Male"))));
    assert_eq!(refs(&le(4), 4), vec![le(3)]);
    // ≤1 → ≤0 r.⊤ = ∀r.⊥
    assert_eq!(refs(&le(1), 4), vec![only("hasChild", Concept::Bottom)]);
}

#[test]
fn numeric_bounds_move_to_the_next_split() {
    assert_eq!(refs(&age(Some(10.0), None), 3), vec![age(Some(20.0), None)]);
    assert_eq!(refs(&age(Some(30.0), None), 3), vec![]);
    assert_eq!(refs(&age(None, Some(30.0)), 3), vec![age(None, Some(20.0))]);
    // no second lower bound on the same property is appended
    let r = refs(&age(Some(10.0), None), 7);
    assert!(has(
        &r,
        &and(vec![age(Some(10.0), None), age(None, Some(30.0))])
    ));
    assert!(!r.iter().any(|c| matches!(c, Concept::And(ops) if ops.iter().filter(|o| matches!(o, Concept::Data { range: DataRange::Numeric { min: Some(_), .. }, .. })).count() > 1)));
}

#[test]
fn intersection_and_union_refine_one_operand() {
    let c = and(vec![class("Male"), some("hasChild", Concept::Top)]);
    let r = refs(&c, 5);
    assert!(has(
        &r,
        &and(vec![class("Father"), some("hasChild", Concept::Top)])
    ));
    assert!(has(
        &r,
        &and(vec![class("Male"), some("hasSon", Concept::Top)])
    ));
    assert!(has(
        &r,
        &and(vec![class("Male"), some("hasChild", class("Male"))])
    ));
    let u = normalize(&Concept::Or(vec![class("Male"), class("Pet")]));
    let r = refs(&u, 3);
    assert!(has(&r, &Concept::Or(vec![class("Father"), class("Pet")])));
    assert!(
        !has(&r, &class("Male")),
        "RhoDRDown does not drop disjuncts"
    );
    // refinements emptied by disjointness are dropped
    let c = and(vec![class("Father"), some("likes", Concept::Top)]);
    assert!(refs(&c, 9).iter().all(|d| !rho().empty(d)));
}

#[test]
fn results_are_normal_sorted_unique_bounded_and_not_the_input() {
    let r = rho();
    let mut todo = vec![Concept::Top];
    let mut seen = BTreeSet::new();
    while let Some(c) = todo.pop() {
        if seen.len() > 300 || !seen.insert(c.clone()) {
            continue;
        }
        let out = r.refine(&c, 6);
        let keys: Vec<_> = out.iter().map(|d| (length(d), d.clone())).collect();
        assert!(keys.windows(2).all(|w| w[0] < w[1]), "sorted and unique");
        for d in &out {
            assert_eq!(&normalize(d), d);
            assert_ne!(d, &c);
            assert!(length(d) <= 6);
            assert!(!matches!(d, Concept::Top | Concept::Bottom));
        }
        todo.extend(out.into_iter().rev().take(5));
    }
    // determinism and the cache: a fresh operator gives the same answers
    for c in seen.iter().take(50) {
        assert_eq!(r.refine(c, 6), rho().refine(c, 6));
    }
}

#[test]
fn conjuncts_one_below_the_other_are_not_offered() {
    // In range(hasChild) = Person the top classes are Person's subclasses; appended to
    // Male they would give Male ⊓ Father = Father.
    let r = refs(&some("hasChild", class("Male")), 5);
    assert!(!has(
        &r,
        &some("hasChild", and(vec![class("Male"), class("Father")]))
    ));
    assert!(has(
        &r,
        &some("hasChild", and(vec![class("Male"), class("Parent")]))
    ));
    assert!(!rho().acceptable(&and(vec![not(class("Father")), not(class("Male"))]), 9));
}

#[test]
fn inverse_roles_and_self_when_enabled() {
    let r = rho_with(RhoOptions {
        use_inverse: true,
        use_self: true,
        ..RhoOptions::default()
    });
    let top = r.refine(&Concept::Top, 4);
    let inv = Concept::some(Role::inverse_of(iri("hasChild")), Concept::Top);
    assert!(has(&top, &inv));
    assert!(has(&top, &Concept::HasSelf(role("likes"))));
    // range(hasChild⁻) = domain(hasChild) = Person; sub-roles of r⁻ are inverses
    let refs = r.refine(&inv, 5);
    assert!(has(
        &refs,
        &Concept::some(Role::inverse_of(iri("hasChild")), class("Male"))
    ));
    assert!(has(
        &refs,
        &Concept::some(Role::inverse_of(iri("hasSon")), Concept::Top)
    ));
    assert!(
        !has(&rho().refine(&Concept::Top, 4), &inv),
        "off by default"
    );
}

#[test]
fn too_many_splits_are_thinned_evenly() {
    let r = Rho::new(
        Arc::new(signature()),
        RhoOptions {
            max_numeric_splits: 2,
            ..RhoOptions::default()
        },
    )
    .with_numeric_splits(BTreeMap::from([(
        iri("age"),
        (1..=8).map(|v| num(f64::from(v))).collect(),
    )]));
    let top = r.refine(&Concept::Top, 3);
    // indices 2 and 6 of 1..=8
    assert!(has(&top, &age(Some(3.0), None)));
    assert!(has(&top, &age(None, Some(7.0))));
    assert_eq!(
        r.refine(&age(Some(3.0), None), 3),
        vec![age(Some(7.0), None)]
    );
}

#[test]
fn rho_is_send_and_sync() {
    fn check<T: Send + Sync>() {}
    check::<Rho>();
}

#[test]
fn admits_the_shapes_built_from_the_neighbourhood_and_nothing_else() {
    let r = rho();
    let or = |cs: Vec<Concept>| normalize(&Concept::Or(cs));
    let deep = and(vec![
        class("Person"),
        some(
            "hasChild",
            some("hasPet", or(vec![class("Pet"), class("Male")])),
        ),
    ]);
    assert!(r.admits(&deep));
    assert!(r.admits(&some("likes", Concept::Top)));
    // ∀, negation, inverse roles and unknown classes are not proposals ρ admits.
    assert!(!r.admits(&only("hasChild", class("Male"))));
    assert!(!r.admits(&not(class("Male"))));
    assert!(!r.admits(&Concept::some(
        Role::inverse_of(iri("hasChild")),
        class("Male")
    )));
    assert!(!r.admits(&class("Unknown")));
    // Provably empty (Male and Female are disjoint) and not normal (nested ⊓).
    assert!(!r.admits(&and(vec![class("Male"), class("Female")])));
    assert!(!r.admits(&Concept::And(vec![
        class("Male"),
        Concept::And(vec![class("Parent"), some("likes", Concept::Top)]),
    ])));
    // The operator's switches and hidden classes.
    let no_or = rho_with(RhoOptions {
        use_disjunction: false,
        ..RhoOptions::default()
    });
    assert!(!no_or.admits(&deep));
    let mut hiding = rho();
    hiding.hide_classes(&BTreeSet::from([iri("Pet")]));
    assert!(!hiding.admits(&deep));
    assert!(hiding.admits(&some("hasPet", class("Male"))));
}

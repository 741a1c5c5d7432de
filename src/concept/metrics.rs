//! Concept size measures used to rank and bound the search.

use super::model::{Concept, DataRange, Role};

/// Length as DL-Learner/CELOE define it (so scores and length limits are comparable):
///
/// * ⊤, ⊥, a named class, a one-of `{a₁..aₖ}`: 1
/// * ¬C: 1 + |C|
/// * C₁ ⊓ … ⊓ Cₖ and C₁ ⊔ … ⊔ Cₖ: |C₁| + … + |Cₖ| + (k − 1) (an empty ⊓/⊔ counts 1, like ⊤/⊥)
/// * a role: 1, an inverse role: 2
/// * ∃r.C, ∀r.C: 1 + |r| + |C|
/// * ≥n r.C, ≤n r.C, =n r.C: 2 + |r| + |C|
/// * ∃r.{a}: 1 + |r| + 1; ∃r.Self: 1 + |r|
/// * a data restriction ∃p.R: 2 + |R|, where a value or a datatype counts 1 and a numeric
///   range counts its number of bounds
pub fn length(c: &Concept) -> usize {
    match c {
        Concept::Top | Concept::Bottom | Concept::Class(_) | Concept::OneOf(_) => 1,
        Concept::Not(inner) => 1 + length(inner),
        Concept::And(cs) | Concept::Or(cs) => {
            if cs.is_empty() {
                1
            } else {
                cs.iter().map(length).sum::<usize>() + cs.len() - 1
            }
        }
        Concept::Some { role, filler } | Concept::Only { role, filler } => {
            1 + role_length(role) + length(filler)
        }
        Concept::Min { role, filler, .. }
        | Concept::Max { role, filler, .. }
        | Concept::Exactly { role, filler, .. } => 2 + role_length(role) + length(filler),
        Concept::HasValue { role, .. } => 2 + role_length(role),
        Concept::HasSelf(role) => 1 + role_length(role),
        Concept::Data { range, .. } => 2 + range_length(range),
    }
}

fn role_length(role: &Role) -> usize {
    if role.inverse { 2 } else { 1 }
}

fn range_length(range: &DataRange) -> usize {
    match range {
        DataRange::Value(_) | DataRange::Datatype(_) => 1,
        DataRange::Numeric { min, max, .. } => {
            usize::from(min.is_some()) + usize::from(max.is_some())
        }
    }
}

/// Depth of the syntax tree: atoms (⊤, ⊥, classes, one-of, has-value, has-self, data
/// restrictions) are 1, any other node is 1 + the depth of its deepest child.
pub fn depth(c: &Concept) -> usize {
    1 + c.children().into_iter().map(depth).max().unwrap_or(0)
}

/// Role depth: how many role steps from an individual its membership looks. Classes,
/// one-of, data restrictions and ∃r.Self read the individual's own triples (0); ∃r.{a}
/// reads its edges (1); a restriction on a role adds 1 to its filler's depth.
pub fn role_depth(c: &Concept) -> usize {
    match c {
        Concept::Top
        | Concept::Bottom
        | Concept::Class(_)
        | Concept::OneOf(_)
        | Concept::HasSelf(_)
        | Concept::Data { .. } => 0,
        Concept::HasValue { .. } => 1,
        Concept::Not(inner) => role_depth(inner),
        Concept::And(cs) | Concept::Or(cs) => cs.iter().map(role_depth).max().unwrap_or(0),
        Concept::Some { filler, .. }
        | Concept::Only { filler, .. }
        | Concept::Min { filler, .. }
        | Concept::Max { filler, .. }
        | Concept::Exactly { filler, .. } => 1 + role_depth(filler),
    }
}

/// The roles a concept restricts, anywhere in it.
pub fn roles(c: &Concept) -> Vec<&Role> {
    let mut out = Vec::new();
    match c {
        Concept::Some { role, .. }
        | Concept::Only { role, .. }
        | Concept::Min { role, .. }
        | Concept::Max { role, .. }
        | Concept::Exactly { role, .. }
        | Concept::HasValue { role, .. }
        | Concept::HasSelf(role) => out.push(role),
        _ => {}
    }
    for child in c.children() {
        out.extend(roles(child));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::concept::model::{Bound, Iri, Literal, Number};

    fn a() -> Concept {
        Concept::class("http://e/A")
    }
    fn r() -> Role {
        Role::new("http://e/r")
    }

    #[test]
    fn role_depths_and_roles() {
        let s = || Role::new("http://e/s");
        assert_eq!(role_depth(&a()), 0);
        assert_eq!(role_depth(&Concept::some(r(), a())), 1);
        let nested = Concept::And(vec![
            a(),
            Concept::only(r().inverted(), Concept::min(2, s(), Concept::not(a()))),
        ]);
        assert_eq!(role_depth(&nested), 2);
        assert_eq!(roles(&nested), vec![&r().inverted(), &s()]);
        let value = Concept::HasValue {
            role: s(),
            individual: Iri::new("http://e/o"),
        };
        assert_eq!(role_depth(&value), 1);
        assert_eq!(roles(&value), vec![&s()]);
    }

    #[test]
    fn lengths() {
        assert_eq!(length(&Concept::Top), 1);
        assert_eq!(length(&a()), 1);
        assert_eq!(length(&Concept::not(a())), 2);
        assert_eq!(length(&Concept::And(vec![a(), a(), a()])), 5);
        assert_eq!(length(&Concept::Or(vec![a(), Concept::not(a())])), 4);
        assert_eq!(length(&Concept::And(vec![])), 1);
        assert_eq!(length(&Concept::some(r(), a())), 3);
        assert_eq!(length(&Concept::only(r().inverted(), a())), 4);
        assert_eq!(length(&Concept::min(2, r(), a())), 4);
        assert_eq!(length(&Concept::exactly(2, r().inverted(), a())), 5);
        let hv = Concept::HasValue {
            role: r(),
            individual: Iri::new("http://e/i"),
        };
        assert_eq!(length(&hv), 3);
        assert_eq!(length(&Concept::OneOf(vec![Iri::new("http://e/i"); 3])), 1);
        assert_eq!(length(&Concept::HasSelf(r())), 2);
        let p = Iri::new("http://e/p");
        let value = Concept::Data {
            property: p.clone(),
            range: DataRange::Value(Literal::integer(1)),
        };
        assert_eq!(length(&value), 3);
        let bound = Some(Bound {
            value: Number::new(1.0).unwrap(),
            inclusive: true,
        });
        let numeric = |min, max| Concept::Data {
            property: p.clone(),
            range: DataRange::Numeric {
                datatype: Iri::new("http://www.w3.org/2001/XMLSchema#integer"),
                min,
                max,
            },
        };
        assert_eq!(length(&numeric(bound, None)), 3);
        assert_eq!(length(&numeric(bound, bound)), 4);
        // Male ⊓ ∃hasChild.⊤ = 1 + 3 + 1
        assert_eq!(
            length(&Concept::And(vec![a(), Concept::some(r(), Concept::Top)])),
            5
        );
    }

    #[test]
    fn depths() {
        assert_eq!(depth(&a()), 1);
        assert_eq!(depth(&Concept::HasSelf(r())), 1);
        assert_eq!(depth(&Concept::not(a())), 2);
        assert_eq!(
            depth(&Concept::And(vec![
                a(),
                Concept::some(r(), Concept::not(a()))
            ])),
            4
        );
    }
}

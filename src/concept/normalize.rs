//! Negation normal form plus the simplifications every learner wants (flatten, sort, dedup,
//! absorb ⊤/⊥). Each rewrite is an equivalence in standard DL semantics and also exact under
//! closed-world evaluation over a data graph, so a normalised concept has the same instances.
//!
//! The result is a fixpoint: `normalize(&normalize(c)) == normalize(c)`. It holds in one pass
//! because every constructor is rebuilt from already-normal children by "smart constructors"
//! that only produce normal nodes (a flattened, sorted, deduplicated ⊓ of at least two
//! operands that are neither ⊤, ⊥ nor ⊓; restrictions whose fillers cannot be simplified away;
//! ¬ only in front of atoms).

use super::model::{Bound, Concept, DataRange, vocab};

/// The normal form of `c`. Rules (n ≥ 1 unless stated):
///
/// * ¬ is pushed inwards: ¬¬C = C, ¬⊤ = ⊥, ¬⊥ = ⊤, De Morgan, ¬∃r.C = ∀r.¬C,
///   ¬∀r.C = ∃r.¬C, ¬≥n r.C = ≤(n−1) r.C, ¬≥0 r.C = ⊥, ¬≤n r.C = ≥(n+1) r.C,
///   ¬=n r.C = ≤(n−1) r.C ⊔ ≥(n+1) r.C, ¬=0 r.C = ≥1 r.C; it stays in front of classes,
///   one-of, has-value, has-self and data restrictions (and of `≤n`/`=n` with n = `u32::MAX`,
///   whose complement would need `≥(n+1)`).
/// * ⊓/⊔: nested ones flattened, operands sorted (derived `Ord`) and deduplicated, ⊤ dropped
///   from ⊓ and ⊥ from ⊔, ⊥ in ⊓ gives ⊥ and ⊤ in ⊔ gives ⊤, an operand together with its
///   complement gives ⊥ (in ⊓) or ⊤ (in ⊔), no operand gives ⊤/⊥, one operand gives itself.
/// * `owl:Thing` = ⊤, `owl:Nothing` = ⊥.
/// * ≥0 r.C = ⊤, ≥1 r.C = ∃r.C, ∃r.⊥ = ⊥, ≥n r.⊥ = ⊥, ∀r.⊤ = ⊤, ≤n r.⊥ = ⊤ (any n),
///   ≤0 r.C = ∀r.¬C, =0 r.C = ∀r.¬C, =n r.⊥ = ⊥.
/// * {…} sorted and deduplicated, {} = ⊥; has-value and has-self unchanged.
/// * A numeric data range that is empty by its bounds (lower > upper, or equal with an
///   exclusive end) is ⊥.
pub fn normalize(c: &Concept) -> Concept {
    positive(c)
}

/// The normal form of `c`.
fn positive(c: &Concept) -> Concept {
    match c {
        Concept::Top => Concept::Top,
        Concept::Bottom => Concept::Bottom,
        Concept::Class(iri) => match iri.as_str() {
            vocab::OWL_THING => Concept::Top,
            vocab::OWL_NOTHING => Concept::Bottom,
            _ => c.clone(),
        },
        Concept::Not(inner) => negative(inner),
        Concept::And(cs) => and(cs.iter().map(positive).collect()),
        Concept::Or(cs) => or(cs.iter().map(positive).collect()),
        Concept::Some { role, filler } => match positive(filler) {
            Concept::Bottom => Concept::Bottom,
            f => Concept::some(role.clone(), f),
        },
        Concept::Only { role, filler } => match positive(filler) {
            Concept::Top => Concept::Top,
            f => Concept::only(role.clone(), f),
        },
        Concept::Min { n: 0, .. } => Concept::Top,
        Concept::Min { n, role, filler } => match positive(filler) {
            Concept::Bottom => Concept::Bottom,
            f if *n == 1 => Concept::some(role.clone(), f),
            f => Concept::min(*n, role.clone(), f),
        },
        Concept::Max { n: 0, role, filler } | Concept::Exactly { n: 0, role, filler } => {
            // ≤0 r.C = =0 r.C = ∀r.¬C (and ∀r.¬⊥ = ⊤).
            positive(&Concept::only(
                role.clone(),
                Concept::not((**filler).clone()),
            ))
        }
        Concept::Max { n, role, filler } | Concept::Exactly { n, role, filler } => {
            match (c, positive(filler)) {
                (Concept::Max { .. }, Concept::Bottom) => Concept::Top,
                (Concept::Max { .. }, f) => Concept::max(*n, role.clone(), f),
                (_, Concept::Bottom) => Concept::Bottom,
                (_, f) => Concept::exactly(*n, role.clone(), f),
            }
        }
        Concept::OneOf(individuals) => {
            let mut v = individuals.clone();
            v.sort();
            v.dedup();
            if v.is_empty() {
                Concept::Bottom
            } else {
                Concept::OneOf(v)
            }
        }
        Concept::Data {
            range: DataRange::Numeric { min, max, .. },
            ..
        } if empty_interval(min, max) => Concept::Bottom,
        Concept::HasValue { .. } | Concept::HasSelf(_) | Concept::Data { .. } => c.clone(),
    }
}

/// The normal form of ¬c.
fn negative(c: &Concept) -> Concept {
    let not = |x: &Concept| Concept::not(x.clone());
    match c {
        Concept::Not(inner) => positive(inner),
        Concept::And(cs) => or(cs.iter().map(negative).collect()),
        Concept::Or(cs) => and(cs.iter().map(negative).collect()),
        Concept::Some { role, filler } => positive(&Concept::only(role.clone(), not(filler))),
        Concept::Only { role, filler } => positive(&Concept::some(role.clone(), not(filler))),
        Concept::Min { n: 0, .. } => Concept::Bottom,
        Concept::Min { n, role, filler } => {
            positive(&Concept::max(n - 1, role.clone(), (**filler).clone()))
        }
        Concept::Max { n, role, filler } => match n.checked_add(1) {
            Some(m) => positive(&Concept::min(m, role.clone(), (**filler).clone())),
            None => complement_of_atom(positive(c)),
        },
        Concept::Exactly { n: 0, role, filler } => {
            positive(&Concept::min(1, role.clone(), (**filler).clone()))
        }
        Concept::Exactly { n, role, filler } => match n.checked_add(1) {
            Some(m) => positive(&Concept::Or(vec![
                Concept::max(n - 1, role.clone(), (**filler).clone()),
                Concept::min(m, role.clone(), (**filler).clone()),
            ])),
            None => complement_of_atom(positive(c)),
        },
        Concept::Top
        | Concept::Bottom
        | Concept::Class(_)
        | Concept::HasValue { .. }
        | Concept::OneOf(_)
        | Concept::HasSelf(_)
        | Concept::Data { .. } => complement_of_atom(positive(c)),
    }
}

/// ¬x for an already normal `x` that ¬ cannot be pushed into.
fn complement_of_atom(x: Concept) -> Concept {
    match x {
        Concept::Top => Concept::Bottom,
        Concept::Bottom => Concept::Top,
        x => Concept::not(x),
    }
}

/// The normal ⊓ of normal operands.
fn and(ops: Vec<Concept>) -> Concept {
    junction(ops, true)
}

/// The normal ⊔ of normal operands.
fn or(ops: Vec<Concept>) -> Concept {
    junction(ops, false)
}

/// ⊓ (`is_and`) or ⊔ of normal operands. `unit` is the neutral element (⊤ for ⊓), `zero` the
/// absorbing one.
fn junction(ops: Vec<Concept>, is_and: bool) -> Concept {
    let (unit, zero) = if is_and {
        (Concept::Top, Concept::Bottom)
    } else {
        (Concept::Bottom, Concept::Top)
    };
    let mut flat = Vec::with_capacity(ops.len());
    for op in ops {
        match op {
            Concept::And(inner) if is_and => flat.extend(inner),
            Concept::Or(inner) if !is_and => flat.extend(inner),
            op if op == unit => {}
            op if op == zero => return zero,
            op => flat.push(op),
        }
    }
    flat.sort();
    flat.dedup();
    // C together with its complement. Operands are normal, so the complement's normal form
    // is `negative(op)`, which is what would appear if it were present.
    if flat
        .iter()
        .any(|op| flat.binary_search(&negative(op)).is_ok())
    {
        return zero;
    }
    match flat.len() {
        0 => unit,
        1 => flat.remove(0),
        _ if is_and => Concept::And(flat),
        _ => Concept::Or(flat),
    }
}

fn empty_interval(min: &Option<Bound>, max: &Option<Bound>) -> bool {
    match (min, max) {
        (Some(lo), Some(hi)) => {
            lo.value > hi.value || (lo.value == hi.value && !(lo.inclusive && hi.inclusive))
        }
        _ => false,
    }
}

#[cfg(test)]
mod tests;

//! Negation normal form plus the simplifications every learner wants (flatten, sort, dedup,
//! absorb ⊤/⊥). Each rewrite is an equivalence in standard DL semantics and also exact under
//! closed-world evaluation over a data graph, so a normalised concept has the same instances.
//!
//! The result is a fixpoint: `normalize(&normalize(c)) == normalize(c)`. It holds in one pass
//! because every constructor is rebuilt from already-normal children by "smart constructors"
//! that only produce normal nodes (a flattened, sorted, deduplicated ⊓ of at least two
//! operands that are neither ⊤, ⊥ nor ⊓; restrictions whose fillers cannot be simplified away;
//! ¬ only in front of atoms). Operands are sorted by the model's derived `Ord`.

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
///
/// The result has at most one ¬ per atom more than the input, except for negated exact
/// cardinalities: ¬=n r.C mentions C twice, so nesting them doubles the output per level.
/// Cost is roughly the size of the result times its depth.
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
        Concept::Exactly { n, .. } if n.checked_add(1).is_none() => complement_of_atom(positive(c)),
        Concept::Exactly { n, role, filler } => {
            // ¬=n r.C = ≤(n−1) r.C ⊔ ≥(n+1) r.C. The filler is normalised once and the
            // pieces are built from it directly, so nested ¬= do not re-normalise it twice.
            let f = positive(filler);
            if f == Concept::Bottom {
                return Concept::Top;
            }
            let below = if *n == 1 {
                match negative(&f) {
                    Concept::Top => Concept::Top,
                    g => Concept::only(role.clone(), g),
                }
            } else {
                Concept::max(n - 1, role.clone(), f.clone())
            };
            or(vec![below, Concept::min(n + 1, role.clone(), f)])
        }
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
    // C together with its complement. The complement of a ⊓ (⊔) operand is a ⊔ (⊓), which a
    // flattened ⊔ (⊓) cannot contain, so those are skipped.
    let complement_present = |op: &Concept| {
        !matches!(op, Concept::And(_) | Concept::Or(_))
            && flat.binary_search(&complement(op)).is_ok()
    };
    if flat.iter().any(complement_present) {
        return zero;
    }
    match flat.len() {
        0 => unit,
        1 => flat.remove(0),
        _ if is_and => Concept::And(flat),
        _ => Concept::Or(flat),
    }
}

/// ¬x for a normal `x`, built structurally in one traversal. It is always equivalent to ¬x
/// and for normal input it is the normal form of ¬x, so finding it among the operands means
/// a contradiction. Unlike [`negative`] it does not re-run junction checks, which would
/// compound through nested ⊓/⊔ (exponential in depth).
fn complement(x: &Concept) -> Concept {
    match x {
        Concept::Top => Concept::Bottom,
        Concept::Bottom => Concept::Top,
        Concept::Not(inner) => (**inner).clone(),
        Concept::And(cs) => sorted_flat(cs.iter().map(complement).collect(), false),
        Concept::Or(cs) => sorted_flat(cs.iter().map(complement).collect(), true),
        Concept::Some { role, filler } => Concept::only(role.clone(), complement(filler)),
        Concept::Only { role, filler } => Concept::some(role.clone(), complement(filler)),
        Concept::Min { n, role, filler } if *n >= 2 => {
            Concept::max(n - 1, role.clone(), (**filler).clone())
        }
        Concept::Max { n, role, filler } if *n >= 1 && *n < u32::MAX => {
            Concept::min(n + 1, role.clone(), (**filler).clone())
        }
        Concept::Exactly { n, role, filler } if *n >= 1 && *n < u32::MAX => {
            let below = if *n == 1 {
                Concept::only(role.clone(), complement(filler))
            } else {
                Concept::max(n - 1, role.clone(), (**filler).clone())
            };
            let above = Concept::min(n + 1, role.clone(), (**filler).clone());
            sorted_flat(vec![below, above], false)
        }
        other => Concept::not(other.clone()),
    }
}

/// ⊓ (`is_and`) or ⊔ of operands, flattened and sorted, without further simplification.
fn sorted_flat(ops: Vec<Concept>, is_and: bool) -> Concept {
    let mut flat = Vec::with_capacity(ops.len());
    for op in ops {
        match op {
            Concept::And(inner) if is_and => flat.extend(inner),
            Concept::Or(inner) if !is_and => flat.extend(inner),
            op => flat.push(op),
        }
    }
    flat.sort();
    if is_and {
        Concept::And(flat)
    } else {
        Concept::Or(flat)
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

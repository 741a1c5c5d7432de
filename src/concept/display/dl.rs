//! The DL printer (Unicode symbols).

use super::{Level, Namer, level, literal, number, operand_level};
use crate::concept::model::{Bound, Concept, DataRange, Iri, Role};
use crate::concept::vocabulary::EntityKind;

pub(super) fn print(c: &Concept, names: &dyn Namer) -> String {
    let mut out = String::new();
    write(c, Level::Or, names, &mut out);
    out
}

fn write(c: &Concept, context: Level, names: &dyn Namer, out: &mut String) {
    if level(c) < context {
        out.push('(');
        write(c, Level::Or, names, out);
        out.push(')');
        return;
    }
    let ind = |iri: &Iri| names.name(iri, EntityKind::Individual);
    match c {
        Concept::Top => out.push('⊤'),
        Concept::Bottom => out.push('⊥'),
        Concept::Class(iri) => out.push_str(&names.name(iri, EntityKind::Class)),
        Concept::Not(inner) => {
            out.push('¬');
            write(inner, Level::Unary, names, out);
        }
        Concept::And(cs) | Concept::Or(cs) => {
            let is_and = matches!(c, Concept::And(_));
            match cs.as_slice() {
                [] => out.push(if is_and { '⊤' } else { '⊥' }),
                [only] => write(only, context, names, out),
                _ => {
                    let sep = if is_and { " ⊓ " } else { " ⊔ " };
                    for (i, op) in cs.iter().enumerate() {
                        if i > 0 {
                            out.push_str(sep);
                        }
                        write(op, operand_level(is_and), names, out);
                    }
                }
            }
        }
        Concept::Some { role, filler } => {
            out.push('∃');
            out.push_str(&self::role(role, names));
            out.push('.');
            // `∃r.{a}` would read back as a has-value restriction.
            if matches!(&**filler, Concept::OneOf(v) if v.len() == 1) {
                out.push('(');
                write(filler, Level::Or, names, out);
                out.push(')');
            } else {
                write(filler, Level::Unary, names, out);
            }
        }
        Concept::Only { role, filler } => restriction("∀", role, filler, names, out),
        Concept::Min { n, role, filler } => {
            restriction(&format!("≥{n} "), role, filler, names, out)
        }
        Concept::Max { n, role, filler } => {
            restriction(&format!("≤{n} "), role, filler, names, out)
        }
        Concept::Exactly { n, role, filler } => {
            restriction(&format!("={n} "), role, filler, names, out)
        }
        Concept::HasValue { role, individual } => {
            out.push_str(&format!(
                "∃{}.{{{}}}",
                self::role(role, names),
                ind(individual)
            ));
        }
        Concept::OneOf(individuals) => {
            let items: Vec<String> = individuals.iter().map(ind).collect();
            out.push_str(&format!("{{{}}}", items.join(", ")));
        }
        Concept::HasSelf(r) => out.push_str(&format!("∃{}.Self", role(r, names))),
        Concept::Data { property, range } => {
            let p = names.name(property, EntityKind::DataProperty);
            out.push_str(&match range {
                DataRange::Value(lit) => format!("∃{p}.{{{}}}", literal(lit, names)),
                DataRange::Datatype(dt) => {
                    format!("∃{p}.{}", names.name(dt, EntityKind::Datatype))
                }
                DataRange::Numeric { datatype, min, max } => format!(
                    "∃{p}.{}[{}]",
                    names.name(datatype, EntityKind::Datatype),
                    facets(min, max)
                ),
            });
        }
    }
}

fn restriction(prefix: &str, r: &Role, filler: &Concept, names: &dyn Namer, out: &mut String) {
    out.push_str(prefix);
    out.push_str(&role(r, names));
    out.push('.');
    write(filler, Level::Unary, names, out);
}

fn role(r: &Role, names: &dyn Namer) -> String {
    let p = names.name(&r.property, EntityKind::ObjectProperty);
    if r.inverse { format!("{p}⁻") } else { p }
}

fn facets(min: &Option<Bound>, max: &Option<Bound>) -> String {
    let lower = min.map(|b| {
        format!(
            "{} {}",
            if b.inclusive { "≥" } else { ">" },
            number(b.value)
        )
    });
    let upper = max.map(|b| {
        format!(
            "{} {}",
            if b.inclusive { "≤" } else { "<" },
            number(b.value)
        )
    });
    [lower, upper]
        .into_iter()
        .flatten()
        .collect::<Vec<_>>()
        .join(", ")
}

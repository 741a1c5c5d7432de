//! The Manchester printer.

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
    let class = |iri: &Iri| names.name(iri, EntityKind::Class);
    let ind = |iri: &Iri| names.name(iri, EntityKind::Individual);
    match c {
        Concept::Top => out.push_str("Thing"),
        Concept::Bottom => out.push_str("Nothing"),
        Concept::Class(iri) => out.push_str(&class(iri)),
        Concept::Not(inner) => {
            out.push_str("not ");
            write(inner, Level::Unary, names, out);
        }
        Concept::And(cs) | Concept::Or(cs) => {
            let is_and = matches!(c, Concept::And(_));
            match cs.as_slice() {
                [] => out.push_str(if is_and { "Thing" } else { "Nothing" }),
                [only] => write(only, context, names, out),
                _ => {
                    let sep = if is_and { " and " } else { " or " };
                    for (i, op) in cs.iter().enumerate() {
                        if i > 0 {
                            out.push_str(sep);
                        }
                        write(op, operand_level(is_and), names, out);
                    }
                }
            }
        }
        Concept::Some { role, filler } => restriction(role, "some", filler, names, out),
        Concept::Only { role, filler } => restriction(role, "only", filler, names, out),
        Concept::Min { n, role, filler } => {
            restriction(role, &format!("min {n}"), filler, names, out)
        }
        Concept::Max { n, role, filler } => {
            restriction(role, &format!("max {n}"), filler, names, out)
        }
        Concept::Exactly { n, role, filler } => {
            restriction(role, &format!("exactly {n}"), filler, names, out)
        }
        Concept::HasValue { role, individual } => {
            out.push_str(&format!(
                "{} value {}",
                self::role(role, names),
                ind(individual)
            ));
        }
        Concept::OneOf(individuals) => {
            let items: Vec<String> = individuals.iter().map(ind).collect();
            out.push_str(&format!("{{{}}}", items.join(", ")));
        }
        Concept::HasSelf(r) => out.push_str(&format!("{} Self", role(r, names))),
        Concept::Data { property, range } => {
            let p = names.name(property, EntityKind::DataProperty);
            out.push_str(&match range {
                DataRange::Value(lit) => format!("{p} value {}", literal(lit, names)),
                DataRange::Datatype(dt) => {
                    format!("{p} some {}", names.name(dt, EntityKind::Datatype))
                }
                DataRange::Numeric { datatype, min, max } => format!(
                    "{p} some {}[{}]",
                    names.name(datatype, EntityKind::Datatype),
                    facets(min, max)
                ),
            });
        }
    }
}

fn restriction(r: &Role, keyword: &str, filler: &Concept, names: &dyn Namer, out: &mut String) {
    out.push_str(&role(r, names));
    out.push(' ');
    out.push_str(keyword);
    out.push(' ');
    write(filler, Level::Unary, names, out);
}

fn role(r: &Role, names: &dyn Namer) -> String {
    let p = names.name(&r.property, EntityKind::ObjectProperty);
    if r.inverse { format!("inverse {p}") } else { p }
}

fn facets(min: &Option<Bound>, max: &Option<Bound>) -> String {
    let lower = min.map(|b| {
        format!(
            "{} {}",
            if b.inclusive { ">=" } else { ">" },
            number(b.value)
        )
    });
    let upper = max.map(|b| {
        format!(
            "{} {}",
            if b.inclusive { "<=" } else { "<" },
            number(b.value)
        )
    });
    [lower, upper]
        .into_iter()
        .flatten()
        .collect::<Vec<_>>()
        .join(", ")
}

//! Printing class expressions in Manchester or DL syntax.
//!
//! Output parses back to the identical tree (`parse_x(to_x(c)) == c`) for *well-formed*
//! concepts: `And`/`Or` with at least two operands, `Numeric` ranges with at least one bound,
//! language-tagged literals typed `rdf:langString`, IRIs writable as `<…>` (absolute, no
//! spaces or `<>"{}|^`\`), data restrictions on properties the vocabulary knows as data
//! properties, roles on properties it does not, classes that are not known datatypes. Everything else still prints (never
//! panics) but may read back differently: `And([])` prints as `Thing`, `Or([])` as
//! `Nothing`, a one-operand `And`/`Or` as its operand — the parsers never build those.
//!
//! Parentheses are minimal for the precedence `not` > `and` > `or`, plus those needed to keep
//! nested `And`-in-`And` and `Or`-in-`Or` from flattening. Literals are written bare
//! (`18`, `1.5`, `2.5e3`, `1.5f`, `true`) only when the bare form reads back as the same
//! literal and is the usual spelling; otherwise they are quoted (`"018"^^xsd:integer`).

mod dl;
mod manchester;

use super::lexical::{bare_number, quote};
use super::model::{Concept, Iri, Literal, Number, vocab};
use super::vocabulary::{EntityKind, Vocabulary, full_name};

/// Manchester syntax with names shortened by `vocab`.
pub fn to_manchester(c: &Concept, vocab: &Vocabulary) -> String {
    manchester::print(c, vocab)
}

/// DL syntax with names shortened by `vocab`.
pub fn to_dl(c: &Concept, vocab: &Vocabulary) -> String {
    dl::print(c, vocab)
}

/// Manchester syntax with every name as `<full IRI>` (for logs: no table needed).
pub fn to_manchester_full(c: &Concept) -> String {
    manchester::print(c, &FullNames)
}

/// DL syntax with every name as `<full IRI>`.
pub fn to_dl_full(c: &Concept) -> String {
    dl::print(c, &FullNames)
}

/// How a printer writes an IRI.
trait Namer {
    fn name(&self, iri: &Iri, kind: EntityKind) -> String;
}

impl Namer for Vocabulary {
    fn name(&self, iri: &Iri, kind: EntityKind) -> String {
        self.short_name(iri, kind)
    }
}

struct FullNames;

impl Namer for FullNames {
    fn name(&self, iri: &Iri, _kind: EntityKind) -> String {
        full_name(iri)
    }
}

/// Binding strength of the printed form: operands weaker than their context get parentheses.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum Level {
    Or,
    And,
    Unary,
}

fn level(c: &Concept) -> Level {
    match c {
        Concept::Or(cs) if cs.len() >= 2 => Level::Or,
        Concept::And(cs) if cs.len() >= 2 => Level::And,
        Concept::And(cs) | Concept::Or(cs) if cs.len() == 1 => level(&cs[0]),
        _ => Level::Unary,
    }
}

/// The level an operand of an n-ary node must have: `And` and `Or` inside `And`, and `Or`
/// inside `Or`, are parenthesised so the parser does not flatten them.
fn operand_level(parent_is_and: bool) -> Level {
    if parent_is_and {
        Level::Unary
    } else {
        Level::And
    }
}

/// A facet bound. Plain decimal notation unless that gets long (`1e-300` has 300 digits);
/// both forms are shortest round-trip representations, so the value reads back exactly.
fn number(n: Number) -> String {
    let plain = n.to_string();
    if plain.len() <= 24 {
        plain
    } else {
        format!("{:e}", n.get())
    }
}

/// A literal in the common syntax of both notations.
fn literal(lit: &Literal, names: &dyn Namer) -> String {
    if let Some(lang) = &lit.language {
        return format!("{}@{lang}", quote(&lit.lexical));
    }
    let dt = lit.datatype.as_str();
    if dt == vocab::XSD_BOOLEAN && matches!(&*lit.lexical, "true" | "false") {
        return lit.lexical.to_string();
    }
    if let Some(bare) = bare_number(lit) {
        return bare;
    }
    if dt == vocab::XSD_STRING {
        return quote(&lit.lexical);
    }
    format!(
        "{}^^{}",
        quote(&lit.lexical),
        names.name(&lit.datatype, EntityKind::Datatype)
    )
}

#[cfg(test)]
mod tests;

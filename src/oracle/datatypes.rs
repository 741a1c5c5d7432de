//! Which literal values a data range admits — one definition shared by the SPARQL compiler
//! and the reference evaluator.
//!
//! - `∃p.D` (datatype): the value's datatype is `D` or derived from it in XSD (`xsd:integer`
//!   admits `xsd:int`, `xsd:long`, …; `xsd:decimal` admits the integer types; `rdfs:Literal`
//!   admits every literal; `xsd:string` admits plain strings).
//! - Numeric ranges `∃p.D[≥ a, < b]` compare by value across every numeric XSD datatype (as
//!   DL-Learner does), so `xsd:integer[>= 18]` matches `"20"^^xsd:int` and `"20.5"^^xsd:double`;
//!   `D` is kept for printing. Ill-typed numerals never match.
//! - `∃p.{v}` is RDF term equality (`"018"^^xsd:integer` is not `18`).

use crate::concept::vocab::{self, NUMERIC_DATATYPES};

const XSD: &str = vocab::XSD;

/// The datatypes whose values belong to `datatype`'s value space (itself included), or `None`
/// for `rdfs:Literal` (every literal).
pub fn datatype_family(datatype: &str) -> Option<Vec<String>> {
    if datatype == vocab::RDFS_LITERAL {
        return None;
    }
    let integer_family = [
        "integer",
        "int",
        "long",
        "short",
        "byte",
        "nonNegativeInteger",
        "positiveInteger",
        "nonPositiveInteger",
        "negativeInteger",
        "unsignedInt",
        "unsignedLong",
        "unsignedShort",
        "unsignedByte",
    ];
    let local = datatype.strip_prefix(XSD);
    let members: Vec<String> = match local {
        Some("decimal") => std::iter::once("decimal")
            .chain(integer_family)
            .map(|l| format!("{XSD}{l}"))
            .collect(),
        Some("integer") => integer_family.iter().map(|l| format!("{XSD}{l}")).collect(),
        Some("long") => ["long", "int", "short", "byte"]
            .iter()
            .map(|l| format!("{XSD}{l}"))
            .collect(),
        Some("int") => ["int", "short", "byte"]
            .iter()
            .map(|l| format!("{XSD}{l}"))
            .collect(),
        Some("nonNegativeInteger") => [
            "nonNegativeInteger",
            "positiveInteger",
            "unsignedInt",
            "unsignedLong",
            "unsignedShort",
            "unsignedByte",
        ]
        .iter()
        .map(|l| format!("{XSD}{l}"))
        .collect(),
        _ => vec![datatype.to_string()],
    };
    Some(members)
}

/// Numeric datatypes compared by value in numeric ranges.
pub fn numeric_datatypes() -> &'static [&'static str] {
    NUMERIC_DATATYPES
}

/// The numeric value of a literal of a numeric datatype (`None` if ill-typed or non-numeric).
pub fn numeric_value(lexical: &str, datatype: &str) -> Option<f64> {
    if !vocab::is_numeric_datatype(datatype) {
        return None;
    }
    let is_float = datatype == vocab::XSD_DOUBLE || datatype == vocab::XSD_FLOAT;
    if is_float {
        return match lexical {
            "INF" | "+INF" => Some(f64::INFINITY),
            "-INF" => Some(f64::NEG_INFINITY),
            "NaN" => Some(f64::NAN),
            _ if lexical
                .chars()
                .all(|c| c.is_ascii_digit() || "+-.eE".contains(c)) =>
            {
                lexical.parse().ok()
            }
            _ => None,
        };
    }
    let decimal_like = !lexical.is_empty()
        && lexical
            .trim_start_matches(['+', '-'])
            .chars()
            .all(|c| c.is_ascii_digit() || c == '.')
        && lexical.chars().filter(|c| *c == '.').count() <= 1;
    if !decimal_like {
        return None;
    }
    let is_integer_type = datatype != vocab::XSD_DECIMAL;
    if is_integer_type && lexical.contains('.') {
        return None;
    }
    lexical.parse().ok()
}

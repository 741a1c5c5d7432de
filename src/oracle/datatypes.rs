//! Which literal values a data range admits — one definition shared by the SPARQL compiler
//! and the reference evaluator.
//!
//! - `∃p.D` (datatype) by value space: `xsd:decimal` admits decimals and every integer type;
//!   an integer type (`xsd:integer`, `xsd:int`, `xsd:nonNegativeInteger`, …) admits any
//!   integer-typed value within its range (stores such as Oxigraph rewrite `"5"^^xsd:int` to
//!   `"5"^^xsd:integer` on load, others keep it: both answer alike); `rdfs:Literal` admits
//!   every literal; `xsd:string` admits plain strings; other datatypes match exactly.
//! - Numeric ranges `∃p.D[≥ a, < b]` compare by value across every numeric XSD datatype (as
//!   DL-Learner does), so `xsd:integer[>= 18]` matches `"20"^^xsd:int` and `"20.5"^^xsd:double`;
//!   `D` is kept for printing. Ill-typed numerals never match.
//! - `∃p.{v}`: for a numeric or boolean `v`, value equality (`67` matches `"67.0"^^xsd:double`,
//!   `"5"^^xsd:int` matches `5`); otherwise RDF term equality.

use crate::concept::vocab::{self, NUMERIC_DATATYPES};

const XSD: &str = vocab::XSD;

/// The datatypes whose values belong to `datatype`'s value space (itself included), or `None`
/// for `rdfs:Literal` (every literal).
pub fn datatype_family(datatype: &str) -> Option<Vec<String>> {
    if datatype == vocab::RDFS_LITERAL {
        return None;
    }
    let local = datatype.strip_prefix(XSD);
    let members: Vec<String> = match local {
        Some("decimal") => std::iter::once(format!("{XSD}decimal"))
            .chain(integer_datatypes())
            .collect(),
        // Integer subtypes: every integer-typed value, restricted by `integer_range`.
        _ if integer_range(datatype).is_some() => integer_datatypes(),
        _ => vec![datatype.to_string()],
    };
    Some(members)
}

const INTEGER_TYPES: &[&str] = &[
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

/// The value range of an integer datatype (`None` when `datatype` is not one); an open side
/// is `None`.
pub fn integer_range(datatype: &str) -> Option<(Option<i128>, Option<i128>)> {
    let local = datatype.strip_prefix(XSD)?;
    Some(match local {
        "integer" => (None, None),
        "long" => (Some(i64::MIN as i128), Some(i64::MAX as i128)),
        "int" => (Some(i32::MIN as i128), Some(i32::MAX as i128)),
        "short" => (Some(i16::MIN as i128), Some(i16::MAX as i128)),
        "byte" => (Some(i8::MIN as i128), Some(i8::MAX as i128)),
        "nonNegativeInteger" => (Some(0), None),
        "positiveInteger" => (Some(1), None),
        "nonPositiveInteger" => (None, Some(0)),
        "negativeInteger" => (None, Some(-1)),
        "unsignedLong" => (Some(0), Some(u64::MAX as i128)),
        "unsignedInt" => (Some(0), Some(u32::MAX as i128)),
        "unsignedShort" => (Some(0), Some(u16::MAX as i128)),
        "unsignedByte" => (Some(0), Some(u8::MAX as i128)),
        _ => return None,
    })
}

/// Every integer datatype IRI.
pub fn integer_datatypes() -> Vec<String> {
    INTEGER_TYPES.iter().map(|l| format!("{XSD}{l}")).collect()
}

/// Whether `∃p.{v}` compares `v` by value (numbers, booleans) rather than as an RDF term.
pub fn compares_by_value(datatype: &str) -> bool {
    vocab::is_numeric_datatype(datatype) || datatype == vocab::XSD_BOOLEAN
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

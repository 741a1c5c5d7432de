//! Parsing class expressions in Manchester or DL syntax.
//!
//! Names are resolved through a [`Vocabulary`]: `<full IRI>`, a bare absolute IRI
//! (`http://…`, `urn:…`), `prefix:local` with a known prefix (all taken as given), or a bare
//! local name that must denote exactly one known entity of the expected kind.
//!
//! [`parse`] picks the syntax: if the text (outside string literals) contains one of
//! `⊤ ⊥ ¬ ⊓ ⊔ ∃ ∀ ≥ ≤ ⁻ & | ~ ^-`, or starts with one of the ASCII DL words `TOP`, `BOTTOM`,
//! `EXISTS`, `FORALL` or with `>=`, `<=`, `=`, it is read as DL first and as Manchester if
//! that fails; otherwise Manchester first and DL if that fails. When both fail, the error of
//! the first choice is returned.

mod cursor;
mod dl;
mod error;
mod lexer;
mod manchester;

pub use dl::parse_dl;
pub use error::{ParseError, Position};
pub use manchester::parse_manchester;

use crate::concept::model::Concept;
use crate::concept::vocabulary::Vocabulary;

/// Parses either syntax; see the module docs for how it chooses.
pub fn parse(text: &str, vocab: &Vocabulary) -> Result<Concept, ParseError> {
    let (first, second): (ParseFn, ParseFn) = if looks_like_dl(text) {
        (parse_dl, parse_manchester)
    } else {
        (parse_manchester, parse_dl)
    };
    first(text, vocab).or_else(|err| second(text, vocab).map_err(|_| err))
}

type ParseFn = fn(&str, &Vocabulary) -> Result<Concept, ParseError>;

/// The detection rule from the module docs.
pub fn looks_like_dl(text: &str) -> bool {
    let trimmed = text.trim_start();
    let starts_with_word = |w: &str| {
        trimmed.len() >= w.len()
            && trimmed.is_char_boundary(w.len())
            && trimmed[..w.len()].eq_ignore_ascii_case(w)
            && !trimmed[w.len()..]
                .chars()
                .next()
                .is_some_and(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '-' | ':'))
    };
    if ["TOP", "BOTTOM", "EXISTS", "FORALL"]
        .iter()
        .any(|w| starts_with_word(w))
        || [">=", "<=", "="].iter().any(|op| trimmed.starts_with(op))
    {
        return true;
    }
    let mut in_string = false;
    let mut escaped = false;
    let mut prev = '\0';
    for c in text.chars() {
        if in_string {
            match (escaped, c) {
                (true, _) => escaped = false,
                (false, '\\') => escaped = true,
                (false, '"') => in_string = false,
                _ => {}
            }
        } else if c == '"' {
            in_string = true;
        } else if "⊤⊥¬⊓⊔∃∀≥≤⁻&|~".contains(c) || (prev == '^' && c == '-') {
            return true;
        }
        prev = c;
    }
    false
}

#[cfg(test)]
mod tests;

//! Lexical rules shared by the parsers, the printers and the name table, kept in one place so
//! that what the printers emit is exactly what the parsers accept.

use super::model::{Literal, vocab};

/// Words with a meaning in Manchester or DL syntax (compared case-insensitively). A name equal
/// to one of them is never printed bare, so printing cannot turn a name into an operator.
pub const KEYWORDS: &[&str] = &[
    "and", "or", "not", "that", "some", "only", "min", "max", "exactly", "value", "self",
    "inverse", "thing", "nothing", "top", "bottom", "exists", "forall", "true", "false",
];

/// True if `word` is a keyword of either syntax (case-insensitive).
pub fn is_keyword(word: &str) -> bool {
    KEYWORDS.iter().any(|k| k.eq_ignore_ascii_case(word))
}

/// A name safe to print bare in both syntaxes: `[A-Za-z_][A-Za-z0-9_-]*` and not a keyword.
pub fn is_safe_identifier(name: &str) -> bool {
    let mut chars = name.chars();
    match chars.next() {
        Some(c) if c.is_ascii_alphabetic() || c == '_' => {}
        _ => return false,
    }
    chars.all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-') && !is_keyword(name)
}

/// A prefix name that can be printed before `:` (`[A-Za-z_][A-Za-z0-9_-]*` or empty).
pub fn is_safe_prefix(prefix: &str) -> bool {
    prefix.is_empty() || {
        let mut chars = prefix.chars();
        chars
            .next()
            .is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
            && chars.all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-')
    }
}

/// The part after `prefix:` in a printed prefixed name: `[A-Za-z0-9_-]+`.
pub fn is_safe_local_part(local: &str) -> bool {
    !local.is_empty()
        && local
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-')
}

/// Length in bytes of the longest numeric literal at the start of `s`
/// (`[+-]?\d+(\.\d+)?([eE][+-]?\d+)?[fF]?`), or 0.
pub fn number_prefix_len(s: &str) -> usize {
    let b = s.as_bytes();
    let digits = |mut i: usize| {
        let start = i;
        while i < b.len() && b[i].is_ascii_digit() {
            i += 1;
        }
        (i, i > start)
    };
    let mut i = usize::from(matches!(b.first(), Some(b'+' | b'-')));
    let (after_int, has_int) = digits(i);
    if !has_int {
        return 0;
    }
    i = after_int;
    if b.get(i) == Some(&b'.') {
        let (j, ok) = digits(i + 1);
        if ok {
            i = j;
        }
    }
    if matches!(b.get(i), Some(b'e' | b'E')) {
        let sign = usize::from(matches!(b.get(i + 1), Some(b'+' | b'-')));
        let (j, ok) = digits(i + 1 + sign);
        if ok {
            i = j;
        }
    }
    if matches!(b.get(i), Some(b'f' | b'F')) {
        i += 1;
    }
    i
}

/// The literal a bare number denotes: integers are `xsd:integer`, `1.5` is `xsd:decimal`,
/// `1.5e3` is `xsd:double`, a trailing `f` makes `xsd:float` (the `f` is not part of the
/// lexical form). The lexical form is kept as written. `None` if `text` is not a number.
pub fn classify_number(text: &str) -> Option<Literal> {
    if text.is_empty() || number_prefix_len(text) != text.len() {
        return None;
    }
    if let Some(body) = text.strip_suffix(['f', 'F']) {
        return Some(Literal::typed(body, vocab::XSD_FLOAT));
    }
    let datatype = if text.contains(['e', 'E']) {
        vocab::XSD_DOUBLE
    } else if text.contains('.') {
        vocab::XSD_DECIMAL
    } else {
        vocab::XSD_INTEGER
    };
    Some(Literal::typed(text, datatype))
}

/// The bare form a printer may use for a numeric literal: only when it reads back as the very
/// same literal and is written the usual way (no `+`, no leading zeros), so `"018"` stays quoted.
pub fn bare_number(lit: &Literal) -> Option<String> {
    if lit.language.is_some() {
        return None;
    }
    let text = if lit.datatype.as_str() == vocab::XSD_FLOAT {
        format!("{}f", lit.lexical)
    } else {
        lit.lexical.to_string()
    };
    let digits = text.strip_prefix('-').unwrap_or(&text);
    let leading_zero =
        digits.len() > 1 && digits.starts_with('0') && digits.as_bytes()[1].is_ascii_digit();
    if text.starts_with('+') || leading_zero || text == "-0" {
        return None;
    }
    (classify_number(&text).as_ref() == Some(lit)).then_some(text)
}

/// The numeric value of a literal used as a facet bound, if its datatype is numeric and its
/// lexical form is a finite number.
pub fn numeric_value(lit: &Literal) -> Option<f64> {
    if !vocab::is_numeric_datatype(lit.datatype.as_str()) || lit.language.is_some() {
        return None;
    }
    let text = lit.lexical.trim();
    if number_prefix_len(text) != text.len() || text.ends_with(['f', 'F']) {
        return None;
    }
    text.parse::<f64>().ok().filter(|v| v.is_finite())
}

/// A string literal body with `"` and `\` (and common control characters) escaped.
pub fn quote(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

/// The characters that may not appear inside `<…>` (besides whitespace); an IRI containing
/// one of them cannot be written in angle brackets.
pub fn is_iri_forbidden(c: char) -> bool {
    c.is_whitespace() || matches!(c, '<' | '>' | '"' | '{' | '}' | '|' | '^' | '`' | '\\')
}

/// Levenshtein distance over chars, for "did you mean" suggestions.
pub fn edit_distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut row: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut diag = row[0];
        row[0] = i + 1;
        for (j, cb) in b.iter().enumerate() {
            let above = row[j + 1];
            row[j + 1] = (diag + usize::from(ca != *cb))
                .min(above + 1)
                .min(row[j] + 1);
            diag = above;
        }
    }
    row[b.len()]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn identifiers() {
        assert!(is_safe_identifier("hasChild"));
        assert!(is_safe_identifier("_x-1"));
        assert!(!is_safe_identifier("2nd"));
        assert!(!is_safe_identifier("a.b"));
        assert!(!is_safe_identifier("AND"));
        assert!(!is_safe_identifier("Thing"));
        assert!(!is_safe_identifier(""));
        assert!(is_safe_local_part("2nd"));
        assert!(!is_safe_local_part("a b"));
    }

    #[test]
    fn numbers() {
        assert_eq!(classify_number("18"), Some(Literal::integer(18)));
        assert_eq!(
            classify_number("-1.5").map(|l| l.datatype),
            Some(vocab::XSD_DECIMAL.into())
        );
        assert_eq!(
            classify_number("1.5e3").map(|l| l.datatype),
            Some(vocab::XSD_DOUBLE.into())
        );
        let f = classify_number("1.5f").unwrap();
        assert_eq!(
            (&*f.lexical, f.datatype.as_str()),
            ("1.5", vocab::XSD_FLOAT)
        );
        assert_eq!(classify_number("1.5x"), None);
        assert_eq!(classify_number("abc"), None);
        assert_eq!(number_prefix_len("2nd"), 1);
        assert_eq!(number_prefix_len("1."), 1);
    }

    #[test]
    fn bare_numbers() {
        assert_eq!(bare_number(&Literal::integer(-5)).as_deref(), Some("-5"));
        assert_eq!(
            bare_number(&Literal::typed("018", vocab::XSD_INTEGER)),
            None
        );
        assert_eq!(bare_number(&Literal::typed("+5", vocab::XSD_INTEGER)), None);
        assert_eq!(bare_number(&Literal::typed("1.5", vocab::XSD_DOUBLE)), None);
        assert_eq!(
            bare_number(&Literal::typed("1.5", vocab::XSD_FLOAT)).as_deref(),
            Some("1.5f")
        );
        assert_eq!(
            bare_number(&Literal::typed("0.5", vocab::XSD_DECIMAL)).as_deref(),
            Some("0.5")
        );
    }

    #[test]
    fn distance() {
        assert_eq!(edit_distance("kitten", "sitting"), 3);
        assert_eq!(edit_distance("", "ab"), 2);
        assert_eq!(edit_distance("Person", "Persn"), 1);
    }
}

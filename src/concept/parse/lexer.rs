//! Tokenizer shared by both syntaxes. The only difference: in DL syntax `.` separates a role
//! from its filler, so it ends a word (numbers like `1.5` are still one token).

use super::error::{ParseError, Position};
use crate::concept::lexical::{is_iri_forbidden, number_prefix_len};

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Syntax {
    Manchester,
    Dl,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Tok {
    /// A name, keyword, prefixed name or bare absolute IRI.
    Word(String),
    /// The inside of `<…>`.
    Iri(String),
    /// A numeric literal as written (`18`, `-1.5`, `1e3`, `2.5f`).
    Number(String),
    /// A quoted string, unescaped, with its language tag if `@lang` follows.
    Str {
        value: String,
        lang: Option<String>,
    },
    CaretCaret,
    /// `⁻` or `^-`.
    Inverse,
    LParen,
    RParen,
    LBrace,
    RBrace,
    LBracket,
    RBracket,
    Comma,
    Dot,
    Ge,
    Gt,
    Le,
    Lt,
    Eq,
    /// `⊤`
    Top,
    /// `⊥`
    Bottom,
    /// `¬` or `~`
    Not,
    /// `⊓` or `&`
    And,
    /// `⊔` or `|`
    Or,
    /// `∃`
    Exists,
    /// `∀`
    Forall,
    Eof,
}

impl Tok {
    /// How the token reads in an error message.
    pub fn describe(&self) -> String {
        match self {
            Tok::Word(w) => format!("`{w}`"),
            Tok::Iri(i) => format!("`<{i}>`"),
            Tok::Number(n) => format!("number `{n}`"),
            Tok::Str { .. } => "a string literal".to_string(),
            Tok::Eof => "end of input".to_string(),
            other => format!("`{}`", other.symbol()),
        }
    }

    fn symbol(&self) -> &'static str {
        match self {
            Tok::CaretCaret => "^^",
            Tok::Inverse => "⁻",
            Tok::LParen => "(",
            Tok::RParen => ")",
            Tok::LBrace => "{",
            Tok::RBrace => "}",
            Tok::LBracket => "[",
            Tok::RBracket => "]",
            Tok::Comma => ",",
            Tok::Dot => ".",
            Tok::Ge => ">=",
            Tok::Gt => ">",
            Tok::Le => "<=",
            Tok::Lt => "<",
            Tok::Eq => "=",
            Tok::Top => "⊤",
            Tok::Bottom => "⊥",
            Tok::Not => "¬",
            Tok::And => "⊓",
            Tok::Or => "⊔",
            Tok::Exists => "∃",
            Tok::Forall => "∀",
            _ => "?",
        }
    }
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Token {
    pub tok: Tok,
    /// Byte offset of the first character.
    pub start: usize,
}

/// Characters that end a word in either syntax.
fn is_delimiter(c: char) -> bool {
    c.is_whitespace() || "(){}[],\"<>=^⊤⊥¬⊓⊔∃∀≥≤⁻&|~".contains(c)
}

fn is_word_char(c: char, syntax: Syntax) -> bool {
    !(is_delimiter(c) || (syntax == Syntax::Dl && c == '.'))
}

/// Splits `text` into tokens, ending with [`Tok::Eof`].
pub fn tokenize(text: &str, syntax: Syntax) -> Result<Vec<Token>, ParseError> {
    let mut tokens = Vec::new();
    let mut i = 0;
    while let Some(c) = text[i..].chars().next() {
        if c.is_whitespace() {
            i += c.len_utf8();
            continue;
        }
        let start = i;
        let rest = &text[i..];
        let simple = match c {
            '(' => Some(Tok::LParen),
            ')' => Some(Tok::RParen),
            '{' => Some(Tok::LBrace),
            '}' => Some(Tok::RBrace),
            '[' => Some(Tok::LBracket),
            ']' => Some(Tok::RBracket),
            ',' => Some(Tok::Comma),
            '.' if syntax == Syntax::Dl => Some(Tok::Dot),
            '=' => Some(Tok::Eq),
            '≥' => Some(Tok::Ge),
            '≤' => Some(Tok::Le),
            '⁻' => Some(Tok::Inverse),
            '⊤' => Some(Tok::Top),
            '⊥' => Some(Tok::Bottom),
            '¬' | '~' => Some(Tok::Not),
            '⊓' | '&' => Some(Tok::And),
            '⊔' | '|' => Some(Tok::Or),
            '∃' => Some(Tok::Exists),
            '∀' => Some(Tok::Forall),
            _ => None,
        };
        let (tok, len) = if let Some(tok) = simple {
            (tok, c.len_utf8())
        } else if c == '^' {
            if rest.starts_with("^^") {
                (Tok::CaretCaret, 2)
            } else if rest.starts_with("^-") {
                (Tok::Inverse, 2)
            } else {
                return Err(invalid(text, start, "expected `^^` or `^-` after `^`"));
            }
        } else if c == '>' {
            if rest.starts_with(">=") {
                (Tok::Ge, 2)
            } else {
                (Tok::Gt, 1)
            }
        } else if c == '<' {
            if let Some(inner) = iri_at(rest) {
                (Tok::Iri(inner.to_string()), inner.len() + 2)
            } else if rest.starts_with("<=") {
                (Tok::Le, 2)
            } else {
                (Tok::Lt, 1)
            }
        } else if c == '"' {
            string_at(text, start)?
        } else {
            let n = number_prefix_len(rest);
            let after = rest[n..].chars().next();
            if n > 0 && !after.is_some_and(|c| is_word_char(c, syntax)) {
                (Tok::Number(rest[..n].to_string()), n)
            } else {
                let n = rest
                    .find(|c| !is_word_char(c, syntax))
                    .unwrap_or(rest.len());
                (Tok::Word(rest[..n].to_string()), n)
            }
        };
        tokens.push(Token { tok, start });
        i += len;
    }
    tokens.push(Token {
        tok: Tok::Eof,
        start: text.len(),
    });
    Ok(tokens)
}

/// `<…>` is an IRI when it closes before any forbidden character and contains a `:`
/// (absolute IRIs have a scheme); otherwise `<` is the facet operator.
fn iri_at(rest: &str) -> Option<&str> {
    let body = &rest[1..];
    let end = body.find(|c: char| c == '>' || is_iri_forbidden(c))?;
    let inner = &body[..end];
    (body[end..].starts_with('>') && inner.contains(':')).then_some(inner)
}

/// A `"…"` string (escapes `\" \\ \n \r \t`) and an optional `@lang` right after it.
fn string_at(text: &str, start: usize) -> Result<(Tok, usize), ParseError> {
    let mut value = String::new();
    let mut chars = text[start + 1..].char_indices();
    let close = loop {
        match chars.next() {
            None => return Err(invalid(text, start, "unterminated string literal")),
            Some((i, '"')) => break start + 1 + i,
            Some((i, '\\')) => match chars.next() {
                Some((_, '"')) => value.push('"'),
                Some((_, '\\')) => value.push('\\'),
                Some((_, 'n')) => value.push('\n'),
                Some((_, 'r')) => value.push('\r'),
                Some((_, 't')) => value.push('\t'),
                _ => {
                    return Err(invalid(
                        text,
                        start + 1 + i,
                        "unknown escape in string literal (use \\\" \\\\ \\n \\r \\t)",
                    ));
                }
            },
            Some((_, c)) => value.push(c),
        }
    };
    let mut end = close + 1;
    let mut lang = None;
    if let Some(after) = text[end..].strip_prefix('@') {
        let n = after
            .find(|c: char| !(c.is_ascii_alphanumeric() || c == '-'))
            .unwrap_or(after.len());
        if n == 0 {
            return Err(invalid(text, end, "expected a language tag after `@`"));
        }
        lang = Some(after[..n].to_string());
        end += 1 + n;
    }
    Ok((Tok::Str { value, lang }, end - start))
}

fn invalid(text: &str, offset: usize, message: &str) -> ParseError {
    ParseError::Invalid {
        at: Position::locate(text, offset),
        message: message.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn toks(text: &str, syntax: Syntax) -> Vec<Tok> {
        tokenize(text, syntax)
            .unwrap()
            .into_iter()
            .map(|t| t.tok)
            .collect()
    }

    fn word(s: &str) -> Tok {
        Tok::Word(s.to_string())
    }

    #[test]
    fn manchester_tokens() {
        assert_eq!(
            toks("ex:age some xsd:int[>=18,<2.5]", Syntax::Manchester),
            vec![
                word("ex:age"),
                word("some"),
                word("xsd:int"),
                Tok::LBracket,
                Tok::Ge,
                Tok::Number("18".into()),
                Tok::Comma,
                Tok::Lt,
                Tok::Number("2.5".into()),
                Tok::RBracket,
                Tok::Eof
            ]
        );
        assert_eq!(
            toks(
                "<http://x.org/a> \"a\\\"b\"@en-GB \"5\"^^xsd:int",
                Syntax::Manchester
            ),
            vec![
                Tok::Iri("http://x.org/a".into()),
                Tok::Str {
                    value: "a\"b".into(),
                    lang: Some("en-GB".into())
                },
                Tok::Str {
                    value: "5".into(),
                    lang: None
                },
                Tok::CaretCaret,
                word("xsd:int"),
                Tok::Eof
            ]
        );
        assert_eq!(
            toks("a.b 2nd", Syntax::Manchester),
            vec![word("a.b"), word("2nd"), Tok::Eof]
        );
    }

    #[test]
    fn dl_tokens() {
        assert_eq!(
            toks("∃r⁻.A ⊓ ≥2 s^-.{1.5}", Syntax::Dl),
            vec![
                Tok::Exists,
                word("r"),
                Tok::Inverse,
                Tok::Dot,
                word("A"),
                Tok::And,
                Tok::Ge,
                Tok::Number("2".into()),
                word("s"),
                Tok::Inverse,
                Tok::Dot,
                Tok::LBrace,
                Tok::Number("1.5".into()),
                Tok::RBrace,
                Tok::Eof
            ]
        );
    }

    #[test]
    fn lexical_errors_have_positions() {
        let err = tokenize("A and \"open", Syntax::Manchester).unwrap_err();
        assert_eq!(err.position().column, 7);
        assert!(tokenize("a ^ b", Syntax::Dl).is_err());
    }
}

//! A token cursor with the pieces both grammars share: names, literals, facets.

use super::error::{ParseError, Position};
use super::lexer::{Syntax, Tok, Token, tokenize};
use crate::concept::lexical::{classify_number, numeric_value};
use crate::concept::model::{Bound, Iri, Literal, Number, vocab};
use crate::concept::vocabulary::{EntityKind, NameError, Vocabulary};

pub struct Cursor<'a> {
    text: &'a str,
    tokens: Vec<Token>,
    pos: usize,
    pub vocab: &'a Vocabulary,
}

impl<'a> Cursor<'a> {
    pub fn new(text: &'a str, syntax: Syntax, vocab: &'a Vocabulary) -> Result<Self, ParseError> {
        Ok(Cursor {
            text,
            tokens: tokenize(text, syntax)?,
            pos: 0,
            vocab,
        })
    }

    pub fn peek(&self) -> &Tok {
        self.peek_at(0)
    }

    /// The token `k` places ahead (`Eof` past the end).
    pub fn peek_at(&self, k: usize) -> &Tok {
        let last = self.tokens.len() - 1;
        &self.tokens[(self.pos + k).min(last)].tok
    }

    pub fn bump(&mut self) -> Tok {
        let tok = self.peek().clone();
        if self.pos + 1 < self.tokens.len() {
            self.pos += 1;
        }
        tok
    }

    /// Consumes the token if it equals `tok`.
    pub fn eat(&mut self, tok: &Tok) -> bool {
        let hit = self.peek() == tok;
        if hit {
            self.bump();
        }
        hit
    }

    pub fn expect(&mut self, tok: &Tok, expected: &str) -> Result<(), ParseError> {
        if self.eat(tok) {
            Ok(())
        } else {
            Err(self.unexpected(expected))
        }
    }

    /// Whether the token `k` ahead is the word `keyword` (case-insensitive).
    pub fn is_keyword_at(&self, k: usize, keyword: &str) -> bool {
        matches!(self.peek_at(k), Tok::Word(w) if w.eq_ignore_ascii_case(keyword))
    }

    pub fn is_keyword(&self, keyword: &str) -> bool {
        self.is_keyword_at(0, keyword)
    }

    pub fn eat_keyword(&mut self, keyword: &str) -> bool {
        let hit = self.is_keyword(keyword);
        if hit {
            self.bump();
        }
        hit
    }

    pub fn finish(&self) -> Result<(), ParseError> {
        if *self.peek() == Tok::Eof {
            Ok(())
        } else {
            Err(self.unexpected("end of input or an operator"))
        }
    }

    pub fn position(&self) -> Position {
        Position::locate(self.text, self.tokens[self.pos].start)
    }

    pub fn unexpected(&self, expected: &str) -> ParseError {
        ParseError::Unexpected {
            at: self.position(),
            expected: expected.to_string(),
            found: self.peek().describe(),
        }
    }

    pub fn unsupported(&self, construct: impl Into<String>) -> ParseError {
        ParseError::Unsupported {
            at: self.position(),
            construct: construct.into(),
        }
    }

    pub fn invalid(&self, message: impl Into<String>) -> ParseError {
        ParseError::Invalid {
            at: self.position(),
            message: message.into(),
        }
    }

    pub fn name_error(&self, source: NameError) -> ParseError {
        ParseError::Name {
            at: self.position(),
            error: source,
        }
    }

    /// The current token as a name (`Word` or `<IRI>`), without consuming it.
    pub fn name_text(&self) -> Option<String> {
        match self.peek() {
            Tok::Word(w) => Some(w.clone()),
            Tok::Iri(i) => Some(format!("<{i}>")),
            _ => None,
        }
    }

    /// Consumes a name and resolves it as `kind`.
    pub fn entity(&mut self, kind: EntityKind, expected: &str) -> Result<Iri, ParseError> {
        let name = self.name_text().ok_or_else(|| self.unexpected(expected))?;
        let iri = self
            .vocab
            .resolve(&name, kind)
            .map_err(|e| self.name_error(e))?;
        self.bump();
        Ok(iri)
    }

    /// `a, b, …` up to the closing `}` (the `{` is already consumed). May be empty.
    pub fn individuals(&mut self) -> Result<Vec<Iri>, ParseError> {
        let mut out = Vec::new();
        if self.eat(&Tok::RBrace) {
            return Ok(out);
        }
        loop {
            if self.literal_ahead() {
                return Err(self.invalid(
                    "a literal cannot be an individual (is the property a data property?)",
                ));
            }
            out.push(self.entity(EntityKind::Individual, "an individual")?);
            if self.eat(&Tok::RBrace) {
                return Ok(out);
            }
            self.expect(&Tok::Comma, "`,` or `}`")?;
        }
    }

    /// Whether a literal starts here (number, string, `true`, `false`).
    pub fn literal_ahead(&self) -> bool {
        matches!(self.peek(), Tok::Number(_) | Tok::Str { .. })
            || matches!(self.peek(), Tok::Word(w) if w == "true" || w == "false")
    }

    /// `18`, `1.5`, `1e3`, `2.5f`, `true`, `"abc"`, `"abc"@en`, `"5"^^xsd:int`.
    pub fn literal(&mut self) -> Result<Literal, ParseError> {
        match self.peek().clone() {
            Tok::Number(text) => {
                let lit = classify_number(&text).ok_or_else(|| self.invalid("bad number"))?;
                self.bump();
                Ok(lit)
            }
            Tok::Word(w) if w == "true" || w == "false" => {
                self.bump();
                Ok(Literal::boolean(w == "true"))
            }
            Tok::Str { value, lang } => {
                self.bump();
                if let Some(lang) = lang {
                    return Ok(Literal::lang_string(value, lang));
                }
                if self.eat(&Tok::CaretCaret) {
                    let datatype = self.entity(EntityKind::Datatype, "a datatype after `^^`")?;
                    return Ok(Literal::typed(value, datatype));
                }
                Ok(Literal::string(value))
            }
            _ => Err(self.unexpected("a literal")),
        }
    }

    /// `{v}` with exactly one literal (the `{` is already consumed).
    pub fn single_literal_set(&mut self) -> Result<Literal, ParseError> {
        let lit = self.literal()?;
        if *self.peek() == Tok::Comma {
            return Err(self.unsupported("data one-of with more than one literal"));
        }
        self.expect(&Tok::RBrace, "`}`")?;
        Ok(lit)
    }

    /// `[>= a, < b]` after a numeric datatype (the `[` is the current token).
    pub fn facets(&mut self, datatype: &Iri) -> Result<(Option<Bound>, Option<Bound>), ParseError> {
        if !vocab::is_numeric_datatype(datatype.as_str()) {
            return Err(self.unsupported(format!(
                "facets on the non-numeric datatype <{datatype}> (only numeric ranges are supported)"
            )));
        }
        self.expect(&Tok::LBracket, "`[`")?;
        let (mut min, mut max) = (None, None);
        loop {
            let (lower, inclusive) = match self.peek() {
                Tok::Ge => (true, true),
                Tok::Gt => (true, false),
                Tok::Le => (false, true),
                Tok::Lt => (false, false),
                Tok::Word(w) => {
                    return Err(
                        self.unsupported(format!("facet `{w}` (only >=, >, <=, < are supported)"))
                    );
                }
                _ => return Err(self.unexpected("a facet (>=, >, <=, <)")),
            };
            self.bump();
            let value = self.facet_value()?;
            let slot = if lower { &mut min } else { &mut max };
            if slot.is_some() {
                return Err(self.unsupported(format!(
                    "more than one {} bound in a numeric range",
                    if lower { "lower" } else { "upper" }
                )));
            }
            *slot = Some(Bound { value, inclusive });
            if self.eat(&Tok::RBracket) {
                return Ok((min, max));
            }
            self.expect(&Tok::Comma, "`,` or `]`")?;
        }
    }

    /// A cardinality: a non-negative integer that fits in `u32`.
    pub fn count(&mut self) -> Result<u32, ParseError> {
        match self.peek() {
            Tok::Number(n) => {
                let n = n
                    .parse::<u32>()
                    .map_err(|_| self.invalid(format!("`{n}` is not a valid count")))?;
                self.bump();
                Ok(n)
            }
            _ => Err(self.unexpected("a non-negative integer")),
        }
    }

    fn facet_value(&mut self) -> Result<Number, ParseError> {
        let at = self.position();
        let lit = self.literal()?;
        numeric_value(&lit)
            .and_then(Number::new)
            .ok_or_else(|| ParseError::Invalid {
                at,
                message: format!("facet value `{}` is not a finite number", lit.lexical),
            })
    }
}

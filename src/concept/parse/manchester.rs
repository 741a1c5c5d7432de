//! Manchester OWL syntax for class expressions.
//!
//! Grammar (keywords case-insensitive, `that` is a synonym of `and`):
//!
//! ```text
//! expr     := conj ('or' conj)*
//! conj     := unary (('and' | 'that') unary)*
//! unary    := 'not' unary | role RESTRICTION | atomic
//! atomic   := 'Thing' | 'Nothing' | class | '{' individual (',' individual)* '}' | '(' expr ')'
//! role     := property | 'inverse' property | 'inverse' '(' property ')'
//! RESTRICTION (object property) :=
//!     'some' unary | 'only' unary | 'value' individual | 'Self'
//!   | ('min' | 'max' | 'exactly') n [unary]            -- no filler means Thing
//! RESTRICTION (data property) :=
//!     'some' datatype | 'some' datatype '[' facet (',' facet)* ']' | 'some' '{' literal '}'
//!   | 'value' literal
//! facet    := ('>=' | '>' | '<=' | '<') number          -- numeric datatypes only
//! ```
//!
//! A name followed by a restriction keyword is a property, otherwise a class. Whether a
//! property is a data property is decided by [`Vocabulary::resolve_property`].
//! `A and B and C` builds one flat `And` of three; parentheses always build a nested node,
//! so `(A and B) and C` is `And[And[A, B], C]`. `Thing` is [`Concept::Top`] while `owl:Thing`
//! written as a name is `Class(owl:Thing)`: the parser builds what was written and leaves
//! simplification to [`crate::concept::normalize`].

use super::cursor::Cursor;
use super::error::ParseError;
use super::lexer::{Syntax, Tok};
use crate::concept::model::{Concept, DataRange, Iri, Role};
use crate::concept::vocabulary::{EntityKind, PropertyKind, Vocabulary};

/// Words that cannot start a class name.
const RESERVED: &[&str] = &[
    "and", "or", "that", "not", "some", "only", "value", "min", "max", "exactly", "self", "inverse",
];

const RESTRICTION_KEYWORDS: &[&str] = &["some", "only", "value", "min", "max", "exactly", "self"];

/// Parses a Manchester-syntax class expression.
pub fn parse_manchester(text: &str, vocab: &Vocabulary) -> Result<Concept, ParseError> {
    let mut p = Parser {
        cur: Cursor::new(text, Syntax::Manchester, vocab)?,
    };
    let c = p.expr()?;
    p.cur.finish()?;
    Ok(c)
}

struct Parser<'a> {
    cur: Cursor<'a>,
}

impl Parser<'_> {
    fn expr(&mut self) -> Result<Concept, ParseError> {
        let mut ops = vec![self.conj()?];
        while self.cur.eat_keyword("or") {
            ops.push(self.conj()?);
        }
        Ok(if ops.len() == 1 {
            ops.remove(0)
        } else {
            Concept::Or(ops)
        })
    }

    fn conj(&mut self) -> Result<Concept, ParseError> {
        let mut ops = vec![self.unary()?];
        while self.cur.eat_keyword("and") || self.cur.eat_keyword("that") {
            ops.push(self.unary()?);
        }
        Ok(if ops.len() == 1 {
            ops.remove(0)
        } else {
            Concept::And(ops)
        })
    }

    fn unary(&mut self) -> Result<Concept, ParseError> {
        if self.cur.eat_keyword("not") {
            return Ok(Concept::not(self.unary()?));
        }
        if self.cur.is_keyword("inverse") {
            self.cur.bump();
            let role = self.inverse_role()?;
            return self.object_restriction(role);
        }
        let is_name = matches!(self.cur.peek(), Tok::Word(_) | Tok::Iri(_));
        if is_name
            && RESTRICTION_KEYWORDS
                .iter()
                .any(|k| self.cur.is_keyword_at(1, k))
        {
            return self.restriction();
        }
        self.atomic()
    }

    /// Whether a filler starts here (for the optional filler of cardinalities).
    fn filler_ahead(&self) -> bool {
        match self.cur.peek() {
            Tok::Word(w) => {
                let w = w.to_ascii_lowercase();
                w == "not" || w == "inverse" || !RESERVED.contains(&w.as_str())
            }
            Tok::Iri(_) | Tok::LBrace | Tok::LParen => true,
            _ => false,
        }
    }

    fn atomic(&mut self) -> Result<Concept, ParseError> {
        if self.cur.eat_keyword("thing") {
            return Ok(Concept::Top);
        }
        if self.cur.eat_keyword("nothing") {
            return Ok(Concept::Bottom);
        }
        match self.cur.peek() {
            Tok::LParen => {
                self.cur.bump();
                let c = self.expr()?;
                self.cur.expect(&Tok::RParen, "`)`")?;
                Ok(c)
            }
            Tok::LBrace => {
                self.cur.bump();
                Ok(Concept::OneOf(self.cur.individuals()?))
            }
            Tok::Word(w) if RESERVED.iter().any(|k| k.eq_ignore_ascii_case(w)) => {
                Err(self.cur.unexpected("a class expression"))
            }
            Tok::Word(_) | Tok::Iri(_) => {
                let iri = self.cur.entity(EntityKind::Class, "a class")?;
                if self.cur.vocab.contains(EntityKind::Datatype, &iri) {
                    return Err(self.cur.unsupported(format!(
                        "<{iri}> is a datatype, not a class (data ranges with and/or/not are not supported)"
                    )));
                }
                Ok(Concept::Class(iri))
            }
            _ => Err(self.cur.unexpected("a class expression")),
        }
    }

    /// `inverse r` or `inverse(r)`, after the `inverse` keyword.
    fn inverse_role(&mut self) -> Result<Role, ParseError> {
        let paren = self.cur.eat(&Tok::LParen);
        let iri = self.object_property()?;
        if paren {
            self.cur.expect(&Tok::RParen, "`)`")?;
        }
        Ok(Role::inverse_of(iri))
    }

    fn object_property(&mut self) -> Result<Iri, ParseError> {
        let name = self
            .cur
            .name_text()
            .ok_or_else(|| self.cur.unexpected("an object property"))?;
        let (iri, kind) = self
            .cur
            .vocab
            .resolve_property(&name)
            .map_err(|e| self.cur.name_error(e))?;
        if kind == PropertyKind::Data {
            return Err(self.cur.invalid(format!(
                "`{name}` is a data property; only object properties can be inverted"
            )));
        }
        self.cur.bump();
        Ok(iri)
    }

    fn restriction(&mut self) -> Result<Concept, ParseError> {
        let name = self
            .cur
            .name_text()
            .ok_or_else(|| self.cur.unexpected("a property"))?;
        let (iri, kind) = self
            .cur
            .vocab
            .resolve_property(&name)
            .map_err(|e| self.cur.name_error(e))?;
        self.cur.bump();
        match kind {
            PropertyKind::Object => self.object_restriction(Role::new(iri)),
            PropertyKind::Data => self.data_restriction(iri),
        }
    }

    fn object_restriction(&mut self, role: Role) -> Result<Concept, ParseError> {
        let Tok::Word(word) = self.cur.peek().clone() else {
            return Err(self
                .cur
                .unexpected("some, only, value, min, max, exactly or Self"));
        };
        let keyword = word.to_ascii_lowercase();
        match keyword.as_str() {
            "some" | "only" => {
                self.cur.bump();
                let filler = self.unary()?;
                Ok(if keyword == "some" {
                    Concept::some(role, filler)
                } else {
                    Concept::only(role, filler)
                })
            }
            "value" => {
                self.cur.bump();
                if self.cur.literal_ahead() {
                    return Err(self.cur.invalid(
                        "`value` with a literal needs a data property, but this is an object property",
                    ));
                }
                let individual = self.cur.entity(EntityKind::Individual, "an individual")?;
                Ok(Concept::HasValue { role, individual })
            }
            "self" => {
                self.cur.bump();
                Ok(Concept::HasSelf(role))
            }
            "min" | "max" | "exactly" => {
                self.cur.bump();
                let n = self.cur.count()?;
                let filler = if self.filler_ahead() {
                    self.unary()?
                } else {
                    Concept::Top
                };
                Ok(match keyword.as_str() {
                    "min" => Concept::min(n, role, filler),
                    "max" => Concept::max(n, role, filler),
                    _ => Concept::exactly(n, role, filler),
                })
            }
            _ => Err(self
                .cur
                .unexpected("some, only, value, min, max, exactly or Self")),
        }
    }

    fn data_restriction(&mut self, property: Iri) -> Result<Concept, ParseError> {
        let Tok::Word(word) = self.cur.peek().clone() else {
            return Err(self.cur.unexpected("some or value"));
        };
        match word.to_ascii_lowercase().as_str() {
            "some" => {
                self.cur.bump();
                let range = self.data_range()?;
                Ok(Concept::Data { property, range })
            }
            "value" => {
                self.cur.bump();
                let lit = self.cur.literal()?;
                Ok(Concept::Data {
                    property,
                    range: DataRange::Value(lit),
                })
            }
            "only" => Err(self
                .cur
                .unsupported("universal data restriction (`only` on a data property)")),
            "min" | "max" | "exactly" => Err(self.cur.unsupported(format!(
                "data cardinality restriction (`{word}` on a data property)"
            ))),
            "self" => Err(self.cur.invalid("`Self` needs an object property")),
            _ => Err(self.cur.unexpected("some or value")),
        }
    }

    fn data_range(&mut self) -> Result<DataRange, ParseError> {
        match self.cur.peek() {
            Tok::LBrace => {
                self.cur.bump();
                Ok(DataRange::Value(self.cur.single_literal_set()?))
            }
            Tok::LParen => Err(self
                .cur
                .unsupported("data range expression in parentheses (and/or/not of data ranges)")),
            Tok::Word(w) if w.eq_ignore_ascii_case("not") => Err(self
                .cur
                .unsupported("data range complement (`not` of a datatype)")),
            Tok::Word(_) | Tok::Iri(_) => {
                let datatype = self.cur.entity(EntityKind::Datatype, "a datatype")?;
                if *self.cur.peek() == Tok::LBracket {
                    let (min, max) = self.cur.facets(&datatype)?;
                    Ok(DataRange::Numeric { datatype, min, max })
                } else {
                    Ok(DataRange::Datatype(datatype))
                }
            }
            _ => Err(self.cur.unexpected("a datatype or `{literal}`")),
        }
    }
}

//! Description-logic syntax for class expressions, with ASCII alternatives.
//!
//! | Unicode | ASCII alternatives        | meaning                              |
//! |---------|---------------------------|--------------------------------------|
//! | `⊤`     | `TOP`                     | owl:Thing                            |
//! | `⊥`     | `BOTTOM`                  | owl:Nothing                          |
//! | `¬C`    | `~C`, `NOT C`             | complement                           |
//! | `C ⊓ D` | `C & D`, `C AND D`        | intersection                         |
//! | `C ⊔ D` | `C \| D`, `C OR D`        | union                                |
//! | `∃r.C`  | `EXISTS r.C`              | existential restriction              |
//! | `∀r.C`  | `FORALL r.C`              | universal restriction                |
//! | `≥n r.C`| `>= n r.C`                | at least (`.C` optional, default ⊤)  |
//! | `≤n r.C`| `<= n r.C`                | at most                              |
//! | `=n r.C`| `= n r.C`                 | exactly                              |
//! | `r⁻`    | `r^-`                     | inverse role                         |
//! | `∃r.{a}`|                           | has value (`∃r.{a, b}` is ∃r.OneOf)  |
//! | `∃r.Self`|                          | self restriction                     |
//! | `{a, b}`|                           | one-of                               |
//! | `∃p.{18}`, `∃p.xsd:integer`, `∃p.xsd:integer[≥ 18, < 65]` | `>=`/`<=` in facets | data |
//!
//! ASCII keywords are case-insensitive. Precedence is ¬ > ⊓ > ⊔, and every restriction takes a
//! *unary* expression as filler, so `∃r.A ⊓ B` is `(∃r.A) ⊓ B` and `∃r.¬A` is `∃r.(¬A)`.
//! `∃r.({a})` (parenthesised) is `∃r.OneOf[a]`, distinct from the has-value `∃r.{a}`.
//! As in Manchester syntax, `A ⊓ B ⊓ C` builds one flat `And` and parentheses nest; names
//! resolve through the [`Vocabulary`] (bare local names, `prefix:local`, `<full IRI>`;
//! `.` ends a name, so IRIs containing dots need `<…>`).

use super::cursor::Cursor;
use super::error::ParseError;
use super::lexer::{Syntax, Tok};
use crate::concept::model::{Concept, DataRange, Iri, Role};
use crate::concept::vocabulary::{EntityKind, PropertyKind, Vocabulary};

/// Parses a DL-syntax class expression.
pub fn parse_dl(text: &str, vocab: &Vocabulary) -> Result<Concept, ParseError> {
    let mut p = Parser {
        cur: Cursor::new(text, Syntax::Dl, vocab)?,
    };
    let c = p.expr()?;
    p.cur.finish()?;
    Ok(c)
}

/// ASCII words with a meaning in DL syntax (case-insensitive).
pub(super) const ASCII_KEYWORDS: &[&str] =
    &["TOP", "BOTTOM", "NOT", "AND", "OR", "EXISTS", "FORALL"];

struct Parser<'a> {
    cur: Cursor<'a>,
}

/// A property as it appears before `.`, with its kind.
struct Prop {
    iri: Iri,
    kind: PropertyKind,
    inverse: bool,
    name: String,
}

impl Prop {
    fn role(&self) -> Role {
        Role {
            property: self.iri.clone(),
            inverse: self.inverse,
        }
    }
}

impl Parser<'_> {
    fn expr(&mut self) -> Result<Concept, ParseError> {
        let mut ops = vec![self.conj()?];
        while self.cur.eat(&Tok::Or) || self.cur.eat_keyword("OR") {
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
        while self.cur.eat(&Tok::And) || self.cur.eat_keyword("AND") {
            ops.push(self.unary()?);
        }
        Ok(if ops.len() == 1 {
            ops.remove(0)
        } else {
            Concept::And(ops)
        })
    }

    fn unary(&mut self) -> Result<Concept, ParseError> {
        if self.cur.eat(&Tok::Not) || self.cur.eat_keyword("NOT") {
            return Ok(Concept::not(self.unary()?));
        }
        if self.cur.eat(&Tok::Exists) || self.cur.eat_keyword("EXISTS") {
            let prop = self.property()?;
            self.cur.expect(&Tok::Dot, "`.`")?;
            return self.exists(prop);
        }
        if self.cur.eat(&Tok::Forall) || self.cur.eat_keyword("FORALL") {
            let prop = self.property()?;
            if prop.kind == PropertyKind::Data {
                return Err(self.cur.unsupported(format!(
                    "universal data restriction (∀ on the data property `{}`)",
                    prop.name
                )));
            }
            self.cur.expect(&Tok::Dot, "`.`")?;
            return Ok(Concept::only(prop.role(), self.unary()?));
        }
        let cardinality = match self.cur.peek() {
            Tok::Ge => Some(0),
            Tok::Le => Some(1),
            Tok::Eq => Some(2),
            _ => None,
        };
        if let Some(which) = cardinality {
            self.cur.bump();
            let n = self.cur.count()?;
            let prop = self.property()?;
            if prop.kind == PropertyKind::Data {
                return Err(self.cur.unsupported(format!(
                    "data cardinality restriction (on the data property `{}`)",
                    prop.name
                )));
            }
            let filler = if self.cur.eat(&Tok::Dot) {
                self.unary()?
            } else {
                Concept::Top
            };
            let role = prop.role();
            return Ok(match which {
                0 => Concept::min(n, role, filler),
                1 => Concept::max(n, role, filler),
                _ => Concept::exactly(n, role, filler),
            });
        }
        self.atomic()
    }

    fn atomic(&mut self) -> Result<Concept, ParseError> {
        if self.cur.eat(&Tok::Top) || self.cur.eat_keyword("TOP") {
            return Ok(Concept::Top);
        }
        if self.cur.eat(&Tok::Bottom) || self.cur.eat_keyword("BOTTOM") {
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
            Tok::Word(w) if is_reserved(w) => Err(self.cur.unexpected("a class expression")),
            Tok::Word(_) | Tok::Iri(_) => {
                let iri = self.cur.entity(EntityKind::Class, "a class")?;
                if self.cur.vocab.contains(EntityKind::Datatype, &iri) {
                    return Err(self.cur.unsupported(format!(
                        "<{iri}> is a datatype, not a class (data ranges with ⊓/⊔/¬ are not supported)"
                    )));
                }
                Ok(Concept::Class(iri))
            }
            _ => Err(self.cur.unexpected("a class expression")),
        }
    }

    /// `r`, `r⁻` or `r^-`.
    fn property(&mut self) -> Result<Prop, ParseError> {
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
        let inverse = self.cur.eat(&Tok::Inverse);
        if inverse && kind == PropertyKind::Data {
            return Err(self.cur.invalid(format!(
                "`{name}` is a data property; only object properties can be inverted"
            )));
        }
        Ok(Prop {
            iri,
            kind,
            inverse,
            name,
        })
    }

    /// The filler after `∃r.`: `Self`, `{…}` (has-value / one-of / data value), a datatype
    /// (data properties), or any unary expression.
    fn exists(&mut self, prop: Prop) -> Result<Concept, ParseError> {
        if prop.kind == PropertyKind::Data {
            let range = self.data_range()?;
            return Ok(Concept::Data {
                property: prop.iri,
                range,
            });
        }
        let role = prop.role();
        if self.cur.eat_keyword("Self") {
            return Ok(Concept::HasSelf(role));
        }
        if self.cur.eat(&Tok::LBrace) {
            let mut individuals = self.cur.individuals()?;
            return Ok(if individuals.len() == 1 {
                Concept::HasValue {
                    role,
                    individual: individuals.remove(0),
                }
            } else {
                Concept::some(role, Concept::OneOf(individuals))
            });
        }
        Ok(Concept::some(role, self.unary()?))
    }

    fn data_range(&mut self) -> Result<DataRange, ParseError> {
        match self.cur.peek() {
            Tok::LBrace => {
                self.cur.bump();
                Ok(DataRange::Value(self.cur.single_literal_set()?))
            }
            Tok::LParen | Tok::Not => Err(self
                .cur
                .unsupported("data range expression (⊓/⊔/¬ of data ranges)")),
            Tok::Word(w) if is_reserved(w) => Err(self.cur.unexpected("a datatype or `{literal}`")),
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

fn is_reserved(word: &str) -> bool {
    ASCII_KEYWORDS.iter().any(|k| k.eq_ignore_ascii_case(word)) || word.eq_ignore_ascii_case("self")
}

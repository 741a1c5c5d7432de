//! DL-Learner's own `.kb` knowledge-base syntax, read into OWL as RDF triples.
//!
//! Written after DL-Learner's KB parser grammar, `components-core/src/main/java/org/
//! dllearner/parser/kb.jj` (SmartDataAnalytics/DL-Learner, commit 825f20bc9f31); this is an
//! independent parser. The subset, one statement per `.`:
//!
//! ```text
//! male(stefan).                 class assertion    (any concept: (NOT male)(anna).)
//! hasChild(stefan,markus).      role assertion
//! father = (male AND EXISTS hasChild.TOP).     equivalence
//! father SUB male.              inclusion (also SUBCLASSOF, SUBCONCEPTOF)
//! BOTTOM = (male AND female).   disjointness of two classes
//! Functional(r).  Transitive(r).  Symmetric(r).  Inverse(r,s).  Subrole(r,s).
//! DOMAIN(r) = C.  RANGE(r) = C.  (also OPDOMAIN, OBJECTPROPERTYDOMAIN, OPRANGE, …)
//! DPDOMAIN(d) = C.  DPRANGE(d) = DOUBLE.  (or BOOLEAN, INTEGER)
//! ```
//!
//! Concepts: `TOP`, `BOTTOM`, a name, `(C AND D)`, `(C OR D)` (also with more operands, an
//! extension), `EXISTS r.C` / `SOME`, `ALL r.C` / `FORALL`, `NOT C` / `NEG`, `>= n r.C`,
//! `<= n r.C`, `(d IS TRUE)`, `(d IS FALSE)`, `(r HASVALUE i)`, `(d STRINGVALUE "s")`.
//! Comments are `//` and `/* */`.
//!
//! Names are `[a-z][A-Za-z0-9_]*` or quoted strings (names starting with another letter are
//! accepted too unless they are keywords). A name that is not a full IRI lives in
//! [`DL_LEARNER_NAMESPACE`] (`http://localhost/foo#`, DL-Learner's own), as do the bare
//! example names of a `.conf` file, so `+stefan` there is `stefan` here. Negated role
//! assertions (`NOT r(a,b).`) are refused, as DL-Learner refuses them.

use std::collections::BTreeSet;
use std::fmt::Write as _;

/// The namespace of `.kb` names that are not full IRIs (DL-Learner's `KBParser`).
pub const DL_LEARNER_NAMESPACE: &str = "http://localhost/foo#";

const RDF: &str = "http://www.w3.org/1999/02/22-rdf-syntax-ns#";
const RDFS: &str = "http://www.w3.org/2000/01/rdf-schema#";
const OWL: &str = "http://www.w3.org/2002/07/owl#";
const XSD: &str = "http://www.w3.org/2001/XMLSchema#";

/// A syntax error with its 1-based line and column (in characters).
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct KbSyntaxError {
    pub line: u64,
    pub column: u64,
    pub message: String,
}

/// Parses a `.kb` document into N-Triples.
pub(crate) fn to_ntriples(text: &str) -> Result<Vec<u8>, KbSyntaxError> {
    let toks = lex(text)?;
    let mut p = Parser {
        toks,
        pos: 0,
        out: Out::default(),
    };
    while p.pos < p.toks.len() {
        p.statement()?;
    }
    Ok(p.out.finish().into_bytes())
}

/// Whether `text` looks like a `.kb` file: after comments, a statement such as
/// `male(x)`, `Functional(r)`, `BOTTOM = …` or `"http://…"(x)`.
pub(crate) fn looks_like(text: &str) -> bool {
    let Ok(toks) = lex(first_chunk(text)) else {
        return false;
    };
    match toks.as_slice() {
        [(Tok::Name(n, _), ..), (Tok::P('('), ..), ..] => {
            n.starts_with(|c: char| c.is_ascii_lowercase()) || n.starts_with("http")
        }
        [(Tok::Kw(k), ..), (Tok::P('('), ..), ..] => RBOX.contains(k) || domain_range(k).is_some(),
        [
            (Tok::Kw("TOP" | "BOTTOM"), ..),
            (Tok::P('='), ..) | (Tok::Kw(_), ..),
            ..,
        ] => true,
        _ => false,
    }
}

/// The start of `text`, cut at a line end, enough for [`looks_like`].
fn first_chunk(text: &str) -> &str {
    let mut end = text.len().min(4096);
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    let head = &text[..end];
    // Do not cut inside a token: stop at the last line end.
    match head.rfind('\n') {
        Some(i) if end < text.len() => &head[..i],
        _ => head,
    }
}

#[derive(Debug, Clone, PartialEq)]
enum Tok {
    /// A name (`male`, `"http://…"`); `true` when quoted.
    Name(String, bool),
    Kw(&'static str),
    Num(u32),
    /// `.`, `(`, `)`, `,`, `=`, `≥` as `>`, `≤` as `<`.
    P(char),
}

const KEYWORDS: [&str; 36] = [
    "TOP",
    "BOTTOM",
    "AND",
    "OR",
    "EXISTS",
    "SOME",
    "ALL",
    "FORALL",
    "NEG",
    "NOT",
    "Transitive",
    "Functional",
    "Symmetric",
    "Inverse",
    "Subrole",
    "SUBCLASSOF",
    "SUB",
    "SUBCONCEPTOF",
    "DOMAIN",
    "OPDOMAIN",
    "OBJECTPROPERTYDOMAIN",
    "DPDOMAIN",
    "DATATYPEPROPERTYDOMAIN",
    "RANGE",
    "OPRANGE",
    "OBJECTPROPERTYRANGE",
    "DPRANGE",
    "DATATYPEPROPERTYRANGE",
    "DOUBLE",
    "BOOLEAN",
    "INTEGER",
    "IS",
    "TRUE",
    "FALSE",
    "HASVALUE",
    "STRINGVALUE",
];

const RBOX: [&str; 5] = [
    "Transitive",
    "Functional",
    "Symmetric",
    "Inverse",
    "Subrole",
];

/// `(object property?, domain?)` of a domain/range keyword.
fn domain_range(k: &str) -> Option<(bool, bool)> {
    Some(match k {
        "DOMAIN" | "OPDOMAIN" | "OBJECTPROPERTYDOMAIN" => (true, true),
        "DPDOMAIN" | "DATATYPEPROPERTYDOMAIN" => (false, true),
        "RANGE" | "OPRANGE" | "OBJECTPROPERTYRANGE" => (true, false),
        "DPRANGE" | "DATATYPEPROPERTYRANGE" => (false, false),
        _ => return None,
    })
}

type Located = (Tok, u64, u64);

/// The characters still to read and the line and column of the last one read.
struct Cursor<'a> {
    chars: std::iter::Peekable<std::str::Chars<'a>>,
    line: u64,
    col: u64,
}

impl Cursor<'_> {
    /// Counts `c` as read.
    fn step(&mut self, c: char) {
        if c == '\n' {
            self.line += 1;
            self.col = 0;
        } else {
            self.col += 1;
        }
    }

    fn next(&mut self) -> Option<char> {
        let c = self.chars.next()?;
        self.step(c);
        Some(c)
    }

    fn next_if(&mut self, f: impl FnOnce(&char) -> bool) -> Option<char> {
        let c = self.chars.next_if(f)?;
        self.step(c);
        Some(c)
    }

    /// The rest of a `//` comment, up to (not including) the end of the line.
    fn line_comment(&mut self) {
        while self.next_if(|c| *c != '\n').is_some() {}
    }

    /// The rest of a `/*` comment whose `/` was read; false when it never ends.
    fn block_comment(&mut self) -> bool {
        let mut prev = ' ';
        self.next();
        while let Some(c) = self.next() {
            if prev == '*' && c == '/' {
                return true;
            }
            prev = c;
        }
        false
    }

    /// The rest of a string whose `"` was read; `None` when the line ends first or a
    /// backslash comes.
    fn string(&mut self) -> Option<String> {
        let mut s = String::new();
        loop {
            match self.chars.next() {
                Some('"') => {
                    self.step('"');
                    return Some(s);
                }
                Some(c) if c != '\n' && c != '\r' && c != '\\' => {
                    self.step(c);
                    s.push(c);
                }
                _ => return None,
            }
        }
    }

    /// `first` and the characters after it while `more` holds.
    fn word(&mut self, first: char, more: impl Fn(&char) -> bool) -> String {
        let mut w = String::from(first);
        while let Some(d) = self.next_if(&more) {
            w.push(d);
        }
        w
    }
}

fn lex(text: &str) -> Result<Vec<Located>, KbSyntaxError> {
    let mut toks = Vec::new();
    let mut cur = Cursor {
        chars: text.chars().peekable(),
        line: 1,
        col: 0,
    };
    while let Some(c) = cur.next() {
        let (l, k) = (cur.line, cur.col);
        let err = |message: String| KbSyntaxError {
            line: l,
            column: k,
            message,
        };
        let tok = match c {
            c if c.is_whitespace() || c == '\u{feff}' => continue,
            '/' if cur.chars.peek() == Some(&'/') => {
                cur.line_comment();
                continue;
            }
            '/' if cur.chars.peek() == Some(&'*') => {
                if !cur.block_comment() {
                    return Err(err("unterminated /* comment".to_owned()));
                }
                continue;
            }
            '"' => match cur.string() {
                Some(s) => Tok::Name(s, true),
                None => {
                    return Err(err(
                        "unterminated string (strings end on the same line and hold no \
                         backslash)"
                            .to_owned(),
                    ));
                }
            },
            '>' | '<' => {
                if cur.next_if(|d| *d == '=').is_none() {
                    return Err(err(format!("expected '{c}=', found '{c}' alone")));
                }
                Tok::P(c)
            }
            '.' | '(' | ')' | ',' | '=' => Tok::P(c),
            c if c.is_ascii_digit() => {
                let n = cur.word(c, char::is_ascii_digit);
                Tok::Num(
                    n.parse()
                        .map_err(|_| err(format!("the number {n} is too large")))?,
                )
            }
            c if c.is_alphabetic() || c == '_' => {
                let w = cur.word(c, |d| d.is_alphanumeric() || *d == '_');
                match KEYWORDS.iter().find(|kw| **kw == w) {
                    Some(kw) => Tok::Kw(kw),
                    None => Tok::Name(w, false),
                }
            }
            c => return Err(err(format!("unexpected character {c:?}"))),
        };
        toks.push((tok, l, k));
    }
    Ok(toks)
}

/// A parsed concept.
#[derive(Debug, Clone)]
enum Concept {
    Top,
    Bottom,
    Named(String),
    And(Vec<Concept>),
    Or(Vec<Concept>),
    Some(String, Box<Concept>),
    All(String, Box<Concept>),
    Not(Box<Concept>),
    Min(u32, String, Box<Concept>),
    Max(u32, String, Box<Concept>),
    BoolValue(String, bool),
    HasValue(String, String),
    StringValue(String, String),
}

/// The triples and declarations written so far.
#[derive(Default)]
struct Out {
    triples: String,
    blanks: usize,
    classes: BTreeSet<String>,
    object_properties: BTreeSet<String>,
    data_properties: BTreeSet<String>,
    individuals: BTreeSet<String>,
}

impl Out {
    fn triple(&mut self, s: &str, p: &str, o: &str) {
        let _ = writeln!(self.triples, "{s} {p} {o} .");
    }

    fn blank(&mut self) -> String {
        self.blanks += 1;
        format!("_:k{}", self.blanks)
    }

    /// The node of a concept, writing the triples that define it.
    fn concept(&mut self, c: &Concept) -> String {
        let type_ = iri(&format!("{RDF}type"));
        match c {
            Concept::Top => iri(&format!("{OWL}Thing")),
            Concept::Bottom => iri(&format!("{OWL}Nothing")),
            Concept::Named(n) => {
                self.classes.insert(n.clone());
                iri(n)
            }
            Concept::And(cs) | Concept::Or(cs) => {
                let op = if matches!(c, Concept::And(_)) {
                    "intersectionOf"
                } else {
                    "unionOf"
                };
                let nodes: Vec<String> = cs.iter().map(|c| self.concept(c)).collect();
                let list = self.list(&nodes);
                let b = self.blank();
                self.triple(&b, &type_, &iri(&format!("{OWL}Class")));
                self.triple(&b, &iri(&format!("{OWL}{op}")), &list);
                b
            }
            Concept::Not(c) => {
                let inner = self.concept(c);
                let b = self.blank();
                self.triple(&b, &type_, &iri(&format!("{OWL}Class")));
                self.triple(&b, &iri(&format!("{OWL}complementOf")), &inner);
                b
            }
            Concept::Some(r, filler) => self.quantified(r, "someValuesFrom", filler),
            Concept::All(r, filler) => self.quantified(r, "allValuesFrom", filler),
            Concept::Min(n, r, filler) => self.counted(*n, r, "minQualifiedCardinality", filler),
            Concept::Max(n, r, filler) => self.counted(*n, r, "maxQualifiedCardinality", filler),
            Concept::BoolValue(d, v) => {
                self.data_properties.insert(d.clone());
                let b = self.restriction_on(d);
                self.triple(
                    &b,
                    &iri(&format!("{OWL}hasValue")),
                    &format!("\"{v}\"^^{}", iri(&format!("{XSD}boolean"))),
                );
                b
            }
            Concept::HasValue(r, i) => {
                self.individuals.insert(i.clone());
                let b = self.restriction(r);
                self.triple(&b, &iri(&format!("{OWL}hasValue")), &iri(i));
                b
            }
            Concept::StringValue(d, s) => {
                self.data_properties.insert(d.clone());
                let b = self.restriction_on(d);
                self.triple(&b, &iri(&format!("{OWL}hasValue")), &literal(s));
                b
            }
        }
    }

    /// `r some C` / `r only C`.
    fn quantified(&mut self, r: &str, pred: &str, filler: &Concept) -> String {
        let filler = self.concept(filler);
        let b = self.restriction(r);
        self.triple(&b, &iri(&format!("{OWL}{pred}")), &filler);
        b
    }

    /// `>= n r.C` / `<= n r.C`.
    fn counted(&mut self, n: u32, r: &str, pred: &str, filler: &Concept) -> String {
        let filler = self.concept(filler);
        let b = self.restriction(r);
        self.triple(
            &b,
            &iri(&format!("{OWL}{pred}")),
            &format!("\"{n}\"^^{}", iri(&format!("{XSD}nonNegativeInteger"))),
        );
        self.triple(&b, &iri(&format!("{OWL}onClass")), &filler);
        b
    }

    /// A restriction node on the object property `r`.
    fn restriction(&mut self, r: &str) -> String {
        self.object_properties.insert(r.to_owned());
        self.restriction_on(r)
    }

    fn restriction_on(&mut self, p: &str) -> String {
        let b = self.blank();
        self.triple(
            &b,
            &iri(&format!("{RDF}type")),
            &iri(&format!("{OWL}Restriction")),
        );
        self.triple(&b, &iri(&format!("{OWL}onProperty")), &iri(p));
        b
    }

    /// An RDF list of `nodes`.
    fn list(&mut self, nodes: &[String]) -> String {
        let mut rest = iri(&format!("{RDF}nil"));
        for n in nodes.iter().rev() {
            let b = self.blank();
            self.triple(&b, &iri(&format!("{RDF}first")), n);
            self.triple(&b, &iri(&format!("{RDF}rest")), &rest);
            rest = b;
        }
        rest
    }

    /// The declarations, then the axioms.
    fn finish(self) -> String {
        let mut head = String::new();
        let type_ = iri(&format!("{RDF}type"));
        for (set, kind) in [
            (&self.classes, "Class"),
            (&self.object_properties, "ObjectProperty"),
            (&self.data_properties, "DatatypeProperty"),
            (&self.individuals, "NamedIndividual"),
        ] {
            for n in set {
                let _ = writeln!(
                    head,
                    "{} {type_} {} .",
                    iri(n),
                    iri(&format!("{OWL}{kind}"))
                );
            }
        }
        head + &self.triples
    }
}

fn iri(full: &str) -> String {
    format!("<{full}>")
}

fn literal(s: &str) -> String {
    let mut out = String::from("\"");
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

struct Parser {
    toks: Vec<Located>,
    pos: usize,
    out: Out,
}

impl Parser {
    fn here(&self) -> (u64, u64) {
        match self.toks.get(self.pos).or(self.toks.last()) {
            Some((_, l, c)) => (*l, *c),
            None => (1, 1),
        }
    }

    fn err(&self, message: String) -> KbSyntaxError {
        let (line, column) = self.here();
        KbSyntaxError {
            line,
            column,
            message,
        }
    }

    fn peek(&self) -> Option<&Tok> {
        self.toks.get(self.pos).map(|t| &t.0)
    }

    fn peek_at(&self, ahead: usize) -> Option<&Tok> {
        self.toks.get(self.pos + ahead).map(|t| &t.0)
    }

    fn found(&self) -> String {
        match self.peek() {
            None => "the end of the file".to_owned(),
            Some(Tok::Name(n, true)) => format!("\"{n}\""),
            Some(Tok::Name(n, false)) => format!("{n:?}"),
            Some(Tok::Kw(k)) => (*k).to_owned(),
            Some(Tok::Num(n)) => n.to_string(),
            Some(Tok::P('>')) => "'>='".to_owned(),
            Some(Tok::P('<')) => "'<='".to_owned(),
            Some(Tok::P(c)) => format!("'{c}'"),
        }
    }

    fn expect(&mut self, p: char, what: &str) -> Result<(), KbSyntaxError> {
        if self.peek() == Some(&Tok::P(p)) {
            self.pos += 1;
            Ok(())
        } else {
            Err(self.err(format!("expected {what}, found {}", self.found())))
        }
    }

    /// A name as a full IRI: full IRIs as they are, others in the default namespace.
    fn name(&mut self, what: &str) -> Result<String, KbSyntaxError> {
        let Some(Tok::Name(n, _)) = self.peek() else {
            return Err(self.err(format!("expected {what}, found {}", self.found())));
        };
        let full = if n.contains("://") || n.starts_with("urn:") {
            n.clone()
        } else {
            format!("{DL_LEARNER_NAMESPACE}{n}")
        };
        if let Err(e) = oxigraph::model::NamedNode::new(full.as_str()) {
            return Err(self.err(format!("{what} {n:?} does not make an IRI ({e})")));
        }
        self.pos += 1;
        Ok(full)
    }

    /// One statement up to and including its `.`; nothing at the end of the file.
    fn statement(&mut self) -> Result<(), KbSyntaxError> {
        match self.peek().cloned() {
            Some(Tok::Kw(k)) if RBOX.contains(&k) && self.peek_at(1) == Some(&Tok::P('(')) => {
                self.role_axiom(k)?;
            }
            Some(Tok::Kw(k)) if domain_range(k).is_some() => {
                let Some((object, domain)) = domain_range(k) else {
                    return Ok(());
                };
                self.domain_range_axiom(k, object, domain)?;
            }
            Some(Tok::Kw("NOT" | "NEG"))
                if matches!(self.peek_at(1), Some(Tok::Name(..)))
                    && self.peek_at(2) == Some(&Tok::P('('))
                    && self.peek_at(4) == Some(&Tok::P(',')) =>
            {
                return Err(self.err(
                    "negated role assertions (NOT r(a,b).) are not supported (DL-Learner \
                     refuses them too)"
                        .to_owned(),
                ));
            }
            Some(Tok::Name(..)) if self.peek_at(1) == Some(&Tok::P('(')) => {
                self.named_assertion()?;
            }
            None => return Ok(()),
            Some(_) => self.concept_statement()?,
        }
        self.expect('.', "'.' at the end of the statement")
    }

    /// `Transitive(r)`, `Functional(r)`, `Symmetric(r)`, `Inverse(r, s)`, `Subrole(r, s)`
    /// without the final `.`; the keyword `k` is the current token.
    fn role_axiom(&mut self, k: &str) -> Result<(), KbSyntaxError> {
        self.pos += 2;
        let r = self.name("a role name")?;
        self.out.object_properties.insert(r.clone());
        if matches!(k, "Inverse" | "Subrole") {
            self.expect(',', "',' and a second role")?;
            let s = self.name("a role name")?;
            self.out.object_properties.insert(s.clone());
            let p = if k == "Inverse" {
                format!("{OWL}inverseOf")
            } else {
                format!("{RDFS}subPropertyOf")
            };
            self.out.triple(&iri(&r), &iri(&p), &iri(&s));
        } else {
            let class = format!("{OWL}{k}Property");
            self.out
                .triple(&iri(&r), &iri(&format!("{RDF}type")), &iri(&class));
        }
        self.expect(')', "')'")
    }

    /// `DOMAIN(p) = C`, `DPRANGE(d) = DOUBLE` and their spellings without the final `.`;
    /// the keyword `k` is the current token.
    fn domain_range_axiom(
        &mut self,
        k: &str,
        object: bool,
        domain: bool,
    ) -> Result<(), KbSyntaxError> {
        self.pos += 1;
        self.expect('(', &format!("'(' after {k}"))?;
        let p = self.name("a property name")?;
        if object {
            self.out.object_properties.insert(p.clone());
        } else {
            self.out.data_properties.insert(p.clone());
        }
        self.expect(')', "')'")?;
        self.expect('=', "'='")?;
        let pred = iri(&format!(
            "{RDFS}{}",
            if domain { "domain" } else { "range" }
        ));
        let node = if !object && !domain {
            let dt = match self.peek() {
                Some(Tok::Kw("DOUBLE")) => "double",
                Some(Tok::Kw("BOOLEAN")) => "boolean",
                Some(Tok::Kw("INTEGER")) => "int",
                _ => {
                    return Err(self.err(format!(
                        "expected DOUBLE, BOOLEAN or INTEGER, found {}",
                        self.found()
                    )));
                }
            };
            self.pos += 1;
            iri(&format!("{XSD}{dt}"))
        } else {
            let c = self.concept()?;
            self.out.concept(&c)
        };
        self.out.triple(&iri(&p), &pred, &node);
        Ok(())
    }

    /// `A(a)` or `r(a, b)` of a name without the final `.`.
    fn named_assertion(&mut self) -> Result<(), KbSyntaxError> {
        let r = self.name("a class or role name")?;
        self.pos += 1;
        let a = self.name("an individual")?;
        self.out.individuals.insert(a.clone());
        if self.peek() == Some(&Tok::P(',')) {
            self.pos += 1;
            let b = self.name("an individual")?;
            self.out.individuals.insert(b.clone());
            self.out.object_properties.insert(r.clone());
            self.out.triple(&iri(&a), &iri(&r), &iri(&b));
        } else {
            self.out.classes.insert(r.clone());
            self.out
                .triple(&iri(&a), &iri(&format!("{RDF}type")), &iri(&r));
        }
        self.expect(')', "')'")
    }

    /// A statement that starts with a concept: `C(a)`, `C = D` or `C SUB D`, without the
    /// final `.`.
    fn concept_statement(&mut self) -> Result<(), KbSyntaxError> {
        let lhs = self.concept()?;
        match self.peek() {
            Some(Tok::P('(')) => {
                self.pos += 1;
                let a = self.name("an individual")?;
                self.out.individuals.insert(a.clone());
                self.expect(')', "')'")?;
                let node = self.out.concept(&lhs);
                self.out
                    .triple(&iri(&a), &iri(&format!("{RDF}type")), &node);
            }
            Some(Tok::P('=')) => {
                self.pos += 1;
                let rhs = self.concept()?;
                self.equivalence(&lhs, &rhs);
            }
            Some(Tok::Kw("SUB" | "SUBCLASSOF" | "SUBCONCEPTOF")) => {
                self.pos += 1;
                let rhs = self.concept()?;
                let (l, r) = (self.out.concept(&lhs), self.out.concept(&rhs));
                self.out.triple(&l, &iri(&format!("{RDFS}subClassOf")), &r);
            }
            _ => {
                return Err(self.err(format!(
                    "expected '(' and an individual, '=', or SUB after the concept, \
                     found {}",
                    self.found()
                )));
            }
        }
        Ok(())
    }

    /// `C = D`; `BOTTOM = (A AND B)` of two named classes is their disjointness.
    fn equivalence(&mut self, lhs: &Concept, rhs: &Concept) {
        let (bottom, other) = match (lhs, rhs) {
            (Concept::Bottom, o) | (o, Concept::Bottom) => (true, o),
            _ => (false, rhs),
        };
        if bottom
            && let Concept::And(cs) = other
            && let [Concept::Named(a), Concept::Named(b)] = cs.as_slice()
        {
            self.out.classes.insert(a.clone());
            self.out.classes.insert(b.clone());
            self.out
                .triple(&iri(a), &iri(&format!("{OWL}disjointWith")), &iri(b));
            return;
        }
        // A named class as the subject where there is one.
        let (first, second) = match (lhs, rhs) {
            (Concept::Named(_), _) => (lhs, rhs),
            (_, Concept::Named(_)) => (rhs, lhs),
            _ => (lhs, rhs),
        };
        let (l, r) = (self.out.concept(first), self.out.concept(second));
        self.out
            .triple(&l, &iri(&format!("{OWL}equivalentClass")), &r);
    }

    fn concept(&mut self) -> Result<Concept, KbSyntaxError> {
        let Some(t) = self.peek().cloned() else {
            return Err(self.err("expected a concept, found the end of the file".to_owned()));
        };
        match t {
            Tok::Kw("TOP") => {
                self.pos += 1;
                Ok(Concept::Top)
            }
            Tok::Kw("BOTTOM") => {
                self.pos += 1;
                Ok(Concept::Bottom)
            }
            Tok::Name(..) => Ok(Concept::Named(self.name("a class name")?)),
            Tok::Kw(k @ ("EXISTS" | "SOME" | "ALL" | "FORALL")) => {
                self.pos += 1;
                let r = self.name("a role name")?;
                self.expect('.', &format!("'.' after {k} and the role"))?;
                let c = Box::new(self.concept()?);
                Ok(if matches!(k, "EXISTS" | "SOME") {
                    Concept::Some(r, c)
                } else {
                    Concept::All(r, c)
                })
            }
            Tok::Kw("NOT" | "NEG") => {
                self.pos += 1;
                Ok(Concept::Not(Box::new(self.concept()?)))
            }
            Tok::P(op @ ('>' | '<')) => {
                self.pos += 1;
                let Some(Tok::Num(n)) = self.peek().cloned() else {
                    return Err(self.err(format!(
                        "expected a number after '{op}=', found {}",
                        self.found()
                    )));
                };
                self.pos += 1;
                let r = self.name("a role name")?;
                self.expect('.', "'.' after the role")?;
                let c = Box::new(self.concept()?);
                Ok(if op == '>' {
                    Concept::Min(n, r, c)
                } else {
                    Concept::Max(n, r, c)
                })
            }
            Tok::P('(') => {
                self.pos += 1;
                let c = self.parenthesised()?;
                self.expect(')', "')'")?;
                Ok(c)
            }
            _ => Err(self.err(format!("expected a concept, found {}", self.found()))),
        }
    }

    /// What follows `(`: a value restriction or a conjunction/disjunction.
    fn parenthesised(&mut self) -> Result<Concept, KbSyntaxError> {
        if matches!(self.peek(), Some(Tok::Name(..))) {
            match self.peek_at(1) {
                Some(Tok::Kw("IS")) => {
                    let d = self.name("a data property")?;
                    self.pos += 1;
                    let v = match self.peek() {
                        Some(Tok::Kw("TRUE")) => true,
                        Some(Tok::Kw("FALSE")) => false,
                        _ => {
                            return Err(
                                self.err(format!("expected TRUE or FALSE, found {}", self.found()))
                            );
                        }
                    };
                    self.pos += 1;
                    return Ok(Concept::BoolValue(d, v));
                }
                Some(Tok::Kw("HASVALUE")) => {
                    let r = self.name("a role")?;
                    self.pos += 1;
                    let i = self.name("an individual")?;
                    return Ok(Concept::HasValue(r, i));
                }
                Some(Tok::Kw("STRINGVALUE")) => {
                    let d = self.name("a data property")?;
                    self.pos += 1;
                    let Some(Tok::Name(s, true)) = self.peek().cloned() else {
                        return Err(
                            self.err(format!("expected a quoted string, found {}", self.found()))
                        );
                    };
                    self.pos += 1;
                    return Ok(Concept::StringValue(d, s));
                }
                _ => {}
            }
        }
        let first = self.concept()?;
        let op = match self.peek() {
            Some(Tok::Kw(op @ ("AND" | "OR"))) => *op,
            _ => {
                return Err(self.err(format!(
                    "expected AND or OR inside the parentheses, found {}",
                    self.found()
                )));
            }
        };
        let mut operands = vec![first];
        while let Some(Tok::Kw(k @ ("AND" | "OR"))) = self.peek().cloned() {
            if k != op {
                return Err(self.err(format!(
                    "{k} after {op}: write parentheses to say which comes first"
                )));
            }
            self.pos += 1;
            operands.push(self.concept()?);
        }
        Ok(if op == "AND" {
            Concept::And(operands)
        } else {
            Concept::Or(operands)
        })
    }
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    use super::*;

    #[test]
    fn sniffing_tells_kb_from_rdf() {
        assert!(looks_like("// c\n/* d */ male(stefan)."));
        assert!(looks_like("BOTTOM = (a AND b)."));
        assert!(looks_like("Functional(r)."));
        assert!(!looks_like("@prefix ex: <http://e/> ."));
        assert!(!looks_like("<http://e/a> <http://e/p> <http://e/b> ."));
        assert!(!looks_like("Prefix(:=<http://e/>)"));
        assert!(!looks_like("prefix ex: <http://e/>"));
    }

    fn fragment() -> impl Strategy<Value = String> {
        prop::sample::select(vec![
            "male",
            "(",
            ")",
            ".",
            ",",
            "=",
            "AND",
            "OR",
            "NOT",
            "EXISTS",
            ">=",
            "<=",
            "3",
            "TOP",
            "BOTTOM",
            "SUB",
            "\"http://e/x\"",
            "\"",
            "Functional",
            "DPRANGE",
            "IS",
            "TRUE",
            "HASVALUE",
            "STRINGVALUE",
            "//",
            "/*",
            "*/",
            "\n",
            " ",
            "é",
            "$",
        ])
        .prop_map(str::to_owned)
    }

    proptest! {
        /// Any text gives triples or an error with a position, never a panic.
        #[test]
        fn random_text_never_panics(text in ".{0,300}") {
            let _ = to_ntriples(&text);
            let _ = looks_like(&text);
        }

        #[test]
        fn random_statements_never_panic(parts in prop::collection::vec(fragment(), 0..40)) {
            let text = parts.join(" ");
            if let Err(e) = to_ntriples(&text) {
                prop_assert!(e.line >= 1 && e.column >= 1, "{e:?}");
            }
        }
    }
}

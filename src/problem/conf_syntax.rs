//! The DL-Learner `.conf` language: `key = value` statements, where a value is a string,
//! number, bare word, `{set}`, `[list]` or `(tuple)`; `//` and `/* */` comments.

use std::path::Path;

use super::ProblemError;

/// A parsed value with the line it starts on (1-based).
#[derive(Debug, Clone)]
pub(crate) enum ConfValue {
    Str(String, usize),
    Word(String, usize),
    Set(Vec<ConfValue>, usize),
    List(Vec<ConfValue>, usize),
    Tuple(Vec<ConfValue>, usize),
}

impl ConfValue {
    pub(crate) fn line(&self) -> usize {
        match self {
            Self::Str(_, l)
            | Self::Word(_, l)
            | Self::Set(_, l)
            | Self::List(_, l)
            | Self::Tuple(_, l) => *l,
        }
    }

    /// What the value is, for "expected X, found Y" messages.
    pub(crate) fn describe(&self) -> String {
        match self {
            Self::Str(s, _) => format!("the string \"{s}\""),
            Self::Word(w, _) => format!("the bare word {w}"),
            Self::Set(..) => "a {set}".to_owned(),
            Self::List(..) => "a [list]".to_owned(),
            Self::Tuple(..) => "a (tuple)".to_owned(),
        }
    }
}

#[derive(Debug, Clone, PartialEq)]
enum Tok {
    Word(String),
    Str(String),
    Punct(char),
}

/// `(key, value)` statements in file order.
pub(crate) fn parse(path: &Path, text: &str) -> Result<Vec<(String, ConfValue)>, ProblemError> {
    let toks = lex(path, text)?;
    let mut p = Parser { path, toks, pos: 0 };
    let mut out = Vec::new();
    while p.pos < p.toks.len() {
        let (tok, line) = p.next_tok("a key")?;
        let Tok::Word(key) = tok else {
            return Err(p.err(
                line,
                format!(
                    "expected a key such as lp.positiveExamples, found {}",
                    show(&tok)
                ),
            ));
        };
        match p.next_tok("'='")? {
            (Tok::Punct('='), _) => {}
            (t, l) => return Err(p.err(l, format!("expected '=' after {key}, found {}", show(&t)))),
        }
        let value = p.value()?;
        // Statements may be ended by an optional ';'.
        if matches!(p.toks.get(p.pos), Some((Tok::Punct(';'), _))) {
            p.pos += 1;
        }
        out.push((key, value));
    }
    Ok(out)
}

fn show(t: &Tok) -> String {
    match t {
        Tok::Word(w) => format!("{w:?}"),
        Tok::Str(s) => format!("string \"{s}\""),
        Tok::Punct(c) => format!("'{c}'"),
    }
}

struct Parser<'a> {
    path: &'a Path,
    toks: Vec<(Tok, usize)>,
    pos: usize,
}

impl Parser<'_> {
    fn err(&self, line: usize, message: String) -> ProblemError {
        ProblemError::Syntax {
            path: self.path.to_owned(),
            line: Some(line),
            message,
        }
    }

    fn next_tok(&mut self, expected: &str) -> Result<(Tok, usize), ProblemError> {
        let last_line = self.toks.last().map_or(1, |t| t.1);
        let t = self.toks.get(self.pos).cloned().ok_or_else(|| {
            self.err(
                last_line,
                format!("unexpected end of file, expected {expected}"),
            )
        })?;
        self.pos += 1;
        Ok(t)
    }

    fn value(&mut self) -> Result<ConfValue, ProblemError> {
        let (tok, line) = self.next_tok("a value")?;
        match tok {
            Tok::Str(s) => Ok(ConfValue::Str(s, line)),
            Tok::Word(w) => Ok(ConfValue::Word(w, line)),
            Tok::Punct('{') => Ok(ConfValue::Set(self.items('}')?, line)),
            Tok::Punct('[') => Ok(ConfValue::List(self.items(']')?, line)),
            Tok::Punct('(') => Ok(ConfValue::Tuple(self.items(')')?, line)),
            t => Err(self.err(line, format!("expected a value, found {}", show(&t)))),
        }
    }

    /// Comma-separated values up to `close` (a trailing comma is tolerated).
    fn items(&mut self, close: char) -> Result<Vec<ConfValue>, ProblemError> {
        let mut items = Vec::new();
        loop {
            if let Some((Tok::Punct(c), _)) = self.toks.get(self.pos)
                && *c == close
            {
                self.pos += 1;
                return Ok(items);
            }
            items.push(self.value()?);
            match self.next_tok(&format!("',' or '{close}'"))? {
                (Tok::Punct(','), _) => {}
                (Tok::Punct(c), _) if c == close => return Ok(items),
                (t, l) => {
                    return Err(
                        self.err(l, format!("expected ',' or '{close}', found {}", show(&t)))
                    );
                }
            }
        }
    }
}

fn lex(path: &Path, text: &str) -> Result<Vec<(Tok, usize)>, ProblemError> {
    let err = |line: usize, message: String| ProblemError::Syntax {
        path: path.to_owned(),
        line: Some(line),
        message,
    };
    let mut toks = Vec::new();
    let mut line = 1;
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '\n' => line += 1,
            c if c.is_whitespace() => {}
            '/' if chars.peek() == Some(&'/') => {
                for c in chars.by_ref() {
                    if c == '\n' {
                        line += 1;
                        break;
                    }
                }
            }
            '/' if chars.peek() == Some(&'*') => {
                let start = line;
                chars.next();
                let mut prev = ' ';
                let mut closed = false;
                for c in chars.by_ref() {
                    if c == '\n' {
                        line += 1;
                    }
                    if prev == '*' && c == '/' {
                        closed = true;
                        break;
                    }
                    prev = c;
                }
                if !closed {
                    return Err(err(start, "unterminated /* comment".into()));
                }
            }
            '"' => {
                let start = line;
                let mut s = String::new();
                let mut closed = false;
                while let Some(c) = chars.next() {
                    match c {
                        '"' => {
                            closed = true;
                            break;
                        }
                        '\\' => {
                            if let Some(e) = chars.next() {
                                s.push(e);
                            }
                        }
                        '\n' => {
                            line += 1;
                            s.push(c);
                        }
                        c => s.push(c),
                    }
                }
                if !closed {
                    return Err(err(start, "unterminated string".into()));
                }
                toks.push((Tok::Str(s), start));
            }
            '=' | '{' | '}' | '[' | ']' | '(' | ')' | ',' | ';' => toks.push((Tok::Punct(c), line)),
            c if is_word(c) => {
                let mut w = String::from(c);
                while let Some(&n) = chars.peek() {
                    if !is_word(n) {
                        break;
                    }
                    w.push(n);
                    chars.next();
                }
                toks.push((Tok::Word(w), line));
            }
            c => return Err(err(line, format!("unexpected character {c:?}"))),
        }
    }
    Ok(toks)
}

fn is_word(c: char) -> bool {
    c.is_alphanumeric() || matches!(c, '.' | '_' | '-' | '+' | ':' | '#')
}

//! The DL-Learner `.conf` language, both dialects in one reader.
//!
//! * The current dialect (DL-Learner's `interfaces/…/confparser/conf.jj`, since 2011):
//!   `component.option = value` statements, where a value is a string, number, bare word,
//!   `{set}`, `[list]` or `(tuple)`.
//! * The older dialect (the `conf.jj` DL-Learner removed in 2015): the same assignments
//!   (there `algorithm = ocel;`, `ocel.noisePercentage = 30;`), plus function calls such as
//!   `import("father.kb");` or `import("http://…/sparql", "SPARQL");`, and example lines
//!   `+"http://…#a"`, `-"http://…#b"`, `+stefan`.
//!
//! Both: `//` and `/* */` comments; a statement may end with `;` (optional here, required
//! by the old dialect); a set may also be written without `=` (`key { … }`).
//! Errors give the 1-based line and column (in characters).

use std::iter::Peekable;
use std::path::Path;
use std::str::Chars;

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

/// A function call of the old dialect: `import("x.owl", "OWL");`.
#[derive(Debug, Clone)]
pub(crate) struct Call {
    pub name: String,
    pub args: Vec<ConfValue>,
    pub line: usize,
}

/// An example line of the old dialect: `+"http://…#a"` or `-b`.
#[derive(Debug, Clone)]
pub(crate) struct ExampleLine {
    pub positive: bool,
    /// As written, without quotes.
    pub name: String,
    pub line: usize,
    pub column: usize,
}

/// Everything a `.conf` file says, in file order per kind.
#[derive(Debug, Clone, Default)]
pub(crate) struct ConfFile {
    /// `(key, value)` assignments.
    pub statements: Vec<(String, ConfValue)>,
    pub calls: Vec<Call>,
    pub examples: Vec<ExampleLine>,
}

#[derive(Debug, Clone, PartialEq)]
enum Tok {
    Word(String),
    Str(String),
    Punct(char),
}

/// A token with its 1-based line and column.
type Located = (Tok, usize, usize);

/// `{`, which opens a `{set}`: the one value that may follow a key without `=`.
const SET_OPEN: char = '{';

/// Parses a `.conf` file of either dialect.
pub(crate) fn parse(path: &Path, text: &str) -> Result<ConfFile, ProblemError> {
    let toks = Lexer::new(path, text).run()?;
    let mut p = Parser { path, toks, pos: 0 };
    let mut out = ConfFile::default();
    while p.pos < p.toks.len() {
        p.statement(&mut out)?;
        // Statements may be ended by an optional ';'.
        if matches!(p.peek(), Some((Tok::Punct(';'), ..))) {
            p.pos += 1;
        }
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
    toks: Vec<Located>,
    pos: usize,
}

impl Parser<'_> {
    fn err(&self, line: usize, column: usize, message: String) -> ProblemError {
        ProblemError::Syntax {
            path: self.path.to_owned(),
            line: Some(line),
            column: Some(column),
            message,
        }
    }

    fn peek(&self) -> Option<&Located> {
        self.toks.get(self.pos)
    }

    fn next_tok(&mut self, expected: &str) -> Result<Located, ProblemError> {
        let (line, col) = self.toks.last().map_or((1, 1), |t| (t.1, t.2));
        let t = self.toks.get(self.pos).cloned().ok_or_else(|| {
            self.err(
                line,
                col,
                format!("unexpected end of file, expected {expected}"),
            )
        })?;
        self.pos += 1;
        Ok(t)
    }

    /// One statement: an example line, an assignment or a call.
    fn statement(&mut self, out: &mut ConfFile) -> Result<(), ProblemError> {
        let (tok, line, col) = self.next_tok("a statement")?;
        let Tok::Word(key) = tok else {
            return Err(self.err(
                line,
                col,
                format!(
                    "expected a statement such as lp.positiveExamples = {{…}}, import(\"…\") \
                     or +\"example\", found {}",
                    show(&tok)
                ),
            ));
        };
        if let Some(sign) = key.chars().next().filter(|c| matches!(c, '+' | '-')) {
            out.examples
                .push(self.example(sign == '+', &key, line, col)?);
            return Ok(());
        }
        self.keyed(key, line, col, out)
    }

    /// What follows a statement's key (at `line`, `col`): `= value`, `{set}` or `(args)`.
    fn keyed(
        &mut self,
        key: String,
        line: usize,
        col: usize,
        out: &mut ConfFile,
    ) -> Result<(), ProblemError> {
        match self.peek() {
            Some((Tok::Punct('='), ..)) => {
                self.pos += 1;
                let value = self.value()?;
                out.statements.push((key, value));
            }
            Some((Tok::Punct(SET_OPEN), ..)) => {
                let value = self.value()?;
                out.statements.push((key, value));
            }
            Some((Tok::Punct('('), l, _)) => {
                let l = *l;
                self.pos += 1;
                let args = self.items(')')?;
                out.calls.push(Call {
                    name: key,
                    args,
                    line: l,
                });
            }
            Some((t, l, c)) => {
                return Err(self.err(
                    *l,
                    *c,
                    format!("expected '=' or '(' after {key}, found {}", show(t)),
                ));
            }
            None => {
                return Err(self.err(
                    line,
                    col,
                    format!("unexpected end of file after {key}, expected '=' or '('"),
                ));
            }
        }
        Ok(())
    }

    /// `+name`, `+ name` or `+"IRI"` (the sign already read as part of `word`).
    fn example(
        &mut self,
        positive: bool,
        word: &str,
        line: usize,
        column: usize,
    ) -> Result<ExampleLine, ProblemError> {
        let rest = &word[1..];
        let name = if rest.is_empty() {
            match self.next_tok("an example after '+' or '-'")? {
                (Tok::Str(s), ..) => s,
                (Tok::Word(w), ..) if !w.starts_with(['+', '-']) => w,
                (t, l, c) => {
                    return Err(self.err(
                        l,
                        c,
                        format!(
                            "expected an individual (a name or a quoted IRI) after '{}', found {}",
                            &word[..1],
                            show(&t)
                        ),
                    ));
                }
            }
        } else {
            rest.to_owned()
        };
        if name.trim().is_empty() {
            return Err(self.err(line, column, "empty example name".to_owned()));
        }
        Ok(ExampleLine {
            positive,
            name,
            line,
            column,
        })
    }

    fn value(&mut self) -> Result<ConfValue, ProblemError> {
        let (tok, line, col) = self.next_tok("a value")?;
        match tok {
            Tok::Str(s) => Ok(ConfValue::Str(s, line)),
            Tok::Word(w) => Ok(ConfValue::Word(w, line)),
            Tok::Punct('{') => Ok(ConfValue::Set(self.items('}')?, line)),
            Tok::Punct('[') => Ok(ConfValue::List(self.items(']')?, line)),
            Tok::Punct('(') => Ok(ConfValue::Tuple(self.items(')')?, line)),
            t => Err(self.err(line, col, format!("expected a value, found {}", show(&t)))),
        }
    }

    /// Comma-separated values up to `close` (a trailing comma is tolerated).
    fn items(&mut self, close: char) -> Result<Vec<ConfValue>, ProblemError> {
        let mut items = Vec::new();
        loop {
            if let Some((Tok::Punct(c), ..)) = self.peek()
                && *c == close
            {
                self.pos += 1;
                return Ok(items);
            }
            items.push(self.value()?);
            match self.next_tok(&format!("',' or '{close}'"))? {
                (Tok::Punct(','), ..) => {}
                (Tok::Punct(c), ..) if c == close => return Ok(items),
                (t, l, c) => {
                    return Err(self.err(
                        l,
                        c,
                        format!("expected ',' or '{close}', found {}", show(&t)),
                    ));
                }
            }
        }
    }
}

/// Turns the text into tokens, keeping each token's 1-based line and column.
struct Lexer<'a> {
    path: &'a Path,
    chars: Peekable<Chars<'a>>,
    line: usize,
    col: usize,
}

impl<'a> Lexer<'a> {
    fn new(path: &'a Path, text: &'a str) -> Self {
        Lexer {
            path,
            chars: text.chars().peekable(),
            line: 1,
            col: 0,
        }
    }

    fn err(&self, line: usize, column: usize, message: String) -> ProblemError {
        ProblemError::Syntax {
            path: self.path.to_owned(),
            line: Some(line),
            column: Some(column),
            message,
        }
    }

    /// Every character read goes through `bump`, which keeps line and column.
    fn bump(&mut self, c: char) -> char {
        if c == '\n' {
            self.line += 1;
            self.col = 0;
        } else {
            self.col += 1;
        }
        c
    }

    fn next(&mut self) -> Option<char> {
        let c = self.chars.next()?;
        Some(self.bump(c))
    }

    fn next_if(&mut self, pred: impl FnOnce(&char) -> bool) -> Option<char> {
        let c = self.chars.next_if(pred)?;
        Some(self.bump(c))
    }

    fn run(mut self) -> Result<Vec<Located>, ProblemError> {
        let mut toks = Vec::new();
        while let Some(c) = self.next() {
            let (line, col) = (self.line, self.col);
            let tok = match c {
                c if c.is_whitespace() => None,
                '/' if self.chars.peek() == Some(&'/') => {
                    while self.next_if(|c| *c != '\n').is_some() {}
                    None
                }
                '/' if self.chars.peek() == Some(&'*') => self.block_comment(line, col)?,
                '"' => Some(self.string(line, col)?),
                '=' | '{' | '}' | '[' | ']' | '(' | ')' | ',' | ';' => Some(Tok::Punct(c)),
                c if is_word(c) => Some(self.word(c)),
                c => return Err(self.err(line, col, format!("unexpected character {c:?}"))),
            };
            toks.extend(tok.map(|t| (t, line, col)));
        }
        Ok(toks)
    }

    /// The rest of a `/* … */` comment that starts at `line`, `col`; no token.
    fn block_comment(&mut self, line: usize, col: usize) -> Result<Option<Tok>, ProblemError> {
        self.next();
        let mut prev = ' ';
        while let Some(c) = self.next() {
            if prev == '*' && c == '/' {
                return Ok(None);
            }
            prev = c;
        }
        Err(self.err(line, col, "unterminated /* comment".into()))
    }

    /// The rest of a `"…"` string that starts at `line`, `col`; `\x` stands for `x`.
    fn string(&mut self, line: usize, col: usize) -> Result<Tok, ProblemError> {
        let mut s = String::new();
        while let Some(c) = self.next() {
            match c {
                '"' => return Ok(Tok::Str(s)),
                '\\' => s.extend(self.next()),
                c => s.push(c),
            }
        }
        Err(self.err(line, col, "unterminated string".into()))
    }

    /// A bare word starting with `first`.
    fn word(&mut self, first: char) -> Tok {
        let mut w = String::from(first);
        while let Some(n) = self.next_if(|n| is_word(*n)) {
            w.push(n);
        }
        Tok::Word(w)
    }
}

fn is_word(c: char) -> bool {
    c.is_alphanumeric() || matches!(c, '.' | '_' | '-' | '+' | ':' | '#')
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn both_dialects_parse_into_one_shape() {
        let text = "/* old */ import(\"f.kb\"); algorithm = refexamples;\n\
                    refexamples.noisePercentage = 30;\n\
                    +stefan\n- \"http://e/#b\"\n+\"kb:c\"\n\
                    lp.positiveExamples { \"ex:a\" }\n";
        let f = parse(Path::new("x.conf"), text).unwrap();
        assert_eq!(f.calls.len(), 1);
        assert_eq!(f.calls[0].name, "import");
        assert_eq!(f.statements.len(), 3);
        assert_eq!(f.statements[2].0, "lp.positiveExamples");
        let ex: Vec<(bool, &str, usize, usize)> = f
            .examples
            .iter()
            .map(|e| (e.positive, e.name.as_str(), e.line, e.column))
            .collect();
        assert_eq!(
            ex,
            vec![
                (true, "stefan", 3, 1),
                (false, "http://e/#b", 4, 1),
                (true, "kb:c", 5, 1)
            ]
        );
    }

    #[test]
    fn errors_carry_line_and_column() {
        for (text, at) in [
            ("a = 1\n  b 2\n", "x.conf:2:5:"),
            ("a = {\"x\" \"y\"}\n", "x.conf:1:10:"),
            ("a = 1\n   \"oops\"", "x.conf:2:4:"),
            ("+\n+", "x.conf:2:1:"),
            ("a = \"open\n", "x.conf:1:5:"),
            ("a = 1\n  $", "x.conf:2:3:"),
        ] {
            let e = parse(Path::new("x.conf"), text).unwrap_err().to_string();
            assert!(e.starts_with(at), "{text:?}: {e}");
        }
    }
}

#[cfg(test)]
mod never_panics {
    use proptest::prelude::*;

    use super::*;

    fn fragment() -> impl Strategy<Value = String> {
        prop::sample::select(vec![
            "lp.positiveExamples",
            "=",
            "{",
            "}",
            "[",
            "]",
            "(",
            ")",
            ",",
            ";",
            "\"kb:a\"",
            "\"",
            "+",
            "-",
            "+a",
            "import",
            "\"x.kb\"",
            "\"SPARQL\"",
            "ks.type",
            "\"KB File\"",
            "ks.fileName",
            "alg.type",
            "\"ocel\"",
            "algorithm",
            "gp",
            "//",
            "/*",
            "*/",
            "\n",
            " ",
            "é",
            "$",
            "prefixes",
            "30",
        ])
        .prop_map(str::to_owned)
    }

    proptest! {
        /// Whatever the text, reading a `.conf` file gives a problem or an error.
        #[test]
        fn random_text_never_panics(text in ".{0,300}") {
            let _ = super::super::conf::load(Path::new("r.conf"), &text, "r");
        }

        #[test]
        fn random_statements_never_panic(parts in prop::collection::vec(fragment(), 0..40)) {
            let text = parts.join(" ");
            let _ = super::super::conf::load(Path::new("r.conf"), &text, "r");
        }
    }
}

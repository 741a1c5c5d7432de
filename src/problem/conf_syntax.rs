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

/// Parses a `.conf` file of either dialect.
pub(crate) fn parse(path: &Path, text: &str) -> Result<ConfFile, ProblemError> {
    let toks = lex(path, text)?;
    let mut p = Parser { path, toks, pos: 0 };
    let mut out = ConfFile::default();
    while p.pos < p.toks.len() {
        let (tok, line, col) = p.next_tok("a statement")?;
        let Tok::Word(key) = tok else {
            return Err(p.err(
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
            out.examples.push(p.example(sign == '+', &key, line, col)?);
        } else {
            match p.peek() {
                Some((Tok::Punct('='), ..)) => {
                    p.pos += 1;
                    let value = p.value()?;
                    out.statements.push((key, value));
                }
                Some((Tok::Punct('{'), ..)) => {
                    let value = p.value()?;
                    out.statements.push((key, value));
                }
                Some((Tok::Punct('('), l, _)) => {
                    let l = *l;
                    p.pos += 1;
                    let args = p.items(')')?;
                    out.calls.push(Call {
                        name: key,
                        args,
                        line: l,
                    });
                }
                Some((t, l, c)) => {
                    return Err(p.err(
                        *l,
                        *c,
                        format!("expected '=' or '(' after {key}, found {}", show(t)),
                    ));
                }
                None => {
                    return Err(p.err(
                        line,
                        col,
                        format!("unexpected end of file after {key}, expected '=' or '('"),
                    ));
                }
            }
        }
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

fn lex(path: &Path, text: &str) -> Result<Vec<Located>, ProblemError> {
    let err = |line: usize, column: usize, message: String| ProblemError::Syntax {
        path: path.to_owned(),
        line: Some(line),
        column: Some(column),
        message,
    };
    let mut toks = Vec::new();
    let mut line = 1;
    let mut col = 0;
    let mut chars = text.chars().peekable();
    // Every character read goes through `bump`, which keeps line and column.
    let bump = |c: char, line: &mut usize, col: &mut usize| {
        if c == '\n' {
            *line += 1;
            *col = 0;
        } else {
            *col += 1;
        }
    };
    while let Some(c) = chars.next() {
        bump(c, &mut line, &mut col);
        let (start_line, start_col) = (line, col);
        match c {
            c if c.is_whitespace() => {}
            '/' if chars.peek() == Some(&'/') => {
                while let Some(c) = chars.next_if(|c| *c != '\n') {
                    bump(c, &mut line, &mut col);
                }
            }
            '/' if chars.peek() == Some(&'*') => {
                let mut prev = ' ';
                let mut closed = false;
                if let Some(c) = chars.next() {
                    bump(c, &mut line, &mut col);
                }
                for c in chars.by_ref() {
                    bump(c, &mut line, &mut col);
                    if prev == '*' && c == '/' {
                        closed = true;
                        break;
                    }
                    prev = c;
                }
                if !closed {
                    return Err(err(start_line, start_col, "unterminated /* comment".into()));
                }
            }
            '"' => {
                let mut s = String::new();
                let mut closed = false;
                while let Some(c) = chars.next() {
                    bump(c, &mut line, &mut col);
                    match c {
                        '"' => {
                            closed = true;
                            break;
                        }
                        '\\' => {
                            if let Some(e) = chars.next() {
                                bump(e, &mut line, &mut col);
                                s.push(e);
                            }
                        }
                        c => s.push(c),
                    }
                }
                if !closed {
                    return Err(err(start_line, start_col, "unterminated string".into()));
                }
                toks.push((Tok::Str(s), start_line, start_col));
            }
            '=' | '{' | '}' | '[' | ']' | '(' | ')' | ',' | ';' => {
                toks.push((Tok::Punct(c), start_line, start_col));
            }
            c if is_word(c) => {
                let mut w = String::from(c);
                while let Some(n) = chars.next_if(|n| is_word(*n)) {
                    bump(n, &mut line, &mut col);
                    w.push(n);
                }
                toks.push((Tok::Word(w), start_line, start_col));
            }
            c => {
                return Err(err(
                    start_line,
                    start_col,
                    format!("unexpected character {c:?}"),
                ));
            }
        }
    }
    Ok(toks)
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

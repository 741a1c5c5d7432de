//! Guessing the real format from the first characters, because file extensions in the wild
//! lie (Turtle saved as `.owl`, OWL/XML saved as `.owl`, N-Triples saved as `.rdf`).

use super::KbFormat;

/// How many lines of a triple-looking file are checked for line-based syntax.
const SAMPLE_LINES: usize = 50;

/// The format the content looks like, or `None` when nothing is recognisable.
pub(crate) fn sniff(text: &str) -> Option<KbFormat> {
    // `//` comments and `male(stefan).` are no RDF or OWL syntax.
    if super::dl_kb::looks_like(text) {
        return Some(KbFormat::DlLearnerKb);
    }
    let body = skip_hash_comments(text);
    if body.starts_with('<') {
        markup_or_iri(body)
    } else if body.starts_with("_:") {
        Some(line_based(body))
    } else {
        by_first_word(body)
    }
}

/// A body starting with `<`: XML (OWL/XML or RDF/XML by the root element) or an IRI.
fn markup_or_iri(body: &str) -> Option<KbFormat> {
    if !is_xml_start(body) {
        return Some(line_based(body));
    }
    xml_root(body).map(|(prefix, local, tag)| {
        if local == "Ontology" && (prefix.is_empty() || tag.contains("ontologyIRI")) {
            KbFormat::OwlXml
        } else {
            KbFormat::RdfXml
        }
    })
}

/// By the first word and what follows it (`Prefix(`, `Class:`, `@prefix`, `GRAPH`) or the
/// first character (`{` TriG, `[` Turtle).
fn by_first_word(body: &str) -> Option<KbFormat> {
    let first = body.chars().next()?;
    let word: String = body
        .chars()
        .take_while(|c| c.is_ascii_alphabetic() || *c == '@')
        .collect();
    let after = body[word.len()..].trim_start().chars().next();
    match (word.as_str(), after) {
        ("Prefix" | "Ontology", Some('(')) => Some(KbFormat::OwlFunctional),
        ("Prefix" | "Ontology" | "Class" | "ObjectProperty" | "Individual", Some(':')) => {
            Some(KbFormat::Manchester)
        }
        ("@prefix" | "@base", _) => Some(KbFormat::Turtle),
        (w, _) if w.eq_ignore_ascii_case("prefix") || w.eq_ignore_ascii_case("base") => {
            Some(KbFormat::Turtle)
        }
        (w, _) if w.eq_ignore_ascii_case("graph") => Some(KbFormat::TriG),
        _ if body.starts_with("{") => Some(KbFormat::TriG),
        _ if body.starts_with("[") => Some(KbFormat::Turtle),
        // A prefixed name as subject: `ex:a a ex:B .`
        _ if first.is_alphabetic() && body.split_whitespace().next()?.contains(':') => {
            Some(KbFormat::Turtle)
        }
        _ => None,
    }
}

/// Skips whitespace and `#` comment lines (legal in Turtle and N-Triples).
fn skip_hash_comments(mut text: &str) -> &str {
    loop {
        text = text.trim_start();
        match text.strip_prefix('#') {
            Some(rest) => text = rest.find('\n').map_or("", |i| &rest[i..]),
            None => return text,
        }
    }
}

/// `<?xml`, `<!…` or `<name` (an XML tag) as opposed to `<http://…>` (an IRI).
fn is_xml_start(body: &str) -> bool {
    if body.starts_with("<?") || body.starts_with("<!") {
        return true;
    }
    let head: String = body[1..]
        .chars()
        .take_while(|c| !c.is_whitespace() && *c != '>')
        .collect();
    !head.is_empty() && !head.contains(['/', '#', ':']) || is_qname_tag(&head)
}

/// `rdf:RDF`-like heads: one colon, no slash, letters around it.
fn is_qname_tag(head: &str) -> bool {
    match head.split_once(':') {
        Some((p, l)) => {
            !p.is_empty()
                && !l.is_empty()
                && !l.starts_with('/')
                && !head.contains(['/', '#'])
                && p.chars()
                    .all(|c| c.is_alphanumeric() || c == '_' || c == '-')
        }
        None => false,
    }
}

/// `(prefix, local name, whole start tag)` of the root element, skipping the prolog.
fn xml_root(text: &str) -> Option<(&str, &str, &str)> {
    let mut rest = text;
    loop {
        rest = rest.trim_start();
        if let Some(r) = rest.strip_prefix("<?") {
            rest = &r[r.find("?>")? + 2..];
        } else if let Some(r) = rest.strip_prefix("<!--") {
            rest = &r[r.find("-->")? + 3..];
        } else if rest.starts_with("<!") {
            rest = skip_doctype(rest)?;
        } else if let Some(r) = rest.strip_prefix('<') {
            let tag = &r[..r.find('>').unwrap_or(r.len())];
            let name = tag
                .split(|c: char| c.is_whitespace() || c == '/')
                .next()
                .unwrap_or("");
            let (prefix, local) = name.split_once(':').unwrap_or(("", name));
            return Some((prefix, local, tag));
        } else {
            return None;
        }
    }
}

/// The text after a `<!DOCTYPE …>` (with an optional `[ … ]` internal subset).
fn skip_doctype(text: &str) -> Option<&str> {
    let mut depth = 0usize;
    let mut quote: Option<char> = None;
    for (i, c) in text.char_indices() {
        match (quote, c) {
            (Some(q), c) if c == q => quote = None,
            (Some(_), _) => {}
            (None, '"' | '\'') => quote = Some(c),
            (None, '[') => depth += 1,
            (None, ']') => depth = depth.saturating_sub(1),
            (None, '>') if depth == 0 => return Some(&text[i + 1..]),
            _ => {}
        }
    }
    None
}

/// N-Triples / N-Quads when the sampled lines are all one-statement lines, else Turtle.
fn line_based(body: &str) -> KbFormat {
    let mut terms_seen = None;
    for line in body
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .take(SAMPLE_LINES)
    {
        if !(line.starts_with('<') || line.starts_with("_:")) || !line.ends_with('.') {
            return KbFormat::Turtle;
        }
        // N-Quads mixes default-graph (3-term) and named-graph (4-term) lines.
        match count_terms(line) {
            Some(n @ (3 | 4)) => terms_seen = Some(terms_seen.map_or(n, |m: usize| m.max(n))),
            _ => return KbFormat::Turtle,
        }
    }
    if terms_seen == Some(4) {
        KbFormat::NQuads
    } else {
        KbFormat::NTriples
    }
}

/// Number of N-Triples terms before the final `.`, or `None` on anything else.
fn count_terms(line: &str) -> Option<usize> {
    let mut chars = line.chars().peekable();
    let mut n = 0;
    loop {
        while chars.next_if(|c| c.is_whitespace()).is_some() {}
        match chars.next()? {
            '.' => return chars.all(char::is_whitespace).then_some(n),
            '<' => {
                chars.find(|c| *c == '>')?;
            }
            '_' => {
                if chars.next()? != ':' {
                    return None;
                }
                while chars.next_if(|c| !c.is_whitespace()).is_some() {}
            }
            '"' => {
                let mut escaped = false;
                loop {
                    let c = chars.next()?;
                    match (escaped, c) {
                        (true, _) => escaped = false,
                        (false, '\\') => escaped = true,
                        (false, '"') => break,
                        _ => {}
                    }
                }
                // Language tag or datatype.
                if chars.next_if_eq(&'@').is_some() {
                    while chars
                        .next_if(|c| c.is_alphanumeric() || *c == '-')
                        .is_some()
                    {}
                } else if chars.next_if_eq(&'^').is_some() {
                    if chars.next()? != '^' || chars.next()? != '<' {
                        return None;
                    }
                    chars.find(|c| *c == '>')?;
                }
            }
            _ => return None,
        }
        n += 1;
    }
}

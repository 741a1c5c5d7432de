//! Counting the top-level items of an OWL document without understanding them, to catch
//! a parser that silently skips what it does not know.

use super::KbFormat;

/// The number of components a faithful parse must produce (ontology header excluded), or
/// `None` when the format has no cheap census (Manchester frames hold many axioms).
pub(crate) fn expected_components(text: &str, format: KbFormat) -> Option<usize> {
    match format {
        KbFormat::OwlXml => Some(owx_items(text)),
        KbFormat::OwlFunctional => Some(ofn_items(text)),
        _ => None,
    }
}

/// Child elements of the root `<Ontology>`, except `<Prefix>` declarations.
fn owx_items(text: &str) -> usize {
    let mut depth = 0usize;
    let mut count = 0;
    let mut rest = text;
    while let Some(lt) = rest.find('<') {
        rest = &rest[lt..];
        let skip_to = |r: &str, end: &str| r.find(end).map_or(r.len(), |i| i + end.len());
        if rest.starts_with("<!--") {
            rest = &rest[skip_to(rest, "-->")..];
        } else if rest.starts_with("<![CDATA[") {
            rest = &rest[skip_to(rest, "]]>")..];
        } else if rest.starts_with("<?") {
            rest = &rest[skip_to(rest, "?>")..];
        } else if rest.starts_with("<!") {
            rest = &rest[skip_to(rest, ">")..];
        } else if rest.starts_with("</") {
            depth = depth.saturating_sub(1);
            rest = &rest[skip_to(rest, ">")..];
        } else {
            let end = tag_end(rest);
            let tag = &rest[1..end];
            let self_closing = tag.ends_with('/');
            let name = tag.split(|c: char| c.is_whitespace() || c == '/').next();
            let local = name.map(|n| n.rsplit(':').next().unwrap_or(n));
            if depth == 1 && local != Some("Prefix") {
                count += 1;
            }
            if !self_closing {
                depth += 1;
            }
            rest = &rest[(end + 1).min(rest.len())..];
        }
    }
    count
}

/// Index of the `>` closing the tag at the start of `s`, ignoring `>` inside quotes.
fn tag_end(s: &str) -> usize {
    let mut quote = None;
    for (i, c) in s.char_indices() {
        match (quote, c) {
            (Some(q), c) if c == q => quote = None,
            (Some(_), _) => {}
            (None, '"' | '\'') => quote = Some(c),
            (None, '>') => return i,
            _ => {}
        }
    }
    s.len().saturating_sub(1)
}

/// `Name(` items directly inside `Ontology( … )`.
fn ofn_items(text: &str) -> usize {
    let mut depth = 0usize;
    let mut count = 0;
    let mut word_len = 0usize;
    let mut chars = text.chars();
    while let Some(c) = chars.next() {
        match c {
            '"' => {
                let mut escaped = false;
                for c in chars.by_ref() {
                    match (escaped, c) {
                        (true, _) => escaped = false,
                        (false, '\\') => escaped = true,
                        (false, '"') => break,
                        _ => {}
                    }
                }
            }
            '<' => {
                for c in chars.by_ref() {
                    if c == '>' {
                        break;
                    }
                }
            }
            '#' if word_len == 0 => {
                for c in chars.by_ref() {
                    if c == '\n' {
                        break;
                    }
                }
            }
            '(' => {
                if depth == 1 && word_len > 0 {
                    count += 1;
                }
                depth += 1;
            }
            ')' => depth = depth.saturating_sub(1),
            _ => {}
        }
        if c.is_alphanumeric() || c == '_' || c == ':' || c == '-' {
            word_len += 1;
        } else {
            word_len = 0;
        }
    }
    count
}

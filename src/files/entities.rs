//! Internal DTD entities (`<!ENTITY owl "http://…#">`), expanded by hand.
//!
//! Oxigraph's RDF/XML parser knows double-quoted internal entities, but not single-quoted
//! ones, and horned-owl's OWL/XML reader knows none; so we expand them ourselves and blank
//! out the DOCTYPE (keeping its newlines, so parser line numbers still match the file).

use std::collections::HashMap;

use super::decode::Text;

/// Caps the expanded size, against "billion laughs" documents.
const MAX_GROWTH: usize = 64 * 1024 * 1024;

/// Expands the document's internal entities; `Ok(Borrowed)` when it declares none.
pub(crate) fn expand(text: &str) -> Result<Text<'_>, String> {
    let Some((start, end)) = doctype_span(text) else {
        return Ok(Text::Borrowed(text));
    };
    let doctype = &text[start..end];
    let entities = parse_entities(doctype)?;
    if entities.is_empty() {
        return Ok(Text::Borrowed(text));
    }
    let entities = resolve_nested(entities)?;
    let mut out = String::with_capacity(text.len() + 1024);
    out.push_str(&text[..start]);
    out.extend(doctype.chars().filter(|c| *c == '\n'));
    substitute(&text[end..], &entities, &mut out)?;
    Ok(Text::Owned(out))
}

/// Byte span of `<!DOCTYPE … [ … ]>` if the prolog has one.
fn doctype_span(text: &str) -> Option<(usize, usize)> {
    let start = text.find("<!DOCTYPE")?;
    // Only a prolog DOCTYPE counts: no element may come before it.
    let before = &text[..start];
    if before.contains("<rdf:") || before.contains("<Ontology") {
        return None;
    }
    let mut in_subset = false;
    let mut quote: Option<char> = None;
    for (i, c) in text[start..].char_indices() {
        match (quote, c) {
            (Some(q), c) if c == q => quote = None,
            (Some(_), _) => {}
            (None, '"' | '\'') => quote = Some(c),
            (None, '[') => in_subset = true,
            (None, ']') => in_subset = false,
            (None, '>') if !in_subset => return Some((start, start + i + 1)),
            _ => {}
        }
    }
    None
}

/// `name → value` for every `<!ENTITY name "value">` (either quote style).
fn parse_entities(doctype: &str) -> Result<HashMap<String, String>, String> {
    let mut map = HashMap::new();
    let mut rest = doctype;
    while let Some(pos) = rest.find("<!ENTITY") {
        rest = rest[pos + "<!ENTITY".len()..].trim_start();
        if rest.starts_with('%') {
            return Err("parameter entities (<!ENTITY % …>) are not supported".into());
        }
        let name_end = rest
            .find(|c: char| c.is_whitespace())
            .ok_or("truncated <!ENTITY declaration")?;
        let name = &rest[..name_end];
        rest = rest[name_end..].trim_start();
        let Some(quote) = rest.chars().next().filter(|c| *c == '"' || *c == '\'') else {
            return Err(format!(
                "entity {name:?} is external (SYSTEM/PUBLIC); only internal entities are supported"
            ));
        };
        let body = &rest[1..];
        let value_end = body
            .find(quote)
            .ok_or_else(|| format!("unterminated value of entity {name:?}"))?;
        // The first declaration wins, as in XML.
        map.entry(name.to_owned())
            .or_insert_with(|| body[..value_end].to_owned());
        rest = &body[value_end + 1..];
    }
    Ok(map)
}

/// Expands references between entities (`<!ENTITY b "&a;x">`), a few levels deep.
fn resolve_nested(mut map: HashMap<String, String>) -> Result<HashMap<String, String>, String> {
    for _ in 0..8 {
        let snapshot = map.clone();
        let mut changed = false;
        for value in map.values_mut() {
            if value.contains('&') {
                let mut out = String::new();
                substitute(value, &snapshot, &mut out)?;
                changed |= out != *value;
                *value = out;
            }
        }
        if !changed {
            return Ok(map);
        }
    }
    Err("entity definitions nest too deeply or are recursive".into())
}

/// Copies `text` into `out`, replacing `&name;` for declared names (others are left for the
/// XML parser: `&amp;`, character references, or undeclared names it will report).
fn substitute(text: &str, map: &HashMap<String, String>, out: &mut String) -> Result<(), String> {
    let mut rest = text;
    while let Some(amp) = rest.find('&') {
        out.push_str(&rest[..amp]);
        let after = &rest[amp + 1..];
        let name_len = after
            .find(|c: char| !(c.is_alphanumeric() || matches!(c, '_' | '-' | '.' | ':')))
            .unwrap_or(after.len());
        match map.get(&after[..name_len]) {
            Some(value) if after[name_len..].starts_with(';') => {
                out.push_str(value);
                rest = &after[name_len + 1..];
            }
            _ => {
                out.push('&');
                rest = after;
            }
        }
        if out.len() > MAX_GROWTH + text.len() {
            return Err("entity expansion grows the document beyond 64 MiB".into());
        }
    }
    out.push_str(rest);
    Ok(())
}

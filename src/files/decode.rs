//! Bytes on disk to UTF-8 text: gunzip, then find the encoding (BOM, UTF-16 pattern, XML
//! declaration) and transcode, because every parser downstream only reads UTF-8.

use std::borrow::Cow;
use std::io::Read;
use std::path::Path;

use encoding_rs::{Encoding, UTF_8, UTF_16BE, UTF_16LE, WINDOWS_1252};

use super::LoadError;

/// Reads `path`, gunzipping it when it starts with the gzip magic number (whatever its name).
pub(crate) fn read_bytes(path: &Path) -> Result<Vec<u8>, LoadError> {
    let io = |cause| LoadError::Io {
        path: path.to_owned(),
        cause,
    };
    let raw = std::fs::read(path).map_err(io)?;
    if !raw.starts_with(&[0x1f, 0x8b]) {
        return Ok(raw);
    }
    let mut out = Vec::with_capacity(raw.len() * 8);
    flate2::read::MultiGzDecoder::new(raw.as_slice())
        .read_to_end(&mut out)
        .map_err(|e| {
            io(std::io::Error::new(
                e.kind(),
                format!("corrupt or truncated gzip data: {e}"),
            ))
        })?;
    Ok(out)
}

/// UTF-8 text of a file plus what had to be guessed on the way.
pub(crate) struct Decoded {
    pub text: String,
    pub warnings: Vec<String>,
}

/// Decodes `bytes` to UTF-8, stripping any BOM and rewriting a non-UTF-8 XML declaration
/// so that the XML parsers (which only read UTF-8) do not trip over it.
pub(crate) fn decode(path: &Path, bytes: Vec<u8>) -> Result<Decoded, LoadError> {
    let mut warnings = Vec::new();
    let (encoding, body, declared) = if let Some((enc, bom_len)) = Encoding::for_bom(&bytes) {
        (enc, &bytes[bom_len..], true)
    } else if bytes.starts_with(b"<\0") {
        (UTF_16LE, &bytes[..], true)
    } else if bytes.starts_with(b"\0<") {
        (UTF_16BE, &bytes[..], true)
    } else if let Some(label) = xml_declared_encoding(&bytes) {
        let enc = Encoding::for_label(label.as_bytes()).ok_or_else(|| LoadError::Encoding {
            path: path.to_owned(),
            reason: format!("unknown encoding {label:?} in the XML declaration"),
        })?;
        (enc, &bytes[..], true)
    } else {
        (UTF_8, &bytes[..], false)
    };

    let text = if encoding == UTF_8 {
        match std::str::from_utf8(body) {
            Ok(s) => s.to_owned(),
            Err(e) if !declared => {
                // Legacy files often carry Latin-1 without saying so.
                warnings.push(format!(
                    "not valid UTF-8 (byte offset {}); decoded as windows-1252",
                    e.valid_up_to()
                ));
                WINDOWS_1252
                    .decode_without_bom_handling(body)
                    .0
                    .into_owned()
            }
            Err(e) => {
                return Err(LoadError::Encoding {
                    path: path.to_owned(),
                    reason: format!("invalid UTF-8 at byte offset {}", e.valid_up_to()),
                });
            }
        }
    } else {
        let (s, had_errors) = encoding.decode_without_bom_handling(body);
        if had_errors {
            warnings.push(format!(
                "malformed {} sequences replaced by U+FFFD",
                encoding.name()
            ));
        }
        let s = s.strip_prefix('\u{feff}').unwrap_or(&s).to_owned();
        rewrite_xml_encoding(s)
    };
    if let Some(offset) = text.find('\0') {
        return Err(LoadError::Encoding {
            path: path.to_owned(),
            reason: format!("binary data (NUL character at offset {offset}), not an RDF/OWL text"),
        });
    }
    Ok(Decoded { text, warnings })
}

/// The `encoding="…"` of an `<?xml …?>` declaration at the very start, if any.
fn xml_declared_encoding(bytes: &[u8]) -> Option<String> {
    let head = bytes.get(..bytes.len().min(256))?;
    if !head.starts_with(b"<?xml") {
        return None;
    }
    let end = head.windows(2).position(|w| w == b"?>")?;
    let decl = std::str::from_utf8(&head[..end]).ok()?;
    let rest = &decl[decl.find("encoding")? + "encoding".len()..];
    let rest = rest.trim_start().strip_prefix('=')?.trim_start();
    let quote = rest.chars().next().filter(|c| *c == '"' || *c == '\'')?;
    let value = &rest[1..];
    Some(value[..value.find(quote)?].trim().to_owned())
}

/// Replaces the declared encoding of an XML declaration by UTF-8, keeping everything else.
fn rewrite_xml_encoding(text: String) -> String {
    let Some(end) = text.starts_with("<?xml").then(|| text.find("?>")).flatten() else {
        return text;
    };
    let decl = &text[..end];
    let Some(start) = decl.find("encoding") else {
        return text;
    };
    let after = &decl[start..];
    let Some(q1) = after.find(['"', '\'']) else {
        return text;
    };
    let quote = &after[q1..=q1];
    let Some(q2) = after[q1 + 1..].find(quote) else {
        return text;
    };
    let value_start = start + q1 + 1;
    let value_end = value_start + q2;
    let mut out = String::with_capacity(text.len());
    out.push_str(&text[..value_start]);
    out.push_str("UTF-8");
    out.push_str(&text[value_end..]);
    out
}

/// Borrowed or owned text, for the stages that only sometimes rewrite it.
pub(crate) type Text<'a> = Cow<'a, str>;

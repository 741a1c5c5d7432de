//! `--tokens-file`: bearer tokens and what each may do.
//!
//! A line is `SCOPES TOKEN [# name]`: scopes among `read`, `update` and `learn`, joined by
//! commas; the token itself or `sha256:<hex>` of it (so the file need not hold the secret);
//! `#` starts a comment, and a comment after a token names it in the audit log (else its
//! line number does). Tokens are kept only as SHA-256 digests and a presented token is
//! compared with every digest in constant time, so neither the answer's timing nor any log
//! tells a token.

use std::fmt;
use std::path::Path;

use anyhow::{Context, bail};
use sha2::{Digest, Sha256};
use subtle::ConstantTimeEq;

/// What a request does, and so what its token must allow.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Scope {
    /// SPARQL queries (with the models' functions) and `/predict`.
    Read,
    /// SPARQL updates.
    Update,
    /// `/learn`.
    Learn,
}

impl Scope {
    const ALL: [Scope; 3] = [Scope::Read, Scope::Update, Scope::Learn];

    pub fn name(self) -> &'static str {
        match self {
            Scope::Read => "read",
            Scope::Update => "update",
            Scope::Learn => "learn",
        }
    }

    fn bit(self) -> u8 {
        1 << self as u8
    }
}

impl fmt::Display for Scope {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A set of scopes.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Scopes(u8);

impl Scopes {
    pub const NONE: Scopes = Scopes(0);
    pub const ALL: Scopes = Scopes(0b111);

    pub fn only(scope: Scope) -> Scopes {
        Scopes(scope.bit())
    }

    pub fn contains(self, scope: Scope) -> bool {
        self.0 & scope.bit() != 0
    }

    /// `read,update` and the like; an unknown or missing scope is an error naming it.
    fn parse(text: &str) -> Result<Scopes, String> {
        let mut set = 0;
        for part in text.split(',') {
            let scope = Scope::ALL
                .into_iter()
                .find(|s| s.name() == part)
                .ok_or_else(|| {
                    format!("unknown scope {part:?} (scopes are read, update and learn)")
                })?;
            set |= scope.bit();
        }
        Ok(Scopes(set))
    }
}

/// One line of the tokens file.
struct Entry {
    digest: [u8; 32],
    scopes: Scopes,
    name: String,
}

/// The tokens of `--tokens-file`.
pub struct Tokens {
    entries: Vec<Entry>,
}

/// A token the server knows: its name (never the token) and scopes.
#[derive(Clone, Debug)]
pub struct Known {
    pub name: String,
    pub scopes: Scopes,
}

/// Shortest token accepted in clear: shorter ones are guessable.
const MIN_TOKEN_CHARS: usize = 16;

impl Tokens {
    /// Reads the file; errors name it and the line.
    pub fn read(path: &Path) -> anyhow::Result<Tokens> {
        let text = std::fs::read_to_string(path)
            .with_context(|| format!("--tokens-file {}: cannot read it", path.display()))?;
        let tokens = Self::parse(&text)
            .map_err(|(line, e)| anyhow::anyhow!("{}:{line}: {e}", path.display()))?;
        if tokens.entries.is_empty() {
            bail!(
                "--tokens-file {}: no tokens (a line is `SCOPES TOKEN`, e.g. `read,update \
                 5f2c…`)",
                path.display()
            );
        }
        Ok(tokens)
    }

    /// The entries of a file's text; an error comes with its line number.
    fn parse(text: &str) -> Result<Tokens, (usize, String)> {
        let mut entries: Vec<Entry> = Vec::new();
        for (i, line) in text.lines().enumerate() {
            let number = i + 1;
            let (content, comment) = match line.split_once('#') {
                Some((c, comment)) => (c, comment.trim()),
                None => (line, ""),
            };
            let fields: Vec<&str> = content.split_whitespace().collect();
            let (scopes, token) = match fields.as_slice() {
                [] => continue,
                [scopes, token] => (*scopes, *token),
                _ => {
                    return Err((
                        number,
                        format!(
                            "expected `SCOPES TOKEN` (two fields), found {} field(s)",
                            fields.len()
                        ),
                    ));
                }
            };
            let scopes = Scopes::parse(scopes).map_err(|e| (number, e))?;
            let digest = digest_of(token).map_err(|e| (number, e))?;
            if let Some(other) = entries.iter().find(|e| e.digest == digest) {
                return Err((
                    number,
                    format!("the same token as {} (a token has one line)", other.name),
                ));
            }
            let name = if comment.is_empty() {
                format!("line {number}")
            } else {
                comment.to_owned()
            };
            entries.push(Entry {
                digest,
                scopes,
                name,
            });
        }
        Ok(Tokens { entries })
    }

    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// The entry of `presented`, compared with every digest in constant time (no early
    /// exit, so the time does not tell which or whether one matched).
    pub fn check(&self, presented: &str) -> Option<Known> {
        let digest: [u8; 32] = Sha256::digest(presented.as_bytes()).into();
        let mut found = None;
        for e in &self.entries {
            if bool::from(e.digest.ct_eq(&digest)) {
                found = Some(e);
            }
        }
        found.map(|e| Known {
            name: e.name.clone(),
            scopes: e.scopes,
        })
    }
}

/// The SHA-256 of a token written in the file, in clear or as `sha256:<hex>`.
fn digest_of(token: &str) -> Result<[u8; 32], String> {
    if let Some(hex_digest) = token.strip_prefix("sha256:") {
        let bytes = hex::decode(hex_digest)
            .ok()
            .filter(|b| b.len() == 32)
            .ok_or("sha256: must be followed by 64 hexadecimal digits")?;
        let mut d = [0; 32];
        d.copy_from_slice(&bytes);
        return Ok(d);
    }
    // RFC 6750's token68: what fits in an Authorization header unquoted.
    let token68 = token
        .trim_end_matches('=')
        .chars()
        .all(|c| c.is_ascii_alphanumeric() || "-._~+/".contains(c));
    if !token68 {
        return Err(
            "a token holds letters, digits and - . _ ~ + / only (then = padding)".to_owned(),
        );
    }
    if token.chars().count() < MIN_TOKEN_CHARS {
        return Err(format!(
            "a token of fewer than {MIN_TOKEN_CHARS} characters is guessable (e.g. `openssl \
             rand -hex 32` makes one)"
        ));
    }
    Ok(Sha256::digest(token.as_bytes()).into())
}

/// The token of an `Authorization: Bearer …` header value; `None` for another scheme.
pub fn bearer(header: &str) -> Option<&str> {
    let (scheme, rest) = header.trim().split_once(' ')?;
    scheme
        .eq_ignore_ascii_case("bearer")
        .then(|| rest.trim())
        .filter(|t| !t.is_empty())
}

#[cfg(test)]
mod tests {
    use super::*;

    const A: &str = "abcdefghijklmnop0123";

    #[test]
    fn lines_give_scopes_names_and_digests() {
        let hashed = hex::encode(Sha256::digest(b"the-second-token-xyz"));
        let text = format!(
            "# comment line\n\nread,update {A}   # alice\nlearn sha256:{hashed}\n  read \
             ZZZZZZZZZZZZZZZZ==\n"
        );
        let tokens = Tokens::parse(&text).expect("parses");
        assert_eq!(tokens.len(), 3);
        let alice = tokens.check(A).expect("known");
        assert_eq!(alice.name, "alice");
        assert!(alice.scopes.contains(Scope::Read) && alice.scopes.contains(Scope::Update));
        assert!(!alice.scopes.contains(Scope::Learn));
        let second = tokens.check("the-second-token-xyz").expect("by digest");
        assert_eq!(second.name, "line 4");
        assert_eq!(second.scopes, Scopes::only(Scope::Learn));
        assert!(tokens.check("ZZZZZZZZZZZZZZZZ==").is_some());
        assert!(tokens.check("abcdefghijklmnop012").is_none());
        assert!(tokens.check("").is_none());
    }

    #[test]
    fn bad_lines_are_errors_naming_the_line() {
        let err = |text: &str| Tokens::parse(text).err().expect("an error");
        let (line, e) = err(&format!("read {A}\nwrite {A}x\n"));
        assert_eq!(line, 2);
        assert!(e.contains("\"write\""), "{e}");
        assert_eq!(err(&format!("read {A} extra")).0, 1);
        assert!(err("read short").1.contains("guessable"));
        assert!(err("read sha256:abcd").1.contains("64 hexadecimal"));
        assert!(err("read \"quoted-token-here!\"").1.contains("letters"));
        assert!(err(&format!("read {A}\nlearn {A}")).1.contains("line 1"));
        assert!(err("read,,learn aaaaaaaaaaaaaaaaaaaa").1.contains("\"\""));
    }

    #[test]
    fn bearer_takes_the_token_of_the_bearer_scheme() {
        assert_eq!(bearer("Bearer abc"), Some("abc"));
        assert_eq!(bearer("bearer  abc "), Some("abc"));
        assert_eq!(bearer("Basic YWxhZGRpbjpvcGVuc2VzYW1l"), None);
        assert_eq!(bearer("Bearer "), None);
        assert_eq!(bearer("Bearer"), None);
    }
}

//! Endpoint credentials: HTTP basic or bearer, from environment variables or a file. Values
//! never appear in `Debug`, logs or errors (errors name the file, the line and the key only).
//!
//! The file holds `key = value` lines (blank lines and `#` comments ignored; a value may be
//! wrapped in double quotes, kept verbatim otherwise, surrounding spaces trimmed):
//!
//! ```text
//! # bearer
//! token = abc123
//! # or basic
//! user = alice
//! password = "s3cret with spaces"
//! ```

use std::path::{Path, PathBuf};

/// Credentials; `Debug` never shows them.
#[derive(Clone)]
pub enum Auth {
    Basic { user: String, password: String },
    Bearer(String),
}

impl std::fmt::Debug for Auth {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Auth::Basic { user, .. } => write!(f, "Basic({user}, <redacted>)"),
            Auth::Bearer(_) => write!(f, "Bearer(<redacted>)"),
        }
    }
}

/// Why an auth file cannot be used (never quotes a value).
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum AuthFileError {
    #[error("cannot read the auth file {}: {message}", file.display())]
    Read { file: PathBuf, message: String },
    #[error("{}:{line}: {message}", file.display())]
    Line {
        file: PathBuf,
        line: usize,
        message: String,
    },
    #[error("{}: {message}", file.display())]
    Content { file: PathBuf, message: String },
}

impl Auth {
    /// From `OXILEARN_ENDPOINT_TOKEN` (bearer) or `OXILEARN_ENDPOINT_USER` +
    /// `OXILEARN_ENDPOINT_PASSWORD` (basic).
    pub fn from_env() -> Option<Auth> {
        if let Ok(token) = std::env::var("OXILEARN_ENDPOINT_TOKEN")
            && !token.is_empty()
        {
            return Some(Auth::Bearer(token));
        }
        let user = std::env::var("OXILEARN_ENDPOINT_USER").ok()?;
        let password = std::env::var("OXILEARN_ENDPOINT_PASSWORD").unwrap_or_default();
        Some(Auth::Basic { user, password })
    }

    /// Reads an auth file (format in the module docs).
    pub fn from_file(file: &Path) -> Result<Auth, AuthFileError> {
        let text = std::fs::read_to_string(file).map_err(|e| AuthFileError::Read {
            file: file.to_path_buf(),
            message: e.to_string(),
        })?;
        Self::parse(file, &text)
    }

    /// Parses auth-file text; `file` only names it in errors.
    pub fn parse(file: &Path, text: &str) -> Result<Auth, AuthFileError> {
        let line_error = |line: usize, message: String| AuthFileError::Line {
            file: file.to_path_buf(),
            line,
            message,
        };
        let (mut token, mut user, mut password) = (None, None, None);
        for (i, raw) in text.lines().enumerate() {
            let line = i + 1;
            let trimmed = raw.trim();
            if trimmed.is_empty() || trimmed.starts_with('#') {
                continue;
            }
            let Some((key, value)) = trimmed.split_once('=') else {
                return Err(line_error(line, "expected `key = value`".into()));
            };
            let key = key.trim();
            let value = value.trim();
            let value = match value.strip_prefix('"') {
                Some(rest) => rest.strip_suffix('"').ok_or_else(|| {
                    line_error(
                        line,
                        format!("the value of `{key}` opens a quote it never closes"),
                    )
                })?,
                None => value,
            };
            let slot = match key {
                "token" => &mut token,
                "user" => &mut user,
                "password" => &mut password,
                other => {
                    return Err(line_error(
                        line,
                        format!("unknown key `{other}` (expected token, user or password)"),
                    ));
                }
            };
            if slot.is_some() {
                return Err(line_error(line, format!("`{key}` is given twice")));
            }
            *slot = Some(value.to_string());
        }
        let content = |message: &str| AuthFileError::Content {
            file: file.to_path_buf(),
            message: message.into(),
        };
        match (token, user, password) {
            (Some(_), Some(_), _) | (Some(_), _, Some(_)) => Err(content(
                "give either `token` (bearer) or `user` and `password` (basic), not both",
            )),
            (Some(t), None, None) if t.is_empty() => Err(content("`token` is empty")),
            (Some(t), None, None) => Ok(Auth::Bearer(t)),
            (None, Some(u), p) if !u.is_empty() => Ok(Auth::Basic {
                user: u,
                password: p.unwrap_or_default(),
            }),
            (None, Some(_), _) => Err(content("`user` is empty")),
            (None, None, Some(_)) => Err(content("`password` without `user`")),
            (None, None, None) => Err(content(
                "no credentials: expected `token = …`, or `user = …` and `password = …`",
            )),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(text: &str) -> Result<Auth, AuthFileError> {
        Auth::parse(Path::new("creds.conf"), text)
    }

    #[test]
    fn credentials_never_show_in_debug() {
        let a = Auth::Basic {
            user: "u".into(),
            password: "secret".into(),
        };
        assert!(!format!("{a:?}").contains("secret"));
        assert!(!format!("{:?}", Auth::Bearer("tok".into())).contains("tok"));
    }

    #[test]
    fn bearer_and_basic_files() {
        let a = parse("# comment\n\ntoken = abc123\n").unwrap();
        assert!(matches!(a, Auth::Bearer(t) if t == "abc123"));
        let a = parse("user = alice\npassword = \"s3cret = with spaces\"\n").unwrap();
        assert!(
            matches!(a, Auth::Basic { user, password } if user == "alice" && password == "s3cret = with spaces")
        );
        let a = parse("user=bob").unwrap();
        assert!(matches!(a, Auth::Basic { password, .. } if password.is_empty()));
    }

    #[test]
    fn errors_name_file_and_line_never_the_value() {
        for (text, want) in [
            (
                "token = s3cret\nwhat\n",
                "creds.conf:2: expected `key = value`",
            ),
            ("pasword = s3cret\n", "creds.conf:1: unknown key `pasword`"),
            (
                "token = s3cret\ntoken = s3cret\n",
                "creds.conf:2: `token` is given twice",
            ),
            (
                "token = \"s3cret\n",
                "creds.conf:1: the value of `token` opens a quote",
            ),
            ("token = s3cret\nuser = u\n", "creds.conf: give either"),
            (
                "password = s3cret\n",
                "creds.conf: `password` without `user`",
            ),
            ("# nothing\n", "creds.conf: no credentials"),
        ] {
            let message = parse(text).expect_err(text).to_string();
            assert!(message.starts_with(want), "{text:?}: {message}");
            assert!(!message.contains("s3cret"), "{message}");
        }
    }

    #[test]
    fn unreadable_file_is_named() {
        let e = Auth::from_file(Path::new("/nonexistent/oxilearn-auth")).unwrap_err();
        assert!(e.to_string().contains("/nonexistent/oxilearn-auth"), "{e}");
    }
}

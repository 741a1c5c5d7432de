//! The one error type of the loader: every variant names the file, so a user with a list of
//! KB files knows which one failed and why.

use std::path::PathBuf;

/// Why a knowledge-base file could not be loaded.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum LoadError {
    /// The file could not be opened or read (or a gzip stream was corrupt).
    #[error("cannot read {path}: {cause}")]
    Io {
        path: PathBuf,
        cause: std::io::Error,
    },
    /// The format is neither given, nor known from the extension, nor recognisable.
    #[error("cannot determine the format of {path}: {reason}")]
    UnknownFormat { path: PathBuf, reason: String },
    /// The bytes could not be decoded to text.
    #[error("cannot decode {path}: {reason}")]
    Encoding { path: PathBuf, reason: String },
    /// A syntax error; `line`/`column` are 1-based when the parser reports them.
    #[error("syntax error in {path}{}: {message}", position(*.line, *.column))]
    Syntax {
        path: PathBuf,
        line: Option<u64>,
        column: Option<u64>,
        message: String,
    },
    /// The file parsed to nothing: never hand out a silently empty KB.
    #[error("no triples in {path}: {reason}")]
    Empty { path: PathBuf, reason: String },
    /// The file is in a syntax this build leaves out (a cargo feature is off).
    #[error(
        "cannot load {path}: reading {format} needs oxilearn's `{feature}` cargo feature, \
         which this build leaves out"
    )]
    FeatureDisabled {
        path: PathBuf,
        format: super::KbFormat,
        feature: &'static str,
    },
    /// The store refused the data.
    #[error("store error while loading {path}: {cause}")]
    Store {
        path: PathBuf,
        cause: oxigraph::store::StorageError,
    },
}

fn position(line: Option<u64>, column: Option<u64>) -> String {
    match (line, column) {
        (Some(l), Some(c)) => format!(" at line {l}, column {c}"),
        (Some(l), None) => format!(" at line {l}"),
        _ => String::new(),
    }
}

impl LoadError {
    /// The file the error is about.
    pub fn path(&self) -> &std::path::Path {
        match self {
            Self::Io { path, .. }
            | Self::UnknownFormat { path, .. }
            | Self::Encoding { path, .. }
            | Self::Syntax { path, .. }
            | Self::Empty { path, .. }
            | Self::FeatureDisabled { path, .. }
            | Self::Store { path, .. } => path,
        }
    }
}

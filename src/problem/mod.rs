//! Learning problems and their file formats.
//!
//! Every format (Ontolearn JSON, list JSON, DL-Learner `.conf`, SML-Bench directories) is
//! read into the same [`LearningProblem`], with examples as full IRI strings, so nothing
//! downstream cares where a problem came from.

mod clean;
mod conf;
mod conf_syntax;
mod error;
pub mod generate;
mod json;
mod multiclass;
mod select;
mod settings;
mod sml;
mod source;

use std::path::{Path, PathBuf};

pub use error::ProblemError;
pub use multiclass::{MultiClassProblem, is_multiclass, load_multiclass};
pub use select::{check_examples, select};
pub use settings::{LearnerSettings, LocatedSetting, Setting};
pub use source::ConfEndpoint;

/// A set of positive and negative examples to separate, as full IRIs.
///
/// Duplicates are removed (first occurrence kept); no IRI is on both sides.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub struct LearningProblem {
    pub name: String,
    pub positives: Vec<String>,
    pub negatives: Vec<String>,
    /// The concept that generated the examples (list JSON `concept`), or the class of a
    /// DL-Learner `ClassLearningProblem` (whose example lists are then empty).
    pub target: Option<String>,
    /// The KB file a `.conf` file names (`ks.fileName`, `import("…")`), relative to the
    /// `.conf` file.
    pub kb_file: Option<PathBuf>,
    /// The syntax of `kb_file` when the `.conf` file says it (`ks.type = "KB File"`,
    /// `import("x", "KB")`, a `.kb` file); `None`: detected when loading.
    pub kb_format: Option<crate::files::KbFormat>,
    /// The SPARQL endpoint a `.conf` file names instead of a file (`ks.type = "SPARQL
    /// endpoint"`, `import("http://…", "SPARQL")`); the CLI's `--kb`/`--endpoint` win.
    pub endpoint: Option<ConfEndpoint>,
    /// Graded examples (IRI, degree of membership in the target, in [0, 1]) from
    /// DL-Learner's `lp.fuzzyEx` or a JSON problem's `degrees`; empty for crisp problems.
    /// Learners that take graded examples (`owl-boost`, `wfoil-dl`) train on these with the
    /// listed examples (degree 1 for a positive, 0 for a negative unless given here).
    pub degrees: Vec<(String, f64)>,
    /// A `.conf` file's learner settings (`alg.*`, `h.*`, `op.*`), which the CLI takes as
    /// defaults; `None` for other formats.
    pub settings: Option<LearnerSettings>,
    /// The class whose definition is learned (`learn --describe-class`, a `.conf` file's
    /// `classToDescribe`): the examples are drawn from its instances and non-instances
    /// when the KB is open, and the class (with its equivalents) is left out of the search.
    pub describe_class: Option<String>,
    /// A SELECT with one variable whose answers are positive examples (`--positives-query`,
    /// JSON `positives_query`), run when the KB is open, added to any listed positives.
    pub positives_query: Option<String>,
    /// As `positives_query`, for negatives (`--negatives-query`, JSON `negatives_query`).
    pub negatives_query: Option<String>,
}

impl LearningProblem {
    /// A problem without listed examples, defined by SELECT queries (see
    /// [`LearningProblem::positives_query`]).
    pub fn from_queries(
        name: &str,
        positives_query: Option<String>,
        negatives_query: Option<String>,
    ) -> Self {
        LearningProblem {
            name: name.to_owned(),
            positives: Vec::new(),
            negatives: Vec::new(),
            target: None,
            kb_file: None,
            kb_format: None,
            endpoint: None,
            degrees: Vec::new(),
            settings: None,
            describe_class: None,
            positives_query,
            negatives_query,
        }
    }

    /// Whether the examples are still to be drawn from the KB (a class to describe, or
    /// queries), see [`LearningProblem::describe_class`].
    pub fn needs_kb_examples(&self) -> bool {
        self.describe_class.is_some()
            || self.positives_query.is_some()
            || self.negatives_query.is_some()
    }
}

/// Reads all problems of `path`.
///
/// A directory is SML-Bench layout; a `pos.txt`/`neg.txt` file stands for its directory;
/// `.json` is JSON and `.conf` is DL-Learner; any other file is JSON when it starts with
/// `{` or `[`, else `.conf`. A single-problem file's problem is named after the file stem.
pub fn load_problems(path: &Path) -> Result<Vec<LearningProblem>, ProblemError> {
    if path.is_dir() {
        return sml::load_dir(path);
    }
    let file_name = path.file_name().map(|n| n.to_string_lossy().into_owned());
    if matches!(file_name.as_deref(), Some("pos.txt" | "neg.txt")) {
        let dir = path.parent().unwrap_or(Path::new("."));
        return Ok(vec![sml::load_one(dir)?]);
    }
    let bytes = std::fs::read(path).map_err(|cause| ProblemError::Io {
        path: path.to_owned(),
        cause,
    })?;
    let text = String::from_utf8(bytes).map_err(|e| ProblemError::Syntax {
        path: path.to_owned(),
        line: None,
        column: None,
        message: format!(
            "not UTF-8 text (byte offset {})",
            e.utf8_error().valid_up_to()
        ),
    })?;
    let text = text.strip_prefix('\u{feff}').unwrap_or(&text);
    let stem = path.file_stem().map_or_else(
        || "problem".to_owned(),
        |s| s.to_string_lossy().into_owned(),
    );
    let ext = path
        .extension()
        .map(|e| e.to_string_lossy().to_ascii_lowercase());
    let is_json = match ext.as_deref() {
        Some("json") => true,
        Some("conf") => false,
        _ => text.trim_start().starts_with(['{', '[']),
    };
    if is_json {
        json::parse(path, text, &stem)
    } else {
        Ok(vec![conf::load(path, text, &stem)?])
    }
}

//! SML-Bench layout: `lp/<name>/pos.txt` and `neg.txt`, one IRI a line.

use std::path::{Path, PathBuf};

use super::clean::{build, normalize_iri};
use super::{LearningProblem, ProblemError};

/// Problems of a directory: `DIR/lp/*/`, `DIR/*/` or `DIR` itself, whichever holds
/// `pos.txt` files. Problems are sorted by name, as directory order is arbitrary.
pub(crate) fn load_dir(dir: &Path) -> Result<Vec<LearningProblem>, ProblemError> {
    if dir.join("pos.txt").is_file() {
        return Ok(vec![load_one(dir)?]);
    }
    let lp = dir.join("lp");
    let root = if lp.is_dir() { lp } else { dir.to_owned() };
    let mut dirs: Vec<PathBuf> = std::fs::read_dir(&root)
        .map_err(|cause| ProblemError::Io {
            path: root.clone(),
            cause,
        })?
        .filter_map(Result::ok)
        .map(|e| e.path())
        .filter(|p| p.join("pos.txt").is_file())
        .collect();
    if dirs.is_empty() {
        return Err(ProblemError::Unsupported {
            path: dir.to_owned(),
            reason: "no pos.txt here, in lp/<name>/ nor in <name>/ (SML-Bench layout expected)"
                .to_owned(),
        });
    }
    dirs.sort();
    dirs.iter().map(|d| load_one(d)).collect()
}

/// One problem from `dir/pos.txt` and `dir/neg.txt` (absent `neg.txt`: no negatives).
pub(crate) fn load_one(dir: &Path) -> Result<LearningProblem, ProblemError> {
    let name = dir.file_name().map_or_else(
        || "problem".to_owned(),
        |n| n.to_string_lossy().into_owned(),
    );
    let pos_path = dir.join("pos.txt");
    let neg_path = dir.join("neg.txt");
    let positives = read_list(&pos_path)?;
    let negatives = if neg_path.exists() {
        read_list(&neg_path)?
    } else {
        Vec::new()
    };
    build(&pos_path, name, positives, negatives, None, None)
}

/// IRIs of a list file; blank lines and `#` comments are skipped.
fn read_list(path: &Path) -> Result<Vec<String>, ProblemError> {
    let text = std::fs::read_to_string(path).map_err(|cause| ProblemError::Io {
        path: path.to_owned(),
        cause,
    })?;
    let text = text.strip_prefix('\u{feff}').unwrap_or(&text);
    let mut out = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let iri = normalize_iri(line).map_err(|m| ProblemError::Syntax {
            path: path.to_owned(),
            line: Some(i + 1),
            column: None,
            message: format!("expected one IRI on the line: {m}"),
        })?;
        out.push(iri);
    }
    Ok(out)
}

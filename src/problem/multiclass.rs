//! Multi-class learning problems: each example with its class. Read from
//!
//! * JSON `{"problems": {Name: {"classes": {Label: [IRI, …]}}}}` (or one `{"classes": …}`);
//! * a directory of one-vs-rest binary problems, one per class: DL-Learner `.conf` files
//!   (lymphography's `lymphography_Class1..4.conf`: the class is the file stem without the
//!   stems' common prefix) or SML-Bench folders `lp/<class>/` (animals); an example's class
//!   is the problem that lists it as positive (negatives only say "another class");
//! * a TSV file whose first column is the individual and whose column named by
//!   `label_column` (a header line names the columns) is its class;
//! * any binary problem file, as two classes `positive` and `negative`.
//!
//! Classes are sorted by name, so a train and a test file agree on class indices.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

use super::clean::normalize_iri;
use super::{LearningProblem, ProblemError, load_problems};

/// A multi-class learning problem.
#[derive(Clone, Debug, PartialEq)]
pub struct MultiClassProblem {
    pub name: String,
    /// Sorted, distinct.
    pub classes: Vec<String>,
    /// Each example (full IRI) with the index of its class, in file order.
    pub examples: Vec<(String, usize)>,
    /// The KB a `.conf` file names (relative to it), if any.
    pub kb_file: Option<PathBuf>,
    /// Classes the learner must not use (`alg.ignoredConcepts` of `.conf` files).
    pub ignored_classes: Vec<String>,
}

impl MultiClassProblem {
    /// From (IRI, label) pairs: classes sorted, an IRI labelled twice refused.
    fn from_labelled(
        path: &Path,
        name: String,
        labelled: Vec<(String, String, Option<usize>)>,
    ) -> Result<Self, ProblemError> {
        let classes: Vec<String> = labelled
            .iter()
            .map(|(_, l, _)| l.clone())
            .collect::<BTreeSet<_>>()
            .into_iter()
            .collect();
        let mut seen: BTreeMap<String, &str> = BTreeMap::new();
        let mut examples = Vec::new();
        for (iri, label, line) in &labelled {
            if let Some(first) = seen.insert(iri.clone(), label) {
                if first == label {
                    continue;
                }
                return Err(ProblemError::Syntax {
                    path: path.to_owned(),
                    line: *line,
                    column: None,
                    message: format!(
                        "problem {name:?}: {iri} is of class {first:?} and of class {label:?}"
                    ),
                });
            }
            let class = classes.binary_search(label).unwrap_or(0);
            examples.push((iri.clone(), class));
        }
        Ok(MultiClassProblem {
            name,
            classes,
            examples,
            kb_file: None,
            ignored_classes: Vec::new(),
        })
    }

    /// The one-vs-rest binary problems (one per class: its examples against all others),
    /// e.g. to read the examples' neighbourhood.
    pub fn one_vs_rest(&self) -> Vec<LearningProblem> {
        (0..self.classes.len())
            .map(|c| LearningProblem {
                name: format!("{}/{}", self.name, self.classes[c]),
                positives: self.members(c),
                negatives: self
                    .examples
                    .iter()
                    .filter(|(_, l)| *l != c)
                    .map(|(i, _)| i.clone())
                    .collect(),
                target: None,
                kb_file: self.kb_file.clone(),
                kb_format: None,
                endpoint: None,
                degrees: Vec::new(),
                settings: None,
                describe_class: None,
                positives_query: None,
                negatives_query: None,
            })
            .collect()
    }

    /// The examples of class `c`.
    pub fn members(&self, c: usize) -> Vec<String> {
        self.examples
            .iter()
            .filter(|(_, l)| *l == c)
            .map(|(i, _)| i.clone())
            .collect()
    }

    /// This problem's examples relabelled with `classes` (a superset of its own, e.g. a
    /// training file's); a class not in `classes` is an error naming it.
    pub fn relabel(&self, path: &Path, classes: &[String]) -> Result<Self, ProblemError> {
        let mut examples = Vec::with_capacity(self.examples.len());
        for (iri, c) in &self.examples {
            let label = &self.classes[*c];
            let Some(i) = classes.iter().position(|x| x == label) else {
                return Err(ProblemError::Unsupported {
                    path: path.to_owned(),
                    reason: format!(
                        "{iri} has class {label:?}, which the training data does not have \
                         (classes: {})",
                        classes.join(", ")
                    ),
                });
            };
            examples.push((iri.clone(), i));
        }
        Ok(MultiClassProblem {
            classes: classes.to_vec(),
            examples,
            ..self.clone()
        })
    }
}

/// Reads the multi-class problems of `path` (see the module docs). `label_column` names
/// the class column of a TSV file (required for one).
pub fn load_multiclass(
    path: &Path,
    label_column: Option<&str>,
) -> Result<Vec<MultiClassProblem>, ProblemError> {
    let is_tsv = path
        .extension()
        .is_some_and(|e| e.eq_ignore_ascii_case("tsv"));
    if is_tsv || (label_column.is_some() && path.is_file()) {
        return Ok(vec![tsv_with_column(path, label_column)?]);
    }
    if path.is_dir() {
        return directory(path).map(|p| vec![p]);
    }
    let text = read(path)?;
    let is_json = path
        .extension()
        .is_some_and(|e| e.eq_ignore_ascii_case("json"))
        || text.trim_start().starts_with("{");
    if is_json && let Some(problems) = json(path, &text)? {
        return Ok(problems);
    }
    binary(path)
}

/// Whether the problems file `path` holds multi-class problems, for learners that read
/// binary and multi-class ones alike: a TSV file (`.tsv`, or whose header names
/// `label_column`) or JSON with `classes`. Binary problem files and directories (SML-Bench
/// problems, one-vs-rest `.conf` files) are read as binary problems: only
/// [`load_multiclass`] reads a directory as one multi-class problem. A file that cannot be
/// read is not multi-class here (the binary reader then says why).
pub fn is_multiclass(path: &Path, label_column: Option<&str>) -> bool {
    if path.as_os_str().is_empty() || path.is_dir() {
        return false;
    }
    if path
        .extension()
        .is_some_and(|e| e.eq_ignore_ascii_case("tsv"))
    {
        return true;
    }
    let Ok(text) = read(path) else {
        return false;
    };
    let header = text
        .lines()
        .map(|l| l.trim_end_matches('\r'))
        .find(|l| !l.trim().is_empty() && !l.starts_with('#'));
    if let (Some(column), Some(header)) = (label_column, header)
        && header.contains('\t')
        && header.split('\t').any(|n| n.trim() == column)
    {
        return true;
    }
    text.trim_start().starts_with("{") && matches!(json(path, &text), Ok(Some(_)))
}

/// A TSV file of labelled examples, which needs the name of its class column.
fn tsv_with_column(
    path: &Path,
    label_column: Option<&str>,
) -> Result<MultiClassProblem, ProblemError> {
    let Some(column) = label_column else {
        return Err(ProblemError::Unsupported {
            path: path.to_owned(),
            reason: "a TSV file of labelled examples needs --label-column (the header \
                     name of the class column)"
                .to_owned(),
        });
    };
    tsv(path, column)
}

/// Binary problems, each as two classes: its positives against its negatives.
fn binary(path: &Path) -> Result<Vec<MultiClassProblem>, ProblemError> {
    load_problems(path)?
        .into_iter()
        .map(|p| {
            let labelled = p
                .positives
                .iter()
                .map(|i| (i.clone(), "positive".to_owned(), None))
                .chain(
                    p.negatives
                        .iter()
                        .map(|i| (i.clone(), "negative".to_owned(), None)),
                )
                .collect();
            let mut m = MultiClassProblem::from_labelled(path, p.name.clone(), labelled)?;
            m.kb_file = p.kb_file.clone();
            Ok(m)
        })
        .collect()
}

fn read(path: &Path) -> Result<String, ProblemError> {
    let text = std::fs::read_to_string(path).map_err(|cause| ProblemError::Io {
        path: path.to_owned(),
        cause,
    })?;
    Ok(text.strip_prefix('\u{feff}').unwrap_or(&text).to_owned())
}

/// The multi-class JSON form, or `None` when the document is another (binary) JSON form.
fn json(path: &Path, text: &str) -> Result<Option<Vec<MultiClassProblem>>, ProblemError> {
    let value: serde_json::Value =
        serde_json::from_str(text).map_err(|e| ProblemError::Syntax {
            path: path.to_owned(),
            line: Some(e.line()),
            column: Some(e.column()),
            message: format!("not JSON: {e}"),
        })?;
    let stem = path.file_stem().map_or_else(
        || "problem".to_owned(),
        |s| s.to_string_lossy().into_owned(),
    );
    let entries: Vec<(String, &serde_json::Value)> = match value.get("problems") {
        Some(serde_json::Value::Object(m)) => m.iter().map(|(k, v)| (k.clone(), v)).collect(),
        _ => vec![(stem, &value)],
    };
    if !entries.iter().any(|(_, v)| v.get("classes").is_some()) {
        return Ok(None);
    }
    let bad = |m: String| ProblemError::Syntax {
        path: path.to_owned(),
        line: None,
        column: None,
        message: m,
    };
    let mut out = Vec::new();
    for (name, v) in entries {
        let Some(serde_json::Value::Object(classes)) = v.get("classes") else {
            return Err(bad(format!(
                "problem {name:?}: \"classes\" must be an object {{label: [IRI, …]}}"
            )));
        };
        let mut labelled = Vec::new();
        for (label, members) in classes {
            let Some(members) = members.as_array() else {
                return Err(bad(format!(
                    "problem {name:?}, class {label:?}: expected a list of IRIs"
                )));
            };
            for m in members {
                let iri = m
                    .as_str()
                    .ok_or_else(|| {
                        bad(format!(
                            "problem {name:?}, class {label:?}: {m} is not an IRI string"
                        ))
                    })
                    .and_then(|s| {
                        normalize_iri(s)
                            .map_err(|e| bad(format!("problem {name:?}, class {label:?}: {e}")))
                    })?;
                labelled.push((iri, label.clone(), None));
            }
        }
        out.push(MultiClassProblem::from_labelled(path, name, labelled)?);
    }
    Ok(Some(out))
}

/// One-vs-rest binary problems in a directory, one per class: `.conf` files or SML-Bench.
fn directory(dir: &Path) -> Result<MultiClassProblem, ProblemError> {
    let name = dir.file_name().map_or_else(
        || "problem".to_owned(),
        |n| n.to_string_lossy().into_owned(),
    );
    let mut confs: Vec<PathBuf> = std::fs::read_dir(dir)
        .map_err(|cause| ProblemError::Io {
            path: dir.to_owned(),
            cause,
        })?
        .filter_map(Result::ok)
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|e| e == "conf"))
        .collect();
    confs.sort();
    let (binary, labels, ignored) = if confs.is_empty() {
        let problems = load_problems(dir)?;
        let labels = problems.iter().map(|p| p.name.clone()).collect();
        (problems, labels, Vec::new())
    } else {
        let mut problems = Vec::new();
        let mut ignored = BTreeSet::new();
        for c in &confs {
            problems.extend(load_problems(c)?);
            ignored.extend(super::conf::ignored_concepts(c, &read(c)?)?);
        }
        let stems: Vec<String> = problems.iter().map(|p| p.name.clone()).collect();
        (
            problems,
            strip_common_prefix(&stems),
            ignored.into_iter().collect(),
        )
    };
    if binary.len() < 2 {
        return Err(ProblemError::Unsupported {
            path: dir.to_owned(),
            reason: format!(
                "{} one-vs-rest problem(s) here; a multi-class problem needs one per class, \
                 at least 2",
                binary.len()
            ),
        });
    }
    let labelled = binary
        .iter()
        .zip(&labels)
        .flat_map(|(p, label)| p.positives.iter().map(|i| (i.clone(), label.clone(), None)))
        .collect();
    let mut m = MultiClassProblem::from_labelled(dir, name, labelled)?;
    m.kb_file = binary
        .iter()
        .find_map(|p| p.kb_file.clone())
        .or_else(|| only_kb_file(dir));
    m.ignored_classes = ignored;
    Ok(m)
}

/// The one knowledge-base file in `dir` (SML-Bench keeps it beside `lp/`), if exactly one.
fn only_kb_file(dir: &Path) -> Option<PathBuf> {
    const KB: [&str; 10] = [
        "owl", "rdf", "ttl", "nt", "nq", "trig", "gz", "ofn", "owx", "omn",
    ];
    let found: Vec<PathBuf> = std::fs::read_dir(dir)
        .ok()?
        .filter_map(Result::ok)
        .map(|e| e.path())
        .filter(|p| {
            p.is_file()
                && p.extension().is_some_and(|e| {
                    KB.contains(&e.to_string_lossy().to_ascii_lowercase().as_str())
                })
        })
        .collect();
    (found.len() == 1).then(|| found[0].clone())
}

/// `lymphography_Class1`, `lymphography_Class2` → `Class1`, `Class2` (the common prefix up
/// to its last `_`, `-` or `.`); names without such a prefix stay whole.
fn strip_common_prefix(names: &[String]) -> Vec<String> {
    let Some(first) = names.first() else {
        return Vec::new();
    };
    let mut common = first.len();
    for n in names {
        common = common.min(
            first
                .bytes()
                .zip(n.bytes())
                .take_while(|(a, b)| a == b)
                .count(),
        );
    }
    let cut = first[..common].rfind(['_', '-', '.']).map_or(0, |i| i + 1);
    names.iter().map(|n| n[cut..].to_owned()).collect()
}

/// A TSV file: a header naming the columns, the individual in the first, the class in
/// `column`; blank lines and `#` comments skipped.
fn tsv(path: &Path, column: &str) -> Result<MultiClassProblem, ProblemError> {
    let text = read(path)?;
    let syntax = |line: usize, message: String| ProblemError::Syntax {
        path: path.to_owned(),
        line: Some(line),
        column: None,
        message,
    };
    let mut lines = text
        .lines()
        .enumerate()
        .map(|(i, l)| (i + 1, l.trim_end_matches('\r')))
        .filter(|(_, l)| !l.trim().is_empty() && !l.starts_with('#'));
    let Some((header_line, header)) = lines.next() else {
        return Err(ProblemError::Unsupported {
            path: path.to_owned(),
            reason: "empty file (expected a header line naming the columns)".to_owned(),
        });
    };
    let names: Vec<&str> = header.split('\t').map(str::trim).collect();
    let Some(index) = names.iter().position(|n| *n == column) else {
        return Err(syntax(
            header_line,
            format!(
                "no column named {column:?} in the header (columns: {})",
                names.join(", ")
            ),
        ));
    };
    if index == 0 {
        return Err(syntax(
            header_line,
            format!("{column:?} is the first column, which holds the individuals"),
        ));
    }
    let mut labelled = Vec::new();
    for (line, l) in lines {
        let cells: Vec<&str> = l.split('\t').map(str::trim).collect();
        if cells.len() != names.len() {
            return Err(syntax(
                line,
                format!("{} columns, the header has {}", cells.len(), names.len()),
            ));
        }
        let iri = normalize_iri(cells[0]).map_err(|m| syntax(line, m))?;
        let label = cells[index];
        if label.is_empty() {
            return Err(syntax(line, format!("empty {column:?} for {iri}")));
        }
        labelled.push((iri, label.to_owned(), Some(line)));
    }
    if labelled.is_empty() {
        return Err(ProblemError::Unsupported {
            path: path.to_owned(),
            reason: "no example below the header".to_owned(),
        });
    }
    let name = path.file_stem().map_or_else(
        || "problem".to_owned(),
        |s| s.to_string_lossy().into_owned(),
    );
    MultiClassProblem::from_labelled(path, name, labelled)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn temp(name: &str, text: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("oxilearn-mc-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let p = dir.join(name);
        std::fs::write(&p, text).unwrap();
        p
    }

    #[test]
    fn multi_class_files_are_told_from_binary_ones() {
        let tsv = temp("d.tsv", "id\tclass\nhttp://e/a\tfish\n");
        assert!(is_multiclass(&tsv, None));
        // A TSV without the extension, told by its header naming the label column.
        let txt = temp("d.txt", "# zoo\nid\tclass\nhttp://e/a\tfish\n");
        assert!(is_multiclass(&txt, Some("class")));
        assert!(!is_multiclass(&txt, Some("kind")));
        let json = temp(
            "d.json",
            r#"{"classes": {"fish": ["http://e/a"], "bird": ["http://e/b"]}}"#,
        );
        assert!(is_multiclass(&json, None));
        // Binary problems stay binary, even with --label-column (for a --test TSV).
        let binary = temp(
            "b.json",
            r#"{"problems": {"p": {"positive_examples": ["http://e/a"], "negative_examples": ["http://e/b"]}}}"#,
        );
        assert!(!is_multiclass(&binary, Some("class")));
        let conf = temp("b.conf", "lp.positiveExamples = { \"http://e/a\" }\n");
        assert!(!is_multiclass(&conf, Some("class")));
        assert!(!is_multiclass(binary.parent().unwrap(), None));
        assert!(!is_multiclass(&binary.with_file_name("missing.json"), None));
        assert!(!is_multiclass(Path::new(""), None));
    }

    #[test]
    fn json_and_tsv_forms_read_labels_and_refuse_double_labels() {
        let p = temp(
            "m.json",
            r#"{"problems": {"zoo": {"classes": {"fish": ["http://e/a"], "bird": ["http://e/b", "http://e/c"]}}}}"#,
        );
        let m = &load_multiclass(&p, None).unwrap()[0];
        assert_eq!(m.classes, vec!["bird", "fish"]);
        assert_eq!(m.members(0), vec!["http://e/b", "http://e/c"]);
        assert_eq!(m.one_vs_rest()[1].negatives.len(), 2);
        let p = temp(
            "m.tsv",
            "id\tkind\tclass\nhttp://e/a\tx\tfish\n\nhttp://e/b\ty\tbird\nhttp://e/a\tz\tbird\n",
        );
        let e = load_multiclass(&p, Some("class")).unwrap_err().to_string();
        assert!(e.contains("m.tsv:5") && e.contains("http://e/a"), "{e}");
        let e = load_multiclass(&p, Some("nope")).unwrap_err().to_string();
        assert!(
            e.contains("m.tsv:1") && e.contains("id, kind, class"),
            "{e}"
        );
        let e = load_multiclass(&p, None).unwrap_err().to_string();
        assert!(e.contains("--label-column"), "{e}");
        let p = temp("ok.tsv", "id\tclass\nhttp://e/a\tfish\nhttp://e/b\tbird\n");
        let m = &load_multiclass(&p, Some("class")).unwrap()[0];
        assert_eq!(
            m.examples,
            vec![("http://e/a".into(), 1), ("http://e/b".into(), 0)]
        );
        let wider = m
            .relabel(&p, &["bird".into(), "cat".into(), "fish".into()])
            .unwrap();
        assert_eq!(wider.examples[0].1, 2);
        assert!(m.relabel(&p, &["bird".into()]).is_err());
    }

    #[test]
    fn folders_of_one_vs_rest_problems_become_classes() {
        let dir = std::env::temp_dir().join(format!("oxilearn-mc-dir-{}", std::process::id()));
        let confs = dir.join("confs");
        std::fs::create_dir_all(&confs).unwrap();
        let conf = |pos: &str, neg: &str| {
            format!(
                "prefixes = [ (\"kb\", \"http://e/\") ]\nks.fileName = \"k.owl\"\n\
                 lp.positiveExamples = {{ {pos} }}\nlp.negativeExamples = {{ {neg} }}\n\
                 alg.ignoredConcepts = {{ \"kb:Target1\", \"kb:Target2\" }}\n"
            )
        };
        std::fs::write(
            confs.join("zoo_Bird.conf"),
            conf("\"kb:a\"", "\"kb:b\", \"kb:c\""),
        )
        .unwrap();
        std::fs::write(
            confs.join("zoo_Fish.conf"),
            conf("\"kb:b\", \"kb:c\"", "\"kb:a\""),
        )
        .unwrap();
        let m = &load_multiclass(&confs, None).unwrap()[0];
        assert_eq!(m.name, "confs");
        assert_eq!(m.classes, vec!["Bird", "Fish"]);
        assert_eq!(m.members(1), vec!["http://e/b", "http://e/c"]);
        assert_eq!(
            m.ignored_classes,
            vec!["http://e/Target1", "http://e/Target2"]
        );
        assert_eq!(m.kb_file, Some(confs.join("k.owl")));
        // SML-Bench: lp/<class>/pos.txt, the KB the one KB file beside lp/.
        let sml = dir.join("sml");
        for (class, pos) in [
            ("bird", "http://e/a\n"),
            ("fish", "http://e/b\nhttp://e/c\n"),
        ] {
            std::fs::create_dir_all(sml.join("lp").join(class)).unwrap();
            std::fs::write(sml.join("lp").join(class).join("pos.txt"), pos).unwrap();
        }
        std::fs::write(sml.join("kb.owl"), "").unwrap();
        let m = &load_multiclass(&sml, None).unwrap()[0];
        assert_eq!(m.classes, vec!["bird", "fish"]);
        assert_eq!(m.examples.len(), 3);
        assert_eq!(m.kb_file, Some(sml.join("kb.owl")));
        // An individual positive in two classes names both.
        std::fs::write(sml.join("lp/bird/pos.txt"), "http://e/a\nhttp://e/b\n").unwrap();
        let e = load_multiclass(&sml, None).unwrap_err().to_string();
        assert!(
            e.contains("http://e/b") && e.contains("bird") && e.contains("fish"),
            "{e}"
        );
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn common_prefixes_of_conf_stems_are_cut_at_a_separator() {
        let names: Vec<String> = ["lymphography_Class1", "lymphography_Class2"]
            .map(String::from)
            .to_vec();
        assert_eq!(strip_common_prefix(&names), vec!["Class1", "Class2"]);
        let names: Vec<String> = ["bird", "bat"].map(String::from).to_vec();
        assert_eq!(strip_common_prefix(&names), vec!["bird", "bat"]);
    }
}

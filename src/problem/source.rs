//! The knowledge source a DL-Learner `.conf` file names, in either dialect:
//!
//! * a component of type `"OWL File"` or `"KB File"` with `fileName` (or a `file:` `url`),
//!   e.g. `ks.type = "KB File"`, `ks.fileName = "father.kb"`; a `ks.fileName` without a type;
//! * a component of type `"SPARQL endpoint"` (or `"SPARQL endpoint fragment"`) with `url`
//!   and `defaultGraphURIs`: oxilearn queries that endpoint directly (its remote oracle)
//!   instead of extracting a fragment, so the fragment options are reported as ignored;
//! * old-dialect `import("father.kb");`, `import("x.owl", "OWL");` or
//!   `import("http://…/sparql", "SPARQL");` (then `sparql.predefinedEndpoint` and
//!   `sparql.defaultGraphURIs` are read too).
//!
//! oxilearn reads one knowledge source: a file naming two is refused with both lines.

use std::path::{Path, PathBuf};
use std::str::FromStr;

use super::ProblemError;
use super::conf_syntax::{ConfFile, ConfValue};
use super::error::syntax_error;
use crate::files::KbFormat;

/// A SPARQL endpoint named by a `.conf` file.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct ConfEndpoint {
    pub url: String,
    /// `defaultGraphURIs`: sent as `default-graph-uri`.
    pub default_graphs: Vec<String>,
    /// Where the endpoint was named, for messages.
    pub line: usize,
}

/// Where a `.conf` file's knowledge base lives.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum KnowledgeSource {
    /// A file (relative to the `.conf` file), in `format` when the file says which.
    File {
        path: PathBuf,
        format: Option<KbFormat>,
    },
    Endpoint(ConfEndpoint),
}

/// DL-Learner's predefined endpoints of the old `sparql.predefinedEndpoint` option that are
/// still public.
const PREDEFINED: [(&str, &str); 2] = [
    ("DBPEDIA", "https://dbpedia.org/sparql"),
    ("LOCALDBPEDIA", "http://localhost:8890/sparql"),
];

/// Sources found: (line, what the file says, the source).
type Found = Vec<(usize, String, KnowledgeSource)>;

/// The last value of `key` in `file`.
fn last<'f>(file: &'f ConfFile, key: &str) -> Option<&'f ConfValue> {
    file.statements
        .iter()
        .rev()
        .find(|(k, _)| k == key)
        .map(|(_, v)| v)
}

/// The knowledge source of `file` (at `path`), if it names one; notes on what is read
/// differently from DL-Learner go to `notes` as (line, message).
pub(crate) fn read(
    path: &Path,
    file: &ConfFile,
    notes: &mut Vec<(usize, String)>,
) -> Result<Option<KnowledgeSource>, ProblemError> {
    let mut found = imports(path, file, notes)?;
    found.extend(components(path, file, notes)?);
    one_source(path, found)
}

/// The sources of the old dialect's `import(…)` calls.
fn imports(
    path: &Path,
    file: &ConfFile,
    notes: &mut Vec<(usize, String)>,
) -> Result<Found, ProblemError> {
    let dir = path.parent().unwrap_or(Path::new(""));
    let err = |line: usize, message: String| syntax_error(path, line, message);
    let get = |key: &str| last(file, key);
    let mut found: Found = Vec::new();
    for call in file.calls.iter().filter(|c| c.name == "import") {
        let (target, format) = match call.args.as_slice() {
            [ConfValue::Str(t, _)] => (t, None),
            [
                ConfValue::Str(t, _),
                ConfValue::Str(f, _) | ConfValue::Word(f, _),
            ] => (t, Some(f)),
            _ => {
                return Err(err(
                    call.line,
                    "import takes a quoted file name or URL and an optional format, e.g. \
                     import(\"father.kb\") or import(\"http://…/sparql\", \"SPARQL\")"
                        .to_owned(),
                ));
            }
        };
        let what = format!("import(\"{target}\")");
        let source = match format.map(|f| f.trim().to_ascii_uppercase()).as_deref() {
            Some("SPARQL") => {
                let mut url = target.clone();
                if let Some(ConfValue::Str(name, line)) = get("sparql.predefinedEndpoint") {
                    match PREDEFINED
                        .iter()
                        .find(|(n, _)| n.eq_ignore_ascii_case(name))
                    {
                        Some((_, u)) => url = (*u).to_owned(),
                        None => {
                            return Err(err(
                                *line,
                                format!(
                                    "sparql.predefinedEndpoint = \"{name}\": unknown endpoint \
                                     (known: {}); give its URL in import(…, \"SPARQL\") or \
                                     pass --endpoint URL",
                                    names(&PREDEFINED)
                                ),
                            ));
                        }
                    }
                }
                let default_graphs = match get("sparql.defaultGraphURIs") {
                    Some(v) => strings(v).map_err(|m| err(v.line(), m))?,
                    None => Vec::new(),
                };
                notes.push((
                    call.line,
                    format!(
                        "{what}: oxilearn queries the endpoint {url} directly; the sparql.* \
                         fragment-extraction options do not apply"
                    ),
                ));
                KnowledgeSource::Endpoint(ConfEndpoint {
                    url,
                    default_graphs,
                    line: call.line,
                })
            }
            Some(f) => {
                let format = match f {
                    "KB" => Some(KbFormat::DlLearnerKb),
                    "OWL" | "RDF" => None,
                    other => Some(KbFormat::from_str(other).map_err(|e| {
                        err(
                            call.line,
                            format!("{what}: format {other:?}: {e}, or KB, OWL, SPARQL"),
                        )
                    })?),
                };
                file_source(dir, target, format).map_err(|m| err(call.line, m))?
            }
            None => file_source(dir, target, None).map_err(|m| err(call.line, m))?,
        };
        found.push((call.line, what, source));
    }

    Ok(found)
}

/// The sources of components, by their type (any name), and of `ks.fileName` without a
/// type.
fn components(
    path: &Path,
    file: &ConfFile,
    notes: &mut Vec<(usize, String)>,
) -> Result<Found, ProblemError> {
    let dir = path.parent().unwrap_or(Path::new(""));
    let err = |line: usize, message: String| syntax_error(path, line, message);
    let get = |key: &str| last(file, key);
    let mut found: Found = Vec::new();
    let mut components: Vec<&str> = Vec::new();
    for (k, _) in &file.statements {
        if let Some(c) = k.strip_suffix(".type")
            && !components.contains(&c)
        {
            components.push(c);
        }
    }
    if get("ks.fileName").is_some() && get("ks.type").is_none() {
        components.push("ks");
    }
    for c in components {
        let written = match get(&format!("{c}.type")) {
            Some(ConfValue::Str(t, _) | ConfValue::Word(t, _)) => t.clone(),
            _ => String::new(),
        };
        let type_ = squash(&written);
        let line = get(&format!("{c}.type"))
            .or_else(|| get(&format!("{c}.fileName")))
            .map_or(1, ConfValue::line);
        let what = format!("{c}.type = \"{written}\"");
        let source = match type_.as_str() {
            "kbfile" | "owlfile" | "" => {
                let format = (type_ == "kbfile").then_some(KbFormat::DlLearnerKb);
                let target = match (get(&format!("{c}.fileName")), get(&format!("{c}.url"))) {
                    (Some(ConfValue::Str(f, _)), _) => f.clone(),
                    (Some(other), _) => {
                        return Err(err(
                            other.line(),
                            format!("{c}.fileName must be a string, found {}", other.describe()),
                        ));
                    }
                    (None, Some(ConfValue::Str(u, _))) => u.clone(),
                    // No file named: the KB comes from --kb.
                    _ => continue,
                };
                file_source(dir, &target, format).map_err(|m| err(line, m))?
            }
            "sparqlendpoint" | "sparqlendpointfragment" => {
                let url = match get(&format!("{c}.url")) {
                    Some(ConfValue::Str(u, _)) => u.clone(),
                    _ => return Err(err(line, format!("{what}: no {c}.url given"))),
                };
                let default_graphs = match get(&format!("{c}.defaultGraphURIs")) {
                    Some(v) => strings(v).map_err(|m| err(v.line(), m))?,
                    None => Vec::new(),
                };
                if type_ == "sparqlendpointfragment" {
                    notes.push((
                        line,
                        format!(
                            "{what}: oxilearn queries the endpoint {url} directly instead of \
                             extracting a fragment; the fragment options do not apply"
                        ),
                    ));
                }
                KnowledgeSource::Endpoint(ConfEndpoint {
                    url,
                    default_graphs,
                    line,
                })
            }
            _ => continue,
        };
        found.push((line, what, source));
    }

    Ok(found)
}

/// The one source found, none, or an error naming every source when there are several.
fn one_source(path: &Path, mut found: Found) -> Result<Option<KnowledgeSource>, ProblemError> {
    let err = |line: usize, message: String| syntax_error(path, line, message);
    match found.len() {
        0 => Ok(None),
        1 => Ok(found.pop().map(|(_, _, s)| s)),
        _ => {
            found.sort_by_key(|(line, ..)| *line);
            let list: Vec<String> = found
                .iter()
                .map(|(line, what, _)| format!("line {line}: {what}"))
                .collect();
            Err(err(
                found[1].0,
                format!(
                    "more than one knowledge source ({}); oxilearn reads one: merge the files, \
                     or pass --kb FILE or --endpoint URL",
                    list.join("; ")
                ),
            ))
        }
    }
}

/// A local file relative to `dir`; remote files are refused (the loader reads local files).
fn file_source(
    dir: &Path,
    target: &str,
    format: Option<KbFormat>,
) -> Result<KnowledgeSource, String> {
    let local = target.strip_prefix("file://").unwrap_or(target);
    if local.contains("://") {
        return Err(format!(
            "{target} is a remote file: download it and pass --kb FILE (or name a SPARQL \
             endpoint)"
        ));
    }
    let path = dir.join(local);
    let format = format.or_else(|| {
        // `.kb` by extension, whatever the component says.
        (path.extension().and_then(|e| e.to_str()) == Some("kb")).then_some(KbFormat::DlLearnerKb)
    });
    Ok(KnowledgeSource::File { path, format })
}

/// `"OWL File"` → `owlfile`: DL-Learner matches type names without case or spaces.
fn squash(t: &str) -> String {
    t.chars()
        .filter(|c| !c.is_whitespace() && *c != '_' && *c != '-')
        .flat_map(char::to_lowercase)
        .collect()
}

fn strings(v: &ConfValue) -> Result<Vec<String>, String> {
    match v {
        ConfValue::Str(s, _) => Ok(vec![s.clone()]),
        ConfValue::Set(items, _) | ConfValue::List(items, _) => items
            .iter()
            .map(|i| match i {
                ConfValue::Str(s, _) => Ok(s.clone()),
                other => Err(format!(
                    "expected a quoted graph IRI, found {}",
                    other.describe()
                )),
            })
            .collect(),
        other => Err(format!(
            "expected a {{set}} of graph IRIs, found {}",
            other.describe()
        )),
    }
}

fn names(list: &[(&str, &str)]) -> String {
    list.iter().map(|(n, _)| *n).collect::<Vec<_>>().join(", ")
}

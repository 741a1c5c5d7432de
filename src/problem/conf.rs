//! DL-Learner `.conf` files (both dialects, see `conf_syntax`): the examples of the
//! learning-problem component or the old `+`/`-` example lines, prefixes to expand them,
//! the knowledge source (`ks.fileName`, `import(…)`, an endpoint: see `source`), the graded `fuzzyEx` of fuzzy
//! problems (read as [`LearningProblem::degrees`]) and the learner settings
//! ([`LearningProblem::settings`], see `problem::settings`).

use std::collections::HashMap;
use std::path::Path;

use super::clean::{build, check_degrees, normalize_iri};
use super::conf_syntax::{ConfValue, parse};
use super::error::syntax_error;
use super::source::{self, KnowledgeSource};
use super::{LearnerSettings, LearningProblem, ProblemError, settings};
use crate::files::DL_LEARNER_NAMESPACE;

/// Prefixes DL-Learner knows without a `prefixes` declaration.
const DEFAULT_PREFIXES: [(&str, &str); 4] = [
    ("rdf", "http://www.w3.org/1999/02/22-rdf-syntax-ns#"),
    ("rdfs", "http://www.w3.org/2000/01/rdf-schema#"),
    ("owl", "http://www.w3.org/2002/07/owl#"),
    ("xsd", "http://www.w3.org/2001/XMLSchema#"),
];

/// IRI schemes that must not be mistaken for prefixes.
const SCHEMES: [&str; 7] = ["http", "https", "urn", "file", "ftp", "mailto", "tag"];

/// The standard prefixes and those the file declares (`prefixes = [...]`, later ones win).
fn declared_prefixes(
    path: &Path,
    statements: &[(String, ConfValue)],
) -> Result<HashMap<String, String>, ProblemError> {
    let mut prefixes: HashMap<String, String> = DEFAULT_PREFIXES
        .iter()
        .map(|(p, i)| ((*p).to_owned(), (*i).to_owned()))
        .collect();
    for (key, value) in statements {
        if key == "prefixes" {
            read_prefixes(value, &mut prefixes).map_err(|m| syntax_error(path, value.line(), m))?;
        }
    }
    Ok(prefixes)
}

/// The one problem of a `.conf` file (either dialect), named after the file stem.
pub(crate) fn load(path: &Path, text: &str, name: &str) -> Result<LearningProblem, ProblemError> {
    let file = parse(path, text)?;
    let statements = &file.statements;
    let prefixes = declared_prefixes(path, statements)?;
    // A later assignment overrides an earlier one, as in DL-Learner.
    let by_key: HashMap<&str, &ConfValue> = statements
        .iter()
        .map(|(key, value)| (key.as_str(), value))
        .collect();
    let mut settings = settings::read(path, statements, &|s| {
        expand(s, &prefixes).and_then(|i| normalize_iri(&i))
    })?;
    for call in file.calls.iter().filter(|c| c.name != "import") {
        settings.not_understood.push((
            call.line,
            format!("{}(…): not understood, ignored", call.name),
        ));
    }
    let source = source::read(path, &file, &mut settings.not_understood)?;
    let (kb_file, kb_format, endpoint) = match source {
        Some(KnowledgeSource::File { path, format }) => (Some(path), format, None),
        Some(KnowledgeSource::Endpoint(e)) => (None, None, Some(e)),
        None => (None, None, None),
    };
    let finish = |mut problem: LearningProblem, settings: LearnerSettings| {
        problem.settings = Some(settings);
        problem.kb_format = kb_format;
        problem.endpoint = endpoint.clone();
        problem
    };
    let component = example_component(statements, &by_key);
    if component.is_none() && file.examples.is_empty() {
        let mut problem = class_problem(path, statements, &prefixes, name)?;
        problem.kb_file = kb_file;
        return Ok(finish(problem, settings));
    }
    let (positives, negatives) =
        listed_examples(path, &file, &by_key, component.as_deref(), &prefixes)?;
    let problem = build(path, name.to_owned(), positives, negatives, None, kb_file)?;
    let mut problem = finish(problem, settings);
    let key = format!("{}.fuzzyEx", component.as_deref().unwrap_or("lp"));
    if let Some(value) = by_key.get(key.as_str()) {
        let syntax = |line: usize, message: String| syntax_error(path, line, message);
        problem.degrees = fuzzy_examples(value, &prefixes).map_err(|(l, m)| syntax(l, m))?;
        check_degrees(&problem.degrees).map_err(|m| syntax(value.line(), format!("{key}: {m}")))?;
    }
    Ok(problem)
}

/// The learning-problem component that lists examples: usually `lp`, but any name may be
/// used.
fn example_component(
    statements: &[(String, ConfValue)],
    by_key: &HashMap<&str, &ConfValue>,
) -> Option<String> {
    ["lp", "problem"]
        .into_iter()
        .find(|c| by_key.contains_key(format!("{c}.positiveExamples").as_str()))
        .map(str::to_owned)
        .or_else(|| {
            statements
                .iter()
                .find_map(|(k, _)| k.strip_suffix(".positiveExamples").map(str::to_owned))
        })
}

/// A file without examples: a class-learning problem (`classToDescribe`), whose examples
/// are drawn when the KB is open, or an error saying why nothing can be learned.
fn class_problem(
    path: &Path,
    statements: &[(String, ConfValue)],
    prefixes: &HashMap<String, String>,
    name: &str,
) -> Result<LearningProblem, ProblemError> {
    let syntax = |line: usize, message: String| syntax_error(path, line, message);
    if let Some((k, v)) = statements
        .iter()
        .find(|(k, _)| k.ends_with(".classToDescribe"))
    {
        let ConfValue::Str(class, _) = v else {
            return Err(syntax(v.line(), format!("{k} must be a string")));
        };
        let class = expand_name(class, prefixes).map_err(|m| syntax(v.line(), m))?;
        let mut problem = build(
            path,
            name.to_owned(),
            Vec::new(),
            Vec::new(),
            Some(class.clone()),
            None,
        )?;
        problem.describe_class = Some(class);
        return Ok(problem);
    }
    let reason = if statements.iter().any(|(k, _)| k.ends_with(".fuzzyEx")) {
        "fuzzy learning problems (graded examples in fuzzyEx) are not supported".to_owned()
    } else if let Some((k, v)) = statements.iter().find(|(k, v)| {
        k.ends_with(".type")
            && matches!(v, ConfValue::Str(t, _) if t.contains("unife") || t.contains("probabilistic"))
    }) {
        format!(
            "line {}: {k} = {} is a probabilistic (unife) component; oxilearn learns from \
             examples and this file gives none (no lp.positiveExamples, lp.classToDescribe \
             or +/- example lines)",
            v.line(),
            v.describe()
        )
    } else {
        "no examples found: no lp.positiveExamples, no lp.classToDescribe and no +/- \
         example lines"
            .to_owned()
    };
    Err(ProblemError::Unsupported {
        path: path.to_owned(),
        reason,
    })
}

/// The examples the component lists (`positiveExamples`, `negativeExamples`) and the old
/// dialect's example lines (`+"IRI"`, `-name`), as full IRIs.
fn listed_examples(
    path: &Path,
    file: &super::conf_syntax::ConfFile,
    by_key: &HashMap<&str, &ConfValue>,
    component: Option<&str>,
    prefixes: &HashMap<String, String>,
) -> Result<(Vec<String>, Vec<String>), ProblemError> {
    let syntax = |line: usize, message: String| syntax_error(path, line, message);
    let examples = |key: String| -> Result<Vec<String>, ProblemError> {
        let Some(value) = by_key.get(key.as_str()) else {
            return Ok(Vec::new());
        };
        let (ConfValue::Set(items, _) | ConfValue::List(items, _)) = value else {
            return Err(syntax(
                value.line(),
                format!(
                    "{key} must be a {{set}} of IRI strings, found {}",
                    value.describe()
                ),
            ));
        };
        items
            .iter()
            .map(|item| match item {
                ConfValue::Str(s, line) | ConfValue::Word(s, line) => {
                    expand_name(s, prefixes).map_err(|m| syntax(*line, format!("in {key}: {m}")))
                }
                other => Err(syntax(
                    other.line(),
                    format!(
                        "in {key}: expected a quoted IRI, found {}",
                        other.describe()
                    ),
                )),
            })
            .collect()
    };
    let (mut positives, mut negatives) = match component {
        Some(c) => (
            examples(format!("{c}.positiveExamples"))?,
            examples(format!("{c}.negativeExamples"))?,
        ),
        None => (Vec::new(), Vec::new()),
    };
    for e in &file.examples {
        let iri = expand_name(&e.name, prefixes).map_err(|m| ProblemError::Syntax {
            path: path.to_owned(),
            line: Some(e.line),
            column: Some(e.column),
            message: format!("example {:?}: {m}", e.name),
        })?;
        if e.positive {
            positives.push(iri);
        } else {
            negatives.push(iri);
        }
    }
    Ok((positives, negatives))
}

/// An example or class name as a full IRI: `<…>` and full IRIs as they are, `p:local`
/// through the prefixes, and a name without a colon (`heinrich`, as DL-Learner's `.kb`
/// files and old example lines write them) in [`DL_LEARNER_NAMESPACE`], where the `.kb`
/// reader puts it too.
fn expand_name(s: &str, prefixes: &HashMap<String, String>) -> Result<String, String> {
    let t = s.trim();
    let iri = if !t.starts_with('<') && !t.contains(':') && !t.is_empty() {
        format!("{DL_LEARNER_NAMESPACE}{t}")
    } else {
        expand(t, prefixes)?
    };
    normalize_iri(&iri)
}

/// `lp.fuzzyEx = [("ex:a", 1.0), ("ex:b", 0.25)]`: (IRI, degree) pairs.
fn fuzzy_examples(
    value: &ConfValue,
    prefixes: &HashMap<String, String>,
) -> Result<Vec<(String, f64)>, (usize, String)> {
    let (ConfValue::List(items, _) | ConfValue::Set(items, _)) = value else {
        return Err((
            value.line(),
            format!(
                "fuzzyEx must be a [list] of (\"IRI\", degree) pairs, found {}",
                value.describe()
            ),
        ));
    };
    items
        .iter()
        .map(|item| {
            let expected = || {
                (
                    item.line(),
                    format!(
                        "in fuzzyEx: expected (\"IRI\", degree), found {}",
                        item.describe()
                    ),
                )
            };
            let ConfValue::Tuple(pair, _) = item else {
                return Err(expected());
            };
            match pair.as_slice() {
                [
                    ConfValue::Str(iri, l),
                    ConfValue::Word(d, _) | ConfValue::Str(d, _),
                ] => {
                    let iri = expand(iri, prefixes)
                        .and_then(|i| normalize_iri(&i))
                        .map_err(|m| (*l, format!("in fuzzyEx: {m}")))?;
                    let degree: f64 = d
                        .parse()
                        .map_err(|_| (*l, format!("in fuzzyEx: {d:?} is not a number")))?;
                    Ok((iri, degree))
                }
                _ => Err(expected()),
            }
        })
        .collect()
}

/// `prefixes = [ ("ex", "http://…"), … ]`.
fn read_prefixes(value: &ConfValue, prefixes: &mut HashMap<String, String>) -> Result<(), String> {
    let (ConfValue::List(items, _) | ConfValue::Set(items, _)) = value else {
        return Err(format!(
            "prefixes must be a [list] of (\"name\", \"IRI\") pairs, found {}",
            value.describe()
        ));
    };
    for item in items {
        match item {
            ConfValue::Tuple(pair, _) => match pair.as_slice() {
                [ConfValue::Str(p, _), ConfValue::Str(iri, _)] => {
                    prefixes.insert(p.clone(), iri.clone());
                }
                _ => {
                    return Err("a prefix must be a pair (\"name\", \"IRI\") of strings".to_owned());
                }
            },
            other => {
                return Err(format!(
                    "expected a (\"name\", \"IRI\") pair in prefixes, found {}",
                    other.describe()
                ));
            }
        }
    }
    Ok(())
}

/// Expands `ex:a` through the prefixes; full IRIs and `<…>` pass through unchanged.
fn expand(s: &str, prefixes: &HashMap<String, String>) -> Result<String, String> {
    let t = s.trim();
    if t.starts_with('<') {
        return Ok(t.to_owned());
    }
    let Some((p, local)) = t.split_once(':') else {
        return Err(format!("{t:?} is neither a full IRI nor a prefixed name"));
    };
    if let Some(ns) = prefixes.get(p) {
        return Ok(format!("{ns}{local}"));
    }
    if local.starts_with("//") || SCHEMES.contains(&p.to_ascii_lowercase().as_str()) {
        return Ok(t.to_owned());
    }
    let mut known: Vec<&str> = prefixes.keys().map(String::as_str).collect();
    known.sort_unstable();
    Err(format!(
        "unknown prefix {p:?} in {t:?} (declared: {})",
        known.join(", ")
    ))
}

/// The classes a `.conf` file tells the learner to leave out (`alg.ignoredConcepts`, any
/// component), as full IRIs: DL-Learner's lymphography problems hide their target classes so.
pub(crate) fn ignored_concepts(path: &Path, text: &str) -> Result<Vec<String>, ProblemError> {
    let statements = parse(path, text)?.statements;
    let syntax = |line: usize, message: String| syntax_error(path, line, message);
    let prefixes = declared_prefixes(path, &statements)?;
    let mut out = Vec::new();
    for (key, value) in statements
        .iter()
        .filter(|(k, _)| k.ends_with(".ignoredConcepts"))
    {
        let (ConfValue::Set(items, _) | ConfValue::List(items, _)) = value else {
            return Err(syntax(
                value.line(),
                format!(
                    "{key} must be a {{set}} of class IRIs, found {}",
                    value.describe()
                ),
            ));
        };
        for item in items {
            let ConfValue::Str(s, line) = item else {
                return Err(syntax(
                    item.line(),
                    format!("in {key}: expected a quoted IRI, found {}", item.describe()),
                ));
            };
            let iri = expand(s, &prefixes)
                .and_then(|iri| normalize_iri(&iri))
                .map_err(|m| syntax(*line, format!("in {key}: {m}")))?;
            out.push(iri);
        }
    }
    Ok(out)
}

#[cfg(test)]
mod fuzzy_tests {
    use super::*;

    #[test]
    fn fuzzy_examples_are_read_and_bad_degrees_are_refused_with_their_line() {
        let text = "prefixes = [ (\"ex\", \"http://e/\") ]\n\
                    lp.positiveExamples = { \"ex:a\" }\n\
                    lp.negativeExamples = { \"ex:b\" }\n\
                    lp.fuzzyEx = [(\"ex:a\", 0.75), (\"ex:c\", 0.0)]\n";
        let p = load(Path::new("f.conf"), text, "f").unwrap();
        assert_eq!(
            p.degrees,
            vec![
                ("http://e/a".to_owned(), 0.75),
                ("http://e/c".to_owned(), 0.0)
            ]
        );
        let bad = text.replace("0.75", "1.5");
        let e = load(Path::new("f.conf"), &bad, "f")
            .unwrap_err()
            .to_string();
        assert!(e.contains("1.5") && e.contains("f.conf"), "{e}");
    }
}

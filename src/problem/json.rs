//! The JSON problem formats: Ontolearn's `{"problems": {Name: {...}}}`, its single-problem
//! form, and the list form `[{"concept", "positives", "negatives"}]`.

use std::fmt;
use std::marker::PhantomData;
use std::path::Path;

use serde::de::{Deserialize, Deserializer, MapAccess, Visitor};
use serde_json::Value;

use super::clean::{build, check_degrees, normalize_iri};
use super::{LearningProblem, ProblemError};

/// Map entries in file order (serde_json's `Map` would sort them).
struct Ordered<T>(Vec<(String, T)>);

impl<'de, T: Deserialize<'de>> Deserialize<'de> for Ordered<T> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V<T>(PhantomData<T>);
        impl<'de, T: Deserialize<'de>> Visitor<'de> for V<T> {
            type Value = Ordered<T>;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("an object of named problems")
            }
            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Self::Value, A::Error> {
                let mut out = Vec::new();
                while let Some(entry) = map.next_entry()? {
                    out.push(entry);
                }
                Ok(Ordered(out))
            }
        }
        d.deserialize_map(V(PhantomData))
    }
}

/// The multi-problem document, reread to keep the problems in file order.
#[derive(serde::Deserialize)]
struct Multi {
    problems: Ordered<Value>,
}

/// Why a JSON document that is none of the three forms is refused.
const NOT_A_PROBLEM_FORM: &str = "JSON is neither {\"problems\": {...}}, \
    {\"positive_examples\": [...]} nor a list of {\"concept\", \"positives\", \"negatives\"}";

/// Parses any of the three JSON forms; `stem` names a single-problem file's problem.
pub(crate) fn parse(
    path: &Path,
    text: &str,
    stem: &str,
) -> Result<Vec<LearningProblem>, ProblemError> {
    let value: Value = serde_json::from_str(text).map_err(|e| json_error(path, &e))?;
    match &value {
        Value::Array(items) => items
            .iter()
            .enumerate()
            .map(|(i, item)| list_item(path, i, item))
            .collect(),
        Value::Object(map) if map.contains_key("problems") => {
            let multi: Multi = serde_json::from_str(text).map_err(|e| json_error(path, &e))?;
            multi
                .problems
                .0
                .into_iter()
                .map(|(name, v)| ontolearn(path, name, &v))
                .collect()
        }
        Value::Object(map)
            if map.contains_key("positive_examples") || map.contains_key("positives_query") =>
        {
            Ok(vec![ontolearn(path, stem.to_owned(), &value)?])
        }
        _ => Err(ProblemError::Unsupported {
            path: path.to_owned(),
            reason: NOT_A_PROBLEM_FORM.to_owned(),
        }),
    }
}

fn json_error(path: &Path, e: &serde_json::Error) -> ProblemError {
    ProblemError::Syntax {
        path: path.to_owned(),
        line: Some(e.line()),
        column: Some(e.column()),
        message: format!("invalid JSON: {e}"),
    }
}

fn ontolearn(path: &Path, name: String, v: &Value) -> Result<LearningProblem, ProblemError> {
    let (pos_query, neg_query) = queries(path, &name, v)?;
    let positives = iri_list(path, &name, v, "positive_examples", pos_query.is_none())?;
    let negatives = iri_list(path, &name, v, "negative_examples", false)?;
    let mut problem = build(path, name.clone(), positives, negatives, None, None)?;
    problem.degrees = degrees(path, &name, v)?;
    problem.positives_query = pos_query;
    problem.negatives_query = neg_query;
    Ok(problem)
}

/// `"positives_query"` and `"negatives_query"`: SELECTs with one variable whose answers
/// are examples (read when the KB is open); with a positives query the list is optional.
fn queries(
    path: &Path,
    problem: &str,
    v: &Value,
) -> Result<(Option<String>, Option<String>), ProblemError> {
    let one = |key: &str| match v.get(key) {
        None | Some(Value::Null) => Ok(None),
        Some(Value::String(q)) => Ok(Some(q.clone())),
        Some(_) => Err(syntax(
            path,
            problem,
            &format!("\"{key}\" must be a SPARQL SELECT query string"),
        )),
    };
    Ok((one("positives_query")?, one("negatives_query")?))
}

/// Graded examples: `"degrees": {"IRI": 0.75, …}` (optional).
fn degrees(path: &Path, problem: &str, v: &Value) -> Result<Vec<(String, f64)>, ProblemError> {
    let map = match v.get("degrees") {
        None | Some(Value::Null) => return Ok(Vec::new()),
        Some(Value::Object(map)) => map,
        Some(_) => {
            return Err(syntax(
                path,
                problem,
                "\"degrees\" must be an object {\"IRI\": degree}",
            ));
        }
    };
    let out = map
        .iter()
        .map(|(iri, d)| {
            let iri = normalize_iri(iri)
                .map_err(|m| syntax(path, problem, &format!("in \"degrees\": {m}")))?;
            let d = d.as_f64().ok_or_else(|| {
                syntax(
                    path,
                    problem,
                    &format!("in \"degrees\": {iri} has the non-number {d}"),
                )
            })?;
            Ok((iri, d))
        })
        .collect::<Result<Vec<_>, ProblemError>>()?;
    check_degrees(&out).map_err(|m| syntax(path, problem, &format!("in \"degrees\": {m}")))?;
    Ok(out)
}

/// A list item is named by its `name` field when present, else `p1`, `p2`, … (concept
/// texts are long and full of spaces; the concept is kept as the target instead).
fn list_item(path: &Path, index: usize, v: &Value) -> Result<LearningProblem, ProblemError> {
    let name = match v.get("name").and_then(Value::as_str) {
        Some(n) => n.to_owned(),
        None => format!("p{}", index + 1),
    };
    if !v.is_object() {
        return Err(syntax(path, &name, "expected an object"));
    }
    let target = match v.get("concept") {
        None | Some(Value::Null) => None,
        Some(Value::String(s)) => Some(s.clone()),
        Some(_) => return Err(syntax(path, &name, "\"concept\" must be a string")),
    };
    let (pos_query, neg_query) = queries(path, &name, v)?;
    let positives = iri_list(path, &name, v, "positives", pos_query.is_none())?;
    let negatives = iri_list(path, &name, v, "negatives", false)?;
    let mut problem = build(path, name, positives, negatives, target, None)?;
    problem.positives_query = pos_query;
    problem.negatives_query = neg_query;
    Ok(problem)
}

/// The IRIs under `key`; a missing key is an error only when `required`.
fn iri_list(
    path: &Path,
    problem: &str,
    v: &Value,
    key: &str,
    required: bool,
) -> Result<Vec<String>, ProblemError> {
    let items = match v.get(key) {
        Some(Value::Array(items)) => items,
        None | Some(Value::Null) if !required => return Ok(Vec::new()),
        None => return Err(syntax(path, problem, &format!("missing \"{key}\""))),
        Some(_) => {
            return Err(syntax(
                path,
                problem,
                &format!("\"{key}\" must be a list of IRI strings"),
            ));
        }
    };
    items
        .iter()
        .map(|item| {
            let s = item.as_str().ok_or_else(|| {
                syntax(
                    path,
                    problem,
                    &format!("\"{key}\" holds a non-string: {item}"),
                )
            })?;
            normalize_iri(s).map_err(|m| syntax(path, problem, &format!("in \"{key}\": {m}")))
        })
        .collect()
}

fn syntax(path: &Path, problem: &str, message: &str) -> ProblemError {
    ProblemError::Syntax {
        path: path.to_owned(),
        line: None,
        column: None,
        message: format!("problem {problem:?}: {message}"),
    }
}

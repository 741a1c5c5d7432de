//! Reading a SELECT answer body (SPARQL JSON or XML results) into a [`SolutionTable`].
//!
//! sparesults reads JSON results as a stream and refuses any member of the top-level object
//! that comes after `results` ("Unexpected JSON after the end of the bindings array"), although
//! the format lets a document carry extra members. Comunica sends exactly that: a trailing
//! `"metadata": { "httpRequests": 0 }`. Comunica also sends `"head": {}` without `vars` when
//! no row matched. Such a document is read again without its extra members and with the
//! variables the rows name (none for an empty answer: the backend then takes the query's
//! projection); only answers that fail the streaming read pay for that second pass.

use oxigraph::model::Term;
use sparesults::{QueryResultsFormat, QueryResultsParser, SliceQueryResultsParserOutput};

use super::SolutionTable;

/// The members of the top-level object of SPARQL JSON results that the format defines.
const JSON_MEMBERS: [&str; 3] = ["head", "results", "boolean"];

/// Parses a SELECT answer; JSON with extra top-level members is accepted (see module docs).
pub(super) fn parse_solutions(
    format: QueryResultsFormat,
    body: &[u8],
) -> Result<SolutionTable, String> {
    match parse_strict(format, body) {
        Err(first) if format == QueryResultsFormat::Json => match without_extra_members(body) {
            Some(clean) => parse_strict(format, &clean).map_err(|_| first),
            None => Err(first),
        },
        other => other,
    }
}

/// The JSON document with only the members the format defines and a `head.vars` (from the
/// rows' keys where it lacks one), or `None` when it is not a JSON object or needs no change
/// (then the first error stands).
fn without_extra_members(body: &[u8]) -> Option<Vec<u8>> {
    use serde_json::Value;
    let mut object: serde_json::Map<String, Value> = serde_json::from_slice(body).ok()?;
    let before = object.len();
    object.retain(|k, _| JSON_MEMBERS.contains(&k.as_str()));
    let mut changed = object.len() != before;
    if !object.contains_key("boolean")
        && let Some(Value::Object(head)) = object.get("head")
        && !head.contains_key("vars")
    {
        let mut vars = std::collections::BTreeSet::new();
        if let Some(Value::Array(rows)) = object.get("results").and_then(|r| r.get("bindings")) {
            for row in rows {
                if let Value::Object(row) = row {
                    vars.extend(row.keys().cloned());
                }
            }
        }
        let mut head = head.clone();
        head.insert(
            "vars".into(),
            Value::Array(vars.into_iter().map(Value::String).collect()),
        );
        object.insert("head".into(), Value::Object(head));
        changed = true;
    }
    if !changed {
        return None;
    }
    serde_json::to_vec(&object).ok()
}

fn parse_strict(format: QueryResultsFormat, body: &[u8]) -> Result<SolutionTable, String> {
    match QueryResultsParser::from_format(format)
        .for_slice(body)
        .map_err(|e| e.to_string())?
    {
        SliceQueryResultsParserOutput::Solutions(solutions) => {
            let variables = solutions.variables().to_vec();
            let mut rows = Vec::new();
            for solution in solutions {
                let solution = solution.map_err(|e| e.to_string())?;
                rows.push(
                    variables
                        .iter()
                        .map(|v| solution.get(v).cloned())
                        .collect::<Vec<Option<Term>>>(),
                );
            }
            Ok(SolutionTable { variables, rows })
        }
        SliceQueryResultsParserOutput::Boolean(_) => {
            Err("a boolean answer to a SELECT query".into())
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const COMUNICA: &str = "{\"head\": {\"vars\":[\"x\"]},\n\"results\": { \"bindings\": [\n\
        {\"x\":{\"value\":\"urn:a\",\"type\":\"uri\"}}\n]},\n\"metadata\": { \"httpRequests\": 0 }}\n";

    #[test]
    fn trailing_members_are_ignored() {
        let t = parse_solutions(QueryResultsFormat::Json, COMUNICA.as_bytes()).unwrap();
        assert_eq!(t.variables.len(), 1);
        assert_eq!(t.rows.len(), 1);
    }

    #[test]
    fn a_head_without_vars_is_read() {
        let empty = "{\"head\": {},\n\"results\": { \"bindings\": [\n\n]},\n\"metadata\": { \"httpRequests\": 0 }}\n";
        let t = parse_solutions(QueryResultsFormat::Json, empty.as_bytes()).unwrap();
        assert!(t.rows.is_empty() && t.variables.is_empty());
        let one = "{\"head\": {}, \"results\": { \"bindings\": [{\"y\":{\"value\":\"urn:a\",\"type\":\"uri\"}}]}}";
        let t = parse_solutions(QueryResultsFormat::Json, one.as_bytes()).unwrap();
        assert_eq!(t.column("y"), Some(0));
        assert_eq!(t.rows.len(), 1);
    }

    #[test]
    fn broken_json_keeps_the_parser_error() {
        let cut = &COMUNICA.as_bytes()[..60];
        let e = parse_solutions(QueryResultsFormat::Json, cut).unwrap_err();
        assert!(!e.is_empty());
        // A well-formed document that is no SPARQL results stays an error.
        let e = parse_solutions(QueryResultsFormat::Json, b"{\"metadata\": 1}").unwrap_err();
        assert!(!e.is_empty());
    }
}

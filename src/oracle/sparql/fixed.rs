//! The fixed queries of `queries/*.rq`, compiled into the binary and parsed once.

use std::sync::OnceLock;

use spargebra::algebra::{Expression, GraphPattern};
use spargebra::term::{GroundTerm, Variable};
use spargebra::{Query, SparqlParser};

use crate::oracle::OracleError;

macro_rules! fixed_queries {
    ($($name:ident),* $(,)?) => {
        /// The name and text of every file in `queries/`.
        pub const FIXED_QUERIES: &[(&str, &str)] = &[
            $((stringify!($name), include_str!(concat!("../../../queries/", stringify!($name), ".rq")))),*
        ];
    };
}

fixed_queries!(
    classes,
    subclasses,
    equivalent_classes,
    property_declarations,
    property_usage,
    sub_properties,
    domains,
    ranges,
    inverses,
    disjoint_classes,
    complement_classes,
    typed_individuals,
    role_individuals,
    literal_statistics,
    boolean_counts,
    data_values,
    class_edges,
    blank_types,
    schema_entities,
    entity_predicates,
    entity_fingerprint,
    schema_classes,
    scope_present_objects,
    scope_edges_inverse,
    scope_edges_inverse_of,
    scope_blank_types,
    scope_triples,
    fingerprint_predicates,
    fingerprint_types,
    fingerprint_lists,
);

/// The parsed query `name` (cloned from a parse-once table).
pub fn fixed_query(name: &str) -> Result<Query, OracleError> {
    static PARSED: OnceLock<Vec<(&'static str, Result<Query, String>)>> = OnceLock::new();
    let parsed = PARSED.get_or_init(|| {
        FIXED_QUERIES
            .iter()
            .map(|(n, text)| {
                let q = SparqlParser::new()
                    .parse_query(text)
                    .map_err(|e| e.to_string());
                (*n, q)
            })
            .collect()
    });
    match parsed.iter().find(|(n, _)| *n == name) {
        Some((_, Ok(q))) => Ok(q.clone()),
        Some((_, Err(message))) => Err(OracleError::BuiltinQuery {
            name: format!("queries/{name}.rq"),
            message: message.clone(),
        }),
        None => Err(OracleError::BuiltinQuery {
            name: format!("queries/{name}.rq"),
            message: "no such query".into(),
        }),
    }
}

/// Fills the (empty) `VALUES ?var { }` block of a fixed query with terms. Terms enter the
/// query as algebra nodes, never as text.
pub fn fill_values(
    query: &mut Query,
    var: &str,
    terms: Vec<GroundTerm>,
) -> Result<(), OracleError> {
    let pattern = pattern_of(query);
    let mut terms = Some(terms);
    fill_in_pattern(pattern, var, &mut terms);
    if terms.is_some() {
        return Err(OracleError::BuiltinQuery {
            name: query.to_string(),
            message: format!("no VALUES block for ?{var}"),
        });
    }
    Ok(())
}

/// The WHERE pattern of any query form.
fn pattern_of(query: &mut Query) -> &mut GraphPattern {
    match query {
        Query::Select { pattern, .. }
        | Query::Ask { pattern, .. }
        | Query::Construct { pattern, .. }
        | Query::Describe { pattern, .. } => pattern,
    }
}

fn fill_in_pattern(pattern: &mut GraphPattern, var: &str, terms: &mut Option<Vec<GroundTerm>>) {
    if terms.is_none() {
        return;
    }
    match pattern {
        GraphPattern::Values {
            variables,
            bindings,
        } if variables.len() == 1 && variables[0] == Variable::new_unchecked(var) => {
            if let Some(ts) = terms.take() {
                *bindings = ts.into_iter().map(|t| vec![Some(t)]).collect();
            }
        }
        GraphPattern::Join { left, right }
        | GraphPattern::LeftJoin { left, right, .. }
        | GraphPattern::Union { left, right }
        | GraphPattern::Minus { left, right } => {
            fill_in_pattern(left, var, terms);
            fill_in_pattern(right, var, terms);
        }
        GraphPattern::Filter { inner, .. }
        | GraphPattern::Graph { inner, .. }
        | GraphPattern::Extend { inner, .. }
        | GraphPattern::OrderBy { inner, .. }
        | GraphPattern::Project { inner, .. }
        | GraphPattern::Distinct { inner }
        | GraphPattern::Reduced { inner }
        | GraphPattern::Slice { inner, .. }
        | GraphPattern::Group { inner, .. }
        | GraphPattern::Service { inner, .. } => fill_in_pattern(inner, var, terms),
        _ => {}
    }
}

/// Fills the empty list of the `?var IN ()` filter of a fixed query with `terms`.
pub fn fill_in_list(
    query: &mut Query,
    var: &str,
    terms: Vec<GroundTerm>,
) -> Result<(), OracleError> {
    let pattern = pattern_of(query);
    let list: Vec<Expression> = terms.into_iter().map(ground_expression).collect();
    if fill_list_in_pattern(pattern, &Variable::new_unchecked(var), &list) {
        Ok(())
    } else {
        Err(OracleError::BuiltinQuery {
            name: query.to_string(),
            message: format!("no `?{var} IN ()` filter"),
        })
    }
}

fn ground_expression(term: GroundTerm) -> Expression {
    match term {
        GroundTerm::NamedNode(n) => Expression::NamedNode(n),
        GroundTerm::Literal(l) => Expression::Literal(l),
        #[allow(unreachable_patterns)]
        other => Expression::Literal(spargebra::term::Literal::new_simple_literal(
            other.to_string(),
        )),
    }
}

fn fill_list_in_pattern(pattern: &mut GraphPattern, var: &Variable, list: &[Expression]) -> bool {
    match pattern {
        GraphPattern::Filter { expr, inner } => {
            fill_list_in_expression(expr, var, list) || fill_list_in_pattern(inner, var, list)
        }
        GraphPattern::Join { left, right }
        | GraphPattern::LeftJoin { left, right, .. }
        | GraphPattern::Union { left, right }
        | GraphPattern::Minus { left, right } => {
            fill_list_in_pattern(left, var, list) || fill_list_in_pattern(right, var, list)
        }
        GraphPattern::Graph { inner, .. }
        | GraphPattern::Extend { inner, .. }
        | GraphPattern::OrderBy { inner, .. }
        | GraphPattern::Project { inner, .. }
        | GraphPattern::Distinct { inner }
        | GraphPattern::Reduced { inner }
        | GraphPattern::Slice { inner, .. }
        | GraphPattern::Group { inner, .. }
        | GraphPattern::Service { inner, .. } => fill_list_in_pattern(inner, var, list),
        _ => false,
    }
}

fn fill_list_in_expression(expr: &mut Expression, var: &Variable, list: &[Expression]) -> bool {
    match expr {
        Expression::In(left, items)
            if items.is_empty() && **left == Expression::Variable(var.clone()) =>
        {
            *items = list.to_vec();
            true
        }
        Expression::And(a, b) | Expression::Or(a, b) => {
            fill_list_in_expression(a, var, list) || fill_list_in_expression(b, var, list)
        }
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_fixed_query_parses() {
        for (name, _) in FIXED_QUERIES {
            fixed_query(name).unwrap_or_else(|e| panic!("{e}"));
        }
    }

    #[test]
    fn the_in_list_of_data_values_is_filled() {
        let mut q = fixed_query("data_values").unwrap();
        let p = spargebra::term::NamedNode::new_unchecked("http://ex/p");
        fill_in_list(&mut q, "p", vec![GroundTerm::NamedNode(p)]).unwrap();
        assert!(q.to_string().contains("?p IN (<http://ex/p>)"), "{q}");
        let mut q = fixed_query("classes").unwrap();
        assert!(fill_in_list(&mut q, "p", vec![]).is_err());
    }
}

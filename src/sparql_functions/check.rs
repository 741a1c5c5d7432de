//! Finding the calls of oxilearn's functions in a parsed query, so that constant arguments
//! are checked before the query runs (a custom function can only return "no value").

use spargebra::Query;
use spargebra::algebra::{
    AggregateExpression, Expression, Function, GraphPattern, OrderExpression,
};
use spargebra::term::Literal;

use super::NAMESPACE;

/// A call of a function in oxilearn's namespace.
#[derive(Debug, PartialEq)]
pub(super) struct Call {
    pub function: String,
    pub arity: usize,
    pub second: Second,
}

/// What the second argument is, as far as the query text says.
#[derive(Debug, PartialEq)]
pub(super) enum Second {
    /// A string literal: checked now.
    Constant(String),
    /// A constant that is not a string (an IRI, a number): always wrong.
    NotAString(String),
    /// Anything computed per row (a variable, a function call): checked row by row.
    Dynamic,
}

/// Every call of a `urn:oxilearn:` function in `query`, in the order of the algebra.
pub(super) fn calls(query: &Query) -> Vec<Call> {
    let pattern = match query {
        Query::Select { pattern, .. }
        | Query::Construct { pattern, .. }
        | Query::Describe { pattern, .. }
        | Query::Ask { pattern, .. } => pattern,
    };
    let mut out = Vec::new();
    walk_pattern(pattern, &mut out);
    out
}

/// Every call in the `WHERE` patterns of an update's operations.
pub(super) fn update_calls(update: &spargebra::Update) -> Vec<Call> {
    let mut out = Vec::new();
    for op in &update.operations {
        if let spargebra::GraphUpdateOperation::DeleteInsert { pattern, .. } = op {
            walk_pattern(pattern, &mut out);
        }
    }
    out
}

fn walk_pattern(p: &GraphPattern, out: &mut Vec<Call>) {
    match p {
        GraphPattern::Bgp { .. } | GraphPattern::Path { .. } | GraphPattern::Values { .. } => {}
        GraphPattern::Join { left, right }
        | GraphPattern::Lateral { left, right }
        | GraphPattern::Union { left, right }
        | GraphPattern::Minus { left, right } => {
            walk_pattern(left, out);
            walk_pattern(right, out);
        }
        GraphPattern::LeftJoin {
            left,
            right,
            expression,
        } => {
            walk_pattern(left, out);
            walk_pattern(right, out);
            if let Some(e) = expression {
                walk_expression(e, out);
            }
        }
        GraphPattern::Filter { expr, inner } => {
            walk_pattern(inner, out);
            walk_expression(expr, out);
        }
        GraphPattern::Extend {
            inner, expression, ..
        } => {
            walk_pattern(inner, out);
            walk_expression(expression, out);
        }
        GraphPattern::OrderBy { inner, expression } => {
            walk_pattern(inner, out);
            for o in expression {
                match o {
                    OrderExpression::Asc(e) | OrderExpression::Desc(e) => walk_expression(e, out),
                }
            }
        }
        GraphPattern::Group {
            inner, aggregates, ..
        } => {
            walk_pattern(inner, out);
            for (_, a) in aggregates {
                if let AggregateExpression::FunctionCall { expr, .. } = a {
                    walk_expression(expr, out);
                }
            }
        }
        GraphPattern::Graph { inner, .. }
        | GraphPattern::Project { inner, .. }
        | GraphPattern::Distinct { inner }
        | GraphPattern::Reduced { inner }
        | GraphPattern::Slice { inner, .. }
        | GraphPattern::Service { inner, .. } => walk_pattern(inner, out),
    }
}

fn walk_expression(e: &Expression, out: &mut Vec<Call>) {
    match e {
        Expression::NamedNode(_)
        | Expression::Literal(_)
        | Expression::Variable(_)
        | Expression::Bound(_) => {}
        Expression::Or(a, b)
        | Expression::And(a, b)
        | Expression::Equal(a, b)
        | Expression::SameTerm(a, b)
        | Expression::Greater(a, b)
        | Expression::GreaterOrEqual(a, b)
        | Expression::Less(a, b)
        | Expression::LessOrEqual(a, b)
        | Expression::Add(a, b)
        | Expression::Subtract(a, b)
        | Expression::Multiply(a, b)
        | Expression::Divide(a, b) => {
            walk_expression(a, out);
            walk_expression(b, out);
        }
        Expression::UnaryPlus(a) | Expression::UnaryMinus(a) | Expression::Not(a) => {
            walk_expression(a, out)
        }
        Expression::In(a, list) => {
            walk_expression(a, out);
            list.iter().for_each(|x| walk_expression(x, out));
        }
        Expression::If(a, b, c) => {
            walk_expression(a, out);
            walk_expression(b, out);
            walk_expression(c, out);
        }
        Expression::Coalesce(list) => list.iter().for_each(|x| walk_expression(x, out)),
        Expression::Exists(p) => walk_pattern(p, out),
        Expression::FunctionCall(f, args) => {
            if let Function::Custom(name) = f
                && name.as_str().starts_with(NAMESPACE)
            {
                out.push(Call {
                    function: name.as_str().to_owned(),
                    arity: args.len(),
                    second: args.get(1).map_or(Second::Dynamic, second),
                });
            }
            args.iter().for_each(|x| walk_expression(x, out));
        }
    }
}

fn second(e: &Expression) -> Second {
    match e {
        Expression::Literal(l) if is_string(l) => Second::Constant(l.value().to_owned()),
        Expression::Literal(l) => Second::NotAString(l.to_string()),
        Expression::NamedNode(n) => Second::NotAString(n.to_string()),
        _ => Second::Dynamic,
    }
}

/// A plain string (`xsd:string`), the only type the second argument takes.
pub(super) fn is_string(l: &Literal) -> bool {
    l.datatype() == oxigraph::model::vocab::xsd::STRING
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(q: &str) -> Vec<Call> {
        calls(&spargebra::SparqlParser::new().parse_query(q).unwrap())
    }

    #[test]
    fn finds_calls_in_filters_binds_order_exists_and_aggregates() {
        let got = parse(
            r#"SELECT ?x (SUM(<urn:oxilearn:score>(?x, "A")) AS ?s) WHERE {
                 ?x ?p ?o
                 FILTER(<urn:oxilearn:member>(?x, "B") || NOT EXISTS {
                     ?x ?q ?r FILTER(<urn:oxilearn:covers>(?x, ?expr)) })
                 BIND(<urn:oxilearn:covers>(?x, <http://e/C>) AS ?c)
                 OPTIONAL { ?x ?p2 ?o2 FILTER(<urn:oxilearn:nope>(?x)) }
               } GROUP BY ?x ORDER BY DESC(<urn:oxilearn:score>(?x, 3))"#,
        );
        let mut summary: Vec<(String, usize, Second)> = got
            .into_iter()
            .map(|c| (c.function, c.arity, c.second))
            .collect();
        summary.sort_by(|a, b| format!("{a:?}").cmp(&format!("{b:?}")));
        assert_eq!(
            summary,
            vec![
                ("urn:oxilearn:covers".to_owned(), 2, Second::Dynamic),
                (
                    "urn:oxilearn:covers".to_owned(),
                    2,
                    Second::NotAString("<http://e/C>".to_owned())
                ),
                (
                    "urn:oxilearn:member".to_owned(),
                    2,
                    Second::Constant("B".to_owned())
                ),
                ("urn:oxilearn:nope".to_owned(), 1, Second::Dynamic),
                (
                    "urn:oxilearn:score".to_owned(),
                    2,
                    Second::Constant("A".to_owned())
                ),
                (
                    "urn:oxilearn:score".to_owned(),
                    2,
                    Second::NotAString(
                        "\"3\"^^<http://www.w3.org/2001/XMLSchema#integer>".to_owned()
                    )
                ),
            ]
        );
    }

    #[test]
    fn other_custom_functions_are_not_ours() {
        assert!(parse("SELECT * WHERE { ?x ?p ?o FILTER(<http://e/f>(?x, \"A\")) }").is_empty());
    }
}

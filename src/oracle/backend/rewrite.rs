//! Rewriting existence tests nested inside existence tests, for endpoints that answer them
//! wrongly (found by the probe: [`super::Capabilities::nested_exists`]).
//!
//! Comunica 4 evaluates `FILTER EXISTS { ?x r ?y FILTER NOT EXISTS { ?y a C } }` as if `?x`
//! were not bound from outside as soon as the inner group holds an `EXISTS` of its own: every
//! example passes (or none does). A single level of `EXISTS` is answered right. So inside an
//! `EXISTS`, each `FILTER` conjunct that is itself an existence test becomes an operator that
//! needs no substitution:
//!
//! - `FILTER EXISTS { Q }` → a semi-join `inner ⋈ { SELECT DISTINCT shared { Q } }`;
//! - `FILTER NOT EXISTS { Q }` → `inner MINUS { Q }`;
//! - `FILTER (EXISTS { Q₁ } || … )` → a semi-join with the union of the `Qᵢ`.
//!
//! These are equivalent when `Q` and `inner` share variables, every shared variable is bound
//! in every solution of both (triple and path patterns, `VALUES` without `UNDEF`), and `Q`
//! reaches the outer solution only through them: then evaluating `Q` on its own and joining
//! on the shared variables is what substituting them does. The compiler's patterns are of
//! that kind (the filler's variable is the subject of the inner pattern). A conjunct that
//! does not meet the conditions is left as it was.

use std::collections::BTreeSet;

use spargebra::Query;
use spargebra::algebra::{Expression, GraphPattern, OrderExpression};
use spargebra::term::{NamedNodePattern, TermPattern, Variable};

/// The query with existence tests nested in existence tests rewritten (see module docs).
pub(super) fn without_nested_exists(query: &Query) -> Query {
    match query {
        Query::Select {
            dataset,
            pattern,
            base_iri,
        } => Query::Select {
            dataset: dataset.clone(),
            pattern: outside(pattern),
            base_iri: base_iri.clone(),
        },
        other => other.clone(),
    }
}

/// A pattern outside any `EXISTS`: only the patterns of its `EXISTS` are rewritten.
fn outside(p: &GraphPattern) -> GraphPattern {
    map_children(p, &outside, &outside_expr)
}

fn outside_expr(e: &Expression) -> Expression {
    match e {
        Expression::Exists(q) => Expression::Exists(Box::new(inside(q))),
        other => map_expr(other, &outside_expr),
    }
}

/// A pattern inside an `EXISTS`: its filters' existence tests become joins and `MINUS`.
fn inside(p: &GraphPattern) -> GraphPattern {
    let GraphPattern::Filter { expr, inner } = p else {
        return map_children(p, &inside, &inside_expr);
    };
    let mut inner = inside(inner);
    let mut kept = Vec::new();
    for conjunct in conjuncts(expr) {
        match conjunct {
            Expression::Exists(q) => {
                let q = inside(q);
                match shared_variables(&q, &inner) {
                    Some(shared) => inner = semi_join(inner, q, shared),
                    None => kept.push(Expression::Exists(Box::new(q))),
                }
            }
            Expression::Not(negated) if matches!(**negated, Expression::Exists(_)) => {
                let Expression::Exists(q) = &**negated else {
                    unreachable!("matched above")
                };
                let q = inside(q);
                if shared_variables(&q, &inner).is_some() {
                    inner = GraphPattern::Minus {
                        left: Box::new(inner),
                        right: Box::new(q),
                    };
                } else {
                    kept.push(Expression::Not(Box::new(Expression::Exists(Box::new(q)))));
                }
            }
            Expression::Or(..) => match exists_disjuncts(conjunct) {
                Some(qs) => {
                    let union = qs
                        .iter()
                        .map(|q| inside(q))
                        .reduce(|left, right| GraphPattern::Union {
                            left: Box::new(left),
                            right: Box::new(right),
                        })
                        .expect("a disjunction has two sides");
                    match shared_variables(&union, &inner) {
                        Some(shared) => inner = semi_join(inner, union, shared),
                        None => kept.push(inside_expr(conjunct)),
                    }
                }
                None => kept.push(inside_expr(conjunct)),
            },
            other => kept.push(inside_expr(other)),
        }
    }
    match kept
        .into_iter()
        .reduce(|a, b| Expression::And(Box::new(a), Box::new(b)))
    {
        Some(expr) => GraphPattern::Filter {
            expr,
            inner: Box::new(inner),
        },
        None => inner,
    }
}

fn inside_expr(e: &Expression) -> Expression {
    match e {
        Expression::Exists(q) => Expression::Exists(Box::new(inside(q))),
        other => map_expr(other, &inside_expr),
    }
}

/// `inner ⋈ { SELECT DISTINCT shared { q } }`.
fn semi_join(inner: GraphPattern, q: GraphPattern, shared: Vec<Variable>) -> GraphPattern {
    GraphPattern::Join {
        left: Box::new(inner),
        right: Box::new(GraphPattern::Distinct {
            inner: Box::new(GraphPattern::Project {
                inner: Box::new(q),
                variables: shared,
            }),
        }),
    }
}

fn conjuncts(e: &Expression) -> Vec<&Expression> {
    match e {
        Expression::And(a, b) => {
            let mut out = conjuncts(a);
            out.extend(conjuncts(b));
            out
        }
        other => vec![other],
    }
}

/// The patterns of a disjunction of `EXISTS` only, or `None`.
fn exists_disjuncts(e: &Expression) -> Option<Vec<&GraphPattern>> {
    match e {
        Expression::Or(a, b) => {
            let mut out = exists_disjuncts(a)?;
            out.extend(exists_disjuncts(b)?);
            Some(out)
        }
        Expression::Exists(q) => Some(vec![&**q]),
        _ => None,
    }
}

/// The variables `q` shares with `inner`, when the rewrite is exact (module docs): some are
/// shared, each is always bound on both sides, and `q` mentions no other in-scope variable
/// of `inner`.
fn shared_variables(q: &GraphPattern, inner: &GraphPattern) -> Option<Vec<Variable>> {
    let mut in_scope = BTreeSet::new();
    inner.on_in_scope_variable(|v| {
        in_scope.insert(v.clone());
    });
    let mut mentioned = BTreeSet::new();
    mentioned_in(q, &mut mentioned);
    let shared: BTreeSet<Variable> = mentioned.intersection(&in_scope).cloned().collect();
    let (certain_q, certain_inner) = (certain(q), certain(inner));
    let exact = !shared.is_empty()
        && shared
            .iter()
            .all(|v| certain_q.contains(v) && certain_inner.contains(v));
    exact.then(|| shared.into_iter().collect())
}

/// Variables bound in every solution of the pattern.
fn certain(p: &GraphPattern) -> BTreeSet<Variable> {
    let mut out = BTreeSet::new();
    match p {
        GraphPattern::Bgp { patterns } => {
            for t in patterns {
                term_var(&t.subject, &mut out);
                if let NamedNodePattern::Variable(v) = &t.predicate {
                    out.insert(v.clone());
                }
                term_var(&t.object, &mut out);
            }
        }
        GraphPattern::Path {
            subject, object, ..
        } => {
            term_var(subject, &mut out);
            term_var(object, &mut out);
        }
        GraphPattern::Join { left, right } => {
            out = certain(left);
            out.extend(certain(right));
        }
        GraphPattern::Union { left, right } => {
            let r = certain(right);
            out = certain(left)
                .into_iter()
                .filter(|v| r.contains(v))
                .collect();
        }
        GraphPattern::Values {
            variables,
            bindings,
        } => {
            for (i, v) in variables.iter().enumerate() {
                if bindings
                    .iter()
                    .all(|row| row.get(i).is_some_and(Option::is_some))
                {
                    out.insert(v.clone());
                }
            }
        }
        GraphPattern::Project { inner, variables } => {
            let c = certain(inner);
            out = variables
                .iter()
                .filter(|v| c.contains(v))
                .cloned()
                .collect();
        }
        GraphPattern::Group {
            inner, variables, ..
        } => {
            let c = certain(inner);
            out = variables
                .iter()
                .filter(|v| c.contains(v))
                .cloned()
                .collect();
        }
        GraphPattern::Filter { inner, .. }
        | GraphPattern::Minus { left: inner, .. }
        | GraphPattern::LeftJoin { left: inner, .. }
        | GraphPattern::Extend { inner, .. }
        | GraphPattern::Distinct { inner }
        | GraphPattern::Reduced { inner }
        | GraphPattern::Slice { inner, .. }
        | GraphPattern::OrderBy { inner, .. }
        | GraphPattern::Graph { inner, .. } => out = certain(inner),
        _ => {}
    }
    out
}

fn term_var(t: &TermPattern, out: &mut BTreeSet<Variable>) {
    if let TermPattern::Variable(v) = t {
        out.insert(v.clone());
    }
}

/// Every variable written anywhere in the pattern (expressions and nested patterns too).
fn mentioned_in(p: &GraphPattern, out: &mut BTreeSet<Variable>) {
    // Variables in scope, then those only in expressions, `MINUS` right sides and projections.
    p.on_in_scope_variable(|v| {
        out.insert(v.clone());
    });
    let mut patterns = Vec::new();
    let mut expressions = Vec::new();
    children(p, &mut patterns, &mut expressions);
    for e in expressions {
        mentioned_in_expr(e, out);
    }
    for q in patterns {
        mentioned_in(q, out);
    }
}

fn mentioned_in_expr(e: &Expression, out: &mut BTreeSet<Variable>) {
    match e {
        Expression::Variable(v) | Expression::Bound(v) => {
            out.insert(v.clone());
        }
        Expression::Exists(q) => mentioned_in(q, out),
        other => {
            for sub in sub_expressions(other) {
                mentioned_in_expr(sub, out);
            }
        }
    }
}

/// The direct sub-expressions of an expression (not those inside `EXISTS` patterns).
fn sub_expressions(e: &Expression) -> Vec<&Expression> {
    use Expression as E;
    match e {
        E::Or(x, y)
        | E::And(x, y)
        | E::Equal(x, y)
        | E::SameTerm(x, y)
        | E::Greater(x, y)
        | E::GreaterOrEqual(x, y)
        | E::Less(x, y)
        | E::LessOrEqual(x, y)
        | E::Add(x, y)
        | E::Subtract(x, y)
        | E::Multiply(x, y)
        | E::Divide(x, y) => vec![x, y],
        E::In(x, ys) => std::iter::once(&**x).chain(ys.iter()).collect(),
        E::UnaryPlus(x) | E::UnaryMinus(x) | E::Not(x) => vec![x],
        E::If(x, y, z) => vec![x, y, z],
        E::Coalesce(xs) | E::FunctionCall(_, xs) => xs.iter().collect(),
        _ => Vec::new(),
    }
}

/// The direct sub-patterns and expressions of a pattern.
fn children<'a>(
    p: &'a GraphPattern,
    patterns: &mut Vec<&'a GraphPattern>,
    expressions: &mut Vec<&'a Expression>,
) {
    match p {
        GraphPattern::Join { left, right }
        | GraphPattern::Union { left, right }
        | GraphPattern::Minus { left, right } => {
            patterns.push(left);
            patterns.push(right);
        }
        GraphPattern::LeftJoin {
            left,
            right,
            expression,
        } => {
            patterns.push(left);
            patterns.push(right);
            expressions.extend(expression);
        }
        GraphPattern::Filter { expr, inner } => {
            patterns.push(inner);
            expressions.push(expr);
        }
        GraphPattern::Extend {
            inner, expression, ..
        } => {
            patterns.push(inner);
            expressions.push(expression);
        }
        GraphPattern::OrderBy { inner, expression } => {
            patterns.push(inner);
            for o in expression {
                match o {
                    OrderExpression::Asc(e) | OrderExpression::Desc(e) => expressions.push(e),
                }
            }
        }
        GraphPattern::Project { inner, .. }
        | GraphPattern::Distinct { inner }
        | GraphPattern::Reduced { inner }
        | GraphPattern::Slice { inner, .. }
        | GraphPattern::Group { inner, .. }
        | GraphPattern::Graph { inner, .. }
        | GraphPattern::Service { inner, .. } => patterns.push(inner),
        _ => {}
    }
}

/// The pattern with `f` applied to its direct sub-patterns and `g` to its expressions.
fn map_children(
    p: &GraphPattern,
    f: &dyn Fn(&GraphPattern) -> GraphPattern,
    g: &dyn Fn(&Expression) -> Expression,
) -> GraphPattern {
    let b = |x: &GraphPattern| Box::new(f(x));
    match p {
        GraphPattern::Join { left, right } => GraphPattern::Join {
            left: b(left),
            right: b(right),
        },
        GraphPattern::Union { left, right } => GraphPattern::Union {
            left: b(left),
            right: b(right),
        },
        GraphPattern::Minus { left, right } => GraphPattern::Minus {
            left: b(left),
            right: b(right),
        },
        GraphPattern::LeftJoin {
            left,
            right,
            expression,
        } => GraphPattern::LeftJoin {
            left: b(left),
            right: b(right),
            expression: expression.as_ref().map(g),
        },
        GraphPattern::Filter { expr, inner } => GraphPattern::Filter {
            expr: g(expr),
            inner: b(inner),
        },
        GraphPattern::Extend {
            inner,
            variable,
            expression,
        } => GraphPattern::Extend {
            inner: b(inner),
            variable: variable.clone(),
            expression: g(expression),
        },
        GraphPattern::OrderBy { inner, expression } => GraphPattern::OrderBy {
            inner: b(inner),
            expression: expression
                .iter()
                .map(|o| match o {
                    OrderExpression::Asc(e) => OrderExpression::Asc(g(e)),
                    OrderExpression::Desc(e) => OrderExpression::Desc(g(e)),
                })
                .collect(),
        },
        GraphPattern::Project { inner, variables } => GraphPattern::Project {
            inner: b(inner),
            variables: variables.clone(),
        },
        GraphPattern::Distinct { inner } => GraphPattern::Distinct { inner: b(inner) },
        GraphPattern::Reduced { inner } => GraphPattern::Reduced { inner: b(inner) },
        GraphPattern::Slice {
            inner,
            start,
            length,
        } => GraphPattern::Slice {
            inner: b(inner),
            start: *start,
            length: *length,
        },
        GraphPattern::Group {
            inner,
            variables,
            aggregates,
        } => GraphPattern::Group {
            inner: b(inner),
            variables: variables.clone(),
            aggregates: aggregates.clone(),
        },
        GraphPattern::Graph { name, inner } => GraphPattern::Graph {
            name: name.clone(),
            inner: b(inner),
        },
        other => other.clone(),
    }
}

/// The expression with `g` applied to its direct sub-expressions (`EXISTS` patterns are left
/// to the callers, which match them first).
fn map_expr(e: &Expression, g: &dyn Fn(&Expression) -> Expression) -> Expression {
    let b = |x: &Expression| Box::new(g(x));
    use Expression as E;
    match e {
        E::Or(x, y) => E::Or(b(x), b(y)),
        E::And(x, y) => E::And(b(x), b(y)),
        E::Equal(x, y) => E::Equal(b(x), b(y)),
        E::SameTerm(x, y) => E::SameTerm(b(x), b(y)),
        E::Greater(x, y) => E::Greater(b(x), b(y)),
        E::GreaterOrEqual(x, y) => E::GreaterOrEqual(b(x), b(y)),
        E::Less(x, y) => E::Less(b(x), b(y)),
        E::LessOrEqual(x, y) => E::LessOrEqual(b(x), b(y)),
        E::In(x, ys) => E::In(b(x), ys.iter().map(g).collect()),
        E::Add(x, y) => E::Add(b(x), b(y)),
        E::Subtract(x, y) => E::Subtract(b(x), b(y)),
        E::Multiply(x, y) => E::Multiply(b(x), b(y)),
        E::Divide(x, y) => E::Divide(b(x), b(y)),
        E::UnaryPlus(x) => E::UnaryPlus(b(x)),
        E::UnaryMinus(x) => E::UnaryMinus(b(x)),
        E::Not(x) => E::Not(b(x)),
        E::If(x, y, z) => E::If(b(x), b(y), b(z)),
        E::Coalesce(xs) => E::Coalesce(xs.iter().map(g).collect()),
        E::FunctionCall(f, xs) => E::FunctionCall(f.clone(), xs.iter().map(g).collect()),
        other => other.clone(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rewrite(text: &str) -> String {
        let q = spargebra::SparqlParser::new().parse_query(text).unwrap();
        let out = without_nested_exists(&q).to_string();
        // What is sent parses again.
        spargebra::SparqlParser::new().parse_query(&out).unwrap();
        out
    }

    #[test]
    fn nested_not_exists_becomes_minus() {
        let out = rewrite(
            "SELECT ?x WHERE { VALUES ?x { <urn:a> } FILTER EXISTS { ?x <urn:r> ?y \
             FILTER NOT EXISTS { ?y a <urn:C> } } }",
        );
        assert!(out.contains("MINUS"), "{out}");
        assert_eq!(out.matches("EXISTS").count(), 1, "{out}");
    }

    #[test]
    fn nested_exists_and_disjunctions_become_semi_joins() {
        let out = rewrite(
            "SELECT ?x WHERE { VALUES ?x { <urn:a> } FILTER NOT EXISTS { ?x <urn:r> ?y \
             FILTER (EXISTS { ?y a <urn:C> } || EXISTS { ?y <urn:s> ?z }) \
             FILTER EXISTS { ?y a <urn:D> } } }",
        );
        assert_eq!(out.matches("EXISTS").count(), 1, "{out}");
        assert!(out.contains("UNION") && out.contains("DISTINCT"), "{out}");
    }

    #[test]
    fn top_level_tests_and_uncorrelated_ones_stay() {
        let text = "SELECT ?x WHERE { VALUES ?x { <urn:a> } FILTER NOT EXISTS { ?x <urn:r> ?y } }";
        assert_eq!(
            rewrite(text),
            spargebra::SparqlParser::new()
                .parse_query(text)
                .unwrap()
                .to_string()
        );
        // The inner test shares no always-bound variable: left as it was.
        let out = rewrite(
            "SELECT ?x WHERE { VALUES ?x { <urn:a> } FILTER EXISTS { ?x <urn:r> ?y \
             FILTER NOT EXISTS { <urn:b> <urn:r> <urn:c> } } }",
        );
        assert_eq!(out.matches("EXISTS").count(), 2, "{out}");
        // A variable of the inner test that the outer pattern may leave unbound: left too.
        let out = rewrite(
            "SELECT ?x WHERE { VALUES ?x { <urn:a> } FILTER EXISTS { ?x <urn:r> ?y \
             OPTIONAL { ?y <urn:s> ?z } FILTER NOT EXISTS { ?z a <urn:C> } } }",
        );
        assert_eq!(out.matches("EXISTS").count(), 2, "{out}");
    }

    #[test]
    fn the_rewrite_gives_the_same_answers_on_oxigraph() {
        let store = oxigraph::store::Store::new().unwrap();
        store
            .load_from_reader(
                oxigraph::io::RdfFormat::Turtle,
                "<urn:a> <urn:r> <urn:b>, <urn:c> . <urn:b> a <urn:C> . <urn:d> <urn:r> <urn:b> . \
                 <urn:c> <urn:s> <urn:e> . <urn:f> <urn:r> <urn:c> ."
                    .as_bytes(),
            )
            .unwrap();
        let backend = super::super::EmbeddedBackend::new(store);
        for text in [
            "SELECT ?x WHERE { VALUES ?x { <urn:a> <urn:d> <urn:f> <urn:g> } FILTER EXISTS { ?x <urn:r> ?y FILTER NOT EXISTS { ?y a <urn:C> } } }",
            "SELECT ?x WHERE { VALUES ?x { <urn:a> <urn:d> <urn:f> <urn:g> } FILTER NOT EXISTS { ?x <urn:r> ?y FILTER NOT EXISTS { ?y a <urn:C> } } }",
            "SELECT ?x WHERE { VALUES ?x { <urn:a> <urn:d> <urn:f> <urn:g> } FILTER EXISTS { ?x <urn:r> ?y FILTER (EXISTS { ?y a <urn:C> } || EXISTS { ?y <urn:s> ?z }) } }",
            "SELECT ?x WHERE { VALUES ?x { <urn:a> <urn:d> <urn:f> <urn:g> } FILTER EXISTS { ?x <urn:r> ?y FILTER EXISTS { ?y <urn:s> ?z FILTER NOT EXISTS { ?z a <urn:C> } } } }",
        ] {
            let q = spargebra::SparqlParser::new().parse_query(text).unwrap();
            let want = super::super::SparqlBackend::select(&backend, &q).unwrap();
            let got =
                super::super::SparqlBackend::select(&backend, &without_nested_exists(&q)).unwrap();
            let sorted = |t: super::super::SolutionTable| {
                let mut rows: Vec<String> = t.rows.iter().map(|r| format!("{r:?}")).collect();
                rows.sort();
                rows
            };
            assert_eq!(sorted(got), sorted(want), "{text}");
        }
    }
}

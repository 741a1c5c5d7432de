//! Listing what a pattern binds, page by page, keyed by the binding's string form rather
//! than by `OFFSET`: each page asks for the first `n` keys after the last one seen, so a
//! page never asks the store to sort more than `n` rows past its start (Virtuoso refuses
//! deep sorts, `MaxSortedTopRows`), a row cap larger than `n` can never cut a page, and the
//! pages stay correct when the store is paged again from any key (a rerun after an
//! interrupt).

use oxigraph::model::Literal as RdfLiteral;
use spargebra::Query;
use spargebra::algebra::{Expression, Function, GraphPattern, OrderExpression};
use spargebra::term::Variable;

use super::build::*;

/// `STR(?v)`: the key pages are ordered and cut by.
fn key(v: &Variable) -> Expression {
    call(Function::Str, vec![ev(v)])
}

/// `pattern` restricted to IRIs bound to `v` whose key lies after `after` and, with `upto`,
/// at or before it.
pub fn in_key_range(
    pattern: GraphPattern,
    v: &Variable,
    after: Option<&str>,
    upto: Option<&str>,
) -> GraphPattern {
    let text = |s: &str| Expression::Literal(RdfLiteral::new_simple_literal(s));
    let mut conditions = vec![is_iri(v)];
    if let Some(a) = after {
        conditions.push(Expression::Greater(Box::new(key(v)), Box::new(text(a))));
    }
    if let Some(u) = upto {
        conditions.push(Expression::LessOrEqual(Box::new(key(v)), Box::new(text(u))));
    }
    filter(pattern, and_all(conditions))
}

/// `SELECT DISTINCT ?v WHERE { pattern, keys after `after` } ORDER BY STR(?v) OFFSET skip
/// LIMIT length`.
fn keyed(
    pattern: GraphPattern,
    v: &Variable,
    after: Option<&str>,
    skip: usize,
    length: usize,
) -> Query {
    let ordered = GraphPattern::OrderBy {
        inner: Box::new(in_key_range(pattern, v, after, None)),
        expression: vec![OrderExpression::Asc(key(v))],
    };
    Query::Select {
        dataset: None,
        pattern: GraphPattern::Slice {
            inner: Box::new(GraphPattern::Distinct {
                inner: Box::new(GraphPattern::Project {
                    inner: Box::new(ordered),
                    variables: vec![v.clone()],
                }),
            }),
            start: skip,
            length: Some(length),
        },
        base_iri: None,
    }
}

/// The next page: the first `length` distinct IRIs bound to `v` after the key `after`.
pub fn page_query(
    pattern: GraphPattern,
    v: &Variable,
    after: Option<&str>,
    length: usize,
) -> Query {
    keyed(pattern, v, after, 0, length.max(1))
}

/// The `n`-th (from 1) distinct IRI bound to `v` after the key `after`: where a page of `n`
/// ends, found without sending the page.
pub fn boundary_query(pattern: GraphPattern, v: &Variable, after: Option<&str>, n: usize) -> Query {
    keyed(pattern, v, after, n.max(1) - 1, 1)
}

/// `SELECT (COUNT(DISTINCT ?v) AS ?n) WHERE { pattern, IRIs only }`.
pub fn count_query(pattern: GraphPattern, v: &Variable) -> Query {
    use spargebra::algebra::AggregateExpression;
    let n = Variable::new_unchecked("n");
    let agg = Variable::new_unchecked("count");
    Query::Select {
        dataset: None,
        pattern: GraphPattern::Project {
            inner: Box::new(GraphPattern::Extend {
                inner: Box::new(GraphPattern::Group {
                    inner: Box::new(in_key_range(pattern, v, None, None)),
                    variables: vec![],
                    aggregates: vec![(
                        agg.clone(),
                        AggregateExpression::FunctionCall {
                            name: spargebra::algebra::AggregateFunction::Count,
                            expr: ev(v),
                            distinct: true,
                        },
                    )],
                }),
                variable: n.clone(),
                expression: ev(&agg),
            }),
            variables: vec![n],
        },
        base_iri: None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use oxigraph::model::{GraphNameRef, NamedNodeRef, QuadRef};
    use oxigraph::sparql::{QueryResults, SparqlEvaluator};
    use oxigraph::store::Store;
    use spargebra::term::{NamedNodePattern, TermPattern, TriplePattern};

    fn store(n: usize) -> Store {
        let store = Store::new().unwrap();
        let p = NamedNodeRef::new_unchecked("urn:p");
        for i in 0..n {
            let s = format!("urn:x{i:03}");
            let s = NamedNodeRef::new_unchecked(&s);
            store
                .insert(QuadRef::new(s, p, s, GraphNameRef::DefaultGraph))
                .unwrap();
        }
        store
    }

    fn subjects() -> GraphPattern {
        GraphPattern::Bgp {
            patterns: vec![TriplePattern {
                subject: TermPattern::Variable(Variable::new_unchecked("x")),
                predicate: NamedNodePattern::NamedNode(node("urn:p")),
                object: TermPattern::Variable(Variable::new_unchecked("o")),
            }],
        }
    }

    fn run(store: &Store, q: &Query) -> Vec<String> {
        let text = q.to_string();
        let QueryResults::Solutions(rows) = SparqlEvaluator::new()
            .parse_query(&text)
            .unwrap()
            .on_store(store)
            .execute()
            .unwrap()
        else {
            panic!("not a SELECT: {text}")
        };
        rows.map(|r| {
            let r = r.unwrap();
            match r.iter().next().unwrap().1 {
                oxigraph::model::Term::NamedNode(n) => n.as_str().to_owned(),
                oxigraph::model::Term::Literal(l) => l.value().to_owned(),
                t => t.to_string(),
            }
        })
        .collect()
    }

    #[test]
    fn pages_cover_every_binding_once_in_key_order() {
        let s = store(25);
        let x = Variable::new_unchecked("x");
        let mut seen = Vec::new();
        let mut after: Option<String> = None;
        loop {
            let page = run(&s, &page_query(subjects(), &x, after.as_deref(), 7));
            if page.is_empty() {
                break;
            }
            assert!(page.len() <= 7);
            after = page.last().cloned();
            seen.extend(page);
        }
        let expected: Vec<String> = (0..25).map(|i| format!("urn:x{i:03}")).collect();
        assert_eq!(seen, expected);
        assert_eq!(run(&s, &count_query(subjects(), &x)), vec!["25".to_owned()]);
    }

    #[test]
    fn boundaries_split_the_keys_into_ranges() {
        let s = store(10);
        let x = Variable::new_unchecked("x");
        assert_eq!(
            run(&s, &boundary_query(subjects(), &x, None, 4)),
            vec!["urn:x003".to_owned()]
        );
        assert_eq!(
            run(&s, &boundary_query(subjects(), &x, Some("urn:x003"), 4)),
            vec!["urn:x007".to_owned()]
        );
        assert!(run(&s, &boundary_query(subjects(), &x, Some("urn:x007"), 4)).is_empty());
        let range = Query::Select {
            dataset: None,
            pattern: GraphPattern::Project {
                inner: Box::new(in_key_range(
                    subjects(),
                    &x,
                    Some("urn:x003"),
                    Some("urn:x007"),
                )),
                variables: vec![x.clone()],
            },
            base_iri: None,
        };
        let mut got = run(&s, &range);
        got.sort();
        assert_eq!(got, ["urn:x004", "urn:x005", "urn:x006", "urn:x007"]);
    }
}

//! Listing what a pattern binds in parts of a bounded size, without asking the store to
//! sort: the IRIs bound to a variable fall into buckets by the first hex digits of the MD5
//! of their string form, `FILTER(STRSTARTS(MD5(STR(?x)), "3f"))`. A bucket is one plain
//! `SELECT DISTINCT` (or one `INSERT … WHERE`): no `ORDER BY`, which Oxigraph pays per
//! comparison on disk (sorting 363,000 IRIs took over 100 s) and Virtuoso refuses past
//! `MaxSortedTopRows`; enough buckets keep each answer under a row cap, and the buckets
//! are a function of the IRI alone, so a rerun pages the same way and two sources of one
//! set put an IRI into the same bucket.

use spargebra::Query;
use spargebra::algebra::{Expression, Function, GraphPattern};
use spargebra::term::Variable;

use super::build::*;

/// The buckets' prefixes (hex digits, all of one length) that split about `count` bindings
/// into buckets of at most about `per_bucket`: `[""]` (everything) when it fits.
pub fn bucket_prefixes(count: u64, per_bucket: usize) -> Vec<String> {
    let per_bucket = per_bucket.max(1) as u64;
    let mut digits = 0u32;
    // 16^8 buckets are more than any store needs; the cap keeps the list finite.
    while digits < 8 && count > per_bucket.saturating_mul(16u64.pow(digits)) {
        digits += 1;
    }
    if digits == 0 {
        return vec![String::new()];
    }
    let width = digits as usize;
    (0..16u64.pow(digits))
        .map(|i| format!("{i:0width$x}"))
        .collect()
}

/// `pattern` restricted to IRIs bound to `v` in the bucket `prefix` (all IRIs for `""`).
pub fn in_bucket(pattern: GraphPattern, v: &Variable, prefix: &str) -> GraphPattern {
    let mut conditions = vec![is_iri(v)];
    if !prefix.is_empty() {
        let digest = call(Function::Md5, vec![call(Function::Str, vec![ev(v)])]);
        conditions.push(call(
            Function::StrStarts,
            vec![
                digest,
                Expression::Literal(oxigraph::model::Literal::new_simple_literal(prefix)),
            ],
        ));
    }
    filter(pattern, and_all(conditions))
}

/// `SELECT DISTINCT ?v WHERE { pattern, in the bucket }`.
pub fn bucket_query(pattern: GraphPattern, v: &Variable, prefix: &str) -> Query {
    Query::Select {
        dataset: None,
        pattern: GraphPattern::Distinct {
            inner: Box::new(GraphPattern::Project {
                inner: Box::new(in_bucket(pattern, v, prefix)),
                variables: vec![v.clone()],
            }),
        },
        base_iri: None,
    }
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
                    inner: Box::new(in_bucket(pattern, v, "")),
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
    fn buckets_cover_every_binding_once() {
        let s = store(300);
        let x = Variable::new_unchecked("x");
        assert_eq!(bucket_prefixes(10, 100), vec![String::new()]);
        assert_eq!(bucket_prefixes(300, 100).len(), 16);
        assert_eq!(bucket_prefixes(300, 10).len(), 256);
        assert_eq!(bucket_prefixes(300, 10)[17], "11");
        let mut seen = Vec::new();
        let mut largest = 0;
        for prefix in bucket_prefixes(300, 40) {
            let bucket = run(&s, &bucket_query(subjects(), &x, &prefix));
            largest = largest.max(bucket.len());
            seen.extend(bucket);
        }
        seen.sort();
        let expected: Vec<String> = (0..300).map(|i| format!("urn:x{i:03}")).collect();
        assert_eq!(seen, expected, "every binding in exactly one bucket");
        assert!(largest < 60, "buckets of about 300/16: {largest}");
        assert_eq!(
            run(&s, &count_query(subjects(), &x)),
            vec!["300".to_owned()]
        );
    }
}

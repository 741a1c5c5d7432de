//! Small constructors for spargebra algebra, so the compiler reads like the semantics.

use oxigraph::model::{Literal as RdfLiteral, NamedNode};
use spargebra::algebra::{Expression, Function, GraphPattern, PropertyPathExpression};
use spargebra::term::{GroundTerm, TermPattern, TriplePattern, Variable};

pub const RDF_TYPE: &str = "http://www.w3.org/1999/02/22-rdf-syntax-ns#type";
pub const RDFS_SUBCLASS_OF: &str = "http://www.w3.org/2000/01/rdf-schema#subClassOf";
pub const OWL_EQUIVALENT_CLASS: &str = "http://www.w3.org/2002/07/owl#equivalentClass";

pub fn node(iri: &str) -> NamedNode {
    NamedNode::new_unchecked(iri)
}

pub fn var(v: &Variable) -> TermPattern {
    TermPattern::Variable(v.clone())
}

pub fn ev(v: &Variable) -> Expression {
    Expression::Variable(v.clone())
}

pub fn path(s: TermPattern, path: PropertyPathExpression, o: TermPattern) -> GraphPattern {
    match path {
        PropertyPathExpression::NamedNode(p) => GraphPattern::Bgp {
            patterns: vec![TriplePattern {
                subject: s,
                predicate: p.into(),
                object: o,
            }],
        },
        path => GraphPattern::Path {
            subject: s,
            path,
            object: o,
        },
    }
}

pub fn alternatives(mut paths: Vec<PropertyPathExpression>) -> Option<PropertyPathExpression> {
    let last = paths.pop()?;
    Some(paths.into_iter().rev().fold(last, |acc, p| {
        PropertyPathExpression::Alternative(Box::new(p), Box::new(acc))
    }))
}

/// `rdf:type/(rdfs:subClassOf|owl:equivalentClass|^owl:equivalentClass)*`
pub fn type_path() -> PropertyPathExpression {
    use PropertyPathExpression as P;
    let eq = || P::NamedNode(node(OWL_EQUIVALENT_CLASS));
    let step = P::Alternative(
        Box::new(P::NamedNode(node(RDFS_SUBCLASS_OF))),
        Box::new(P::Alternative(
            Box::new(eq()),
            Box::new(P::Reverse(Box::new(eq()))),
        )),
    );
    P::Sequence(
        Box::new(P::NamedNode(node(RDF_TYPE))),
        Box::new(P::ZeroOrMore(Box::new(step))),
    )
}

pub fn filter(inner: GraphPattern, expr: Expression) -> GraphPattern {
    match expr {
        Expression::Literal(l) if l.value() == "true" => inner,
        expr => GraphPattern::Filter {
            expr,
            inner: Box::new(inner),
        },
    }
}

/// `EXISTS { p }`; a pattern filtered by `false` has no solutions, so that is `false` (some
/// endpoints fail on such a filter around a path they cannot evaluate unbound).
pub fn exists(p: GraphPattern) -> Expression {
    if let GraphPattern::Filter { expr, .. } = &p
        && as_bool(expr) == Some(false)
    {
        return truth(false);
    }
    Expression::Exists(Box::new(p))
}

pub fn truth(b: bool) -> Expression {
    Expression::Literal(RdfLiteral::from(b))
}

fn as_bool(e: &Expression) -> Option<bool> {
    match e {
        Expression::Literal(l) if l.datatype().as_str() == crate::concept::vocab::XSD_BOOLEAN => {
            Some(l.value() == "true")
        }
        _ => None,
    }
}

/// `!e`, folding constants.
pub fn not(e: Expression) -> Expression {
    match as_bool(&e) {
        Some(b) => truth(!b),
        None => match e {
            Expression::Not(inner) => *inner,
            e => Expression::Not(Box::new(e)),
        },
    }
}

/// Conjunction, folding constants (`true` dropped, `false` absorbs).
pub fn and_all(es: impl IntoIterator<Item = Expression>) -> Expression {
    let mut out: Option<Expression> = None;
    for e in es {
        match as_bool(&e) {
            Some(true) => continue,
            Some(false) => return truth(false),
            None => {}
        }
        out = Some(match out {
            None => e,
            Some(acc) => Expression::And(Box::new(acc), Box::new(e)),
        });
    }
    out.unwrap_or_else(|| truth(true))
}

/// Disjunction, folding constants.
pub fn or_all(es: impl IntoIterator<Item = Expression>) -> Expression {
    let mut out: Option<Expression> = None;
    for e in es {
        match as_bool(&e) {
            Some(false) => continue,
            Some(true) => return truth(true),
            None => {}
        }
        out = Some(match out {
            None => e,
            Some(acc) => Expression::Or(Box::new(acc), Box::new(e)),
        });
    }
    out.unwrap_or_else(|| truth(false))
}

pub fn call(f: Function, args: Vec<Expression>) -> Expression {
    Expression::FunctionCall(f, args)
}

pub fn is_iri(v: &Variable) -> Expression {
    call(Function::IsIri, vec![ev(v)])
}

/// `VALUES ?v { e₁ … eₙ }`: the examples a query is about.
pub fn values_of(v: &Variable, examples: &[NamedNode]) -> GraphPattern {
    GraphPattern::Values {
        variables: vec![v.clone()],
        bindings: examples
            .iter()
            .map(|e| vec![Some(GroundTerm::NamedNode(e.clone()))])
            .collect(),
    }
}

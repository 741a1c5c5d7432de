//! Whether an IRI is an individual of the KB's active domain, asked of the store for that
//! IRI alone.
//!
//! The functions answer nothing for a first argument that is not an individual (a class
//! IRI, a subject with only literal values), and that must not change when the KB interns no
//! individuals: a page over one IRI answers `¬C` or `⊤` for anything, so the domain is
//! checked first. A KB whose signature interns the whole active domain
//! ([`ScopeKind::ActiveDomain`]) is looked up; any other KB sends one query per batch of IRIs,
//! bounded by those IRIs' own triples, with the rule the active domain is interned by
//! (`queries/typed_individuals.rq`, `queries/role_individuals.rq`, and no schema entity):
//!
//! - typed with an IRI class outside `rdf:`, `rdfs:`, `owl:`, or with `owl:NamedIndividual`,
//!   or subject or object of an assertion of an object property;
//! - and not a schema entity: not a vocabulary IRI nor a class or property of the signature,
//!   and neither used as a class (`?z a x`) nor as a predicate (`?s x ?o`), which is how the
//!   whole-KB signature learns of classes and properties the schema does not declare.
//!
//! The object properties are those of the KB's signature. Over a schema-only signature that
//! is the declared ones: an individual whose only tie to the data is an assertion of a
//! property the schema never declares (and no typing) is outside the domain here, where the
//! whole-KB signature, which classifies undeclared predicates by their use in every triple,
//! would count it in. The same goes for a predicate used with both literal and IRI objects,
//! which the whole-KB signature classifies as neither kind of property.

use oxigraph::model::NamedNode;
use spargebra::Query;
use spargebra::algebra::{Expression, Function, GraphPattern};
use spargebra::term::{
    GroundTerm, Literal as SparqlLiteral, NamedNodePattern, TermPattern, TriplePattern, Variable,
};

use crate::KnowledgeBase;
use crate::concept::Iri;
use crate::oracle::{OracleError, ScopeKind, Signature, StatsCounter};

const RDF_TYPE: &str = "http://www.w3.org/1999/02/22-rdf-syntax-ns#type";
const OWL_NAMED_INDIVIDUAL: &str = "http://www.w3.org/2002/07/owl#NamedIndividual";
/// Namespaces whose classes do not make their instances individuals.
const VOCABULARY: [&str; 3] = [
    "http://www.w3.org/2002/07/owl#",
    "http://www.w3.org/2000/01/rdf-schema#",
    "http://www.w3.org/1999/02/22-rdf-syntax-ns#",
];

/// The IRIs among `iris` that are individuals of the KB's active domain, in the order given.
pub(super) fn individuals_among(
    kb: &KnowledgeBase,
    iris: &[&str],
    stats: &StatsCounter,
) -> Result<Vec<bool>, OracleError> {
    let sig = kb.signature();
    if sig.scope.kind == ScopeKind::ActiveDomain {
        return Ok(iris
            .iter()
            .map(|i| sig.individual_id(i).is_some())
            .collect());
    }
    let mut answers = vec![false; iris.len()];
    let asked: Vec<usize> = (0..iris.len())
        .filter(|&i| sig.may_be_individual(&Iri::new(iris[i])))
        .collect();
    if asked.is_empty() {
        return Ok(answers);
    }
    let nodes: Vec<NamedNode> = asked
        .iter()
        .filter_map(|&i| NamedNode::new(iris[i]).ok())
        .collect();
    let query = in_domain_query(sig, &nodes);
    let started = std::time::Instant::now();
    let table = kb.oracle().inner().backend().select(&query);
    StatsCounter::add(&stats.queries_sent, 1);
    StatsCounter::add(
        &stats.backend_time_ns,
        u64::try_from(started.elapsed().as_nanos()).unwrap_or(u64::MAX),
    );
    let table = table?;
    StatsCounter::add(&stats.rows_received, table.rows.len() as u64);
    let found: std::collections::HashSet<&str> = table
        .column_values("x")
        .filter_map(|t| match t {
            oxigraph::model::Term::NamedNode(n) => Some(n.as_str()),
            _ => None,
        })
        .collect();
    for i in asked {
        answers[i] = found.contains(iris[i]);
    }
    Ok(answers)
}

/// `SELECT ?x WHERE { VALUES ?x { iris } FILTER(typed || at a role's end) FILTER(not a
/// class nor a predicate) }`: every part an `EXISTS` over `?x`'s own triples, so the store
/// stops at the first witness. Built as algebra rather than kept in `queries/`: the object
/// properties go into `VALUES` blocks inside the `EXISTS` filters, which
/// [`crate::oracle::sparql::fill_values`] does not reach.
fn in_domain_query(sig: &Signature, iris: &[NamedNode]) -> Query {
    let x = Variable::new_unchecked("x");
    let values = GraphPattern::Values {
        variables: vec![x.clone()],
        bindings: iris
            .iter()
            .map(|i| vec![Some(GroundTerm::NamedNode(i.clone()))])
            .collect(),
    };
    let c = Variable::new_unchecked("c");
    let typed = filter(
        bgp(var(&x), named(RDF_TYPE), var(&c)),
        and(
            Expression::FunctionCall(Function::IsIri, vec![Expression::Variable(c.clone())]),
            or(
                Expression::SameTerm(
                    Box::new(Expression::Variable(c.clone())),
                    Box::new(Expression::NamedNode(NamedNode::new_unchecked(
                        OWL_NAMED_INDIVIDUAL,
                    ))),
                ),
                VOCABULARY
                    .iter()
                    .map(|ns| not(starts_with(&c, ns)))
                    .reduce(and)
                    .unwrap_or(Expression::Literal(SparqlLiteral::from(true))),
            ),
        ),
    );
    let mut witnesses = vec![Expression::Exists(Box::new(typed))];
    let roles: Vec<NamedNode> = sig
        .object_properties
        .keys()
        .map(|p| NamedNode::new_unchecked(p.as_str()))
        .collect();
    if !roles.is_empty() {
        let p = Variable::new_unchecked("p");
        let y = Variable::new_unchecked("y");
        let role_values = || GraphPattern::Values {
            variables: vec![p.clone()],
            bindings: roles
                .iter()
                .map(|r| vec![Some(GroundTerm::NamedNode(r.clone()))])
                .collect(),
        };
        for edge in [
            bgp(var(&x), NamedNodePattern::Variable(p.clone()), var(&y)),
            bgp(var(&y), NamedNodePattern::Variable(p.clone()), var(&x)),
        ] {
            witnesses.push(Expression::Exists(Box::new(GraphPattern::Join {
                left: Box::new(role_values()),
                right: Box::new(edge),
            })));
        }
    }
    let z = Variable::new_unchecked("z");
    let used_as_class = Expression::Exists(Box::new(bgp(var(&z), named(RDF_TYPE), var(&x))));
    let (s, o) = (Variable::new_unchecked("s"), Variable::new_unchecked("o"));
    let used_as_predicate = Expression::Exists(Box::new(bgp(
        var(&s),
        NamedNodePattern::Variable(x.clone()),
        var(&o),
    )));
    let condition = and(
        witnesses.into_iter().reduce(or).unwrap_or_else(|| {
            // Unreachable: the typing witness is always there.
            Expression::Literal(SparqlLiteral::from(false))
        }),
        and(not(used_as_class), not(used_as_predicate)),
    );
    Query::Select {
        dataset: None,
        pattern: GraphPattern::Project {
            inner: Box::new(filter(values, condition)),
            variables: vec![x],
        },
        base_iri: None,
    }
}

fn var(v: &Variable) -> TermPattern {
    TermPattern::Variable(v.clone())
}

fn named(iri: &str) -> NamedNodePattern {
    NamedNodePattern::NamedNode(NamedNode::new_unchecked(iri))
}

fn bgp(subject: TermPattern, predicate: NamedNodePattern, object: TermPattern) -> GraphPattern {
    GraphPattern::Bgp {
        patterns: vec![TriplePattern {
            subject,
            predicate,
            object,
        }],
    }
}

fn filter(inner: GraphPattern, expr: Expression) -> GraphPattern {
    GraphPattern::Filter {
        expr,
        inner: Box::new(inner),
    }
}

fn and(a: Expression, b: Expression) -> Expression {
    Expression::And(Box::new(a), Box::new(b))
}

fn or(a: Expression, b: Expression) -> Expression {
    Expression::Or(Box::new(a), Box::new(b))
}

fn not(e: Expression) -> Expression {
    Expression::Not(Box::new(e))
}

/// `STRSTARTS(STR(?v), "prefix")`.
fn starts_with(v: &Variable, prefix: &str) -> Expression {
    Expression::FunctionCall(
        Function::StrStarts,
        vec![
            Expression::FunctionCall(Function::Str, vec![Expression::Variable(v.clone())]),
            Expression::Literal(SparqlLiteral::new_simple_literal(prefix)),
        ],
    )
}

#[cfg(test)]
mod tests {
    use std::path::Path;

    use super::*;
    use crate::oracle::{IndividualScope, OracleOptions};
    use oxigraph::model::{GraphNameRef, NamedNodeRef, QuadRef};

    fn family(scope: IndividualScope) -> KnowledgeBase {
        let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/family/family.ttl");
        let store = oxigraph::store::Store::new().unwrap();
        crate::files::load_file(&store, &path, None).unwrap();
        // An undeclared class with an instance, a subject with only a literal, a predicate
        // the schema does not declare (with IRI objects).
        let n = NamedNodeRef::new_unchecked;
        for (s, p, o) in [
            ("urn:x:thing", RDF_TYPE, "urn:x:Undeclared"),
            ("urn:x:thing", "urn:x:link", "urn:x:target"),
        ] {
            store
                .insert(QuadRef::new(n(s), n(p), n(o), GraphNameRef::DefaultGraph))
                .unwrap();
        }
        store
            .insert(QuadRef::new(
                n("urn:x:literal-only"),
                n("http://example.org/family#hasName"),
                &oxigraph::model::Literal::new_simple_literal("x"),
                GraphNameRef::DefaultGraph,
            ))
            .unwrap();
        KnowledgeBase::builder()
            .oracle_options(OracleOptions {
                scope,
                ..OracleOptions::default()
            })
            .open_store(store)
            .unwrap()
    }

    #[test]
    fn the_store_answers_as_the_whole_kb_signature_does() {
        let whole = family(IndividualScope::ActiveDomain);
        let schema = family(IndividualScope::Schema);
        let fam = |l: &str| format!("http://example.org/family#{l}");
        let mut iris: Vec<String> = whole
            .iris(&whole.individuals())
            .map(|i| i.as_str().to_owned())
            .collect();
        assert!(iris.contains(&"urn:x:thing".to_owned()));
        for extra in [
            fam("Male"),
            fam("hasChild"),
            fam("hasName"),
            "urn:x:Undeclared".to_owned(),
            "urn:x:link".to_owned(),
            "urn:x:literal-only".to_owned(),
            "urn:x:nowhere".to_owned(),
            "http://www.w3.org/2002/07/owl#Thing".to_owned(),
        ] {
            iris.push(extra);
        }
        let refs: Vec<&str> = iris.iter().map(String::as_str).collect();
        let stats = StatsCounter::default();
        let expected = individuals_among(&whole, &refs, &stats).unwrap();
        assert_eq!(stats.snapshot().queries_sent, 0, "looked up, not asked");
        let got = individuals_among(&schema, &refs, &stats).unwrap();
        assert_eq!(stats.snapshot().queries_sent, 1, "one query for the batch");
        // `urn:x:target` is at an end of an undeclared property only: known to the
        // whole-KB signature, not to the schema (see the module docs).
        let differ: Vec<&str> = refs
            .iter()
            .zip(expected.iter().zip(&got))
            .filter(|(_, (e, g))| e != g)
            .map(|(i, _)| *i)
            .collect();
        assert_eq!(differ, ["urn:x:target"]);
        assert!(!got[refs.len() - 1] && !got[refs.len() - 3]);
    }
}

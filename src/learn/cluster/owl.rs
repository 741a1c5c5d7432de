//! The candidate axioms as an OWL functional-syntax document, written by horned-owl (so
//! the crate's own loader, which reads functional syntax through horned-owl, reads it back).

use horned_owl::io::ofn::writer::write;
use horned_owl::model::{
    AnnotatedComponent, ArcStr, Build, ClassExpression, Component, DataRange as HDataRange,
    DisjointClasses, FacetRestriction, Literal as HLiteral, MutableOntology,
    ObjectPropertyExpression, SubClassOf,
};
use horned_owl::ontology::component_mapped::ComponentMappedOntology;
use horned_owl::vocab::Facet;

use super::axioms::AxiomPair;
use crate::concept::{Concept, DataRange, Literal, Role, vocab};
use crate::learn::LearnError;

type Ce = ClassExpression<ArcStr>;

/// `DisjointClasses(L R)` for each disjointness pair and `SubClassOf(L R)` for each
/// subsumption pair, in the order given.
pub fn functional_syntax(
    disjointness: &[AxiomPair],
    subsumptions: &[AxiomPair],
) -> Result<String, LearnError> {
    let b = Build::new_arc();
    let mut ontology: ComponentMappedOntology<ArcStr, std::sync::Arc<AnnotatedComponent<ArcStr>>> =
        ComponentMappedOntology::new_arc();
    for a in disjointness {
        let c = Component::DisjointClasses(DisjointClasses(vec![
            class_expression(&b, &a.left),
            class_expression(&b, &a.right),
        ]));
        ontology.insert(AnnotatedComponent::from(c));
    }
    for a in subsumptions {
        let c = Component::SubClassOf(SubClassOf {
            sub: class_expression(&b, &a.left),
            sup: class_expression(&b, &a.right),
        });
        ontology.insert(AnnotatedComponent::from(c));
    }
    let bytes = write(Vec::new(), &ontology, None)
        .map_err(|e| LearnError::ModelWrite(format!("writing OWL functional syntax: {e}")))?;
    String::from_utf8(bytes)
        .map_err(|e| LearnError::ModelWrite(format!("OWL functional syntax: {e}")))
}

fn role(b: &Build<ArcStr>, r: &Role) -> ObjectPropertyExpression<ArcStr> {
    let p = b.object_property(r.property.as_str());
    if r.inverse {
        ObjectPropertyExpression::InverseObjectProperty(p)
    } else {
        ObjectPropertyExpression::ObjectProperty(p)
    }
}

fn literal(b: &Build<ArcStr>, l: &Literal) -> HLiteral<ArcStr> {
    match &l.language {
        Some(lang) => HLiteral::Language {
            literal: l.lexical.to_string(),
            lang: lang.to_string(),
        },
        None => HLiteral::Datatype {
            literal: l.lexical.to_string(),
            datatype_iri: b.iri(l.datatype.as_str()),
        },
    }
}

/// The class expression of a concept (every constructor the concept model has).
pub fn class_expression(b: &Build<ArcStr>, c: &Concept) -> Ce {
    let boxed = |c: &Concept| Box::new(class_expression(b, c));
    match c {
        Concept::Top => Ce::Class(b.class(vocab::OWL_THING)),
        Concept::Bottom => Ce::Class(b.class(vocab::OWL_NOTHING)),
        Concept::Class(a) => Ce::Class(b.class(a.as_str())),
        Concept::Not(inner) => Ce::ObjectComplementOf(boxed(inner)),
        Concept::And(cs) => {
            Ce::ObjectIntersectionOf(cs.iter().map(|c| class_expression(b, c)).collect())
        }
        Concept::Or(cs) => Ce::ObjectUnionOf(cs.iter().map(|c| class_expression(b, c)).collect()),
        Concept::Some { role: r, filler } => Ce::ObjectSomeValuesFrom {
            ope: role(b, r),
            bce: boxed(filler),
        },
        Concept::Only { role: r, filler } => Ce::ObjectAllValuesFrom {
            ope: role(b, r),
            bce: boxed(filler),
        },
        Concept::Min { n, role: r, filler } => Ce::ObjectMinCardinality {
            n: *n,
            ope: role(b, r),
            bce: boxed(filler),
        },
        Concept::Max { n, role: r, filler } => Ce::ObjectMaxCardinality {
            n: *n,
            ope: role(b, r),
            bce: boxed(filler),
        },
        Concept::Exactly { n, role: r, filler } => Ce::ObjectExactCardinality {
            n: *n,
            ope: role(b, r),
            bce: boxed(filler),
        },
        Concept::HasValue {
            role: r,
            individual,
        } => Ce::ObjectHasValue {
            ope: role(b, r),
            i: b.named_individual(individual.as_str()).into(),
        },
        Concept::OneOf(is) => Ce::ObjectOneOf(
            is.iter()
                .map(|i| b.named_individual(i.as_str()).into())
                .collect(),
        ),
        Concept::HasSelf(r) => Ce::ObjectHasSelf(role(b, r)),
        Concept::Data { property, range } => {
            let dp = b.data_property(property.as_str());
            match range {
                DataRange::Value(l) => Ce::DataHasValue {
                    dp,
                    l: literal(b, l),
                },
                DataRange::Datatype(d) => Ce::DataSomeValuesFrom {
                    dp,
                    dr: HDataRange::Datatype(b.datatype(d.as_str())),
                },
                DataRange::Numeric { datatype, min, max } => {
                    let mut facets = Vec::new();
                    let value = |v: &crate::concept::Bound| HLiteral::Datatype {
                        literal: v.value.to_string(),
                        datatype_iri: b.iri(datatype.as_str()),
                    };
                    if let Some(m) = min {
                        facets.push(FacetRestriction {
                            f: if m.inclusive {
                                Facet::MinInclusive
                            } else {
                                Facet::MinExclusive
                            },
                            l: value(m),
                        });
                    }
                    if let Some(m) = max {
                        facets.push(FacetRestriction {
                            f: if m.inclusive {
                                Facet::MaxInclusive
                            } else {
                                Facet::MaxExclusive
                            },
                            l: value(m),
                        });
                    }
                    Ce::DataSomeValuesFrom {
                        dp,
                        dr: HDataRange::DatatypeRestriction(b.datatype(datatype.as_str()), facets),
                    }
                }
            }
        }
    }
}

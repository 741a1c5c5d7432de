//! A learned definition as an OWL axiom, written by horned-owl: `Target ≡ C`
//! (`EquivalentClasses`) or `C ⊑ Target` (`SubClassOf`), in functional syntax or OWL/XML,
//! with declarations of every entity it names, so the document reads back on its own.

use horned_owl::model::{
    AnnotatedComponent, Build, ClassExpression, Component, DataRange as OwlDataRange, DeclareClass,
    DeclareDataProperty, DeclareNamedIndividual, DeclareObjectProperty, EquivalentClasses,
    FacetRestriction, Literal as OwlLiteral, MutableOntology, ObjectPropertyExpression, RcStr,
    SubClassOf,
};
use horned_owl::ontology::component_mapped::ComponentMappedOntology;
use horned_owl::vocab::Facet;

use super::{Bound, Concept, DataRange, Iri, Literal, Role};

/// Which axiom to write.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AxiomKind {
    /// `EquivalentClasses(Target C)`.
    Equivalent,
    /// `SubClassOf(C Target)`.
    SubClass,
}

/// Which syntax to write.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OwlSyntax {
    Functional,
    Xml,
}

/// The ontology document holding the one axiom and the declarations it needs.
pub fn axiom_document(
    target: &Iri,
    definition: &Concept,
    kind: AxiomKind,
    syntax: OwlSyntax,
) -> Result<String, String> {
    let b: Build<RcStr> = Build::new_rc();
    let mut entities = Entities::default();
    entities.classes.push(target.as_str().to_owned());
    let expression = class_expression(&b, definition, &mut entities);
    let target_class: ClassExpression<RcStr> = b.class(target.as_str()).into();
    let axiom: Component<RcStr> = match kind {
        AxiomKind::Equivalent => EquivalentClasses(vec![target_class, expression]).into(),
        AxiomKind::SubClass => SubClassOf {
            sub: expression,
            sup: target_class,
        }
        .into(),
    };
    let mut ontology: ComponentMappedOntology<RcStr, std::rc::Rc<AnnotatedComponent<RcStr>>> =
        ComponentMappedOntology::new_rc();
    entities.declare(&b, &mut ontology);
    ontology.insert(axiom);
    let mut out = Vec::new();
    match syntax {
        OwlSyntax::Functional => {
            horned_owl::io::ofn::writer::write(&mut out, &ontology, None)
                .map_err(|e| e.to_string())?;
        }
        OwlSyntax::Xml => {
            horned_owl::io::owx::writer::write(&mut out, &ontology, None)
                .map_err(|e| e.to_string())?;
        }
    }
    String::from_utf8(out).map_err(|e| e.to_string())
}

/// The entities an expression names, by kind (each declared once).
#[derive(Default)]
struct Entities {
    classes: Vec<String>,
    object_properties: Vec<String>,
    data_properties: Vec<String>,
    individuals: Vec<String>,
}

impl Entities {
    fn declare(
        mut self,
        b: &Build<RcStr>,
        ontology: &mut ComponentMappedOntology<RcStr, std::rc::Rc<AnnotatedComponent<RcStr>>>,
    ) {
        for list in [
            &mut self.classes,
            &mut self.object_properties,
            &mut self.data_properties,
            &mut self.individuals,
        ] {
            list.sort();
            list.dedup();
        }
        for c in &self.classes {
            ontology.insert(DeclareClass(b.class(c.as_str())));
        }
        for p in &self.object_properties {
            ontology.insert(DeclareObjectProperty(b.object_property(p.as_str())));
        }
        for p in &self.data_properties {
            ontology.insert(DeclareDataProperty(b.data_property(p.as_str())));
        }
        for i in &self.individuals {
            ontology.insert(DeclareNamedIndividual(b.named_individual(i.as_str())));
        }
    }
}

fn class_expression(b: &Build<RcStr>, c: &Concept, e: &mut Entities) -> ClassExpression<RcStr> {
    let all = |cs: &[Concept], e: &mut Entities| -> Vec<ClassExpression<RcStr>> {
        cs.iter().map(|c| class_expression(b, c, e)).collect()
    };
    match c {
        Concept::Top => b.class(super::vocab::OWL_THING).into(),
        Concept::Bottom => b.class(super::vocab::OWL_NOTHING).into(),
        Concept::Class(iri) => {
            e.classes.push(iri.as_str().to_owned());
            b.class(iri.as_str()).into()
        }
        Concept::Not(inner) => {
            ClassExpression::ObjectComplementOf(Box::new(class_expression(b, inner, e)))
        }
        Concept::And(cs) => ClassExpression::ObjectIntersectionOf(all(cs, e)),
        Concept::Or(cs) => ClassExpression::ObjectUnionOf(all(cs, e)),
        Concept::Some { role, filler } => ClassExpression::ObjectSomeValuesFrom {
            ope: property(b, role, e),
            bce: Box::new(class_expression(b, filler, e)),
        },
        Concept::Only { role, filler } => ClassExpression::ObjectAllValuesFrom {
            ope: property(b, role, e),
            bce: Box::new(class_expression(b, filler, e)),
        },
        Concept::Min { n, role, filler } => ClassExpression::ObjectMinCardinality {
            n: *n,
            ope: property(b, role, e),
            bce: Box::new(class_expression(b, filler, e)),
        },
        Concept::Max { n, role, filler } => ClassExpression::ObjectMaxCardinality {
            n: *n,
            ope: property(b, role, e),
            bce: Box::new(class_expression(b, filler, e)),
        },
        Concept::Exactly { n, role, filler } => ClassExpression::ObjectExactCardinality {
            n: *n,
            ope: property(b, role, e),
            bce: Box::new(class_expression(b, filler, e)),
        },
        Concept::HasValue { role, individual } => {
            e.individuals.push(individual.as_str().to_owned());
            ClassExpression::ObjectHasValue {
                ope: property(b, role, e),
                i: b.named_individual(individual.as_str()).into(),
            }
        }
        Concept::OneOf(individuals) => ClassExpression::ObjectOneOf(
            individuals
                .iter()
                .map(|i| {
                    e.individuals.push(i.as_str().to_owned());
                    b.named_individual(i.as_str()).into()
                })
                .collect(),
        ),
        Concept::HasSelf(role) => ClassExpression::ObjectHasSelf(property(b, role, e)),
        Concept::Data { property, range } => {
            e.data_properties.push(property.as_str().to_owned());
            ClassExpression::DataSomeValuesFrom {
                dp: b.data_property(property.as_str()),
                dr: data_range(b, range),
            }
        }
    }
}

fn property(b: &Build<RcStr>, role: &Role, e: &mut Entities) -> ObjectPropertyExpression<RcStr> {
    e.object_properties.push(role.property.as_str().to_owned());
    let p = b.object_property(role.property.as_str());
    if role.inverse {
        ObjectPropertyExpression::InverseObjectProperty(p)
    } else {
        ObjectPropertyExpression::ObjectProperty(p)
    }
}

fn data_range(b: &Build<RcStr>, range: &DataRange) -> OwlDataRange<RcStr> {
    match range {
        DataRange::Value(l) => OwlDataRange::DataOneOf(vec![literal(b, l)]),
        DataRange::Datatype(d) => OwlDataRange::Datatype(b.datatype(d.as_str())),
        DataRange::Numeric { datatype, min, max } => {
            let facet = |bound: &Bound, inclusive: Facet, exclusive: Facet| FacetRestriction {
                f: if bound.inclusive {
                    inclusive
                } else {
                    exclusive
                },
                l: OwlLiteral::Datatype {
                    literal: number_lexical(bound, datatype),
                    datatype_iri: b.iri(datatype.as_str()),
                },
            };
            let mut facets = Vec::new();
            if let Some(m) = min {
                facets.push(facet(m, Facet::MinInclusive, Facet::MinExclusive));
            }
            if let Some(m) = max {
                facets.push(facet(m, Facet::MaxInclusive, Facet::MaxExclusive));
            }
            OwlDataRange::DatatypeRestriction(b.datatype(datatype.as_str()), facets)
        }
    }
}

/// A bound as a literal of the restricted datatype (integers without a fraction).
fn number_lexical(bound: &Bound, datatype: &Iri) -> String {
    let v = bound.value.get();
    let integral = matches!(
        datatype.as_str().rsplit('#').next(),
        Some(
            "integer"
                | "int"
                | "long"
                | "short"
                | "byte"
                | "nonNegativeInteger"
                | "positiveInteger"
                | "negativeInteger"
                | "nonPositiveInteger"
                | "unsignedInt"
                | "unsignedLong"
                | "unsignedShort"
                | "unsignedByte"
        )
    );
    if integral && v.fract() == 0.0 {
        format!("{}", v as i64)
    } else {
        format!("{v:?}")
    }
}

fn literal(b: &Build<RcStr>, l: &Literal) -> OwlLiteral<RcStr> {
    match &l.language {
        Some(lang) => OwlLiteral::Language {
            literal: l.lexical.to_string(),
            lang: lang.to_string(),
        },
        None => OwlLiteral::Datatype {
            literal: l.lexical.to_string(),
            datatype_iri: b.iri(l.datatype.as_str()),
        },
    }
}

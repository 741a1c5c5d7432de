//! Reads the signature from a store with the fixed queries of `queries/`.

use std::collections::{BTreeMap, BTreeSet, HashMap};

use oxigraph::model::{NamedNode, Term};
use spargebra::term::GroundTerm;

use super::answers::SchemaAnswers;
use super::model::{
    BooleanStats, DataPropertyInfo, NumericStats, ObjectPropertyInfo, ScopeReport, Signature,
};
use super::{OWL, is_vocabulary};
use crate::concept::Iri;
use crate::oracle::OracleError;
use crate::oracle::backend::{SolutionTable, SparqlBackend};
use crate::oracle::sparql::{fill_values, fixed_query};

pub(super) fn run(backend: &dyn SparqlBackend, name: &str) -> Result<SolutionTable, OracleError> {
    backend.select(&fixed_query(name)?)
}

fn iri(term: &Term) -> Option<Iri> {
    match term {
        Term::NamedNode(n) => Some(Iri::new(n.as_str())),
        _ => None,
    }
}

fn number(term: Option<&Term>) -> Option<f64> {
    match term? {
        Term::Literal(l) => l.value().trim().parse().ok(),
        _ => None,
    }
}

/// Rows of a two-column answer as IRI pairs (rows with a non-IRI cell are skipped).
pub(super) fn iri_pairs(table: &SolutionTable, a: &str, b: &str) -> Vec<(Iri, Iri)> {
    let (Some(ia), Some(ib)) = (table.column(a), table.column(b)) else {
        return Vec::new();
    };
    table
        .rows
        .iter()
        .filter_map(|row| {
            let x = row.get(ia)?.as_ref().and_then(iri)?;
            let y = row.get(ib)?.as_ref().and_then(iri)?;
            Some((x, y))
        })
        .collect()
}

/// The signature over the active domain (every individual of the store).
pub(super) fn load_active_domain(
    backend: &dyn SparqlBackend,
    schema: &SchemaAnswers,
) -> Result<Signature, OracleError> {
    let mut sig = Signature::default();
    let declarations = Declarations::from_answers(schema)?;
    let usage = usage_of(&run(backend, "property_usage")?);
    load_properties(schema, &mut sig, &declarations, &usage)?;
    let mut classes = iris_of(&run(backend, "classes")?, "c");
    let schema_classes = iris_of(schema.table("schema_classes")?, "c");
    classes.extend(schema_classes.iter().cloned());
    sig.schema_classes = without_vocabulary(schema_classes);
    let blank_types = !run(backend, "blank_types")?.rows.is_empty();
    load_classes(schema, &mut sig, classes, blank_types)?;
    add_literal_statistics(&mut sig, &run(backend, "literal_statistics")?);
    add_boolean_counts(&mut sig, &run(backend, "boolean_counts")?);
    load_individuals(backend, &mut sig)?;
    sig.scope = ScopeReport::active_domain(sig.individual_count());
    Ok(sig)
}

pub(super) fn without_vocabulary(iris: BTreeSet<Iri>) -> BTreeSet<Iri> {
    iris.into_iter()
        .filter(|c| !is_vocabulary(c.as_str()))
        .collect()
}

/// The IRIs of one column.
pub(super) fn iris_of(table: &SolutionTable, column: &str) -> BTreeSet<Iri> {
    table.column_values(column).filter_map(iri).collect()
}

/// Reads the class hierarchy, disjointness and complements (TBox queries) for `classes`.
pub(super) fn load_classes(
    schema: &SchemaAnswers,
    sig: &mut Signature,
    classes: BTreeSet<Iri>,
    blank_types: bool,
) -> Result<(), OracleError> {
    sig.classes = without_vocabulary(classes);
    let named = |c: &Iri| !is_vocabulary(c.as_str());
    for (sub, sup) in iri_pairs(schema.table("subclasses")?, "sub", "sup") {
        if named(&sub) && named(&sup) && sub != sup {
            sig.superclasses.entry(sub).or_default().insert(sup);
        }
    }
    for (a, b) in iri_pairs(schema.table("equivalent_classes")?, "a", "b") {
        if named(&a) && named(&b) && a != b {
            sig.superclasses
                .entry(a.clone())
                .or_default()
                .insert(b.clone());
            sig.superclasses
                .entry(b.clone())
                .or_default()
                .insert(a.clone());
            sig.equivalent_classes.insert((a, b));
        }
    }
    load_implying_types(schema, sig)?;
    sig.has_blank_types = blank_types;
    for (a, b) in iri_pairs(schema.table("disjoint_classes")?, "a", "b") {
        if a != b {
            sig.disjoint_classes
                .entry(a.clone())
                .or_default()
                .insert(b.clone());
            sig.disjoint_classes.entry(b).or_default().insert(a);
        }
    }
    for (a, b) in iri_pairs(schema.table("complement_classes")?, "a", "b") {
        sig.complement_classes.insert((a, b));
    }
    Ok(())
}

/// Walks the hierarchy edges (blank nodes included) downwards from every named class.
fn load_implying_types(schema: &SchemaAnswers, sig: &mut Signature) -> Result<(), OracleError> {
    let edges = schema.table("class_edges")?;
    let key = |t: &Term| match t {
        Term::NamedNode(n) => Some(n.as_str().to_string()),
        Term::BlankNode(b) => Some(format!("_:{}", b.as_str())),
        _ => None,
    };
    let mut below: HashMap<String, Vec<String>> = HashMap::new();
    let (cs, co) = (edges.column("s"), edges.column("o"));
    for row in &edges.rows {
        let cell = |c: Option<usize>| c.and_then(|i| row.get(i)).and_then(|t| t.as_ref());
        if let (Some(s), Some(o)) = (cell(cs).and_then(key), cell(co).and_then(key)) {
            below.entry(o).or_default().push(s);
        }
    }
    for class in &sig.classes {
        let mut seen: BTreeSet<String> = BTreeSet::from([class.as_str().to_string()]);
        let mut todo = vec![class.as_str().to_string()];
        while let Some(c) = todo.pop() {
            for s in below.get(&c).into_iter().flatten() {
                if seen.insert(s.clone()) {
                    todo.push(s.clone());
                }
            }
        }
        let named = seen
            .into_iter()
            .filter(|t| !t.starts_with("_:"))
            .map(Iri::new)
            .collect();
        sig.implying_types.insert(class.clone(), named);
    }
    Ok(())
}

/// How a predicate is used in the data (the whole ABox, or the scope's individuals).
#[derive(Default, Clone, Copy)]
pub(super) struct Usage {
    total: u64,
    iri_objects: u64,
    literal_objects: u64,
    blank_ends: u64,
}

impl Usage {
    /// One more triple of the predicate, with this object, out of a named subject (the
    /// neighbourhood's nodes are IRIs: only blank objects are blank ends there).
    pub(super) fn add_object(&mut self, object: &Term) {
        self.total += 1;
        match object {
            Term::NamedNode(_) => self.iri_objects += 1,
            Term::Literal(_) => self.literal_objects += 1,
            _ => self.blank_ends += 1,
        }
    }
}

/// Per predicate usage from a `property_usage`-shaped answer, added to `usage`.
fn add_usage(usage: &mut BTreeMap<Iri, Usage>, table: &SolutionTable) {
    let col = |n: &str| table.column(n);
    let (cp, cn, ci, cl, cb) = (
        col("p"),
        col("n"),
        col("iri_objects"),
        col("literal_objects"),
        col("blank_ends"),
    );
    for row in &table.rows {
        let cell = |c: Option<usize>| c.and_then(|i| row.get(i)).and_then(|t| t.as_ref());
        let Some(p) = cell(cp).and_then(iri) else {
            continue;
        };
        let count = |c| number(cell(c)).unwrap_or(0.0) as u64;
        let u = usage.entry(p).or_default();
        u.total += count(cn);
        u.iri_objects += count(ci);
        u.literal_objects += count(cl);
        u.blank_ends += count(cb);
    }
}

fn usage_of(table: &SolutionTable) -> BTreeMap<Iri, Usage> {
    let mut usage = BTreeMap::new();
    add_usage(&mut usage, table);
    usage
}

/// The property declarations of the schema (`owl:ObjectProperty`, characteristics, …) and
/// the predicates used on schema entities (annotations unless declared otherwise).
pub(super) struct Declarations {
    declarations: Vec<(Iri, Iri)>,
    declared: BTreeSet<Iri>,
    annotations: BTreeSet<Iri>,
}

impl Declarations {
    pub(super) fn from_answers(schema: &SchemaAnswers) -> Result<Self, OracleError> {
        let declarations = iri_pairs(schema.table("property_declarations")?, "p", "t");
        let declared: BTreeSet<Iri> = declarations.iter().map(|(p, _)| p.clone()).collect();
        let annotations = schema
            .table(super::answers::SCHEMA_PREDICATES)?
            .column_values("p")
            .filter_map(iri)
            .filter(|p| !declared.contains(p))
            .collect();
        Ok(Declarations {
            declarations,
            declared,
            annotations,
        })
    }

    /// Whether `p` is declared with `owl:{t}`.
    pub(super) fn declared_as(&self, p: &Iri, t: &str) -> bool {
        self.declarations
            .iter()
            .any(|(q, ty)| q == p && ty.as_str().strip_prefix(OWL) == Some(t))
    }

    /// Predicates that can never be roles: vocabulary, annotations, declared data properties.
    pub(super) fn never_a_role(&self, p: &Iri) -> bool {
        is_vocabulary(p.as_str())
            || self.annotations.contains(p)
            || self.declared_as(p, "AnnotationProperty")
            || self.declared_as(p, "DatatypeProperty")
    }

    /// Predicates whose roles reach their subjects from their objects: symmetric ones.
    pub(super) fn symmetric(&self) -> impl Iterator<Item = &Iri> {
        self.declarations
            .iter()
            .filter(|(_, t)| t.as_str().strip_prefix(OWL) == Some("SymmetricProperty"))
            .map(|(p, _)| p)
    }
}

pub(super) fn load_properties(
    schema: &SchemaAnswers,
    sig: &mut Signature,
    declarations: &Declarations,
    usage: &BTreeMap<Iri, Usage>,
) -> Result<(), OracleError> {
    let declared_as = |p: &Iri, t: &str| declarations.declared_as(p, t);
    let declared = &declarations.declared;
    let annotations = &declarations.annotations;

    const OBJECT_MARKERS: &[&str] = &[
        "ObjectProperty",
        "TransitiveProperty",
        "SymmetricProperty",
        "AsymmetricProperty",
        "ReflexiveProperty",
        "IrreflexiveProperty",
        "InverseFunctionalProperty",
    ];
    let mut candidates: BTreeSet<Iri> = declared.clone();
    candidates.extend(usage.keys().cloned());
    for p in candidates {
        if is_vocabulary(p.as_str())
            || declared_as(&p, "AnnotationProperty")
            || annotations.contains(&p)
        {
            continue;
        }
        let u = usage.get(&p);
        let is_object = OBJECT_MARKERS.iter().any(|m| declared_as(&p, m));
        let is_data = declared_as(&p, "DatatypeProperty");
        let functional = declared_as(&p, "FunctionalProperty");
        let (total, iri_o, lit_o, blank) = u
            .map(|u| (u.total, u.iri_objects, u.literal_objects, u.blank_ends))
            .unwrap_or_default();
        if is_object || (!is_data && total > 0 && iri_o == total && blank == 0) {
            sig.object_properties.insert(
                p.clone(),
                ObjectPropertyInfo {
                    functional,
                    inverse_functional: declared_as(&p, "InverseFunctionalProperty"),
                    transitive: declared_as(&p, "TransitiveProperty"),
                    symmetric: declared_as(&p, "SymmetricProperty"),
                    declared: is_object,
                    assertions: total,
                    has_non_iri_ends: iri_o < total || blank > 0,
                    ..Default::default()
                },
            );
        } else if is_data || (total > 0 && lit_o == total) {
            sig.data_properties.insert(
                p.clone(),
                DataPropertyInfo {
                    functional,
                    declared: is_data,
                    assertions: total,
                    ..Default::default()
                },
            );
        }
        // Functional-only declarations and mixed-use predicates stay out: they are neither
        // roles nor data properties we could compile soundly.
    }

    for (sub, sup) in iri_pairs(schema.table("sub_properties")?, "sub", "sup") {
        if sub == sup {
            continue;
        }
        if let Some(info) = sig.object_properties.get_mut(&sub) {
            info.super_properties.insert(sup);
        } else if let Some(info) = sig.data_properties.get_mut(&sub) {
            info.super_properties.insert(sup);
        }
    }
    for (p, c) in iri_pairs(schema.table("domains")?, "p", "c") {
        if let Some(info) = sig.object_properties.get_mut(&p) {
            info.domains.insert(c);
        } else if let Some(info) = sig.data_properties.get_mut(&p) {
            info.domains.insert(c);
        }
    }
    for (p, c) in iri_pairs(schema.table("ranges")?, "p", "c") {
        if let Some(info) = sig.object_properties.get_mut(&p) {
            info.ranges.insert(c);
        } else if let Some(info) = sig.data_properties.get_mut(&p) {
            info.ranges.insert(c);
        }
    }
    for (p, q) in iri_pairs(schema.table("inverses")?, "p", "q") {
        if sig.object_properties.contains_key(&p) && sig.object_properties.contains_key(&q) {
            if let Some(info) = sig.object_properties.get_mut(&p) {
                info.inverses.insert(q.clone());
            }
            if let Some(info) = sig.object_properties.get_mut(&q) {
                info.inverses.insert(p);
            }
        }
    }
    Ok(())
}

/// Adds a `literal_statistics`-shaped answer to the data properties' value statistics
/// (answers for several chunks merge: counts add, distinct counts add as an upper bound).
fn add_literal_statistics(sig: &mut Signature, stats: &SolutionTable) {
    let col = |n: &str| stats.column(n);
    let (cp, cdt, cn, cd, cmin, cmax) = (
        col("p"),
        col("dt"),
        col("n"),
        col("distinct"),
        col("min"),
        col("max"),
    );
    for row in &stats.rows {
        let cell = |c: Option<usize>| c.and_then(|i| row.get(i)).and_then(|t| t.as_ref());
        let (Some(p), Some(dt)) = (cell(cp).and_then(iri), cell(cdt).and_then(iri)) else {
            continue;
        };
        let Some(info) = sig.data_properties.get_mut(&p) else {
            continue;
        };
        let n = number(cell(cn)).unwrap_or(0.0) as u64;
        *info.datatypes.entry(dt.clone()).or_default() += n;
        if crate::concept::vocab::is_numeric_datatype(dt.as_str())
            && let (Some(min), Some(max)) = (number(cell(cmin)), number(cell(cmax)))
        {
            let distinct = number(cell(cd)).unwrap_or(0.0) as u64;
            let merged = match info.numeric.take() {
                None => NumericStats {
                    min,
                    max,
                    distinct,
                    count: n,
                },
                // Several numeric datatypes: distinct counts add up (an upper bound).
                Some(s) => NumericStats {
                    min: s.min.min(min),
                    max: s.max.max(max),
                    distinct: s.distinct + distinct,
                    count: s.count + n,
                },
            };
            info.numeric = Some(merged);
        }
    }
}

/// Adds a `boolean_counts`-shaped answer to the boolean data properties' counts.
fn add_boolean_counts(sig: &mut Signature, booleans: &SolutionTable) {
    let (cp, cv, cn) = (
        booleans.column("p"),
        booleans.column("v"),
        booleans.column("n"),
    );
    for row in &booleans.rows {
        let cell = |c: Option<usize>| c.and_then(|i| row.get(i)).and_then(|t| t.as_ref());
        let Some(p) = cell(cp).and_then(iri) else {
            continue;
        };
        let Some(info) = sig.data_properties.get_mut(&p) else {
            continue;
        };
        let value = match cell(cv) {
            Some(Term::Literal(l)) => matches!(l.value(), "true" | "1"),
            _ => continue,
        };
        let n = number(cell(cn)).unwrap_or(0.0) as u64;
        let b = info.booleans.get_or_insert_with(BooleanStats::default);
        if value {
            b.true_count += n;
        } else {
            b.false_count += n;
        }
    }
}

fn load_individuals(backend: &dyn SparqlBackend, sig: &mut Signature) -> Result<(), OracleError> {
    let mut individuals: BTreeSet<Iri> = run(backend, "typed_individuals")?
        .column_values("x")
        .filter_map(iri)
        .collect();
    if !sig.object_properties.is_empty() {
        let mut query = fixed_query("role_individuals")?;
        let props = sig
            .object_properties
            .keys()
            .map(|p| GroundTerm::NamedNode(NamedNode::new_unchecked(p.as_str())))
            .collect();
        fill_values(&mut query, "p", props)?;
        individuals.extend(backend.select(&query)?.column_values("x").filter_map(iri));
    }
    set_individuals_without_schema(sig, individuals);
    Ok(())
}

/// Interns `individuals` minus schema entities, which are never individuals even when they
/// appear in role assertions.
pub(super) fn set_individuals_without_schema(sig: &mut Signature, mut individuals: BTreeSet<Iri>) {
    individuals.retain(|i| sig.may_be_individual(i));
    sig.set_individuals(individuals.into_iter().collect());
}

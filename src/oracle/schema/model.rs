//! The signature as plain data (serialisable for `oxilearn signature --json`).

use std::collections::{BTreeMap, BTreeSet, HashMap};

use serde::Serialize;

use super::edges::UniverseEdges;
use super::typings::AssertedTypes;
use super::values::UniverseValues;
use crate::concept::Iri;
use crate::oracle::{IndividualId, IndividualSet};

/// What is known about one object property.
#[derive(Debug, Clone, Default, Serialize)]
pub struct ObjectPropertyInfo {
    /// Directly asserted super-properties (`rdfs:subPropertyOf`, `owl:equivalentProperty`).
    pub super_properties: BTreeSet<Iri>,
    pub domains: BTreeSet<Iri>,
    pub ranges: BTreeSet<Iri>,
    /// Declared inverses, in either direction of `owl:inverseOf`.
    pub inverses: BTreeSet<Iri>,
    pub functional: bool,
    pub inverse_functional: bool,
    pub transitive: bool,
    pub symmetric: bool,
    /// Declared with `owl:ObjectProperty` (or a characteristic that implies it), rather than
    /// inferred from IRI-valued use in the data.
    pub declared: bool,
    /// Number of assertions in the data.
    pub assertions: u64,
    /// Some assertion has a literal or blank node at one end: queries must guard with `isIRI`.
    pub has_non_iri_ends: bool,
}

/// Numeric value statistics of a data property.
#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct NumericStats {
    pub min: f64,
    pub max: f64,
    pub distinct: u64,
    pub count: u64,
}

/// What is known about one data property.
#[derive(Debug, Clone, Default, Serialize)]
pub struct DataPropertyInfo {
    pub super_properties: BTreeSet<Iri>,
    pub domains: BTreeSet<Iri>,
    /// Declared ranges (datatypes).
    pub ranges: BTreeSet<Iri>,
    /// Datatypes seen in the data, with their value counts.
    pub datatypes: BTreeMap<Iri, u64>,
    pub functional: bool,
    pub declared: bool,
    pub assertions: u64,
    pub numeric: Option<NumericStats>,
    /// Occurrences of `true` and `false` values, when the property has boolean values.
    pub booleans: Option<BooleanStats>,
}

/// Which individuals a signature's universe holds, and how it was found.
#[derive(Debug, Clone, Default, Serialize, PartialEq, Eq)]
pub struct ScopeReport {
    /// `active_domain`, `neighbourhood` or `schema`.
    pub kind: ScopeKind,
    /// Seeds given (neighbourhood only).
    pub seeds: usize,
    /// Seeds that occur in the data.
    pub seeds_found: usize,
    /// Role steps walked from the seeds.
    pub depth: usize,
    pub individuals: usize,
    /// The walk stopped at its individual limit: deeper parts of the neighbourhood are missing
    /// (membership stays exact; split points and successor lists then see less).
    pub truncated: bool,
}

#[derive(Debug, Clone, Copy, Default, Serialize, PartialEq, Eq)]
#[serde(rename_all = "snake_case")]
pub enum ScopeKind {
    #[default]
    ActiveDomain,
    Neighbourhood,
    /// No individuals interned (answers listed by the store itself).
    Schema,
}

impl ScopeReport {
    pub fn schema() -> Self {
        ScopeReport {
            kind: ScopeKind::Schema,
            ..Default::default()
        }
    }

    pub fn active_domain(individuals: usize) -> Self {
        ScopeReport {
            kind: ScopeKind::ActiveDomain,
            individuals,
            ..Default::default()
        }
    }
}

#[derive(Debug, Clone, Copy, Default, Serialize, PartialEq, Eq)]
pub struct BooleanStats {
    pub true_count: u64,
    pub false_count: u64,
}

/// The signature. Collections are ordered maps/sets so every listing is deterministic.
#[derive(Debug, Clone, Default, Serialize)]
pub struct Signature {
    /// Named classes (vocabulary classes such as `owl:Thing` excluded): those the schema
    /// names and those the data uses as types (of the scope's individuals).
    pub classes: BTreeSet<Iri>,
    /// The classes the schema names: declared (`owl:Class`, `rdfs:Class`) or in the class
    /// hierarchy. Unlike `classes`, independent of the scope.
    pub schema_classes: BTreeSet<Iri>,
    /// Direct named superclasses per class; an `owl:equivalentClass` pair appears both ways.
    pub superclasses: BTreeMap<Iri, BTreeSet<Iri>>,
    /// Pairs from `owl:equivalentClass` between named classes.
    pub equivalent_classes: BTreeSet<(Iri, Iri)>,
    pub object_properties: BTreeMap<Iri, ObjectPropertyInfo>,
    pub data_properties: BTreeMap<Iri, DataPropertyInfo>,
    /// Declared disjointness, symmetric (`owl:disjointWith`, `owl:AllDisjointClasses`).
    pub disjoint_classes: BTreeMap<Iri, BTreeSet<Iri>>,
    /// `owl:complementOf` pairs between named classes, as asserted.
    pub complement_classes: BTreeSet<(Iri, Iri)>,
    /// Per named class, the named types whose instances it has: itself and everything below
    /// it through `rdfs:subClassOf` and `owl:equivalentClass` (either way), walking through
    /// blank-node classes too.
    pub implying_types: BTreeMap<Iri, BTreeSet<Iri>>,
    /// Some resource is typed with a blank node: class atoms must keep the path form.
    pub has_blank_types: bool,
    /// The universe, sorted; an individual's id is its index here. The whole active domain,
    /// or under a neighbourhood scope the seeds and the individuals reachable from them.
    pub individuals: Vec<Iri>,
    /// Which universe `individuals` is.
    pub scope: ScopeReport,
    #[serde(skip)]
    pub(crate) individual_index: HashMap<Iri, IndividualId>,
    /// Under a neighbourhood scope without blank-node types: every named type asserted for
    /// the universe's individuals, so that class atoms over it need no query (`None`: ask).
    #[serde(skip)]
    pub asserted_types: Option<AssertedTypes>,
    /// Under a neighbourhood scope: the data-property values of the universe's individuals,
    /// so that their values need no query (`None`: ask).
    #[serde(skip)]
    pub universe_values: Option<UniverseValues>,
    /// Under a neighbourhood scope: the object-property edges out of the universe's
    /// individuals, so that forward roles' successor lists need no query (`None`: ask).
    #[serde(skip)]
    pub universe_edges: Option<UniverseEdges>,
}

impl Signature {
    /// Interns the individuals (sorted, deduplicated) and builds the index. The tables
    /// indexed by the former universe (asserted types, values, edges) are dropped.
    pub fn set_individuals(&mut self, mut individuals: Vec<Iri>) {
        self.asserted_types = None;
        self.universe_values = None;
        self.universe_edges = None;
        individuals.sort();
        individuals.dedup();
        self.individual_index = individuals
            .iter()
            .enumerate()
            .map(|(i, iri)| (iri.clone(), IndividualId(i as u32)))
            .collect();
        self.individuals = individuals;
    }

    /// The same schema over another universe: `individuals` (sorted, deduplicated) interned
    /// instead of this signature's, without asserted typings (they describe the old
    /// universe). Cheap whatever the old universe's size: its individuals are not copied.
    pub fn over_individuals(&self, individuals: Vec<Iri>) -> Signature {
        let mut sig = Signature {
            classes: self.classes.clone(),
            schema_classes: self.schema_classes.clone(),
            superclasses: self.superclasses.clone(),
            equivalent_classes: self.equivalent_classes.clone(),
            object_properties: self.object_properties.clone(),
            data_properties: self.data_properties.clone(),
            disjoint_classes: self.disjoint_classes.clone(),
            complement_classes: self.complement_classes.clone(),
            implying_types: self.implying_types.clone(),
            has_blank_types: self.has_blank_types,
            individuals: Vec::new(),
            scope: self.scope.clone(),
            individual_index: HashMap::new(),
            asserted_types: None,
            universe_values: None,
            universe_edges: None,
        };
        sig.set_individuals(individuals);
        sig.scope.individuals = sig.individual_count();
        sig
    }

    /// The named types whose instances are instances of `class` (just `class` when the
    /// hierarchy says nothing about it).
    pub fn types_implying(&self, class: &Iri) -> BTreeSet<Iri> {
        self.implying_types
            .get(class)
            .cloned()
            .unwrap_or_else(|| BTreeSet::from([class.clone()]))
    }

    /// Not a vocabulary IRI nor one of the signature's classes or properties (schema entities
    /// are never individuals, even where they appear in role assertions), nor one of
    /// oxilearn's own resources (`urn:oxilearn:…`: models, runs, predictions, staging).
    pub fn may_be_individual(&self, iri: &Iri) -> bool {
        !super::is_vocabulary(iri.as_str())
            && !iri.as_str().starts_with(crate::oxl::OWN_PREFIX)
            && !self.classes.contains(iri)
            && !self.object_properties.contains_key(iri)
            && !self.data_properties.contains_key(iri)
    }

    pub fn individual_count(&self) -> usize {
        self.individuals.len()
    }

    pub fn individual_id(&self, iri: &str) -> Option<IndividualId> {
        self.individual_index.get(&Iri::new(iri)).copied()
    }

    pub fn individual_iri(&self, id: IndividualId) -> Option<&Iri> {
        self.individuals.get(id.index())
    }

    /// The whole active domain as a set.
    pub fn all_individuals(&self) -> IndividualSet {
        IndividualSet::full(self.individual_count())
    }

    /// An empty set over this signature's universe.
    pub fn empty_set(&self) -> IndividualSet {
        IndividualSet::empty(self.individual_count())
    }

    /// A set from IRIs; the IRIs that are not individuals are returned as the error.
    pub fn set_of<'a>(
        &self,
        iris: impl IntoIterator<Item = &'a str>,
    ) -> Result<IndividualSet, Vec<String>> {
        let mut set = self.empty_set();
        let mut unknown = Vec::new();
        for iri in iris {
            match self.individual_id(iri) {
                Some(id) => set.insert(id),
                None => unknown.push(iri.to_string()),
            }
        }
        if unknown.is_empty() {
            Ok(set)
        } else {
            Err(unknown)
        }
    }

    /// IRIs of a set, in id (= IRI) order.
    pub fn iris_of<'a>(&'a self, set: &'a IndividualSet) -> impl Iterator<Item = &'a Iri> + 'a {
        set.iter().filter_map(|id| self.individual_iri(id))
    }

    /// All named superclasses of `class` (reflexive, transitive; cycle-safe).
    pub fn superclasses_of(&self, class: &Iri) -> BTreeSet<Iri> {
        closure(class, |c| self.superclasses.get(c))
    }

    /// Direct named subclasses (inverse of `superclasses`).
    pub fn subclasses(&self) -> BTreeMap<Iri, BTreeSet<Iri>> {
        let mut subs: BTreeMap<Iri, BTreeSet<Iri>> = BTreeMap::new();
        for (sub, sups) in &self.superclasses {
            for sup in sups {
                subs.entry(sup.clone()).or_default().insert(sub.clone());
            }
        }
        subs
    }

    /// Classes whose instances are provably not instances of `class`: classes declared
    /// disjoint with (or complements of) any superclass of `class`. Their subclasses are
    /// covered by the `rdfs:subClassOf*` path when the oracle queries them.
    pub fn disjoint_with(&self, class: &Iri) -> BTreeSet<Iri> {
        let mut out = BTreeSet::new();
        for sup in self.superclasses_of(class) {
            if let Some(ds) = self.disjoint_classes.get(&sup) {
                out.extend(ds.iter().cloned());
            }
            for (a, b) in &self.complement_classes {
                if *a == sup {
                    out.insert(b.clone());
                }
                if *b == sup {
                    out.insert(a.clone());
                }
            }
        }
        out
    }

    /// Length of the longest chain of strict subclass edges (0 for a flat vocabulary).
    pub fn hierarchy_depth(&self) -> usize {
        let mut memo: HashMap<&Iri, usize> = HashMap::new();
        let mut on_path: BTreeSet<&Iri> = BTreeSet::new();
        self.classes
            .iter()
            .map(|c| self.depth_from(c, &mut memo, &mut on_path))
            .max()
            .unwrap_or(0)
    }

    fn depth_from<'a>(
        &'a self,
        class: &'a Iri,
        memo: &mut HashMap<&'a Iri, usize>,
        on_path: &mut BTreeSet<&'a Iri>,
    ) -> usize {
        if let Some(&d) = memo.get(class) {
            return d;
        }
        if !on_path.insert(class) {
            return 0; // equivalence cycle: no extra depth
        }
        let mut best = 0;
        if let Some(sups) = self.superclasses.get(class) {
            for sup in sups {
                if on_path.contains(sup) {
                    continue;
                }
                best = best.max(1 + self.depth_from(sup, memo, on_path));
            }
        }
        on_path.remove(class);
        memo.insert(class, best);
        best
    }

    pub fn is_object_property(&self, iri: &Iri) -> bool {
        self.object_properties.contains_key(iri)
    }

    pub fn is_data_property(&self, iri: &Iri) -> bool {
        self.data_properties.contains_key(iri)
    }

    /// A data property with all its sub-properties (reflexive, transitive).
    pub fn data_property_closure(&self, property: &Iri) -> BTreeSet<Iri> {
        let mut subs: BTreeMap<&Iri, Vec<&Iri>> = BTreeMap::new();
        for (p, info) in &self.data_properties {
            for sup in &info.super_properties {
                subs.entry(sup).or_default().push(p);
            }
        }
        let mut out = BTreeSet::from([property.clone()]);
        let mut todo = vec![property.clone()];
        while let Some(p) = todo.pop() {
            for s in subs.get(&p).into_iter().flatten() {
                if out.insert((*s).clone()) {
                    todo.push((*s).clone());
                }
            }
        }
        out
    }
}

/// Reflexive-transitive closure over a successor function.
pub(crate) fn closure<'a, F, I>(start: &Iri, next: F) -> BTreeSet<Iri>
where
    F: Fn(&Iri) -> Option<I>,
    I: IntoIterator<Item = &'a Iri>,
{
    let mut out = BTreeSet::from([start.clone()]);
    let mut todo = vec![start.clone()];
    while let Some(c) = todo.pop() {
        if let Some(ns) = next(&c) {
            for n in ns {
                if out.insert(n.clone()) {
                    todo.push(n.clone());
                }
            }
        }
    }
    out
}

impl Serialize for Iri {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(self.as_str())
    }
}

impl Signature {
    /// A property with all its super-properties (object or data; reflexive, transitive).
    pub fn super_property_closure(&self, property: &Iri) -> BTreeSet<Iri> {
        closure(property, |p| {
            self.object_properties
                .get(p)
                .map(|i| &i.super_properties)
                .or_else(|| self.data_properties.get(p).map(|i| &i.super_properties))
        })
    }
}

//! The reference evaluator: the oracle's semantics computed directly over an in-memory copy
//! of the graph, with no SPARQL. Slow and simple on purpose; tests check that the SPARQL
//! oracle (embedded or remote) agrees with it on thousands of random concepts.
//!
//! Concepts are evaluated to sets over every node of the graph (IRIs, blank nodes, literals),
//! mirroring how the SPARQL filters treat any term a variable is bound to; answers are then
//! restricted to the examples asked about.

use std::collections::{BTreeSet, HashMap};
use std::sync::{Arc, Mutex};

use fixedbitset::FixedBitSet;
use oxigraph::model::{GraphNameRef, Term};
use oxigraph::store::Store;

use super::sparql::Polarity;
use super::{
    IndividualId, IndividualSet, MembershipOracle, OracleError, OracleStats, RoleExpansion,
    Signature, TruthSets,
};
use crate::concept::{Concept, DataRange, Iri, Literal, Role};
use crate::oracle::datatypes::{compares_by_value, datatype_family, integer_range, numeric_value};
use crate::oracle::sparql_oracle::concept_literal;

const RDF_TYPE: &str = "http://www.w3.org/1999/02/22-rdf-syntax-ns#type";
const SUBCLASS: &str = "http://www.w3.org/2000/01/rdf-schema#subClassOf";
const EQUIVALENT: &str = "http://www.w3.org/2002/07/owl#equivalentClass";

type NodeSet = FixedBitSet;
/// Distinct successors per node.
type Successors = HashMap<u32, BTreeSet<u32>>;

pub struct ReferenceOracle {
    signature: Arc<Signature>,
    nodes: Vec<Term>,
    node_index: HashMap<Term, u32>,
    /// Triples of the default graph by predicate IRI: (subject, object) node ids.
    by_predicate: HashMap<String, Vec<(u32, u32)>>,
    roles: Mutex<HashMap<Role, Arc<Successors>>>,
}

impl ReferenceOracle {
    /// Copies the knowledge base of `store` into memory: the default graph, or the union of
    /// all graphs when there are named graphs (as [`super::backend::EmbeddedBackend`] does).
    pub fn new(store: &Store, signature: Arc<Signature>) -> Result<Self, OracleError> {
        let mut oracle = ReferenceOracle {
            signature,
            nodes: Vec::new(),
            node_index: HashMap::new(),
            by_predicate: HashMap::new(),
            roles: Mutex::new(HashMap::new()),
        };
        let union = store.named_graphs().next().is_some();
        let graph = (!union).then_some(GraphNameRef::DefaultGraph);
        for quad in store.quads_for_pattern(None, None, None, graph) {
            let quad = quad.map_err(|e| OracleError::Backend {
                backend: "reference copy of the store".into(),
                message: e.to_string(),
                query: String::new(),
            })?;
            let s = oracle.intern(Term::from(quad.subject));
            let o = oracle.intern(quad.object);
            oracle
                .by_predicate
                .entry(quad.predicate.as_str().to_string())
                .or_default()
                .push((s, o));
        }
        Ok(oracle)
    }

    fn intern(&mut self, t: Term) -> u32 {
        if let Some(&i) = self.node_index.get(&t) {
            return i;
        }
        let i = self.nodes.len() as u32;
        self.nodes.push(t.clone());
        self.node_index.insert(t, i);
        i
    }

    fn n(&self) -> usize {
        self.nodes.len()
    }

    fn empty(&self) -> NodeSet {
        FixedBitSet::with_capacity(self.n())
    }

    fn full(&self) -> NodeSet {
        let mut s = self.empty();
        s.insert_range(..);
        s
    }

    fn node_of(&self, iri: &str) -> Option<u32> {
        self.node_index
            .get(&Term::NamedNode(oxigraph::model::NamedNode::new_unchecked(
                iri,
            )))
            .copied()
    }

    fn is_iri(&self, i: u32) -> bool {
        matches!(self.nodes[i as usize], Term::NamedNode(_))
    }

    fn edges(&self, p: &str) -> &[(u32, u32)] {
        self.by_predicate.get(p).map(Vec::as_slice).unwrap_or(&[])
    }

    /// Instances of a named class: typed with a class that reaches it through
    /// `(rdfs:subClassOf | owl:equivalentClass | ^owl:equivalentClass)*`.
    fn instances_of(&self, class: &str) -> NodeSet {
        let mut out = self.empty();
        let Some(target) = self.node_of(class) else {
            return out;
        };
        let mut below = self.empty();
        below.insert(target as usize);
        let mut todo = vec![target];
        while let Some(c) = todo.pop() {
            let mut visit = |n: u32| {
                if !below.contains(n as usize) {
                    below.insert(n as usize);
                    todo.push(n);
                }
            };
            for &(s, o) in self.edges(SUBCLASS) {
                if o == c {
                    visit(s);
                }
            }
            for &(s, o) in self.edges(EQUIVALENT) {
                if o == c {
                    visit(s);
                }
                if s == c {
                    visit(o);
                }
            }
        }
        for &(x, t) in self.edges(RDF_TYPE) {
            if below.contains(t as usize) {
                out.insert(x as usize);
            }
        }
        out
    }

    /// `owl:Thing` is ⊤ and `owl:Nothing` ⊥ (as in the normal form); other classes by types.
    fn class_extension(&self, class: &str) -> NodeSet {
        match class {
            crate::concept::vocab::OWL_THING => self.full(),
            crate::concept::vocab::OWL_NOTHING => self.empty(),
            _ => self.instances_of(class),
        }
    }

    fn successors(&self, role: &Role) -> Arc<Successors> {
        if let Ok(map) = self.roles.lock()
            && let Some(s) = map.get(role)
        {
            return Arc::clone(s);
        }
        let expansion = self.signature.role_expansion(role);
        let computed = Arc::new(self.expand(&expansion));
        if let Ok(mut map) = self.roles.lock() {
            map.insert(role.clone(), Arc::clone(&computed));
        }
        computed
    }

    fn expand(&self, expansion: &RoleExpansion) -> Successors {
        let mut all: Successors = HashMap::new();
        for term in &expansion.terms {
            let mut base: Successors = HashMap::new();
            for edge in &term.edges {
                for &(s, o) in self.edges(edge.property.as_str()) {
                    let (a, b) = if edge.reversed { (o, s) } else { (s, o) };
                    base.entry(a).or_default().insert(b);
                }
            }
            let rel = if term.transitive {
                transitive_closure(&base)
            } else {
                base
            };
            for (a, bs) in rel {
                all.entry(a).or_default().extend(bs);
            }
        }
        // The SPARQL guard keeps IRI ends only; without non-IRI ends it is a no-op.
        all.retain(|a, _| self.is_iri(*a));
        for bs in all.values_mut() {
            bs.retain(|b| self.is_iri(*b));
        }
        all.retain(|_, bs| !bs.is_empty());
        all
    }

    /// Nodes with at least `n` distinct successors in `filler` (`None`: more than u32::MAX,
    /// which nothing has).
    fn at_least_opt(&self, n: Option<u32>, succ: &Successors, filler: &NodeSet) -> NodeSet {
        match n {
            Some(n) => self.at_least(n, succ, filler),
            None => self.empty(),
        }
    }

    /// Nodes with at least `n` distinct successors in `filler`.
    fn at_least(&self, n: u32, succ: &Successors, filler: &NodeSet) -> NodeSet {
        let mut out = self.empty();
        if n == 0 {
            return self.full();
        }
        for (a, bs) in succ {
            if bs.iter().filter(|b| filler.contains(**b as usize)).count() >= n as usize {
                out.insert(*a as usize);
            }
        }
        out
    }

    fn complement(&self, s: &NodeSet) -> NodeSet {
        let mut out = self.full();
        out.difference_with(s);
        out
    }

    /// Literal values per subject for a data property and its sub-properties.
    fn data_edges(&self, property: &Iri) -> Vec<(u32, u32)> {
        let mut out = Vec::new();
        for p in self.signature.data_property_closure(property) {
            out.extend(
                self.edges(p.as_str())
                    .iter()
                    .filter(|(_, o)| matches!(self.nodes[*o as usize], Term::Literal(_))),
            );
        }
        out
    }

    fn admits(&self, range: &DataRange, value: &Term) -> Result<bool, OracleError> {
        let Term::Literal(l) = value else {
            return Ok(false);
        };
        Ok(match range {
            DataRange::Value(lit)
                if lit.datatype.as_str() == crate::concept::vocab::XSD_BOOLEAN =>
            {
                concept_literal(l)
                    .as_bool()
                    .is_some_and(|b| Some(b) == lit.as_bool())
            }
            DataRange::Value(lit) if compares_by_value(lit.datatype.as_str()) => {
                match (
                    numeric_value(l.value(), l.datatype().as_str()),
                    numeric_value(&lit.lexical, lit.datatype.as_str()),
                ) {
                    (Some(a), Some(b)) => a == b,
                    _ => false,
                }
            }
            DataRange::Value(lit) => concept_literal(l) == *lit,
            DataRange::Datatype(dt) => match datatype_family(dt.as_str()) {
                None => true,
                Some(types) => {
                    types.iter().any(|t| t == l.datatype().as_str())
                        && integer_range(dt.as_str()).is_none_or(|(lo, hi)| {
                            // Integer lexical forms within the datatype's range.
                            l.value()
                                .trim_start_matches('+')
                                .parse::<i128>()
                                .is_ok_and(|n| {
                                    lo.is_none_or(|lo| n >= lo) && hi.is_none_or(|hi| n <= hi)
                                })
                        })
                }
            },
            DataRange::Numeric { min, max, .. } => {
                let Some(x) = numeric_value(l.value(), l.datatype().as_str()) else {
                    return Ok(false);
                };
                let lower = min.is_none_or(|b| {
                    if b.inclusive {
                        x >= b.value.get()
                    } else {
                        x > b.value.get()
                    }
                });
                let upper = max.is_none_or(|b| {
                    if b.inclusive {
                        x <= b.value.get()
                    } else {
                        x < b.value.get()
                    }
                });
                lower && upper
            }
        })
    }

    fn data_members(&self, property: &Iri, range: &DataRange) -> Result<NodeSet, OracleError> {
        let mut out = self.empty();
        for (s, o) in self.data_edges(property) {
            if self.admits(range, &self.nodes[o as usize])? {
                out.insert(s as usize);
            }
        }
        Ok(out)
    }

    fn one_of(&self, individuals: &[Iri]) -> NodeSet {
        let mut out = self.empty();
        for i in individuals {
            if let Some(n) = self.node_of(i.as_str()) {
                out.insert(n as usize);
            }
        }
        out
    }

    fn has_value(&self, role: &Role, individual: &Iri) -> NodeSet {
        let mut out = self.empty();
        if let Some(a) = self.node_of(individual.as_str()) {
            for (x, bs) in self.successors(role).iter() {
                if bs.contains(&a) {
                    out.insert(*x as usize);
                }
            }
        }
        out
    }

    fn has_self(&self, role: &Role) -> NodeSet {
        let mut out = self.empty();
        for (x, bs) in self.successors(role).iter() {
            if bs.contains(x) {
                out.insert(*x as usize);
            }
        }
        out
    }

    /// Closed-world extension of a concept over all nodes.
    pub fn extension(&self, c: &Concept) -> Result<NodeSet, OracleError> {
        Ok(match c {
            Concept::Top => self.full(),
            Concept::Bottom => self.empty(),
            Concept::Class(a) => self.class_extension(a.as_str()),
            Concept::Not(inner) => self.complement(&self.extension(inner)?),
            Concept::And(cs) => {
                let mut acc = self.full();
                for d in cs {
                    acc.intersect_with(&self.extension(d)?);
                }
                acc
            }
            Concept::Or(cs) => {
                let mut acc = self.empty();
                for d in cs {
                    acc.union_with(&self.extension(d)?);
                }
                acc
            }
            Concept::Some { role, filler } => {
                self.at_least(1, &self.successors(role), &self.extension(filler)?)
            }
            Concept::Only { role, filler } => {
                let bad = self.complement(&self.extension(filler)?);
                self.complement(&self.at_least(1, &self.successors(role), &bad))
            }
            Concept::Min { n, role, filler } => {
                self.at_least(*n, &self.successors(role), &self.extension(filler)?)
            }
            Concept::Max { n, role, filler } => self.complement(&self.at_least_opt(
                n.checked_add(1),
                &self.successors(role),
                &self.extension(filler)?,
            )),
            Concept::Exactly { n, role, filler } => {
                let f = self.extension(filler)?;
                let succ = self.successors(role);
                let mut out = self.at_least(*n, &succ, &f);
                out.difference_with(&self.at_least_opt(n.checked_add(1), &succ, &f));
                out
            }
            Concept::HasValue { role, individual } => self.has_value(role, individual),
            Concept::OneOf(individuals) => self.one_of(individuals),
            Concept::HasSelf(role) => self.has_self(role),
            Concept::Data { property, range } => self.data_members(property, range)?,
        })
    }

    fn provably_not(&self, class: &Iri) -> NodeSet {
        let mut out = self.empty();
        for d in self.signature.disjoint_with(class) {
            out.union_with(&self.instances_of(d.as_str()));
        }
        out
    }

    fn outside_domain(&self, role: &Role) -> NodeSet {
        let mut out = self.empty();
        for p in self.signature.super_property_closure(&role.property) {
            if let Some(info) = self.signature.object_properties.get(&p) {
                let classes = if role.inverse {
                    &info.ranges
                } else {
                    &info.domains
                };
                for d in classes {
                    out.union_with(&self.provably_not(d));
                }
            }
        }
        out
    }

    fn functional(&self, role: &Role) -> bool {
        self.signature
            .object_properties
            .get(&role.property)
            .is_some_and(|i| {
                if role.inverse {
                    i.inverse_functional
                } else {
                    i.functional
                }
            })
    }

    fn union(mut a: NodeSet, b: &NodeSet) -> NodeSet {
        a.union_with(b);
        a
    }

    /// Nodes with an r-successor other than `other(x)`.
    fn successor_other_than(&self, role: &Role, other: impl Fn(u32) -> Option<u32>) -> NodeSet {
        let mut out = self.empty();
        for (x, bs) in self.successors(role).iter() {
            if bs.iter().any(|b| Some(*b) != other(*x)) {
                out.insert(*x as usize);
            }
        }
        out
    }

    /// Three-valued truth set of a concept over all nodes (the table in
    /// `oracle::sparql::truth`).
    pub fn truth_extension(&self, c: &Concept, pol: Polarity) -> Result<NodeSet, OracleError> {
        use Polarity::{False as F, True as T};
        if let Some(constant) = crate::oracle::sparql::vocabulary_constant(c) {
            return self.truth_extension(&constant, pol);
        }
        let t = |c: &Concept| self.truth_extension(c, T);
        let f = |c: &Concept| self.truth_extension(c, F);
        Ok(match (c, pol) {
            (Concept::Top, T) | (Concept::Bottom, F) => self.full(),
            (Concept::Top, F) | (Concept::Bottom, T) => self.empty(),
            (Concept::Class(a), T) => self.class_extension(a.as_str()),
            (Concept::Class(a), F) => self.provably_not(a),
            (Concept::Not(inner), _) => self.truth_extension(inner, pol.flip())?,
            (Concept::And(cs), T) | (Concept::Or(cs), F) => {
                let mut acc = self.full();
                for d in cs {
                    acc.intersect_with(&self.truth_extension(d, pol)?);
                }
                acc
            }
            (Concept::And(cs), F) | (Concept::Or(cs), T) => {
                let mut acc = self.empty();
                for d in cs {
                    acc.union_with(&self.truth_extension(d, pol)?);
                }
                acc
            }
            (Concept::Some { role, filler }, T) => {
                self.at_least(1, &self.successors(role), &t(filler)?)
            }
            (Concept::Some { role, filler }, F) => self.no_successor_in(role, filler)?,
            (Concept::Only { role, filler }, T) => self.all_successors_in(role, filler)?,
            (Concept::Only { role, filler }, F) => {
                self.at_least(1, &self.successors(role), &f(filler)?)
            }
            (Concept::Min { n, role, filler }, T) => {
                self.at_least(*n, &self.successors(role), &t(filler)?)
            }
            (Concept::Min { n, role, filler }, F) => self.min_false(*n, role, filler)?,
            (Concept::Max { n, role, filler }, T) => self.max_true(*n, role, filler)?,
            (Concept::Max { n, role, filler }, F) => {
                self.at_least_opt(n.checked_add(1), &self.successors(role), &t(filler)?)
            }
            (Concept::Exactly { n, role, filler }, T) => {
                let mut out = self.at_least(*n, &self.successors(role), &t(filler)?);
                out.intersect_with(&self.max_true(*n, role, filler)?);
                out
            }
            (Concept::Exactly { n, role, filler }, F) => Self::union(
                self.min_false(*n, role, filler)?,
                &self.at_least_opt(n.checked_add(1), &self.successors(role), &t(filler)?),
            ),
            (Concept::HasValue { role, individual }, T) => self.has_value(role, individual),
            (Concept::HasValue { role, individual }, F) => {
                let mut out = self.outside_domain(role);
                if self.functional(role) {
                    let a = self.node_of(individual.as_str());
                    out.union_with(&self.successor_other_than(role, |_| a));
                }
                out
            }
            (Concept::OneOf(individuals), T) => self.one_of(individuals),
            (Concept::OneOf(individuals), F) => self.complement(&self.one_of(individuals)),
            (Concept::HasSelf(role), T) => self.has_self(role),
            (Concept::HasSelf(role), F) => {
                let mut out = self.outside_domain(role);
                if self.functional(role) {
                    out.union_with(&self.successor_other_than(role, Some));
                }
                out
            }
            (Concept::Data { property, range }, T) => self.data_members(property, range)?,
            (Concept::Data { property, range }, F) => self.data_false(property, range)?,
        })
    }

    /// F(∃r.C) (`pol = False`) and T(∀r.C) (`pol = True`), as in `sparql::truth`.
    fn domain_or_functional_successor(
        &self,
        role: &Role,
        filler: &Concept,
        pol: Polarity,
    ) -> Result<NodeSet, OracleError> {
        let mut out = self.outside_domain(role);
        if self.functional(role) {
            out.union_with(&self.at_least(
                1,
                &self.successors(role),
                &self.truth_extension(filler, pol)?,
            ));
        }
        Ok(out)
    }

    fn no_successor_in(&self, role: &Role, filler: &Concept) -> Result<NodeSet, OracleError> {
        self.domain_or_functional_successor(role, filler, Polarity::False)
    }

    fn all_successors_in(&self, role: &Role, filler: &Concept) -> Result<NodeSet, OracleError> {
        self.domain_or_functional_successor(role, filler, Polarity::True)
    }

    fn min_false(&self, n: u32, role: &Role, filler: &Concept) -> Result<NodeSet, OracleError> {
        if n == 0 {
            return Ok(self.empty());
        }
        if self.functional(role) && n >= 2 {
            return Ok(self.full());
        }
        self.no_successor_in(role, filler)
    }

    fn max_true(&self, n: u32, role: &Role, filler: &Concept) -> Result<NodeSet, OracleError> {
        if self.functional(role) && n >= 1 {
            return Ok(self.full());
        }
        if n == 0 {
            return self.all_successors_in(role, &Concept::not(filler.clone()));
        }
        Ok(self.outside_domain(role))
    }

    fn data_false(&self, property: &Iri, range: &DataRange) -> Result<NodeSet, OracleError> {
        let mut out = self.empty();
        for p in self.signature.super_property_closure(property) {
            if let Some(info) = self.signature.data_properties.get(&p) {
                for d in &info.domains {
                    out.union_with(&self.provably_not(d));
                }
            }
        }
        let functional = self
            .signature
            .data_properties
            .get(property)
            .is_some_and(|i| i.functional);
        if functional {
            let edges = self.data_edges(property);
            let mut has_value = self.empty();
            for (s, _) in &edges {
                has_value.insert(*s as usize);
            }
            has_value.difference_with(&self.data_members(property, range)?);
            out.union_with(&has_value);
        }
        Ok(out)
    }

    /// Restricts a node set to the examples, as individual ids.
    fn restrict(&self, nodes: &NodeSet, among: &IndividualSet) -> IndividualSet {
        let mut out = IndividualSet::empty(among.universe());
        for id in among.iter() {
            if let Some(iri) = self.signature.individual_iri(id)
                && let Some(n) = self.node_of(iri.as_str())
                && nodes.contains(n as usize)
            {
                out.insert(id);
            }
        }
        out
    }
}

fn transitive_closure(base: &Successors) -> Successors {
    let mut out: Successors = HashMap::new();
    for &start in base.keys() {
        let mut seen = BTreeSet::new();
        let mut todo: Vec<u32> = base[&start].iter().copied().collect();
        while let Some(n) = todo.pop() {
            if seen.insert(n)
                && let Some(next) = base.get(&n)
            {
                todo.extend(next.iter().copied());
            }
        }
        out.insert(start, seen);
    }
    out
}

impl MembershipOracle for ReferenceOracle {
    fn signature(&self) -> &Signature {
        &self.signature
    }

    fn covered(&self, c: &Concept, among: &IndividualSet) -> Result<IndividualSet, OracleError> {
        Ok(self.restrict(&self.extension(c)?, among))
    }

    fn truth(&self, c: &Concept, among: &IndividualSet) -> Result<TruthSets, OracleError> {
        Ok(TruthSets {
            true_set: self.restrict(&self.truth_extension(c, Polarity::True)?, among),
            false_set: self.restrict(&self.truth_extension(c, Polarity::False)?, among),
        })
    }

    fn data_values(
        &self,
        property: &Iri,
        among: &IndividualSet,
    ) -> Result<Vec<(IndividualId, Literal)>, OracleError> {
        let mut out = Vec::new();
        for (s, o) in self.data_edges(property) {
            if let (Term::NamedNode(x), Term::Literal(l)) =
                (&self.nodes[s as usize], &self.nodes[o as usize])
                && let Some(id) = self.signature.individual_id(x.as_str())
                && among.contains(id)
            {
                out.push((id, concept_literal(l)));
            }
        }
        out.sort();
        out.dedup();
        Ok(out)
    }

    fn stats(&self) -> OracleStats {
        OracleStats::default()
    }
}

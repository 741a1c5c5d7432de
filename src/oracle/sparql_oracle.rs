//! The uncached oracle: compiles each question to one SPARQL query per chunk of examples.

use std::sync::Arc;
use std::time::Instant;

use oxigraph::model::{NamedNode, Term};
use spargebra::Query;
use spargebra::term::{GroundTerm, Variable};

use super::backend::{SolutionTable, SparqlBackend};
use super::sparql::{
    BooleanShape, ClassAtoms, Compiler, CountingShape, Polarity, QueryShapes, TransitiveShape,
    fill_in_list, fill_values, fixed_query, vocabulary_constant,
};
use super::{
    IndividualId, IndividualScope, IndividualSet, MembershipOracle, OracleError, OracleStats,
    Signature, StatsCounter, Successors, TruthSets, load_signature_in,
};
use crate::concept::{Concept, Iri, Literal, Role};

/// Tuning of the query shapes.
#[derive(Clone, Debug)]
pub struct OracleOptions {
    /// Examples per `VALUES` block. Remote endpoints fail on thousands of bindings
    /// (Virtuoso: ~4,095 terms), so the default stays well below.
    pub values_chunk: usize,
    /// How class atoms are written in queries.
    pub class_atoms: ClassAtoms,
    /// Concepts answered by one query in a batch (`covered_batch`): fewer round trips to a
    /// remote endpoint. 1 (the default) sends a query per concept: on the embedded store a
    /// packed query measured ~6× slower per concept than separate ones.
    pub pack_size: usize,
    /// Compile counting restrictions with n ≥ 2 (grouped sub-selects). Off for endpoints whose
    /// capability probe shows they cannot answer them: such concepts are then refused with a
    /// clear error instead of getting a wrong answer.
    pub counting: bool,
    /// The query shapes to write (`None`, the default: those the backend's capability probe
    /// picked, or the standard ones for a backend never probed, such as the embedded store).
    pub shapes: Option<QueryShapes>,
    /// Answer three-valued questions (on by default: with the shapes the probe picks,
    /// Virtuoso 7 gives the reference truth sets too). Off: `truth` is refused clearly.
    pub three_valued: bool,
    /// Which individuals the signature interns: the whole active domain (the default), or a
    /// learning run's examples and their neighbourhood (cost independent of the ABox).
    pub scope: IndividualScope,
}

impl Default for OracleOptions {
    fn default() -> Self {
        OracleOptions {
            values_chunk: 1000,
            class_atoms: ClassAtoms::default(),
            pack_size: 1,
            counting: true,
            shapes: None,
            three_valued: true,
            scope: IndividualScope::default(),
        }
    }
}

/// A membership oracle over any SPARQL backend.
pub struct SparqlOracle<B: SparqlBackend> {
    backend: B,
    signature: Arc<Signature>,
    options: OracleOptions,
    /// The shapes actually written (options, else the probe's choice, else the standard).
    shapes: QueryShapes,
    counters: StatsCounter,
}

impl<B: SparqlBackend> SparqlOracle<B> {
    /// Reads the signature from the backend (a dozen fixed queries, over `options.scope`)
    /// and wraps it.
    pub fn new(backend: B, options: OracleOptions) -> Result<Self, OracleError> {
        let signature = Arc::new(load_signature_in(&backend, &options.scope)?);
        Ok(Self::with_signature(backend, signature, options))
    }

    /// Reuses an already loaded signature (several oracles over one store).
    pub fn with_signature(backend: B, signature: Arc<Signature>, options: OracleOptions) -> Self {
        let mut shapes = options
            .shapes
            .or_else(|| backend.probed().map(|caps| caps.shapes()))
            .unwrap_or_default();
        if !options.counting {
            shapes.counting = CountingShape::Unavailable;
        }
        SparqlOracle {
            backend,
            signature,
            options,
            shapes,
            counters: StatsCounter::default(),
        }
    }

    pub fn backend(&self) -> &B {
        &self.backend
    }

    /// Whether counting restrictions with n ≥ 2 are compiled (see [`OracleOptions::counting`]).
    pub fn counts(&self) -> bool {
        self.shapes.counting != CountingShape::Unavailable
    }

    /// The query shapes this oracle writes.
    pub fn shapes(&self) -> QueryShapes {
        self.shapes
    }

    pub fn signature_ref(&self) -> &Signature {
        &self.signature
    }

    pub fn shared_signature(&self) -> Arc<Signature> {
        Arc::clone(&self.signature)
    }

    /// The query that `covered` sends for one chunk of examples (for logs and error reports).
    pub fn covered_query(&self, c: &Concept, among: &IndividualSet) -> Result<Query, OracleError> {
        self.compiler().covered_query(c, &self.example_nodes(among))
    }

    /// The queries `truth` sends for one chunk of examples: `T(c)`, then `F(c)`.
    pub fn truth_queries(
        &self,
        c: &Concept,
        among: &IndividualSet,
    ) -> Result<(Query, Query), OracleError> {
        let compiler = self.compiler();
        let x = Variable::new_unchecked("x");
        let nodes = self.example_nodes(among);
        let t = compiler.select_members(compiler.truth(c, &x, Polarity::True)?, &nodes);
        let f = compiler.select_members(compiler.truth(c, &x, Polarity::False)?, &nodes);
        Ok((t, f))
    }

    /// The closed-world instances of `c` over the whole KB (its active domain), without an
    /// interned universe: the store lists candidates from the concept itself (see
    /// [`Compiler::candidates_queries`]), then their membership is asked as `covered` asks it,
    /// `chunk` candidates at a time, until more than `limit` members are found. The cost is
    /// that of the candidates (the whole active domain only for `⊤`, `¬C`, `∀r.C`, `≤n r.C`).
    /// Sorted by IRI; schema entities are dropped as the signature drops them. With a limit,
    /// which members are listed follows the candidates' order (sorted by IRI).
    pub fn instances_in_kb(
        &self,
        c: &Concept,
        limit: Option<usize>,
        chunk: usize,
    ) -> Result<Vec<Iri>, OracleError> {
        self.check_supported(c)?;
        let compiler = self.compiler();
        let mut used = Vec::new();
        roles_of(c, &mut used);
        let roles: Vec<Iri> = used.into_iter().map(|r| r.property.clone()).collect();
        let mut candidates = Vec::new();
        let mut within_domain = true;
        for (query, within) in compiler.candidates_queries(c, &roles) {
            candidates.extend(self.iris_in(&self.run(&query)?));
            within_domain &= within;
        }
        candidates.retain(|i| self.signature.may_be_individual(i));
        candidates.sort();
        candidates.dedup();
        let limit = limit.unwrap_or(usize::MAX);
        let mut members = Vec::new();
        for page in candidates.chunks(chunk.max(1)) {
            let page = if within_domain {
                page.to_vec()
            } else {
                let mut inside = Vec::new();
                for part in page.chunks(self.options.values_chunk.max(1)) {
                    let nodes: Vec<NamedNode> = part
                        .iter()
                        .map(|i| NamedNode::new_unchecked(i.as_str()))
                        .collect();
                    for query in compiler.in_domain_queries(&nodes, &roles) {
                        inside.extend(self.iris_in(&self.run(&query)?));
                    }
                }
                inside.sort();
                inside.dedup();
                inside
            };
            members.extend(self.members_among(c, page)?);
            if members.len() >= limit {
                members.truncate(limit);
                break;
            }
        }
        Ok(members)
    }

    /// The members of `c` among `individuals` (sorted), asked through an oracle whose
    /// universe is just them and whose shapes are this one's.
    fn members_among(&self, c: &Concept, individuals: Vec<Iri>) -> Result<Vec<Iri>, OracleError> {
        let page = self.over(individuals);
        let sig = page.signature_ref();
        let covered = page.covered(c, &sig.all_individuals())?;
        Ok(sig.iris_of(&covered).cloned().collect())
    }

    /// An oracle over the same backend, schema, options and query shapes whose universe is
    /// `individuals` (sorted, deduplicated): how a page of candidates the store listed is
    /// asked about without interning the whole KB. Individuals need not be in this oracle's
    /// universe; answers about them are those of the store.
    pub fn over(&self, individuals: Vec<Iri>) -> SparqlOracle<&B> {
        let sig = self.signature.over_individuals(individuals);
        let options = OracleOptions {
            shapes: Some(self.shapes),
            ..self.options.clone()
        };
        SparqlOracle::with_signature(&self.backend, Arc::new(sig), options)
    }

    /// The IRIs of the `?x` column.
    fn iris_in(&self, table: &SolutionTable) -> Vec<Iri> {
        table
            .column_values("x")
            .filter_map(|t| match t {
                Term::NamedNode(n) => Some(Iri::new(n.as_str())),
                _ => None,
            })
            .collect()
    }

    /// Runs a query on the backend, counted in this oracle's statistics and refused when it
    /// holds more `EXISTS` than the endpoint survives.
    pub fn select(&self, query: &Query) -> Result<SolutionTable, OracleError> {
        self.run(query)
    }

    /// Individuals per `VALUES` block.
    pub fn values_chunk(&self) -> usize {
        self.options.values_chunk.max(1)
    }

    /// Refuses, before anything is sent, a concept this endpoint cannot answer correctly.
    pub fn check_concept(&self, c: &Concept) -> Result<(), OracleError> {
        self.check_supported(c)
    }

    /// The compiler writing this oracle's query shapes.
    pub fn compiler(&self) -> Compiler<'_> {
        Compiler::with_class_atoms(&self.signature, self.options.class_atoms)
            .with_shapes(self.shapes)
    }

    /// A class atom answered from the universe's asserted types, when the signature holds
    /// them and atoms are written with implying types (the `Path` option always asks).
    fn class_from_typings(&self, c: &Concept, among: &IndividualSet) -> Option<IndividualSet> {
        let (Concept::Class(class), Some(typings)) = (c, &self.signature.asserted_types) else {
            return None;
        };
        if self.options.class_atoms == ClassAtoms::Path || self.signature.has_blank_types {
            return None;
        }
        Some(typings.instances_of_any(&self.signature.types_implying(class), among))
    }

    fn example_nodes(&self, among: &IndividualSet) -> Vec<NamedNode> {
        self.signature
            .iris_of(among)
            .map(|i| NamedNode::new_unchecked(i.as_str()))
            .collect()
    }

    /// Refuses, before anything is sent, what this endpoint's shapes cannot answer correctly.
    fn check_supported(&self, c: &Concept) -> Result<(), OracleError> {
        if self.shapes.transitive != TransitiveShape::Unavailable {
            return Ok(());
        }
        let mut roles = Vec::new();
        roles_of(c, &mut roles);
        for role in roles {
            if self
                .signature
                .role_expansion(role)
                .terms
                .iter()
                .any(|t| t.transitive)
            {
                return Err(OracleError::Unsupported(format!(
                    "the role {} is transitive here (by its declaration or a transitive \
                     sub-property), and {} is known to answer transitive paths over \
                     alternatives wrongly or to fail on them; concepts with transitive roles \
                     are unavailable on this endpoint",
                    role.property.as_str(),
                    self.backend.name()
                )));
            }
        }
        Ok(())
    }

    fn run(&self, query: &Query) -> Result<SolutionTable, OracleError> {
        if let Some(limit) = self.shapes.max_exists {
            let text = query.to_string();
            let n = text.matches("EXISTS").count();
            if n > limit {
                return Err(OracleError::Backend {
                    backend: self.backend.name(),
                    message: format!(
                        "not sent: the query holds {n} EXISTS filters, more than the {limit} \
                         this endpoint is known to survive (larger ones crashed it)"
                    ),
                    query: text,
                });
            }
        }
        let started = Instant::now();
        let result = self.backend.select(query);
        StatsCounter::add(&self.counters.queries_sent, 1);
        StatsCounter::add(
            &self.counters.backend_time_ns,
            started.elapsed().as_nanos() as u64,
        );
        if let Ok(table) = &result {
            StatsCounter::add(&self.counters.rows_received, table.rows.len() as u64);
        }
        result
    }

    /// Runs `build(chunk)` for each chunk of `among` and collects the `?x` column as a set.
    fn members_by_chunks(
        &self,
        among: &IndividualSet,
        build: impl Fn(&[NamedNode]) -> Query,
    ) -> Result<IndividualSet, OracleError> {
        let mut out = self.signature.empty_set();
        let nodes = self.example_nodes(among);
        for chunk in nodes.chunks(self.options.values_chunk.max(1)) {
            let table = self.run(&build(chunk))?;
            for term in table.column_values("x") {
                if let Term::NamedNode(n) = term
                    && let Some(id) = self.signature.individual_id(n.as_str())
                {
                    out.insert(id);
                }
            }
        }
        out.intersect_with(among);
        Ok(out)
    }

    /// One query per example chunk for a pack of concepts (see [`Compiler::select_tagged`]).
    fn covered_pack(
        &self,
        pack: &[&Concept],
        among: &IndividualSet,
    ) -> Result<Vec<IndividualSet>, OracleError> {
        let compiler = self.compiler();
        let x = Variable::new_unchecked("x");
        let conditions = pack
            .iter()
            .map(|c| compiler.member(c, &x))
            .collect::<Result<Vec<_>, _>>()?;
        let mut out = vec![self.signature.empty_set(); pack.len()];
        let nodes = self.example_nodes(among);
        for chunk in nodes.chunks(self.options.values_chunk.max(1)) {
            let table = self.run(&compiler.select_tagged(conditions.clone(), chunk))?;
            let (Some(cx), Some(ck)) = (table.column("x"), table.column("k")) else {
                continue;
            };
            for row in &table.rows {
                let (Some(Some(Term::NamedNode(n))), Some(Some(Term::Literal(k)))) =
                    (row.get(cx), row.get(ck))
                else {
                    continue;
                };
                if let (Some(id), Ok(k)) = (
                    self.signature.individual_id(n.as_str()),
                    k.value().parse::<usize>(),
                ) && let Some(set) = out.get_mut(k)
                {
                    set.insert(id);
                }
            }
        }
        for set in &mut out {
            set.intersect_with(among);
        }
        Ok(out)
    }

    /// Closed-world members of `c` among `among` with one query (or one per chunk).
    fn covered_by_query(
        &self,
        c: &Concept,
        among: &IndividualSet,
    ) -> Result<IndividualSet, OracleError> {
        let compiler = self.compiler();
        let x = Variable::new_unchecked("x");
        let condition = compiler.member(c, &x)?;
        self.members_by_chunks(among, |chunk| {
            compiler.select_members(condition.clone(), chunk)
        })
    }

    /// [`BooleanShape::Split`]: the top-level `⊓`, `⊔`, `¬` as set operations over a query per
    /// part. Each later conjunct (disjunct) is asked only about the examples still in (out).
    fn covered_split(
        &self,
        c: &Concept,
        among: &IndividualSet,
    ) -> Result<IndividualSet, OracleError> {
        if among.is_empty() {
            return Ok(among.clone());
        }
        match c {
            Concept::Top => Ok(among.clone()),
            Concept::Bottom => Ok(self.signature.empty_set()),
            Concept::Not(inner) => Ok(among.difference(&self.covered_split(inner, among)?)),
            Concept::And(cs) => {
                let mut out = among.clone();
                for part in cs {
                    out = self.covered_split(part, &out)?;
                }
                Ok(out)
            }
            Concept::Or(cs) => {
                let mut out = self.signature.empty_set();
                for part in cs {
                    let rest = among.difference(&out);
                    out.union_with(&self.covered_split(part, &rest)?);
                }
                Ok(out)
            }
            _ => self.covered_by_query(c, among),
        }
    }

    /// The truth set of `polarity` for `c`, split like [`Self::covered_split`] (Kleene:
    /// `T(⊓)`, `F(⊔)` intersect; `T(⊔)`, `F(⊓)` unite; `¬` swaps the sets).
    fn truth_split(
        &self,
        c: &Concept,
        among: &IndividualSet,
        polarity: Polarity,
    ) -> Result<IndividualSet, OracleError> {
        if among.is_empty() {
            return Ok(among.clone());
        }
        if let Some(constant) = vocabulary_constant(c) {
            return self.truth_split(&constant, among, polarity);
        }
        let (narrowing, parts) = match (c, polarity) {
            (Concept::Top, Polarity::True) | (Concept::Bottom, Polarity::False) => {
                return Ok(among.clone());
            }
            (Concept::Top, Polarity::False) | (Concept::Bottom, Polarity::True) => {
                return Ok(self.signature.empty_set());
            }
            (Concept::Not(inner), _) => return self.truth_split(inner, among, polarity.flip()),
            (Concept::And(cs), Polarity::True) | (Concept::Or(cs), Polarity::False) => (true, cs),
            (Concept::And(cs), Polarity::False) | (Concept::Or(cs), Polarity::True) => (false, cs),
            _ => return self.truth_by_query(c, among, polarity),
        };
        if narrowing {
            let mut out = among.clone();
            for part in parts {
                out = self.truth_split(part, &out, polarity)?;
            }
            Ok(out)
        } else {
            let mut out = self.signature.empty_set();
            for part in parts {
                let rest = among.difference(&out);
                out.union_with(&self.truth_split(part, &rest, polarity)?);
            }
            Ok(out)
        }
    }

    fn truth_set(
        &self,
        c: &Concept,
        among: &IndividualSet,
        polarity: Polarity,
    ) -> Result<IndividualSet, OracleError> {
        match self.shapes.booleans {
            BooleanShape::Inline => self.truth_by_query(c, among, polarity),
            BooleanShape::Split => self.truth_split(c, among, polarity),
        }
    }

    fn truth_by_query(
        &self,
        c: &Concept,
        among: &IndividualSet,
        polarity: Polarity,
    ) -> Result<IndividualSet, OracleError> {
        let compiler = self.compiler();
        let x = Variable::new_unchecked("x");
        let condition = compiler.truth(c, &x, polarity)?;
        self.members_by_chunks(among, |chunk| {
            compiler.select_members(condition.clone(), chunk)
        })
    }
}

impl<B: SparqlBackend> MembershipOracle for SparqlOracle<B> {
    fn signature(&self) -> &Signature {
        &self.signature
    }

    fn covered(&self, c: &Concept, among: &IndividualSet) -> Result<IndividualSet, OracleError> {
        StatsCounter::add(&self.counters.evaluations, 1);
        match c {
            Concept::Top => return Ok(among.clone()),
            Concept::Bottom => return Ok(self.signature.empty_set()),
            _ if among.is_empty() => return Ok(self.signature.empty_set()),
            _ => {}
        }
        if let Some(members) = self.class_from_typings(c, among) {
            return Ok(members);
        }
        self.check_supported(c)?;
        match self.shapes.booleans {
            BooleanShape::Inline => self.covered_by_query(c, among),
            BooleanShape::Split => self.covered_split(c, among),
        }
    }

    /// Packs the batch into queries of `pack_size` concepts, packs in parallel; a pack that
    /// fails is retried concept by concept, so each error lands on its own concept.
    fn covered_batch(
        &self,
        concepts: &[Concept],
        among: &IndividualSet,
    ) -> Vec<Result<IndividualSet, OracleError>> {
        use rayon::prelude::*;
        let pack = self.options.pack_size.max(1);
        if pack == 1 || among.is_empty() || self.shapes.booleans == BooleanShape::Split {
            return concepts
                .par_iter()
                .map(|c| self.covered(c, among))
                .collect();
        }
        StatsCounter::add(&self.counters.evaluations, concepts.len() as u64);
        let mut results: Vec<Option<Result<IndividualSet, OracleError>>> =
            concepts.iter().map(|_| None).collect();
        let mut queried = Vec::new();
        for (i, c) in concepts.iter().enumerate() {
            match c {
                Concept::Top => results[i] = Some(Ok(among.clone())),
                Concept::Bottom => results[i] = Some(Ok(self.signature.empty_set())),
                _ => match self.class_from_typings(c, among) {
                    Some(members) => results[i] = Some(Ok(members)),
                    None => queried.push(i),
                },
            }
        }
        let packs: Vec<&[usize]> = queried.chunks(pack).collect();
        let answers: Vec<(usize, Result<IndividualSet, OracleError>)> = packs
            .par_iter()
            .flat_map_iter(|ids| {
                let members: Vec<&Concept> = ids.iter().map(|&i| &concepts[i]).collect();
                let answer: Vec<Result<IndividualSet, OracleError>> =
                    match self.covered_pack(&members, among) {
                        Ok(sets) => sets.into_iter().map(Ok).collect(),
                        Err(_) => members.iter().map(|c| self.covered(c, among)).collect(),
                    };
                ids.iter().copied().zip(answer).collect::<Vec<_>>()
            })
            .collect();
        for (i, r) in answers {
            results[i] = Some(r);
        }
        results
            .into_iter()
            .map(|r| r.unwrap_or_else(|| Err(OracleError::Unsupported("unanswered".into()))))
            .collect()
    }

    fn truth(&self, c: &Concept, among: &IndividualSet) -> Result<TruthSets, OracleError> {
        StatsCounter::add(&self.counters.evaluations, 1);
        if !self.options.three_valued {
            return Err(OracleError::Unsupported(format!(
                "three-valued (open-world) answers are disabled for {} by the oracle's \
                 options (use the closed-world semantics)",
                self.backend.name()
            )));
        }
        self.check_supported(c)?;
        if among.is_empty() {
            let empty = self.signature.empty_set();
            return Ok(TruthSets {
                true_set: empty.clone(),
                false_set: empty,
            });
        }
        Ok(TruthSets {
            true_set: self.truth_set(c, among, Polarity::True)?,
            false_set: self.truth_set(c, among, Polarity::False)?,
        })
    }

    fn data_values(
        &self,
        property: &Iri,
        among: &IndividualSet,
    ) -> Result<Vec<(IndividualId, Literal)>, OracleError> {
        let closure = self.signature.data_property_closure(property);
        // Read with the signature when the universe is a neighbourhood: no query.
        if let Some(values) = self
            .signature
            .universe_values
            .as_ref()
            .and_then(|table| table.values(&closure, among))
        {
            return Ok(values);
        }
        let props: Vec<GroundTerm> = closure
            .iter()
            .map(|p| GroundTerm::NamedNode(NamedNode::new_unchecked(p.as_str())))
            .collect();
        let mut out = Vec::new();
        let nodes = self.example_nodes(among);
        for chunk in nodes.chunks(self.options.values_chunk.max(1)) {
            let mut query = fixed_query("data_values")?;
            fill_values(
                &mut query,
                "x",
                chunk.iter().cloned().map(GroundTerm::NamedNode).collect(),
            )?;
            fill_in_list(&mut query, "p", props.clone())?;
            let table = self.run(&query)?;
            let (Some(cx), Some(cv)) = (table.column("x"), table.column("v")) else {
                continue;
            };
            for row in &table.rows {
                let (Some(Some(Term::NamedNode(x))), Some(Some(Term::Literal(v)))) =
                    (row.get(cx), row.get(cv))
                else {
                    continue;
                };
                if let Some(id) = self.signature.individual_id(x.as_str()) {
                    out.push((id, concept_literal(v)));
                }
            }
        }
        out.sort();
        out.dedup();
        Ok(out)
    }

    fn stats(&self) -> OracleStats {
        self.counters
            .snapshot()
            .with_politeness(self.backend.politeness())
    }

    fn set_deadline(&self, deadline: Option<std::time::Instant>) {
        self.backend.set_deadline(deadline)
    }

    /// One `SELECT DISTINCT ?x ?y` per chunk; `None` as soon as a successor is not an
    /// individual of the active domain (a blank node or a punned class), since restrictions
    /// composed from such lists would not be exact.
    fn successors(
        &self,
        role: &Role,
        among: &IndividualSet,
    ) -> Result<Option<Successors>, OracleError> {
        // A role this endpoint cannot follow is not listed; its restrictions then go to
        // `covered`, which refuses them with the reason.
        if self
            .check_supported(&Concept::some(role.clone(), Concept::Top))
            .is_err()
        {
            return Ok(None);
        }
        // Read with the signature for forward roles over a neighbourhood: no query.
        if let Some(local) = self.signature.universe_edges.as_ref().and_then(|table| {
            table.successors(
                &self.signature.role_expansion(role),
                among,
                self.signature.individual_count(),
            )
        }) {
            return Ok(local);
        }
        let compiler = self.compiler();
        let mut pairs = Vec::new();
        for chunk in self
            .example_nodes(among)
            .chunks(self.options.values_chunk.max(1))
        {
            let table = self.run(&compiler.successors_query(role, chunk))?;
            let (Some(cx), Some(cy)) = (table.column("x"), table.column("y")) else {
                continue;
            };
            for row in &table.rows {
                let id = |col: usize| match row.get(col) {
                    Some(Some(Term::NamedNode(n))) => self.signature.individual_id(n.as_str()),
                    _ => None,
                };
                match (id(cx), id(cy)) {
                    (Some(x), Some(y)) => pairs.push((x, y)),
                    _ => return Ok(None),
                }
            }
        }
        Ok(Some(Successors::from_pairs(
            self.signature.individual_count(),
            pairs,
        )))
    }
}

/// Every role a concept mentions, nested fillers included.
fn roles_of<'c>(c: &'c Concept, out: &mut Vec<&'c crate::concept::Role>) {
    match c {
        Concept::Not(inner) => roles_of(inner, out),
        Concept::And(cs) | Concept::Or(cs) => cs.iter().for_each(|c| roles_of(c, out)),
        Concept::Some { role, filler }
        | Concept::Only { role, filler }
        | Concept::Min { role, filler, .. }
        | Concept::Max { role, filler, .. }
        | Concept::Exactly { role, filler, .. } => {
            out.push(role);
            roles_of(filler, out);
        }
        Concept::HasValue { role, .. } | Concept::HasSelf(role) => out.push(role),
        _ => {}
    }
}

/// An RDF literal as a concept literal.
pub fn concept_literal(l: &oxigraph::model::Literal) -> Literal {
    match l.language() {
        Some(lang) => Literal::lang_string(l.value(), lang),
        None => Literal::typed(l.value(), l.datatype().as_str()),
    }
}

//! The uncached oracle: compiles each question to one SPARQL query per chunk of examples.

use std::sync::Arc;
use std::time::Instant;

use oxigraph::model::{NamedNode, Term};
use spargebra::Query;
use spargebra::term::{GroundTerm, Variable};

use super::backend::{SolutionTable, SparqlBackend};
use super::sparql::{ClassAtoms, Compiler, Polarity, fill_values, fixed_query};
use super::{
    IndividualId, IndividualSet, MembershipOracle, OracleError, OracleStats, Signature,
    StatsCounter, Successors, TruthSets, load_signature,
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
    /// Answer three-valued questions. Off for endpoints known to mis-evaluate the nested
    /// boolean EXISTS filters they compile to (Virtuoso 7, recognised by the failed counting
    /// probe): `truth` is then refused with a clear error rather than answered wrongly.
    pub three_valued: bool,
}

impl Default for OracleOptions {
    fn default() -> Self {
        OracleOptions {
            values_chunk: 1000,
            class_atoms: ClassAtoms::default(),
            pack_size: 1,
            counting: true,
            three_valued: true,
        }
    }
}

/// A membership oracle over any SPARQL backend.
pub struct SparqlOracle<B: SparqlBackend> {
    backend: B,
    signature: Arc<Signature>,
    options: OracleOptions,
    counters: StatsCounter,
}

impl<B: SparqlBackend> SparqlOracle<B> {
    /// Reads the signature from the backend (a dozen fixed queries) and wraps it.
    pub fn new(backend: B, options: OracleOptions) -> Result<Self, OracleError> {
        let signature = Arc::new(load_signature(&backend)?);
        Ok(Self::with_signature(backend, signature, options))
    }

    /// Reuses an already loaded signature (several oracles over one store).
    pub fn with_signature(backend: B, signature: Arc<Signature>, options: OracleOptions) -> Self {
        SparqlOracle {
            backend,
            signature,
            options,
            counters: StatsCounter::default(),
        }
    }

    pub fn backend(&self) -> &B {
        &self.backend
    }

    /// Whether counting restrictions with n ≥ 2 are compiled (see [`OracleOptions::counting`]).
    pub fn counts(&self) -> bool {
        self.options.counting
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

    fn compiler(&self) -> Compiler<'_> {
        let compiler = Compiler::with_class_atoms(&self.signature, self.options.class_atoms);
        if self.options.counting {
            compiler
        } else {
            compiler.without_counting()
        }
    }

    fn example_nodes(&self, among: &IndividualSet) -> Vec<NamedNode> {
        self.signature
            .iris_of(among)
            .map(|i| NamedNode::new_unchecked(i.as_str()))
            .collect()
    }

    fn run(&self, query: &Query) -> Result<SolutionTable, OracleError> {
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

    fn truth_set(
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
        let compiler = self.compiler();
        let x = Variable::new_unchecked("x");
        let condition = compiler.member(c, &x)?;
        self.members_by_chunks(among, |chunk| {
            compiler.select_members(condition.clone(), chunk)
        })
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
        if pack == 1 || among.is_empty() {
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
                _ => queried.push(i),
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
                "three-valued (open-world) answers are disabled for {}: this endpoint gave \
                 wrong truth sets in the differential tests (use the closed-world semantics)",
                self.backend.name()
            )));
        }
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
        let props: Vec<GroundTerm> = self
            .signature
            .data_property_closure(property)
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
            fill_values(&mut query, "p", props.clone())?;
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
        self.counters.snapshot()
    }

    /// One `SELECT DISTINCT ?x ?y` per chunk; `None` as soon as a successor is not an
    /// individual of the active domain (a blank node or a punned class), since restrictions
    /// composed from such lists would not be exact.
    fn successors(
        &self,
        role: &Role,
        among: &IndividualSet,
    ) -> Result<Option<Successors>, OracleError> {
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

/// An RDF literal as a concept literal.
pub fn concept_literal(l: &oxigraph::model::Literal) -> Literal {
    match l.language() {
        Some(lang) => Literal::lang_string(l.value(), lang),
        None => Literal::typed(l.value(), l.datatype().as_str()),
    }
}

//! `Cached<O>`: memoises an oracle's answers under the concept's normal form and answers
//! `⊓`, `⊔`, `¬` by local set algebra over cached parts.
//!
//! Composition is exact: the examples are individuals of the active domain, so
//! `covered(¬C) = among \ covered(C)`, `covered(C ⊓ D) = covered(C) ∩ covered(D)` and
//! `covered(C ⊔ D) = covered(C) ∪ covered(D)`; three-valued answers compose by Kleene's rules
//! (`T(¬C) = F(C)`, `T(C ⊓ D) = T(C) ∩ T(D)`, `F(C ⊓ D) = F(C) ∪ F(D)`, …), which are the
//! rules the SPARQL compiler uses too.
//!
//! Restrictions compose too when the wrapped oracle can list role successors
//! ([`MembershipOracle::successors`]): `covered(∃r.C, E)` is read off the successors `S` of
//! `E` along `r` and `covered(C, S)`, itself answered (and cached) over `S`. So a new filler
//! costs a query only for the atoms it has not met at that position before, and counting
//! restrictions need no grouped sub-select at the endpoint. Only atoms, data restrictions
//! and successor lists reach the wrapped oracle.

use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, RwLock};

use moka::sync::Cache;
use rustc_hash::FxBuildHasher;

use super::{
    IndividualId, IndividualSet, MembershipOracle, OracleError, OracleStats, Signature,
    StatsCounter, Successors, TruthSets,
};
use crate::concept::{Concept, Iri, Literal, Role, normalize};

/// Cache bounds.
///
/// Each example set (`among`: a problem's examples, a fold, or a successor set that
/// restrictions are composed over) gets its own caches, bounded by [`Self::budget_for`] its
/// size: `bytes_per_example × |among|`, clamped to `[min_bytes, max_bytes]`. So the memory
/// held for a problem follows its number of examples rather than a fixed 64 MiB per set
/// (measured on carcinogenesis, 298 examples: the examples' cache had filled 64 MiB with
/// 21,665 answers of 2.8 kB each, its successor sets ≤ 15 MB). The whole cache stays under
/// `max_example_sets × max_bytes` per kind of answer (members, truth sets, successors).
#[derive(Clone, Debug)]
pub struct CacheOptions {
    /// Budget per individual of an example set, in approximate bytes of cached answers
    /// (keys and bitsets; a bitset spans every individual of the KB).
    pub bytes_per_example: u64,
    /// Least budget of one example set (small sets still cache their atoms).
    pub min_bytes: u64,
    /// Most budget of one example set.
    pub max_bytes: u64,
    /// Example sets kept at once (folds, problems, and the successor sets that restrictions
    /// are composed over); the least recently used set's cache is dropped beyond.
    pub max_example_sets: usize,
    /// Answer restrictions from cached successor lists and fillers where the wrapped oracle
    /// can list successors (see the module docs).
    pub compose_restrictions: bool,
}

impl CacheOptions {
    /// The byte budget of each cache of an example set of `examples` individuals.
    pub fn budget_for(&self, examples: usize) -> u64 {
        let scaled = u64::try_from(examples)
            .unwrap_or(u64::MAX)
            .saturating_mul(self.bytes_per_example);
        scaled.clamp(self.min_bytes.min(self.max_bytes), self.max_bytes)
    }
}

impl Default for CacheOptions {
    fn default() -> Self {
        CacheOptions {
            bytes_per_example: 64 * 1024,
            min_bytes: 2 * 1024 * 1024,
            max_bytes: 32 * 1024 * 1024,
            max_example_sets: 32,
            compose_restrictions: true,
        }
    }
}

/// The caches of one example set (`among`): keyed by the normal form alone, so a lookup
/// borrows the concept instead of cloning it.
struct AmongCaches {
    covered: Cache<Concept, Arc<IndividualSet>, FxBuildHasher>,
    truth: Cache<Concept, Arc<TruthSets>, FxBuildHasher>,
    /// `None`: the wrapped oracle cannot list this role's successors exactly.
    successors: Cache<Role, Arc<Option<Composable>>, FxBuildHasher>,
}

/// A role's successors of one example set, with the caches of the successor set (held
/// here so composing a restriction does not hash the successor set to find them).
struct Composable {
    successors: Successors,
    filler_caches: Arc<AmongCaches>,
}

/// Rough heap size of a concept, for the weigher.
fn concept_weight(c: &Concept) -> u32 {
    64 + c.children().iter().map(|d| concept_weight(d)).sum::<u32>()
}

impl AmongCaches {
    fn new(budget: u64) -> Self {
        AmongCaches {
            covered: Cache::builder()
                .max_capacity(budget)
                .weigher(|k: &Concept, v: &Arc<IndividualSet>| {
                    concept_weight(k).saturating_add(v.heap_bytes() as u32 + 16)
                })
                .build_with_hasher(FxBuildHasher),
            truth: Cache::builder()
                .max_capacity(budget)
                .weigher(|k: &Concept, v: &Arc<TruthSets>| {
                    concept_weight(k).saturating_add(
                        (v.true_set.heap_bytes() + v.false_set.heap_bytes()) as u32 + 32,
                    )
                })
                .build_with_hasher(FxBuildHasher),
            successors: Cache::builder()
                .max_capacity(budget)
                .weigher(|_: &Role, v: &Arc<Option<Composable>>| {
                    64 + v
                        .as_ref()
                        .as_ref()
                        .map_or(0, |s| s.successors.heap_bytes() as u32)
                })
                .build_with_hasher(FxBuildHasher),
        }
    }
}

pub struct Cached<O: MembershipOracle> {
    inner: O,
    options: CacheOptions,
    /// Per example set: when it was last used (for eviction) and its caches.
    caches: RwLock<HashMap<IndividualSet, (AtomicU64, Arc<AmongCaches>), FxBuildHasher>>,
    next_stamp: std::sync::atomic::AtomicU64,
    counters: StatsCounter,
}

impl<O: MembershipOracle> Cached<O> {
    pub fn new(inner: O, options: CacheOptions) -> Self {
        Cached {
            inner,
            options,
            caches: RwLock::new(HashMap::default()),
            next_stamp: std::sync::atomic::AtomicU64::new(0),
            counters: StatsCounter::default(),
        }
    }

    pub fn inner(&self) -> &O {
        &self.inner
    }

    fn caches_for(&self, among: &IndividualSet) -> Arc<AmongCaches> {
        let stamp = self.next_stamp.fetch_add(1, Ordering::Relaxed);
        if let Ok(map) = self.caches.read()
            && let Some((used, c)) = map.get(among)
        {
            used.store(stamp, Ordering::Relaxed);
            return Arc::clone(c);
        }
        let mut map = match self.caches.write() {
            Ok(map) => map,
            Err(poisoned) => poisoned.into_inner(),
        };
        if !map.contains_key(among) && map.len() >= self.options.max_example_sets.max(1) {
            let oldest = map
                .iter()
                .min_by_key(|(_, (used, _))| used.load(Ordering::Relaxed))
                .map(|(k, _)| k.clone());
            if let Some(k) = oldest {
                map.remove(&k);
            }
        }
        Arc::clone(
            &map.entry(among.clone())
                .or_insert_with(|| {
                    (
                        AtomicU64::new(stamp),
                        Arc::new(AmongCaches::new(self.options.budget_for(among.len()))),
                    )
                })
                .1,
        )
    }

    /// The successors of `among` along `role`, cached (`None` if not listable).
    fn successors_of(
        &self,
        role: &Role,
        among: &IndividualSet,
        caches: &AmongCaches,
    ) -> Result<Arc<Option<Composable>>, OracleError> {
        if let Some(hit) = caches.successors.get(role) {
            return Ok(hit);
        }
        let answer = Arc::new(self.inner.successors(role, among)?.map(|successors| {
            let filler_caches = self.caches_for(successors.targets());
            Composable {
                successors,
                filler_caches,
            }
        }));
        caches.successors.insert(role.clone(), Arc::clone(&answer));
        Ok(answer)
    }

    /// A restriction answered from successor lists and the filler's members among the
    /// successors; `None` when the successors cannot be listed exactly.
    fn composed_restriction(
        &self,
        c: &Concept,
        among: &IndividualSet,
        caches: &AmongCaches,
    ) -> Result<Option<IndividualSet>, OracleError> {
        let (role, filler) = match c {
            Concept::Some { role, filler }
            | Concept::Only { role, filler }
            | Concept::Min { role, filler, .. }
            | Concept::Max { role, filler, .. }
            | Concept::Exactly { role, filler, .. } => (role, Some(&**filler)),
            Concept::HasValue { role, .. } | Concept::HasSelf(role) => (role, None),
            _ => return Ok(None),
        };
        let composable = self.successors_of(role, among, caches)?;
        let Some(composable) = composable.as_ref() else {
            return Ok(None);
        };
        let succ = &composable.successors;
        let members = match filler {
            Some(f) if !succ.targets().is_empty() => {
                self.covered_nf(f, succ.targets(), &composable.filler_caches)?
            }
            _ => Arc::new(IndividualSet::empty(among.universe())),
        };
        StatsCounter::add(&self.counters.composed, 1);
        Ok(Some(match c {
            Concept::Some { .. } => succ.counting(among, &members, |n| n >= 1),
            Concept::Only { .. } => succ.all_in(among, &members),
            Concept::Min { n, .. } => succ.counting(among, &members, |k| k >= *n as usize),
            Concept::Max { n, .. } => succ.counting(among, &members, |k| k <= *n as usize),
            Concept::Exactly { n, .. } => succ.counting(among, &members, |k| k == *n as usize),
            Concept::HasValue { individual, .. } => {
                match self.inner.signature().individual_id(individual.as_str()) {
                    Some(id) => succ.having(among, id),
                    // Every listed successor is an individual, so none is this IRI.
                    None => IndividualSet::empty(among.universe()),
                }
            }
            _ => succ.reflexive(among),
        }))
    }

    fn covered_nf(
        &self,
        c: &Concept,
        among: &IndividualSet,
        caches: &AmongCaches,
    ) -> Result<Arc<IndividualSet>, OracleError> {
        match c {
            Concept::Top => return Ok(Arc::new(among.clone())),
            Concept::Bottom => return Ok(Arc::new(IndividualSet::empty(among.universe()))),
            _ => {}
        }
        if let Some(hit) = caches.covered.get(c) {
            StatsCounter::add(&self.counters.cache_hits, 1);
            return Ok(hit);
        }
        StatsCounter::add(&self.counters.cache_misses, 1);
        let answer = match c {
            Concept::And(cs) => {
                StatsCounter::add(&self.counters.composed, 1);
                let mut acc = among.clone();
                for part in cs {
                    if acc.is_empty() {
                        break;
                    }
                    acc.intersect_with(&*self.covered_nf(part, among, caches)?);
                }
                acc
            }
            Concept::Or(cs) => {
                StatsCounter::add(&self.counters.composed, 1);
                let mut acc = IndividualSet::empty(among.universe());
                for part in cs {
                    acc.union_with(&*self.covered_nf(part, among, caches)?);
                }
                acc
            }
            Concept::Not(inner) => {
                StatsCounter::add(&self.counters.composed, 1);
                among.difference(&*self.covered_nf(inner, among, caches)?)
            }
            other => {
                let composed = if self.options.compose_restrictions {
                    self.composed_restriction(other, among, caches)?
                } else {
                    None
                };
                match composed {
                    Some(set) => set,
                    None => self.inner.covered(other, among)?,
                }
            }
        };
        let answer = Arc::new(answer);
        caches.covered.insert(c.clone(), Arc::clone(&answer));
        Ok(answer)
    }

    fn truth_nf(
        &self,
        c: &Concept,
        among: &IndividualSet,
        caches: &AmongCaches,
    ) -> Result<Arc<TruthSets>, OracleError> {
        let empty = || IndividualSet::empty(among.universe());
        match c {
            Concept::Top => {
                return Ok(Arc::new(TruthSets {
                    true_set: among.clone(),
                    false_set: empty(),
                }));
            }
            Concept::Bottom => {
                return Ok(Arc::new(TruthSets {
                    true_set: empty(),
                    false_set: among.clone(),
                }));
            }
            _ => {}
        }
        if let Some(hit) = caches.truth.get(c) {
            StatsCounter::add(&self.counters.cache_hits, 1);
            return Ok(hit);
        }
        StatsCounter::add(&self.counters.cache_misses, 1);
        let answer = match c {
            Concept::And(cs) | Concept::Or(cs) => {
                StatsCounter::add(&self.counters.composed, 1);
                let is_and = matches!(c, Concept::And(_));
                let (mut t, mut f) = if is_and {
                    (among.clone(), empty())
                } else {
                    (empty(), among.clone())
                };
                for part in cs {
                    let p = self.truth_nf(part, among, caches)?;
                    if is_and {
                        t.intersect_with(&p.true_set);
                        f.union_with(&p.false_set);
                    } else {
                        t.union_with(&p.true_set);
                        f.intersect_with(&p.false_set);
                    }
                }
                TruthSets {
                    true_set: t,
                    false_set: f,
                }
            }
            Concept::Not(inner) => {
                StatsCounter::add(&self.counters.composed, 1);
                self.truth_nf(inner, among, caches)?.negated()
            }
            other => self.inner.truth(other, among)?,
        };
        let answer = Arc::new(answer);
        caches.truth.insert(c.clone(), Arc::clone(&answer));
        Ok(answer)
    }
}

/// The atoms and restrictions under the boolean structure of `c` that the cache lacks
/// (each once, in order of appearance).
fn collect_uncached_leaves(
    c: &Concept,
    cache: &Cache<Concept, Arc<IndividualSet>, FxBuildHasher>,
    seen: &mut std::collections::HashSet<Concept>,
    out: &mut Vec<Concept>,
) {
    match c {
        Concept::Top | Concept::Bottom => {}
        _ if cache.contains_key(c) => {}
        Concept::And(cs) | Concept::Or(cs) => {
            for d in cs {
                collect_uncached_leaves(d, cache, seen, out);
            }
        }
        Concept::Not(inner) => collect_uncached_leaves(inner, cache, seen, out),
        leaf => {
            if seen.insert(leaf.clone()) {
                out.push(leaf.clone());
            }
        }
    }
}

impl<O: MembershipOracle> MembershipOracle for Cached<O> {
    fn signature(&self) -> &Signature {
        self.inner.signature()
    }

    fn covered(&self, c: &Concept, among: &IndividualSet) -> Result<IndividualSet, OracleError> {
        StatsCounter::add(&self.counters.evaluations, 1);
        let caches = self.caches_for(among);
        let nf = normalize(c);
        Ok((*self.covered_nf(&nf, among, &caches)?).clone())
    }

    /// Collects the atoms and restrictions of the whole batch that are not cached yet, asks
    /// the wrapped oracle for them in one batch (one packed query per few concepts over
    /// SPARQL), then composes every concept from the cache.
    fn covered_batch(
        &self,
        concepts: &[Concept],
        among: &IndividualSet,
    ) -> Vec<Result<IndividualSet, OracleError>> {
        let caches = self.caches_for(among);
        let normal: Vec<Concept> = concepts.iter().map(normalize).collect();
        if self.options.compose_restrictions {
            // Leaves live over several example sets (successors), so there is no single
            // batch to prefetch: compose each concept, in parallel, in input order.
            use rayon::prelude::*;
            return normal
                .par_iter()
                .map(|c| {
                    StatsCounter::add(&self.counters.evaluations, 1);
                    self.covered_nf(c, among, &caches).map(|s| (*s).clone())
                })
                .collect();
        }
        let mut missing: Vec<Concept> = Vec::new();
        let mut seen = std::collections::HashSet::new();
        for c in &normal {
            collect_uncached_leaves(c, &caches.covered, &mut seen, &mut missing);
        }
        let mut filled = 0;
        for (leaf, answer) in missing
            .iter()
            .zip(self.inner.covered_batch(&missing, among))
        {
            StatsCounter::add(&self.counters.cache_misses, 1);
            if let Ok(set) = answer {
                caches.covered.insert(leaf.clone(), Arc::new(set));
                filled += 1;
            }
            // A failed leaf is asked again below, where its error reaches its concept.
        }
        let answers = normal
            .iter()
            .map(|c| {
                StatsCounter::add(&self.counters.evaluations, 1);
                self.covered_nf(c, among, &caches).map(|s| (*s).clone())
            })
            .collect();
        // The first lookup of each leaf filled above was counted as a miss already.
        self.counters
            .cache_hits
            .fetch_sub(filled, std::sync::atomic::Ordering::Relaxed);
        answers
    }

    fn truth(&self, c: &Concept, among: &IndividualSet) -> Result<TruthSets, OracleError> {
        StatsCounter::add(&self.counters.evaluations, 1);
        let caches = self.caches_for(among);
        let nf = normalize(c);
        Ok((*self.truth_nf(&nf, among, &caches)?).clone())
    }

    fn data_values(
        &self,
        property: &Iri,
        among: &IndividualSet,
    ) -> Result<Vec<(IndividualId, Literal)>, OracleError> {
        self.inner.data_values(property, among)
    }

    /// The successor lists the cache composes restrictions from (asked once per role and
    /// example set).
    fn successors(
        &self,
        role: &Role,
        among: &IndividualSet,
    ) -> Result<Option<Successors>, OracleError> {
        let caches = self.caches_for(among);
        Ok(self
            .successors_of(role, among, &caches)?
            .as_ref()
            .as_ref()
            .map(|c| c.successors.clone()))
    }

    /// The cache's own counters; `queries_sent`, `rows_received` and backend time come from the
    /// wrapped oracle (its `evaluations` are dropped: they are cache misses here).
    fn set_deadline(&self, deadline: Option<std::time::Instant>) {
        self.inner.set_deadline(deadline)
    }

    fn stats(&self) -> OracleStats {
        let inner = self.inner.stats();
        let mut own = self.counters.snapshot();
        own.queries_sent = inner.queries_sent;
        own.rows_received = inner.rows_received;
        own.backend_time_ns = inner.backend_time_ns;
        own.politeness_wait_ns = inner.politeness_wait_ns;
        own.politeness_delay_ms = inner.politeness_delay_ms;
        own.cache_hits += inner.cache_hits;
        own.cache_misses += inner.cache_misses;
        own.composed += inner.composed;
        own
    }
}

#[cfg(test)]
mod budget_tests {
    use super::CacheOptions;

    #[test]
    fn the_budget_follows_the_number_of_examples_within_its_bounds() {
        let o = CacheOptions::default();
        assert_eq!(
            o.budget_for(0),
            o.min_bytes,
            "an empty set still gets the floor"
        );
        assert_eq!(o.budget_for(298), 298 * o.bytes_per_example);
        assert!(o.budget_for(298) < o.budget_for(299));
        assert_eq!(o.budget_for(1_000_000), o.max_bytes, "capped");
        assert_eq!(o.budget_for(usize::MAX), o.max_bytes, "no overflow");
        let inverted = CacheOptions {
            min_bytes: 10,
            max_bytes: 5,
            ..o
        };
        assert_eq!(inverted.budget_for(0), 5, "max wins over a larger min");
    }
}

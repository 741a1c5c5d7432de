//! Degrees of membership in fuzzy EL(D) concepts, through the oracle and its cache.
//!
//! - crisp parts are one `members` question (the oracle composes and caches them as for
//!   CELOE): degree 1 for members, 0 for the rest, so crisp concepts give exactly the crisp
//!   oracle's answer;
//! - `∃p.F` reads `p`'s values of the individuals once per property and set of individuals
//!   (`data_values`) and takes the best μ_F over an individual's values;
//! - `∃r.C` with a fuzzy filler takes the supremum of C over the r-successors, from the
//!   oracle's successor lists (one question per role and set of individuals);
//! - `C₁ ⊓ … ⊓ Cₙ` is the t-norm of the parts.
//!
//! Every part that is not a conjunction is memoised per set of individuals, so a learner
//! that scores `C ⊓ D` for many `D` pays for each `D` once; conjunctions are local
//! arithmetic. This is what keeps queries per evaluated concept well under 1.

use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};

use super::concept::FuzzyConcept;
use super::tnorm::TNorm;
use crate::concept::{Iri, Role};
use crate::oracle::datatypes::numeric_value;
use crate::oracle::{IndividualId, IndividualSet, MembershipOracle, OracleError, Successors};

/// Degrees of the individuals of a set, in id order (the order of `IndividualSet::iter`).
pub type Degrees = Arc<Vec<f64>>;

/// Memo entries kept before the memo is emptied (a bound on memory, not a tuning knob).
const MEMO_LIMIT: usize = 20_000;

type Keyed<K, V> = Mutex<HashMap<(IndividualSet, K), V>>;

/// Evaluates fuzzy concepts over sets of individuals through an oracle (closed world).
pub struct DegreeEvaluator<'o> {
    oracle: &'o dyn MembershipOracle,
    tnorm: TNorm,
    memo: Keyed<String, Degrees>,
    values: Keyed<Iri, Arc<Vec<Vec<f64>>>>,
    successors: Keyed<Role, Arc<Successors>>,
    evaluations: AtomicU64,
}

impl<'o> DegreeEvaluator<'o> {
    pub fn new(oracle: &'o dyn MembershipOracle, tnorm: TNorm) -> Self {
        DegreeEvaluator {
            oracle,
            tnorm,
            memo: Mutex::default(),
            values: Mutex::default(),
            successors: Mutex::default(),
            evaluations: AtomicU64::new(0),
        }
    }

    pub fn tnorm(&self) -> TNorm {
        self.tnorm
    }

    pub fn oracle(&self) -> &'o dyn MembershipOracle {
        self.oracle
    }

    /// Concepts evaluated so far (top-level calls of [`Self::degrees`]).
    pub fn evaluations(&self) -> u64 {
        self.evaluations.load(Ordering::Relaxed)
    }

    /// The degree of every individual of `among` in `c`, in id order.
    pub fn degrees(&self, c: &FuzzyConcept, among: &IndividualSet) -> Result<Degrees, OracleError> {
        self.evaluations.fetch_add(1, Ordering::Relaxed);
        self.eval(c, among)
    }

    /// The degree of every individual of `individuals`, asking the oracle over `among` (a
    /// superset: answers do not depend on it, only which cache is used).
    pub fn degrees_within(
        &self,
        c: &FuzzyConcept,
        individuals: &IndividualSet,
        among: &IndividualSet,
    ) -> Result<Vec<(IndividualId, f64)>, OracleError> {
        let all = self.degrees(c, among)?;
        Ok(among
            .iter()
            .zip(all.iter())
            .filter(|(id, _)| individuals.contains(*id))
            .map(|(id, d)| (id, *d))
            .collect())
    }

    fn eval(&self, c: &FuzzyConcept, among: &IndividualSet) -> Result<Degrees, OracleError> {
        if let FuzzyConcept::And(parts) = c {
            let mut acc: Option<Vec<f64>> = None;
            for p in parts {
                let d = self.eval(p, among)?;
                acc = Some(match acc {
                    None => d.as_ref().clone(),
                    Some(mut a) => {
                        for (x, y) in a.iter_mut().zip(d.iter()) {
                            *x = self.tnorm.and(*x, *y);
                        }
                        a
                    }
                });
            }
            return Ok(Arc::new(acc.unwrap_or_else(|| vec![1.0; among.len()])));
        }
        let key = (among.clone(), c.key());
        if let Some(hit) = lock(&self.memo).get(&key) {
            return Ok(Arc::clone(hit));
        }
        let computed = Arc::new(self.eval_part(c, among)?);
        let mut memo = lock(&self.memo);
        if memo.len() >= MEMO_LIMIT {
            memo.clear();
        }
        memo.insert(key, Arc::clone(&computed));
        Ok(computed)
    }

    fn eval_part(&self, c: &FuzzyConcept, among: &IndividualSet) -> Result<Vec<f64>, OracleError> {
        Ok(match c {
            FuzzyConcept::Top => vec![1.0; among.len()],
            FuzzyConcept::Crisp(concept) => {
                let members = self.oracle.covered(concept, among)?;
                among
                    .iter()
                    .map(|id| if members.contains(id) { 1.0 } else { 0.0 })
                    .collect()
            }
            FuzzyConcept::Fuzzy { property, set } => self
                .values_of(property, among)?
                .iter()
                .map(|vs| vs.iter().map(|v| set.degree(*v)).fold(0.0, f64::max))
                .collect(),
            FuzzyConcept::Some { role, filler } => {
                let succ = self.successors_of(role, among)?;
                let targets = succ.targets();
                let target_ids: Vec<IndividualId> = targets.iter().collect();
                let filler_degrees = if targets.is_empty() {
                    Arc::new(Vec::new())
                } else {
                    self.eval(filler, targets)?
                };
                among
                    .iter()
                    .map(|x| {
                        succ.of(x)
                            .iter()
                            .filter_map(|y| target_ids.binary_search(y).ok())
                            .map(|i| filler_degrees[i])
                            .fold(0.0, f64::max)
                    })
                    .collect()
            }
            FuzzyConcept::And(_) => self.eval(c, among)?.as_ref().clone(),
        })
    }

    /// Per individual of `among` (id order), its numeric values of `property`.
    fn values_of(
        &self,
        property: &Iri,
        among: &IndividualSet,
    ) -> Result<Arc<Vec<Vec<f64>>>, OracleError> {
        let key = (among.clone(), property.clone());
        if let Some(hit) = lock(&self.values).get(&key) {
            return Ok(Arc::clone(hit));
        }
        let ids: Vec<IndividualId> = among.iter().collect();
        let mut table = vec![Vec::new(); ids.len()];
        for (id, lit) in self.oracle.data_values(property, among)? {
            if let (Ok(i), Some(v)) = (
                ids.binary_search(&id),
                numeric_value(&lit.lexical, lit.datatype.as_str()),
            ) && v.is_finite()
            {
                table[i].push(v);
            }
        }
        let table = Arc::new(table);
        lock(&self.values).insert(key, Arc::clone(&table));
        Ok(table)
    }

    fn successors_of(
        &self,
        role: &Role,
        among: &IndividualSet,
    ) -> Result<Arc<Successors>, OracleError> {
        let key = (among.clone(), role.clone());
        if let Some(hit) = lock(&self.successors).get(&key) {
            return Ok(Arc::clone(hit));
        }
        let succ = self.oracle.successors(role, among)?.ok_or_else(|| {
            OracleError::Unsupported(format!(
                "a fuzzy filler under {}: the oracle cannot list its successors",
                role.property.as_str()
            ))
        })?;
        let succ = Arc::new(succ);
        lock(&self.successors).insert(key, Arc::clone(&succ));
        Ok(succ)
    }
}

/// A poisoned lock only means another thread panicked mid-insert; the map is still usable.
fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
}

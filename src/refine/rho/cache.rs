//! A per-(context, length) memo that many threads may read. Values are computed without the
//! lock held, since computing one may need others (ρ(⊤) in a range context).

use std::collections::BTreeMap;
use std::sync::{Arc, RwLock};

use super::view::Ctx;

#[derive(Debug)]
pub(crate) struct PerContext<T>(RwLock<BTreeMap<(Ctx, usize), Arc<T>>>);

impl<T> Default for PerContext<T> {
    fn default() -> Self {
        PerContext(RwLock::new(BTreeMap::new()))
    }
}

impl<T> PerContext<T> {
    /// The cached value, or `compute()`d and stored (a concurrent first insert wins; both
    /// are equal, as ρ is deterministic). A poisoned lock still holds valid entries.
    pub(crate) fn get_or(&self, ctx: &Ctx, len: usize, compute: impl FnOnce() -> T) -> Arc<T> {
        let key = (ctx.clone(), len);
        if let Some(hit) = self.0.read().unwrap_or_else(|e| e.into_inner()).get(&key) {
            return hit.clone();
        }
        let value = Arc::new(compute());
        self.0
            .write()
            .unwrap_or_else(|e| e.into_inner())
            .entry(key)
            .or_insert(value)
            .clone()
    }
}

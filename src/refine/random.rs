//! Seeded random concepts over a signature: every constructor, bounded depth. Used by the
//! differential tests (SPARQL oracle vs reference evaluator) and by `oxilearn bench oracle`,
//! whose stream imitates a refinement search (new concepts extend earlier ones, so many share
//! sub-expressions).

use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

use crate::concept::{Bound, Concept, DataRange, Iri, Literal, Number, Role, vocab};
use crate::oracle::Signature;

/// What the generator may use.
#[derive(Clone, Debug)]
pub struct RandomOptions {
    pub max_depth: usize,
    /// Largest cardinality bound.
    pub max_cardinality: u32,
    pub inverse_roles: bool,
    pub data_restrictions: bool,
    pub nominals: bool,
    /// `≥n`, `≤n`, `=n` restrictions.
    pub cardinalities: bool,
}

impl Default for RandomOptions {
    fn default() -> Self {
        RandomOptions {
            max_depth: 3,
            max_cardinality: 3,
            inverse_roles: true,
            data_restrictions: true,
            nominals: true,
            cardinalities: true,
        }
    }
}

/// A deterministic (for a seed and signature) source of random concepts.
pub struct RandomConcepts {
    rng: StdRng,
    options: RandomOptions,
    classes: Vec<Iri>,
    roles: Vec<Iri>,
    numeric: Vec<(Iri, f64, f64)>,
    booleans: Vec<Iri>,
    typed: Vec<(Iri, Iri)>,
    individuals: Vec<Iri>,
    /// Earlier concepts of a search-shaped stream.
    pool: Vec<Concept>,
}

impl RandomConcepts {
    pub fn new(sig: &Signature, seed: u64, options: RandomOptions) -> Self {
        let numeric = sig
            .data_properties
            .iter()
            .filter_map(|(p, i)| i.numeric.as_ref().map(|n| (p.clone(), n.min, n.max)))
            .collect();
        let booleans = sig
            .data_properties
            .iter()
            .filter(|(_, i)| i.booleans.is_some())
            .map(|(p, _)| p.clone())
            .collect();
        let typed = sig
            .data_properties
            .iter()
            .flat_map(|(p, i)| i.datatypes.keys().map(move |d| (p.clone(), d.clone())))
            .collect();
        RandomConcepts {
            rng: StdRng::seed_from_u64(seed),
            options,
            classes: sig.classes.iter().cloned().collect(),
            roles: sig.object_properties.keys().cloned().collect(),
            numeric,
            booleans,
            typed,
            individuals: sig.individuals.clone(),
            pool: Vec::new(),
        }
    }

    fn pick<'a, T>(rng: &mut StdRng, items: &'a [T]) -> Option<&'a T> {
        if items.is_empty() {
            None
        } else {
            Some(&items[rng.random_range(0..items.len())])
        }
    }

    fn role(&mut self) -> Option<Role> {
        let p = Self::pick(&mut self.rng, &self.roles)?.clone();
        let inverse = self.options.inverse_roles && self.rng.random_bool(0.2);
        Some(Role {
            property: p,
            inverse,
        })
    }

    fn individual(&mut self) -> Option<Iri> {
        Self::pick(&mut self.rng, &self.individuals).cloned()
    }

    /// A number near the data: a value between min and max, rounded to two decimals.
    fn threshold(&mut self, min: f64, max: f64) -> Number {
        let x = if max > min {
            self.rng.random_range(min..=max)
        } else {
            min
        };
        Number::new((x * 100.0).round() / 100.0).unwrap_or(Number::new(0.0).expect("0 is finite"))
    }

    fn data_atom(&mut self) -> Option<Concept> {
        match self.rng.random_range(0..3) {
            0 if !self.numeric.is_empty() => {
                let (p, min, max) = Self::pick(&mut self.rng, &self.numeric)?.clone();
                let a = self.threshold(min, max);
                let b = self.threshold(min, max);
                let (lo, hi) = if a <= b { (a, b) } else { (b, a) };
                let bound = |value, rng: &mut StdRng| Bound {
                    value,
                    inclusive: rng.random_bool(0.5),
                };
                let (min, max) = match self.rng.random_range(0..3) {
                    0 => (Some(bound(lo, &mut self.rng)), None),
                    1 => (None, Some(bound(hi, &mut self.rng))),
                    _ => (
                        Some(bound(lo, &mut self.rng)),
                        Some(bound(hi, &mut self.rng)),
                    ),
                };
                Some(Concept::Data {
                    property: p,
                    range: DataRange::Numeric {
                        datatype: Iri::new(vocab::XSD_DOUBLE),
                        min,
                        max,
                    },
                })
            }
            1 if !self.booleans.is_empty() => {
                let p = Self::pick(&mut self.rng, &self.booleans)?.clone();
                Some(Concept::Data {
                    property: p,
                    range: DataRange::Value(Literal::boolean(self.rng.random_bool(0.5))),
                })
            }
            _ => {
                let (p, d) = Self::pick(&mut self.rng, &self.typed)?.clone();
                Some(Concept::Data {
                    property: p,
                    range: DataRange::Datatype(d),
                })
            }
        }
    }

    /// A concept without nested fillers.
    pub fn atom(&mut self) -> Concept {
        for _ in 0..8 {
            let choice = self.rng.random_range(0..10);
            let c = match choice {
                0 => Some(Concept::Top),
                1..=5 => Self::pick(&mut self.rng, &self.classes)
                    .cloned()
                    .map(Concept::Class),
                6 if self.options.data_restrictions => self.data_atom(),
                7 if self.options.nominals => {
                    let k = self.rng.random_range(1..=3);
                    let is: Option<Vec<Iri>> = (0..k).map(|_| self.individual()).collect();
                    is.map(|mut is| {
                        is.sort();
                        is.dedup();
                        Concept::OneOf(is)
                    })
                }
                8 => {
                    let role = self.role();
                    let ind = self.individual();
                    role.zip(ind)
                        .map(|(role, individual)| Concept::HasValue { role, individual })
                }
                _ => self.role().map(Concept::HasSelf),
            };
            if let Some(c) = c {
                return c;
            }
        }
        Concept::Top
    }

    /// A random concept of depth at most `max_depth` (constructor nesting).
    pub fn concept(&mut self) -> Concept {
        let depth = self.options.max_depth;
        self.concept_at(depth)
    }

    fn concept_at(&mut self, depth: usize) -> Concept {
        if depth <= 1 || self.rng.random_bool(0.3) {
            return self.atom();
        }
        let choice = if self.options.cardinalities {
            self.rng.random_range(0..9)
        } else {
            self.rng.random_range(0..6)
        };
        let Some(role) = self.role() else {
            return self.atom();
        };
        let max_n = self.options.max_cardinality;
        match choice {
            0 => Concept::not(self.concept_at(depth - 1)),
            1 | 2 => {
                let k = self.rng.random_range(2..=3);
                let cs = (0..k).map(|_| self.concept_at(depth - 1)).collect();
                if choice == 1 {
                    Concept::And(cs)
                } else {
                    Concept::Or(cs)
                }
            }
            3 | 4 => Concept::some(role, self.concept_at(depth - 1)),
            5 => Concept::only(role, self.concept_at(depth - 1)),
            6 => {
                let n = self.rng.random_range(1..=max_n.max(1));
                Concept::min(n, role, self.concept_at(depth - 1))
            }
            7 => {
                let n = self.rng.random_range(0..=max_n);
                Concept::max(n, role, self.concept_at(depth - 1))
            }
            _ => {
                let n = self.rng.random_range(0..=max_n);
                Concept::exactly(n, role, self.concept_at(depth - 1))
            }
        }
    }

    /// The next concept of a search-shaped stream: usually an earlier concept extended by a
    /// conjunct, a disjunct or a restriction around it, sometimes a fresh small concept.
    pub fn next_in_search(&mut self) -> Concept {
        let next = if self.pool.is_empty() || self.rng.random_bool(0.15) {
            let depth = self.rng.random_range(1..=2);
            self.concept_at(depth)
        } else {
            // Prefer recent nodes, as a best-first search does.
            let len = self.pool.len();
            let back = self.rng.random_range(0..len.min(50));
            let parent = self.pool[len - 1 - back].clone();
            match self.rng.random_range(0..6) {
                0..=2 => Concept::And(vec![parent, self.concept_at(2)]),
                3 => Concept::Or(vec![parent, self.atom()]),
                4 => match self.role() {
                    Some(r) if crate::concept::depth(&parent) < 3 => Concept::some(r, parent),
                    _ => Concept::And(vec![parent, self.atom()]),
                },
                _ => Concept::And(vec![parent, Concept::not(self.atom())]),
            }
        };
        if crate::concept::length(&next) <= 12 {
            self.pool.push(next.clone());
        }
        next
    }
}

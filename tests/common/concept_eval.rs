//! A closed-world evaluator over small random interpretations, to check that rewrites such as
//! normalisation preserve the set of instances. Independent of the crate's own code paths.

use std::collections::BTreeMap;

use oxilearn::concept::{Concept, DataRange, Iri, Literal, Role, vocab};
use proptest::prelude::*;

use super::concept_gen::{
    CLASSES, DATA_PROPERTIES, EXTRA_CLASSES, EXTRA_INDIVIDUALS, EXTRA_OBJECT_PROPERTIES,
    INDIVIDUALS, OBJECT_PROPERTIES, literal,
};

/// Individuals are `0..n`, named by the generator's individual IRIs in order.
#[derive(Clone, Debug)]
pub struct Interpretation {
    pub individuals: Vec<Iri>,
    pub classes: BTreeMap<Iri, Vec<bool>>,
    /// property → adjacency matrix `[from][to]`
    pub roles: BTreeMap<Iri, Vec<Vec<bool>>>,
    /// property → values of each individual
    pub data: BTreeMap<Iri, Vec<Vec<Literal>>>,
}

/// Random interpretations over all IRIs the concept generator uses.
pub fn interpretation() -> BoxedStrategy<Interpretation> {
    let individuals: Vec<Iri> = INDIVIDUALS
        .iter()
        .chain(EXTRA_INDIVIDUALS)
        .map(|s| Iri::new(*s))
        .collect();
    let n = individuals.len();
    let classes: Vec<Iri> = CLASSES
        .iter()
        .chain(EXTRA_CLASSES)
        .filter(|c| **c != vocab::OWL_THING)
        .map(|s| Iri::new(*s))
        .collect();
    let roles: Vec<Iri> = OBJECT_PROPERTIES
        .iter()
        .chain(EXTRA_OBJECT_PROPERTIES)
        .map(|s| Iri::new(*s))
        .collect();
    let datas: Vec<Iri> = DATA_PROPERTIES.iter().map(|s| Iri::new(*s)).collect();
    let ext = prop::collection::vec(prop::collection::vec(any::<bool>(), n), classes.len());
    let rel = prop::collection::vec(
        prop::collection::vec(prop::collection::vec(any::<bool>(), n), n),
        roles.len(),
    );
    let vals = prop::collection::vec(
        prop::collection::vec(prop::collection::vec(literal(), 0..3), n),
        datas.len(),
    );
    (ext, rel, vals)
        .prop_map(move |(ext, rel, vals)| Interpretation {
            individuals: individuals.clone(),
            classes: classes.iter().cloned().zip(ext).collect(),
            roles: roles.iter().cloned().zip(rel).collect(),
            data: datas.iter().cloned().zip(vals).collect(),
        })
        .boxed()
}

impl Interpretation {
    /// The instances of `c`, one flag per individual.
    pub fn eval(&self, c: &Concept) -> Vec<bool> {
        let n = self.individuals.len();
        let all = |f: &dyn Fn(usize) -> bool| (0..n).map(f).collect::<Vec<bool>>();
        match c {
            Concept::Top => vec![true; n],
            Concept::Bottom => vec![false; n],
            Concept::Class(iri) if iri.as_str() == vocab::OWL_THING => vec![true; n],
            Concept::Class(iri) if iri.as_str() == vocab::OWL_NOTHING => vec![false; n],
            Concept::Class(iri) => self.classes.get(iri).cloned().unwrap_or(vec![false; n]),
            Concept::Not(x) => self.eval(x).into_iter().map(|b| !b).collect(),
            Concept::And(cs) => {
                let sets: Vec<Vec<bool>> = cs.iter().map(|c| self.eval(c)).collect();
                all(&|i| sets.iter().all(|s| s[i]))
            }
            Concept::Or(cs) => {
                let sets: Vec<Vec<bool>> = cs.iter().map(|c| self.eval(c)).collect();
                all(&|i| sets.iter().any(|s| s[i]))
            }
            Concept::Some { role, filler } => self.count(role, filler, |k| k >= 1),
            Concept::Only { role, filler } => {
                let not_filler = Concept::not((**filler).clone());
                self.count(role, &not_filler, |k| k == 0)
            }
            Concept::Min { n, role, filler } => self.count(role, filler, |k| k >= *n as usize),
            Concept::Max { n, role, filler } => self.count(role, filler, |k| k <= *n as usize),
            Concept::Exactly { n, role, filler } => self.count(role, filler, |k| k == *n as usize),
            Concept::HasValue { role, individual } => {
                let target = self.individuals.iter().position(|i| i == individual);
                all(&|i| target.is_some_and(|t| self.edge(role, i, t)))
            }
            Concept::OneOf(v) => all(&|i| v.contains(&self.individuals[i])),
            Concept::HasSelf(role) => all(&|i| self.edge(role, i, i)),
            Concept::Data { property, range } => all(&|i| {
                self.data
                    .get(property)
                    .is_some_and(|vals| vals[i].iter().any(|v| matches(range, v)))
            }),
            other => panic!("evaluator does not know {other:?}"),
        }
    }

    fn edge(&self, role: &Role, from: usize, to: usize) -> bool {
        let (a, b) = if role.inverse { (to, from) } else { (from, to) };
        self.roles.get(&role.property).is_some_and(|m| m[a][b])
    }

    fn count(&self, role: &Role, filler: &Concept, ok: impl Fn(usize) -> bool) -> Vec<bool> {
        let f = self.eval(filler);
        let n = self.individuals.len();
        (0..n)
            .map(|i| ok((0..n).filter(|&j| f[j] && self.edge(role, i, j)).count()))
            .collect()
    }
}

fn matches(range: &DataRange, v: &Literal) -> bool {
    match range {
        DataRange::Value(l) => l == v,
        DataRange::Datatype(dt) => dt.as_str() == vocab::RDFS_LITERAL || *dt == v.datatype,
        DataRange::Numeric { datatype, min, max } => {
            let Ok(x) = v.lexical.parse::<f64>() else {
                return false;
            };
            *datatype == v.datatype
                && min.is_none_or(|b| x > b.value.get() || (b.inclusive && x == b.value.get()))
                && max.is_none_or(|b| x < b.value.get() || (b.inclusive && x == b.value.get()))
        }
        _ => false,
    }
}

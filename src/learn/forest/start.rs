//! Where the trees start: classes that cover all positives (the paper's PosCov = 1.0; with
//! a noise allowance, all but the misses it allows). Any expression `C` does no worse as
//! `C ⊓ A` for such a class `A` (the same positives, no more negatives), so starting below
//! `A` loses no quality, only length; the most specific such classes cut the most.
//!
//! The walk goes down the class hierarchy from the most general classes (ρ(⊤) at length
//! 1), scoring a class's direct subclasses (ρ(A) at length 1) only when `A` covers, so it
//! asks about the covering part of the hierarchy and its fringe, never the individuals.
//! Candidates come back ranked: the most specific covering classes first, then the other
//! covering classes, each group by quality, then by the concepts' order.

use std::collections::BTreeMap;

use crate::concept::Concept;
use crate::learn::search::Evaluated;
use crate::refine::Refinement;

/// A class that covers enough positives.
#[derive(Clone, Debug, PartialEq)]
pub struct StartCandidate {
    pub concept: Concept,
    pub evaluated: Evaluated,
    /// None of its direct subclasses covers enough positives.
    pub most_specific: bool,
}

/// The named classes among `c`'s length-1 refinements.
fn subclasses(refinement: &dyn Refinement, c: &Concept) -> Vec<Concept> {
    let mut out: Vec<Concept> = refinement
        .refine(c, 1)
        .into_iter()
        .filter(|r| matches!(r, Concept::Class(_)) && r != c)
        .collect();
    out.sort();
    out.dedup();
    out
}

/// Scores a batch of concepts in order (a shorter prefix when a budget stopped it).
pub type BatchScorer<'f, E> = dyn FnMut(&[Concept]) -> Result<Vec<Evaluated>, E> + 'f;

/// The covering classes (those `covers` accepts), ranked. `evaluate` scores a batch in
/// order and may return a shorter prefix when a budget stops it; the walk then ends with
/// what it has.
pub fn covering_classes<E>(
    refinement: &dyn Refinement,
    covers_enough: &dyn Fn(&Evaluated) -> bool,
    evaluate: &mut BatchScorer<'_, E>,
) -> Result<Vec<StartCandidate>, E> {
    // Per class asked: whether it covers, and its subclasses when it does.
    let mut covers: BTreeMap<Concept, Option<Evaluated>> = BTreeMap::new();
    let mut children: BTreeMap<Concept, Vec<Concept>> = BTreeMap::new();
    let mut level = subclasses(refinement, &Concept::Top);
    while !level.is_empty() {
        let scored = evaluate(&level)?;
        let complete = scored.len() == level.len();
        let mut next = Vec::new();
        for (c, e) in level.iter().zip(scored) {
            let ok = covers_enough(&e);
            covers.insert(c.clone(), ok.then_some(e));
            if ok {
                let subs = subclasses(refinement, c);
                next.extend(subs.iter().filter(|s| !covers.contains_key(*s)).cloned());
                children.insert(c.clone(), subs);
            }
        }
        if !complete {
            break;
        }
        next.sort();
        next.dedup();
        level = next;
    }
    let mut out: Vec<StartCandidate> = covers
        .iter()
        .filter_map(|(c, e)| {
            let e = (*e)?;
            let most_specific = children
                .get(c)
                .is_none_or(|subs| subs.iter().all(|s| !matches!(covers.get(s), Some(Some(_)))));
            Some(StartCandidate {
                concept: c.clone(),
                evaluated: e,
                most_specific,
            })
        })
        .collect();
    out.sort_by(|a, b| {
        b.most_specific
            .cmp(&a.most_specific)
            .then_with(|| b.evaluated.quality.total_cmp(&a.evaluated.quality))
            .then_with(|| a.concept.cmp(&b.concept))
    });
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::concept::Iri;
    use crate::eval::Confusion;

    fn class(name: &str) -> Concept {
        Concept::class(Iri::new(format!("urn:ex:{name}")))
    }

    /// Person ⊒ {Student, Employee}; Student ⊒ {PhDStudent}; Course alone.
    struct Hierarchy;

    impl Refinement for Hierarchy {
        fn refine(&self, c: &Concept, _max_len: usize) -> Vec<Concept> {
            let names: &[&str] = match c {
                Concept::Top => &["Person", "Course"],
                Concept::Class(i) if i.as_str() == "urn:ex:Person" => &["Student", "Employee"],
                Concept::Class(i) if i.as_str() == "urn:ex:Student" => &["PhDStudent"],
                _ => &[],
            };
            let mut out: Vec<Concept> = names.iter().map(|n| class(n)).collect();
            // Longer refinements are not classes and are ignored.
            out.push(Concept::not(class("Course")));
            out
        }
    }

    fn scored(tp: usize, fp: usize) -> Evaluated {
        let confusion = Confusion {
            tp,
            fn_: 4 - tp,
            fp,
            tn: 4 - fp,
        };
        Evaluated {
            confusion,
            quality: confusion.f1(),
            too_weak: tp < 4,
        }
    }

    #[test]
    fn walks_down_the_covering_classes_and_ranks_the_most_specific_first() {
        // 4 positives: Person, Student and Employee cover them all; PhDStudent and Course
        // do not. Student has fewer false positives than Employee.
        let coverage = |c: &Concept| match c {
            Concept::Class(i) => match i.as_str() {
                "urn:ex:Person" => scored(4, 4),
                "urn:ex:Student" => scored(4, 1),
                "urn:ex:Employee" => scored(4, 2),
                "urn:ex:PhDStudent" => scored(2, 0),
                _ => scored(0, 1),
            },
            _ => unreachable!("only classes are asked"),
        };
        let mut asked = Vec::new();
        let mut evaluate = |batch: &[Concept]| -> Result<Vec<Evaluated>, ()> {
            asked.extend(batch.iter().cloned());
            Ok(batch.iter().map(coverage).collect())
        };
        let got = covering_classes(&Hierarchy, &|e| !e.too_weak, &mut evaluate).unwrap();
        let ranked: Vec<(Concept, bool)> = got
            .iter()
            .map(|s| (s.concept.clone(), s.most_specific))
            .collect();
        assert_eq!(
            ranked,
            [
                (class("Student"), true),
                (class("Employee"), true),
                (class("Person"), false),
            ]
        );
        // Course does not cover: its subclasses are never asked; each class once.
        assert_eq!(asked.len(), 5);
    }

    #[test]
    fn a_budget_that_stops_the_walk_keeps_what_was_scored() {
        let mut calls = 0;
        let mut evaluate = |batch: &[Concept]| -> Result<Vec<Evaluated>, ()> {
            calls += 1;
            // The first batch (Course, Person) is cut after one class.
            Ok(batch.iter().take(1).map(|_| scored(4, 3)).collect())
        };
        let got = covering_classes(&Hierarchy, &|e| !e.too_weak, &mut evaluate).unwrap();
        assert_eq!(calls, 1);
        assert_eq!(got.len(), 1);
        assert_eq!(got[0].concept, class("Course"));
    }
}

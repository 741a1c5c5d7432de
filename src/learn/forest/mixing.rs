//! The paper's mixing step (its Algorithm 2): the expression a tree is expanding is
//! conjoined with the best expression of each earlier tree, so that what separate trees
//! found in separate parts of the space can meet in one candidate.
//!
//! The conjunction `C ⊓ B` is proposed only when
//! 1. `C` and `B` share no named class (otherwise it repeats what one tree already has);
//! 2. every named class occurs at most once in the normal form of `C ⊓ B` ("all the
//!    classes are distinct": an expression that names a class twice brings nothing new);
//! 3. its length is at most the forest's `max_mix_length`;
//! 4. it differs from both `C` and `B` (`⊤ ⊓ B` is `B`).

use crate::concept::{Concept, Iri, length, normalize};

/// Named classes of `c`, each occurrence once, in syntax order.
pub fn class_occurrences(c: &Concept) -> Vec<&Iri> {
    let mut out = Vec::new();
    collect(c, &mut out);
    out
}

fn collect<'c>(c: &'c Concept, out: &mut Vec<&'c Iri>) {
    if let Concept::Class(iri) = c {
        out.push(iri);
    }
    for child in c.children() {
        collect(child, out);
    }
}

/// `current ⊓ best` in normal form when the conditions above hold.
pub fn mix(current: &Concept, best: &Concept, max_length: usize) -> Option<Concept> {
    let ours = class_occurrences(current);
    let theirs = class_occurrences(best);
    if ours.iter().any(|c| theirs.contains(c)) {
        return None;
    }
    let mixed = normalize(&Concept::And(vec![current.clone(), best.clone()]));
    let classes = class_occurrences(&mixed);
    let distinct = classes
        .iter()
        .enumerate()
        .all(|(i, c)| !classes[..i].contains(c));
    if !distinct || length(&mixed) > max_length || &mixed == current || &mixed == best {
        return None;
    }
    Some(mixed)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::concept::Role;

    fn class(name: &str) -> Concept {
        Concept::class(Iri::new(format!("urn:ex:{name}")))
    }

    fn some(role: &str, filler: Concept) -> Concept {
        Concept::some(Role::new(Iri::new(format!("urn:ex:{role}"))), filler)
    }

    #[test]
    fn conjoins_expressions_that_share_no_class() {
        let student = class("Student");
        let teaches = some("attends", class("AICourse"));
        let mixed = mix(&student, &teaches, 10).expect("no class in common");
        assert_eq!(
            mixed,
            normalize(&Concept::And(vec![student.clone(), teaches.clone()]))
        );
        // 1 + (1 + 1 + 1) + 1 for the ⊓.
        assert_eq!(length(&mixed), 5);
    }

    #[test]
    fn refuses_a_shared_class_a_repeated_class_a_long_result_or_nothing_new() {
        let student = class("Student");
        let employee = class("Employee");
        // A class in common, even nested in a filler.
        let a = Concept::And(vec![student.clone(), some("worksFor", employee.clone())]);
        assert_eq!(mix(&a, &employee, 10), None);
        // No class in common, but one side already names a class twice.
        let twice = Concept::And(vec![student.clone(), some("knows", student.clone())]);
        assert_eq!(mix(&twice, &employee, 10), None);
        // Over the length limit: Student ⊓ ∃attends.AICourse is 5 long.
        let course = some("attends", class("AICourse"));
        assert_eq!(mix(&student, &course, 4), None);
        assert!(mix(&student, &course, 5).is_some());
        // ⊤ ⊓ B is B: nothing new.
        assert_eq!(mix(&Concept::Top, &employee, 10), None);
        assert_eq!(mix(&employee, &employee, 10), None);
    }

    #[test]
    fn class_occurrences_count_every_occurrence() {
        let c = Concept::Or(vec![
            class("A"),
            Concept::not(some("r", Concept::And(vec![class("B"), class("A")]))),
        ]);
        let names: Vec<&str> = class_occurrences(&c).iter().map(|i| i.as_str()).collect();
        assert_eq!(names, ["urn:ex:A", "urn:ex:B", "urn:ex:A"]);
    }
}

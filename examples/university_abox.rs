//! A seeded university ABox over the UOBM TBox and learning problems on it, as the Forest
//! Mixing paper builds its synthetic tests: targets `A ⊓ ∃R.⊤` found by brute force over
//! the TBox's classes and object properties (at least `MIN_POSITIVES` members, and at least
//! 10 individuals in `A` without an `R` and 10 with an `R` outside `A`, so both conjuncts
//! matter); the negatives are drawn half from each of those two sets. The paper's noise is
//! then applied: 5 % of each example set removed, and 5 % of the smaller set (at least one)
//! swapped between positives and negatives.
//!
//! ```sh
//! cargo run --release --example university_abox -- ../shared/datasets/uobm/univ-bench-dl.owl OUT_DIR [SEED] [DEPARTMENTS] [TARGETS]
//! ```
//! writes `OUT_DIR/abox.ttl`, `OUT_DIR/problems.json` (noisy) and
//! `OUT_DIR/problems-clean.json` (list JSON). Learn with `--kb TBOX --kb OUT_DIR/abox.ttl`.

use std::error::Error;
use std::fmt::Write as _;
use std::path::PathBuf;

use oxilearn::KnowledgeBase;
use oxilearn::concept::{Concept, EntityKind, Iri, Role, to_manchester_full};
use rand::rngs::StdRng;
use rand::seq::{IndexedRandom, SliceRandom};
use rand::{Rng, SeedableRng};

const UB: &str = "http://semantics.crl.ibm.com/univ-bench-dl.owl#";
const EX: &str = "http://example.org/univ-abox#";
const MIN_POSITIVES: usize = 20;
const MAX_POSITIVES: usize = 100;

fn main() -> Result<(), Box<dyn Error>> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let (Some(tbox), Some(out)) = (args.first(), args.get(1)) else {
        return Err("usage: university_abox TBOX OUT_DIR [SEED] [DEPARTMENTS] [TARGETS]".into());
    };
    let num = |i: usize, default: u64| -> Result<u64, Box<dyn Error>> {
        Ok(args
            .get(i)
            .map(|s| s.parse())
            .transpose()?
            .unwrap_or(default))
    };
    let (seed, departments, targets) = (num(2, 1)?, num(3, 6)? as usize, num(4, 10)? as usize);
    let out = PathBuf::from(out);
    std::fs::create_dir_all(&out)?;
    let abox = out.join("abox.ttl");
    std::fs::write(&abox, generate(seed, departments))?;
    let kb = KnowledgeBase::from_files(&[PathBuf::from(tbox), abox])?;
    let problems = find_targets(&kb, seed, targets)?;
    let mut rng = StdRng::seed_from_u64(seed ^ 0x5eed);
    let noisy: Vec<serde_json::Value> = problems
        .iter()
        .map(|(c, pos, neg)| {
            let (p, n) = paper_noise(&mut rng, pos, neg);
            problem_json(c, &p, &n)
        })
        .collect();
    let clean: Vec<serde_json::Value> = problems
        .iter()
        .map(|(c, p, n)| problem_json(c, p, n))
        .collect();
    std::fs::write(
        out.join("problems.json"),
        serde_json::to_string_pretty(&noisy)?,
    )?;
    std::fs::write(
        out.join("problems-clean.json"),
        serde_json::to_string_pretty(&clean)?,
    )?;
    eprintln!(
        "{} problems, {} individuals in {}",
        problems.len(),
        kb.individuals().len(),
        out.display()
    );
    Ok(())
}

fn problem_json(c: &Concept, pos: &[String], neg: &[String]) -> serde_json::Value {
    serde_json::json!({"concept": to_manchester_full(c), "positives": pos, "negatives": neg})
}

/// The paper's noise: drop 5 % of each set, then swap 5 % of the smaller set (≥ 1).
fn paper_noise(rng: &mut StdRng, pos: &[String], neg: &[String]) -> (Vec<String>, Vec<String>) {
    let keep = |rng: &mut StdRng, v: &[String]| {
        let mut v = v.to_vec();
        v.shuffle(rng);
        v.truncate(v.len() - v.len() * 5 / 100);
        v
    };
    let (mut p, mut n) = (keep(rng, pos), keep(rng, neg));
    let swap = (p.len().min(n.len()) * 5 / 100).max(1);
    let moved_p: Vec<String> = p.drain(..swap).collect();
    let moved_n: Vec<String> = n.drain(..swap).collect();
    p.extend(moved_n);
    n.extend(moved_p);
    p.sort();
    n.sort();
    (p, n)
}

type Problem = (Concept, Vec<String>, Vec<String>);

/// Brute force over `A ⊓ ∃R.⊤`, then a seeded choice of `count` of them.
fn find_targets(
    kb: &KnowledgeBase,
    seed: u64,
    count: usize,
) -> Result<Vec<Problem>, Box<dyn Error>> {
    let vocab = kb.vocabulary();
    let mut classes: Vec<Iri> = vocab.iris(EntityKind::Class).cloned().collect();
    let mut roles: Vec<Iri> = vocab.iris(EntityKind::ObjectProperty).cloned().collect();
    classes.sort();
    roles.sort();
    let mut found = Vec::new();
    for r in &roles {
        let some = kb.instances(&Concept::some(Role::new(r.clone()), Concept::Top))?;
        for a in &classes {
            let members = kb.instances(&Concept::Class(a.clone()))?;
            let target = members.intersection(&some);
            let only_a = members.difference(&some);
            let only_r = some.difference(&members);
            if target.len() >= MIN_POSITIVES && only_a.len() >= 10 && only_r.len() >= 10 {
                let c = Concept::And(vec![
                    Concept::Class(a.clone()),
                    Concept::some(Role::new(r.clone()), Concept::Top),
                ]);
                let names = |s: &oxilearn::oracle::IndividualSet| -> Vec<String> {
                    kb.iris(s).map(|i| i.as_str().to_owned()).collect()
                };
                found.push((c, names(&target), names(&only_a), names(&only_r)));
            }
        }
    }
    let mut rng = StdRng::seed_from_u64(seed);
    found.shuffle(&mut rng);
    found.truncate(count);
    Ok(found
        .into_iter()
        .map(|(c, mut pos, mut a, mut r)| {
            pos.shuffle(&mut rng);
            pos.truncate(MAX_POSITIVES);
            let half = pos.len().div_ceil(2);
            a.shuffle(&mut rng);
            r.shuffle(&mut rng);
            a.truncate(half);
            r.truncate(pos.len() - a.len().min(half));
            let mut neg: Vec<String> = a.into_iter().chain(r).collect();
            pos.sort();
            neg.sort();
            (c, pos, neg)
        })
        .collect())
}

/// One university of `departments` departments, as Turtle.
fn generate(seed: u64, departments: usize) -> String {
    let mut rng = StdRng::seed_from_u64(seed);
    let mut t = String::new();
    let _ = writeln!(t, "@prefix ub: <{UB}> .\n@prefix : <{EX}> .\n");
    let hobbies = [
        "BaseballClass",
        "TennisClass",
        "SwimmingClass",
        "MusicsClass",
        "DramaClass",
        "PhysicsClass",
        "HistoryClass",
    ];
    for h in hobbies {
        for i in 0..3 {
            let _ = writeln!(t, ":{h}{i} a ub:{h} .");
        }
    }
    for u in 0..3 {
        let _ = writeln!(t, ":Univ{u} a ub:University .");
    }
    let mut people: Vec<String> = Vec::new();
    for d in 0..departments {
        let dept = format!(":Dept{d}");
        let _ = writeln!(t, "{dept} a ub:Department ; ub:subOrganizationOf :Univ0 .");
        let courses: Vec<String> = (0..12).map(|c| format!(":Course{d}_{c}")).collect();
        for (i, c) in courses.iter().enumerate() {
            let kind = if i < 8 { "Course" } else { "GraduateCourse" };
            let _ = writeln!(t, "{c} a ub:{kind} .");
        }
        let mut faculty = Vec::new();
        for (kind, n) in [
            ("FullProfessor", 4),
            ("AssociateProfessor", 5),
            ("AssistantProfessor", 5),
            ("Lecturer", 4),
        ] {
            for i in 0..n {
                let f = format!(":{kind}{d}_{i}");
                let _ = writeln!(t, "{f} a ub:{kind} ; ub:worksFor {dept} .");
                if rng.random_bool(0.8) {
                    let c = courses.choose(&mut rng).map_or("", String::as_str);
                    let _ = writeln!(t, "{f} ub:teacherOf {c} .");
                }
                if rng.random_bool(0.6) {
                    let _ = writeln!(
                        t,
                        "{f} ub:hasDoctoralDegreeFrom :Univ{} .",
                        rng.random_range(0..3)
                    );
                }
                faculty.push(f);
            }
        }
        let _ = writeln!(t, "{} ub:isHeadOf {dept} .", faculty[0]);
        for i in 0..2 {
            let _ = writeln!(t, ":Clerk{d}_{i} a ub:ClericalStaff ; ub:worksFor {dept} .");
            people.push(format!(":Clerk{d}_{i}"));
        }
        for (kind, n, takes, advised, ta) in [
            ("UndergraduateStudent", 40, 0.85, 0.2, 0.0),
            ("GraduateStudent", 16, 0.6, 0.75, 0.35),
        ] {
            for i in 0..n {
                let s = format!(":{kind}{d}_{i}");
                let _ = writeln!(t, "{s} a ub:{kind} ; ub:isMemberOf {dept} .");
                if rng.random_bool(takes) {
                    let c = courses.choose(&mut rng).map_or("", String::as_str);
                    let _ = writeln!(t, "{s} ub:takesCourse {c} .");
                }
                if rng.random_bool(advised) {
                    let f = faculty[rng.random_range(0..9)].clone();
                    let _ = writeln!(t, "{s} ub:isAdvisedBy {f} .");
                }
                if ta > 0.0 && rng.random_bool(ta) {
                    let c = &courses[rng.random_range(0..8)];
                    let _ = writeln!(t, "{s} ub:teachingAssistantOf {c} .");
                }
                if kind == "GraduateStudent" && rng.random_bool(0.8) {
                    let _ = writeln!(
                        t,
                        "{s} ub:hasUndergraduateDegreeFrom :Univ{} .",
                        rng.random_range(0..3)
                    );
                }
                people.push(s);
            }
        }
        people.extend(faculty);
    }
    for p in &people {
        let gender = if rng.random_bool(0.5) { "Man" } else { "Woman" };
        let _ = writeln!(t, "{p} a ub:{gender} .");
        for (prop, share) in [("like", 0.5), ("love", 0.25), ("isCrazyAbout", 0.1)] {
            if rng.random_bool(share) {
                let h = hobbies.choose(&mut rng).unwrap_or(&hobbies[0]);
                let _ = writeln!(t, "{p} ub:{prop} :{h}{} .", rng.random_range(0..3));
            }
        }
        if rng.random_bool(0.3) {
            let friend = people.choose(&mut rng).map_or(p.as_str(), String::as_str);
            if friend != p {
                let _ = writeln!(t, "{p} ub:isFriendOf {friend} .");
            }
        }
    }
    t
}

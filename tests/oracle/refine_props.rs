//! ρ (refine::rho) on real knowledge bases: every refinement is downward in the closed-world
//! semantics (covered(refinement) ⊆ covered(parent) over all individuals, by the reference
//! evaluator), fits the length limit, is normal and unique; ρ is deterministic; and targets
//! are reachable from ⊤ (weak completeness).

use crate::common;

use std::collections::{BTreeMap, BTreeSet};
use std::sync::LazyLock;

use common::Pair;
use oxilearn::concept::{self, Concept, Iri, Number, length, normalize, to_manchester};
use oxilearn::oracle::datatypes::numeric_value;
use oxilearn::oracle::{IndividualSet, MembershipOracle};
use oxilearn::refine::Refinement;
use oxilearn::refine::rho::{Rho, RhoOptions, numeric_split_points};
use proptest::prelude::*;
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

/// Split values from the data, as a learner computes them before building ρ.
fn splits(p: &Pair, max: usize) -> BTreeMap<Iri, Vec<Number>> {
    let sig = p.signature();
    let all = sig.all_individuals();
    let mut out = BTreeMap::new();
    for (prop, info) in &sig.data_properties {
        if info.numeric.is_none() {
            continue;
        }
        let values: Vec<f64> = p
            .reference
            .data_values(prop, &all)
            .expect("data values")
            .iter()
            .filter_map(|(_, l)| numeric_value(&l.lexical, l.datatype.as_str()))
            .collect();
        out.insert(prop.clone(), numeric_split_points(&values, max));
    }
    out
}

fn rho_for(p: &Pair, options: RhoOptions) -> Rho {
    let max = options.max_numeric_splits;
    Rho::new(p.signature(), options).with_numeric_splits(splits(p, max))
}

fn covered(p: &Pair, c: &Concept) -> IndividualSet {
    let all = p.signature().all_individuals();
    p.reference.covered(c, &all).expect("evaluates")
}

fn show(p: &Pair, c: &Concept) -> String {
    to_manchester(c, &p.signature().vocabulary())
}

static FAMILY: LazyLock<Pair> =
    LazyLock::new(|| common::pair(&[common::repo_path("fixtures/family/family.ttl")]));
static TRAINS: LazyLock<Pair> =
    LazyLock::new(|| common::pair(&[common::repo_path("fixtures/trains/trains.ttl")]));
static SHARED_FAMILY: LazyLock<Option<Pair>> = LazyLock::new(|| {
    common::shared_dataset("family/family-benchmark_rich_background.owl")
        .map(|f| common::pair(&[f]))
});

/// A seeded walk from ⊤: pick a reached concept, refine it with a limit a little above its
/// length, check the refinements, keep a few. Returns the concepts refined.
fn walk(p: &Pair, rho: &Rho, seed: u64, steps: usize) -> Vec<(Concept, usize)> {
    let mut rng = StdRng::seed_from_u64(seed);
    let mut pool = vec![Concept::Top];
    let mut refined = Vec::new();
    let mut failures = Vec::new();
    let (mut produced, mut checked_count) = (0, 0);
    for _ in 0..steps {
        let parent = pool[rng.random_range(0..pool.len())].clone();
        let max_len = (length(&parent) + rng.random_range(1..=4)).min(10);
        let refs = rho.refine(&parent, max_len);
        refined.push((parent.clone(), max_len));
        let unique: BTreeSet<&Concept> = refs.iter().collect();
        assert_eq!(unique.len(), refs.len(), "duplicates refining {parent:?}");
        let parent_cov = covered(p, &parent);
        // Check coverage of every refinement unless there are very many (ρ(⊤) at a large
        // length), then of a seeded sample.
        let checked: Vec<&Concept> = if refs.len() <= 400 {
            refs.iter().collect()
        } else {
            (0..400)
                .map(|_| &refs[rng.random_range(0..refs.len())])
                .collect()
        };
        for d in &refs {
            assert!(length(d) <= max_len, "{} longer than {max_len}", show(p, d));
            assert_eq!(&normalize(d), d, "not normal: {d:?}");
            assert_ne!(d, &parent, "ρ returned its input");
        }
        produced += refs.len();
        checked_count += checked.len();
        for d in checked {
            if !covered(p, d).is_subset(&parent_cov) {
                failures.push(format!("{}  ⋢  {}", show(p, d), show(p, &parent)));
            }
        }
        for _ in 0..3 {
            if !refs.is_empty() {
                pool.push(refs[rng.random_range(0..refs.len())].clone());
            }
        }
    }
    assert!(
        failures.is_empty(),
        "not downward:\n{}",
        failures.join("\n")
    );
    eprintln!("walk: {steps} refine calls, {produced} refinements, {checked_count} checked");
    refined
}

fn walk_and_compare(p: &Pair, seed: u64, steps: usize) {
    let rho = rho_for(p, RhoOptions::default());
    let refined = walk(p, &rho, seed, steps);
    assert!(refined.len() == steps);
    // Determinism: a second operator over the same signature answers identically.
    let again = rho_for(p, RhoOptions::default());
    for (c, max_len) in refined.iter().step_by(5) {
        assert_eq!(rho.refine(c, *max_len), again.refine(c, *max_len), "{c:?}");
    }
}

#[test]
fn refinements_are_downward_bounded_normal_unique_on_fixture_family() {
    walk_and_compare(&FAMILY, 1, 200);
}

#[test]
fn refinements_are_downward_bounded_normal_unique_on_fixture_trains() {
    walk_and_compare(&TRAINS, 2, 200);
}

#[test]
fn refinements_are_downward_bounded_normal_unique_on_shared_family() {
    if let Some(p) = SHARED_FAMILY.as_ref() {
        walk_and_compare(p, 3, 200);
    }
}

#[test]
fn every_option_set_stays_downward_on_fixture_family() {
    let p = &*FAMILY;
    let all_on = RhoOptions {
        use_inverse: true,
        use_self: true,
        use_has_value: true,
        ..RhoOptions::default()
    };
    let candidates: BTreeMap<Iri, Vec<Iri>> = p
        .signature()
        .object_properties
        .keys()
        .map(|r| {
            (
                r.clone(),
                p.signature().individuals.iter().take(2).cloned().collect(),
            )
        })
        .collect();
    for (i, options) in [
        all_on,
        RhoOptions::boolean_existential(),
        RhoOptions {
            disjointness_pruning: false,
            domain_range_aware: false,
            ..RhoOptions::default()
        },
    ]
    .into_iter()
    .enumerate()
    {
        let rho = rho_for(p, options).with_has_value_candidates(candidates.clone());
        walk(p, &rho, 10 + i as u64, 80);
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(6))]
    #[test]
    fn walks_from_any_seed_stay_downward(seed in any::<u64>()) {
        walk_and_compare(&FAMILY, seed, 40);
    }
}

/// BFS over ρ from ⊤ (limit: the target's length), keeping only concepts that cover all of
/// the target's instances: every concept on a refinement chain to the target does, as each
/// step is downward, so the pruning loses no chain. Returns the number of steps.
fn bfs_reaches(
    p: &Pair,
    rho: &Rho,
    target: &Concept,
    max_steps: usize,
    max_nodes: usize,
) -> Option<usize> {
    let t = normalize(target);
    let max_len = length(&t);
    let t_cov = covered(p, &t);
    let mut frontier = vec![Concept::Top];
    let mut seen = BTreeSet::from([Concept::Top]);
    for step in 1..=max_steps {
        let mut next = Vec::new();
        for c in &frontier {
            for d in rho.refine(c, max_len) {
                if !seen.insert(d.clone()) {
                    continue;
                }
                if d == t {
                    return Some(step);
                }
                if t_cov.is_subset(&covered(p, &d)) {
                    next.push(d);
                }
            }
        }
        if seen.len() > max_nodes {
            return None;
        }
        frontier = next;
    }
    None
}

fn parse(p: &Pair, text: &str) -> Concept {
    concept::parse(text, &p.signature().vocabulary()).unwrap_or_else(|e| panic!("{text}: {e}"))
}

#[test]
fn weak_completeness_male_with_a_child_on_fixture_family() {
    let p = &*FAMILY;
    let rho = rho_for(p, RhoOptions::default());
    let target = parse(p, "Male and (hasChild some Thing)");
    let steps = bfs_reaches(p, &rho, &target, 6, 200_000);
    eprintln!("reached in {steps:?} steps");
    assert!(steps.is_some(), "not reached: {}", show(p, &target));
}

/// Aunt's building blocks on the benchmark family (Aunt itself, length 11, is too deep for
/// plain BFS; its chain is checked step by step below).
#[test]
fn weak_completeness_aunt_parts_on_shared_family() {
    let Some(p) = SHARED_FAMILY.as_ref() else {
        return;
    };
    let rho = rho_for(p, RhoOptions::default());
    for text in [
        "Female and (hasSibling some Parent)",
        "married some (hasSibling some Parent)",
    ] {
        let steps = bfs_reaches(p, &rho, &parse(p, text), 8, 300_000);
        eprintln!("{text}: reached in {steps:?} steps");
        assert!(steps.is_some(), "not reached: {text}");
    }
}

/// Michalski's eastbound trains: a car that is closed and short (fillers refined in
/// range(hasCar) = Car).
#[test]
fn weak_completeness_eastbound_on_fixture_trains() {
    let p = &*TRAINS;
    let rho = rho_for(p, RhoOptions::default());
    let target = parse(p, "hasCar some (Closed and Short)");
    let steps = bfs_reaches(p, &rho, &target, 6, 200_000);
    eprintln!("reached in {steps:?} steps");
    assert_eq!(
        steps,
        Some(3),
        "⊤ → ∃hasCar.⊤ → ∃hasCar.Closed|Short → target"
    );
}

/// The chain ⊤ → Person → Female → Female ⊓ (∃hasSibling.⊤ ⊔ ∃married.⊤) → … → Aunt (no
/// ranges are declared, so fillers go ⊤ → Person → Parent), each
/// step a member of ρ at the target's length: a witness of weak completeness that does not
/// depend on a search heuristic.
#[test]
fn weak_completeness_aunt_chain_on_shared_family() {
    let Some(p) = SHARED_FAMILY.as_ref() else {
        return;
    };
    let rho = rho_for(p, RhoOptions::default());
    let chain = [
        "Thing",
        "Person",
        "Female",
        "Female and ((hasSibling some Thing) or (married some Thing))",
        "Female and ((hasSibling some Person) or (married some Thing))",
        "Female and ((hasSibling some Parent) or (married some Thing))",
        "Female and ((hasSibling some Parent) or (married some (hasSibling some Thing)))",
        "Female and ((hasSibling some Parent) or (married some (hasSibling some Person)))",
        "Female and ((hasSibling some Parent) or (married some (hasSibling some Parent)))",
    ];
    let max_len = length(&normalize(&parse(p, chain[chain.len() - 1])));
    assert_eq!(max_len, 11);
    for w in chain.windows(2) {
        let (from, to) = (normalize(&parse(p, w[0])), normalize(&parse(p, w[1])));
        assert!(
            rho.refine(&from, max_len).contains(&to),
            "{} ∉ ρ({})",
            w[1],
            w[0]
        );
    }
}

/// Why `∀r.D` goes to `∀s.D` for super-roles s (as in the paper) and not sub-roles: on the
/// fixture, `∀hasSon.Female` has instances `∀hasChild.Female` lacks (a child not typed
/// Female, linked by `hasChild` only), so the sub-role step would not be downward.
#[test]
fn forall_to_a_sub_role_would_not_be_downward() {
    let p = &*FAMILY;
    let general = parse(p, "hasChild only Female");
    let sub = parse(p, "hasSon only Female");
    assert!(covered(p, &general).is_subset(&covered(p, &sub)));
    assert!(!covered(p, &sub).is_subset(&covered(p, &general)));
    let rho = rho_for(p, RhoOptions::default());
    assert!(rho.refine(&sub, 3).contains(&normalize(&general)));
    assert!(!rho.refine(&general, 3).contains(&normalize(&sub)));
}

/// Figures for the report: |ρ(⊤)| at lengths 1..5 and µs per refine call. Run with
/// `cargo test --release --test oracle -- --ignored --nocapture refine_props::figures`.
#[test]
#[ignore]
fn figures() {
    let mut kbs: Vec<(&str, &Pair)> = vec![("fixtures/family", &FAMILY)];
    if let Some(p) = SHARED_FAMILY.as_ref() {
        kbs.push(("shared family", p));
    }
    let carc =
        common::shared_dataset("carcinogenesis/carcinogenesis.nt.gz").map(|f| common::pair(&[f]));
    if let Some(p) = carc.as_ref() {
        kbs.push(("carcinogenesis", p));
    }
    for (name, p) in kbs {
        let rho = rho_for(p, RhoOptions::default());
        let counts: Vec<usize> = (1..=5)
            .map(|l| rho.refine(&Concept::Top, l).len())
            .collect();
        // ρ(⊤) at larger lengths, each on a fresh operator (cold cache).
        for l in 6..=7 {
            let fresh = rho_for(p, RhoOptions::default());
            let start = std::time::Instant::now();
            let n = fresh.refine(&Concept::Top, l).len();
            let ms = start.elapsed().as_secs_f64() * 1e3;
            println!("{name}: |ρ(⊤, {l})| = {n} in {ms:.1} ms cold");
        }
        // µs per call over a walk's concepts, on a warm cache and on a cold operator.
        let refined = walk(p, &rho, 7, 60);
        let start = std::time::Instant::now();
        let mut produced = 0;
        for (c, l) in &refined {
            produced += rho.refine(c, *l).len();
        }
        let warm = start.elapsed().as_secs_f64() * 1e6 / refined.len() as f64;
        let cold_rho = rho_for(p, RhoOptions::default());
        let start = std::time::Instant::now();
        for (c, l) in &refined {
            cold_rho.refine(c, *l);
        }
        let cold = start.elapsed().as_secs_f64() * 1e6 / refined.len() as f64;
        println!(
            "{name}: |ρ(⊤)| at lengths 1..5 = {counts:?}; {} calls, {:.0} refinements/call, {warm:.0} µs/call warm, {cold:.0} µs/call cold",
            refined.len(),
            produced as f64 / refined.len() as f64
        );
    }
}

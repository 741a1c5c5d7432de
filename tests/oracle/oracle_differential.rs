//! Differential tests: the SPARQL oracle (embedded Oxigraph) and the reference evaluator
//! (no SPARQL) must give identical answers — closed-world covered sets and three-valued truth
//! sets — on thousands of seeded random concepts using every constructor (depth ≤ 3).
//! A mismatch prints the concept, the query and both answers.

use crate::common;

use std::path::PathBuf;

use oxilearn::concept::{normalize, to_manchester_full};
use oxilearn::oracle::sparql::ClassAtoms;
use oxilearn::oracle::{CacheOptions, Cached, MembershipOracle, OracleOptions};
use oxilearn::refine::random::{RandomConcepts, RandomOptions};

use common::sample;

fn differential(files: &[PathBuf], concepts: usize, seed: u64, examples: usize) {
    differential_with(files, concepts, seed, examples, OracleOptions::default());
}

fn differential_with(
    files: &[PathBuf],
    concepts: usize,
    seed: u64,
    examples: usize,
    options: OracleOptions,
) {
    let p = common::pair_with(files, options);
    let sig = p.signature();
    let among = sample(sig.individual_count(), examples);
    let cached = Cached::new(&p.sparql, CacheOptions::default());
    let mut generator = RandomConcepts::new(&sig, seed, RandomOptions::default());
    let mut mismatches = Vec::new();
    let (mut nontrivial, mut with_unknowns) = (0, 0);
    for _ in 0..concepts {
        let c = generator.concept();
        let expected = p.reference.covered(&c, &among).expect("reference");
        let got = p.sparql.covered(&c, &among).expect("sparql");
        let via_cache = cached.covered(&c, &among).expect("cached");
        let normal = p
            .reference
            .covered(&normalize(&c), &among)
            .expect("reference nf");
        if got != expected || via_cache != expected || normal != expected {
            mismatches.push(format!(
                "covered differs for {}\nquery: {}\nreference {:?}\nsparql    {:?}\ncached    {:?}\nnormal form on reference {:?}",
                to_manchester_full(&c),
                p.sparql.covered_query(&c, &among).map(|q| q.to_string()).unwrap_or_default(),
                expected,
                got,
                via_cache,
                normal
            ));
        }
        if !expected.is_empty() && expected != among {
            nontrivial += 1;
        }
        let t_ref = p.reference.truth(&c, &among).expect("reference truth");
        if !t_ref.unknown(&among).is_empty() {
            with_unknowns += 1;
        }
        let t_sparql = p.sparql.truth(&c, &among).expect("sparql truth");
        let t_cached = cached.truth(&c, &among).expect("cached truth");
        if t_ref != t_sparql {
            mismatches.push(format!(
                "truth differs for {}\nreference {:?}\nsparql    {:?}",
                to_manchester_full(&c),
                t_ref,
                t_sparql
            ));
        }
        // Soundness against the closed world: provable members are members, provable
        // non-members are not (the data is one model of the KB when it is consistent).
        if !t_ref.true_set.is_subset(&expected) {
            mismatches.push(format!(
                "T(C) not within the closed-world answer for {}",
                to_manchester_full(&c)
            ));
        }
        if t_cached.true_set.intersection_count(&t_cached.false_set) != 0 {
            mismatches.push(format!(
                "T and F overlap (cached) for {}",
                to_manchester_full(&c)
            ));
        }
        if mismatches.len() >= 5 {
            break;
        }
    }
    assert!(mismatches.is_empty(), "{}", mismatches.join("\n\n"));
    // Guard against a vacuous test: most random concepts must split the examples.
    eprintln!("{nontrivial}/{concepts} concepts split the examples; {with_unknowns} have unknowns");
    assert!(
        nontrivial * 4 >= concepts,
        "only {nontrivial}/{concepts} concepts were non-trivial"
    );
}

#[test]
fn family_fixture_agrees() {
    differential(
        &[common::repo_path("fixtures/family/family.ttl")],
        1500,
        11,
        1000,
    );
}

#[test]
fn trains_fixture_agrees() {
    differential(
        &[common::repo_path("fixtures/trains/trains.ttl")],
        1000,
        12,
        1000,
    );
}

#[test]
fn family_benchmark_agrees() {
    let Some(f) = common::shared_dataset("family/family-benchmark_rich_background.owl") else {
        return;
    };
    differential(&[f], 1500, 13, 1000);
}

#[test]
fn carcinogenesis_sample_agrees() {
    let Some(f) = common::shared_dataset("carcinogenesis/carcinogenesis.nt.gz") else {
        return;
    };
    differential(&[f], 300, 14, 300);
}

/// Class atoms written as the property path give the same answers as the precomputed types,
/// and small VALUES chunks the same as one block.
#[test]
fn path_shaped_class_atoms_and_small_chunks_agree() {
    let options = OracleOptions {
        values_chunk: 7,
        class_atoms: ClassAtoms::Path,
        ..OracleOptions::default()
    };
    differential_with(
        &[common::repo_path("fixtures/family/family.ttl")],
        400,
        15,
        1000,
        options.clone(),
    );
    if let Some(f) = common::shared_dataset("family/family-benchmark_rich_background.owl") {
        differential_with(&[f], 400, 16, 1000, options);
    }
}

/// `data_values` agrees with the reference for every data property (on up to 1,500 individuals).
#[test]
fn data_values_agree() {
    let mut files = vec![common::repo_path("fixtures/family/family.ttl")];
    files.extend(common::shared_dataset(
        "carcinogenesis/carcinogenesis.nt.gz",
    ));
    for f in files {
        let p = common::pair(std::slice::from_ref(&f));
        let sig = p.signature();
        let all = sample(sig.individual_count(), 1500);
        assert!(!sig.data_properties.is_empty(), "{}", f.display());
        let mut values = 0;
        for property in sig.data_properties.keys() {
            let got = p.sparql.data_values(property, &all).expect("sparql");
            let want = p.reference.data_values(property, &all).expect("reference");
            assert_eq!(got, want, "{property:?} in {}", f.display());
            values += got.len();
        }
        assert!(values > 0, "no data values at all in {}", f.display());
    }
}

/// Batches (packed queries of several concepts, and the cache's leaf prefetch) give the same
/// answers as one concept at a time.
#[test]
fn batches_agree() {
    let mut files = vec![common::repo_path("fixtures/family/family.ttl")];
    files.extend(common::shared_dataset(
        "family/family-benchmark_rich_background.owl",
    ));
    for f in files {
        let options = OracleOptions {
            pack_size: 16,
            ..OracleOptions::default()
        };
        let p = common::pair_with(std::slice::from_ref(&f), options);
        let sig = p.signature();
        let among = sample(sig.individual_count(), 1000);
        let mut generator = RandomConcepts::new(&sig, 31, RandomOptions::default());
        let concepts: Vec<_> = (0..400).map(|_| generator.next_in_search()).collect();
        let cached = Cached::new(&p.sparql, CacheOptions::default());
        let packed = p.sparql.covered_batch(&concepts, &among);
        let via_cache = cached.covered_batch(&concepts, &among);
        for ((c, a), b) in concepts.iter().zip(packed).zip(via_cache) {
            let want = p.reference.covered(c, &among).expect("reference");
            assert_eq!(
                a.expect("packed"),
                want,
                "packed: {}",
                to_manchester_full(c)
            );
            assert_eq!(
                b.expect("cached"),
                want,
                "cached batch: {}",
                to_manchester_full(c)
            );
        }
    }
}

//! How the cluster trees' medoid search scales: 10,000 individuals with distinct random
//! three-valued projections on 100 features (no two alike, so pattern grouping does not
//! help), the medoid by seeded sampling against the exact argmin: time and summed distance.
//!
//! `cargo run --release --example cluster_medoids [N] [M]`

use std::time::Instant;

use oxilearn::learn::cluster::medoid::Medoids;
use oxilearn::learn::cluster::{Metric, Patterns, Projections, Sampling};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

fn main() {
    let mut args = std::env::args().skip(1);
    let n: usize = args.next().and_then(|a| a.parse().ok()).unwrap_or(10_000);
    let m: usize = args.next().and_then(|a| a.parse().ok()).unwrap_or(100);
    let mut rng = StdRng::seed_from_u64(42);
    let rows: Vec<Vec<f64>> = (0..n)
        .map(|_| {
            (0..m)
                .map(|_| f64::from(rng.random_range(0..3u8)) / 2.0)
                .collect()
        })
        .collect();
    let projections = Projections::from_rows(&rows);
    let patterns = Patterns::new(&projections);
    let all: Vec<u32> = (0..n as u32).collect();
    let metric = Metric::new(2.0);
    let finder = |sampling: Sampling| Medoids {
        projections: &projections,
        patterns: &patterns,
        metric,
        sampling,
        seed: 1,
    };
    let summed = |r: usize| -> f64 {
        (0..n)
            .map(|j| metric.distance(projections.row(r), projections.row(j)))
            .sum()
    };
    let t = Instant::now();
    let sampled = finder(Sampling::default()).medoid(&all).expect("a medoid");
    let sampled_s = t.elapsed().as_secs_f64();
    let t = Instant::now();
    let exact = finder(Sampling {
        exact_limit: usize::MAX,
        ..Sampling::default()
    })
    .medoid(&all)
    .expect("a medoid");
    let exact_s = t.elapsed().as_secs_f64();
    let (ss, se) = (summed(sampled), summed(exact));
    println!(
        "{n} individuals, {m} features, {} distinct patterns",
        patterns.count()
    );
    println!("sampled: row {sampled}, summed distance {ss:.4}, {sampled_s:.4} s");
    println!("exact:   row {exact}, summed distance {se:.4}, {exact_s:.4} s");
    println!(
        "sampled / exact: summed distance ×{:.5}, time ×{:.5}",
        ss / se,
        sampled_s / exact_s
    );
}

//! Load speed on the real carcinogenesis KB; run by hand in release mode:
//! `cargo test --release --test oracle -- --ignored --nocapture kb_bench::`.

use std::path::Path;

#[test]
#[ignore = "benchmark: run explicitly in release mode"]
fn carcinogenesis_load_speed() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../shared/datasets/carcinogenesis/carcinogenesis.nt.gz");
    if !path.exists() {
        println!("skipping: {} is absent", path.display());
        return;
    }
    let mut best = f64::MAX;
    for _ in 0..5 {
        let (triples, elapsed) = oxilearn::files::measure_load(&path).expect("load");
        assert_eq!(triples, 74_227);
        best = best.min(elapsed.as_secs_f64());
        println!("{triples} triples in {elapsed:?}");
    }
    println!("best: {:.0} triples/s", 74_227.0 / best);
}

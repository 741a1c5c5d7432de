//! `oxilearn bench`: speed figures printed from one run, so ratios between the variants are
//! measured under the same machine load.

use std::time::Instant;

use anyhow::Context;
use serde::Serialize;

use super::args::{BenchArgs, BenchCommand, BenchLoadArgs, BenchOracleArgs};
use super::kb_source;
use super::print_json;
use crate::KnowledgeBase;
use crate::concept::Concept;
use crate::oracle::backend::{HttpBackend, require_capabilities};
use crate::oracle::reference::ReferenceOracle;
use crate::oracle::{
    CacheOptions, Cached, IndividualScope, IndividualSet, MembershipOracle, OracleOptions,
    OracleStats, SparqlOracle,
};
use crate::problem;
use crate::refine::random::{RandomConcepts, RandomOptions};

pub fn run(args: BenchArgs) -> anyhow::Result<()> {
    match args.what {
        BenchCommand::Oracle(a) => oracle(a),
        BenchCommand::Load(a) => load(a),
        BenchCommand::Learn(a) => super::bench_learn::run(a),
        BenchCommand::Scale(a) => super::bench_scale::run(a),
    }
}

/// One measured pass over the concept stream.
#[derive(Serialize)]
struct Pass {
    backend: String,
    name: &'static str,
    what: &'static str,
    concepts: usize,
    seconds: f64,
    evaluations_per_second: f64,
    queries: u64,
    queries_per_concept: f64,
    cache_hit_rate: f64,
}

fn pass(
    backend: &str,
    name: &'static str,
    what: &'static str,
    concepts: &[Concept],
    among: &IndividualSet,
    oracle: &dyn MembershipOracle,
    parallel: bool,
) -> anyhow::Result<Pass> {
    let before: OracleStats = oracle.stats();
    let started = Instant::now();
    if parallel {
        // Batches the size of a node's refinements, as a learner scores them.
        for batch in concepts.chunks(32) {
            for r in oracle.covered_batch(batch, among) {
                r?;
            }
        }
    } else {
        for c in concepts {
            oracle.covered(c, among)?;
        }
    }
    let seconds = started.elapsed().as_secs_f64();
    let after = oracle.stats();
    let queries = after.queries_sent - before.queries_sent;
    let hits = after.cache_hits - before.cache_hits;
    let lookups = hits + after.cache_misses - before.cache_misses;
    Ok(Pass {
        backend: backend.to_string(),
        name,
        what,
        concepts: concepts.len(),
        seconds,
        evaluations_per_second: concepts.len() as f64 / seconds.max(1e-9),
        queries,
        queries_per_concept: queries as f64 / concepts.len().max(1) as f64,
        cache_hit_rate: if lookups == 0 {
            0.0
        } else {
            hits as f64 / lookups as f64
        },
    })
}

#[derive(Serialize)]
struct OracleBench {
    kb: Vec<String>,
    triples: usize,
    individuals: usize,
    examples: usize,
    seed: u64,
    passes: Vec<Pass>,
}

fn bench_examples(kb: &KnowledgeBase, args: &BenchOracleArgs) -> anyhow::Result<IndividualSet> {
    let sig = kb.signature();
    let Some(path) = &args.problems else {
        return Ok(sig.all_individuals());
    };
    let problems = problem::load_problems(path)
        .with_context(|| format!("reading problems from {}", path.display()))?;
    let chosen = match &args.problem {
        Some(name) => problem::select(problems, std::slice::from_ref(name))?,
        None => problems.into_iter().take(1).collect(),
    };
    let p = chosen
        .first()
        .context("the problem file holds no problem")?;
    let (pos, neg) = kb.example_sets(p)?;
    Ok(pos.union(&neg))
}

/// Cold, cache-fill, warm and warm-new passes of one backend over the same streams.
fn stream_passes(
    backend: &str,
    uncached: &dyn MembershipOracle,
    stream: &[Concept],
    fresh: &[Concept],
    among: &IndividualSet,
) -> anyhow::Result<Vec<Pass>> {
    let cold_n = stream.len().min(300);
    let mut passes = vec![
        pass(
            backend,
            "cold",
            "no cache: one query per concept",
            &stream[..cold_n],
            among,
            uncached,
            false,
        )?,
        pass(
            backend,
            "cold-batch",
            "no cache, batches of 32 (covered_batch: packed queries if pack_size > 1)",
            &stream[..cold_n],
            among,
            uncached,
            true,
        )?,
    ];
    let cached = Cached::new(uncached, CacheOptions::default());
    passes.push(pass(
        backend,
        "cache-fill",
        "empty cache: atoms queried once, ⊓/⊔/¬ composed",
        stream,
        among,
        &cached,
        false,
    )?);
    passes.push(pass(
        backend,
        "warm",
        "the same stream again: answered from the cache",
        stream,
        among,
        &cached,
        false,
    )?);
    passes.push(pass(
        backend,
        "warm-new",
        "new concepts of the same search: composed from cached parts where possible",
        fresh,
        among,
        &cached,
        false,
    )?);
    let batched = Cached::new(uncached, CacheOptions::default());
    passes.push(pass(
        backend,
        "fill-batch",
        "empty cache, batches of 32: missing atoms fetched in packed queries",
        stream,
        among,
        &batched,
        true,
    )?);
    Ok(passes)
}

fn remote_oracle(args: &BenchOracleArgs, url: &str) -> anyhow::Result<SparqlOracle<HttpBackend>> {
    let mut kb = args.kb.clone();
    kb.graph = args.compare_graph.iter().cloned().collect();
    let backend = HttpBackend::new(kb_source::http_options(&kb, url)?)?;
    let caps = require_capabilities(&backend).with_context(|| format!("probing {url}"))?;
    let options = OracleOptions {
        counting: caps.counting(),
        three_valued: caps.counting(),
        ..kb_source::oracle_options(&args.kb)
    };
    SparqlOracle::new(backend, options).with_context(|| format!("reading the signature from {url}"))
}

fn oracle(args: BenchOracleArgs) -> anyhow::Result<()> {
    let kb = kb_source::open_kb(&args.kb, None, IndividualScope::ActiveDomain)?;
    let sig = kb.signature();
    let among = bench_examples(&kb, &args)?;
    let remotes = args
        .compare
        .iter()
        .map(|url| Ok((url.clone(), remote_oracle(&args, url)?)))
        .collect::<anyhow::Result<Vec<_>>>()?;
    // One stream for every backend: without cardinalities if some endpoint refuses them.
    let cardinalities = remotes.iter().all(|(_, r)| r.counts());
    if !cardinalities {
        outln!("(an endpoint refuses counting restrictions: the stream has no cardinalities)");
    }
    let options = RandomOptions {
        cardinalities,
        ..RandomOptions::default()
    };
    let mut generator = RandomConcepts::new(sig, args.seed, options);
    let stream: Vec<Concept> = (0..args.concepts)
        .map(|_| generator.next_in_search())
        .collect();
    let fresh: Vec<Concept> = (0..args.concepts)
        .map(|_| generator.next_in_search())
        .collect();

    let mut passes = stream_passes("embedded", kb.oracle().inner(), &stream, &fresh, &among)?;
    for (url, remote) in &remotes {
        let rsig = remote.signature();
        anyhow::ensure!(
            rsig.individuals == sig.individuals,
            "{url} does not hold the same individuals as the files ({} vs {})",
            rsig.individual_count(),
            sig.individual_count()
        );
        passes.extend(stream_passes(url, remote, &stream, &fresh, &among)?);
    }
    if let Some(store) = kb.store() {
        let reference = ReferenceOracle::new(store, kb.shared_signature())?;
        let ref_n = stream.len().min(300);
        passes.push(pass(
            "embedded",
            "reference",
            "in-memory reference evaluator (no SPARQL), for scale",
            &stream[..ref_n],
            &among,
            &reference,
            false,
        )?);
    }

    let report = OracleBench {
        kb: args.kb.kb.iter().map(|p| p.display().to_string()).collect(),
        triples: kb.triples(),
        individuals: sig.individual_count(),
        examples: among.len(),
        seed: args.seed,
        passes,
    };
    if args.json {
        return print_json(&report);
    }
    print_oracle_table(&report, &args.compare)
}

/// The passes as a table, then warm/cold and endpoint/embedded ratios.
fn print_oracle_table(report: &OracleBench, compare: &[String]) -> anyhow::Result<()> {
    outln!(
        "{} triples, {} individuals, {} examples, seed {}",
        report.triples,
        report.individuals,
        report.examples,
        report.seed
    );
    outln!(
        "{:<28} {:<14} {:>8} {:>10} {:>14} {:>12} {:>9}  what",
        "backend",
        "pass",
        "concepts",
        "seconds",
        "evals/s",
        "queries/c",
        "hit rate"
    );
    for p in &report.passes {
        outln!(
            "{:<28} {:<14} {:>8} {:>10.3} {:>14.0} {:>12.3} {:>9.3}  {}",
            p.backend,
            p.name,
            p.concepts,
            p.seconds,
            p.evaluations_per_second,
            p.queries_per_concept,
            p.cache_hit_rate,
            p.what
        );
    }
    let rate = |b: &str, n: &str| {
        report
            .passes
            .iter()
            .find(|p| p.backend == b && p.name == n)
            .map_or(0.0, |p| p.evaluations_per_second)
    };
    outln!(
        "embedded: warm / cold = {:.0}×, warm-new / cold = {:.0}×",
        rate("embedded", "warm") / rate("embedded", "cold").max(1e-9),
        rate("embedded", "warm-new") / rate("embedded", "cold").max(1e-9)
    );
    for url in compare {
        outln!(
            "{url}: time per concept vs embedded — cold {:.2}×, cache-fill {:.2}×, warm-new {:.2}×, fill-batch {:.2}×",
            rate("embedded", "cold") / rate(url, "cold").max(1e-9),
            rate("embedded", "cache-fill") / rate(url, "cache-fill").max(1e-9),
            rate("embedded", "warm-new") / rate(url, "warm-new").max(1e-9),
            rate("embedded", "fill-batch") / rate(url, "fill-batch").max(1e-9),
        );
    }
    Ok(())
}

#[derive(Serialize)]
struct LoadBench {
    files: Vec<String>,
    triples: usize,
    best_seconds: f64,
    median_seconds: f64,
    triples_per_second: f64,
}

fn load(args: BenchLoadArgs) -> anyhow::Result<()> {
    let mut times = Vec::new();
    let mut triples = 0;
    for _ in 0..args.repeat.max(1) {
        let started = Instant::now();
        let (_, n) = kb_source::load_store(&args.kb.kb, args.kb.format.as_deref())?;
        times.push(started.elapsed().as_secs_f64());
        triples = n;
    }
    times.sort_by(f64::total_cmp);
    let report = LoadBench {
        files: args.kb.kb.iter().map(|p| p.display().to_string()).collect(),
        triples,
        best_seconds: times[0],
        median_seconds: times[times.len() / 2],
        triples_per_second: triples as f64 / times[0].max(1e-9),
    };
    if args.json {
        return print_json(&report);
    }
    outln!(
        "{} triples: best {:.3} s, median {:.3} s → {:.0} triples/s",
        report.triples,
        report.best_seconds,
        report.median_seconds,
        report.triples_per_second
    );
    Ok(())
}

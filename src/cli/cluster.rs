//! `oxilearn cluster`: terminological cluster trees over a KB's individuals (every one of a
//! file KB, or the instances of `--individuals EXPR`, which an endpoint requires). Prints the
//! tree, the clusters (concept, size, medoid) and candidate disjointness and subsumption
//! axioms; `--owl FILE` writes those axioms as OWL functional syntax, `--save-model FILE`
//! the model `predict` applies to other individuals, and `--evaluate-disjointness` scores the
//! class disjointness the clusters imply against the KB's asserted axioms, next to the
//! no-shared-instance baseline, with the mean silhouette.

use std::path::PathBuf;
use std::sync::Arc;
use std::time::{Duration, Instant};

use anyhow::{Context, bail};
use clap::{Args, ValueEnum};
use serde::Serialize;

use super::kb_source;
use super::learner::cancel_flag;
use super::options::KbArgs;
use super::print_json;
use crate::concept::{Concept, Iri, to_manchester_full};
use crate::learn::cluster::evaluate::{self, Baseline, Basis, DisjointnessScore, Proposal};
use crate::learn::cluster::{
    AxiomPair, ClusterParams, ClusterRun, CommitteeSource, Metric, Sampling, TreeNode,
    UnknownValue, cluster_name, disjointness, fit, subsumptions,
};
use crate::learn::{Model, RunControl, document};
use crate::oracle::{
    CacheOptions, Cached, IndividualScope, IndividualSet, MembershipOracle, Neighbourhood,
    Signature, SparqlOracle,
};
use crate::refine::rho::{Rho, RhoOptions};
use crate::{Candidates, KnowledgeBase, ScopeQuery};

#[derive(Debug, Clone, Copy, ValueEnum, Default)]
pub enum CommitteeArg {
    /// The KB's named classes.
    #[default]
    Classes,
    /// The refinements of ⊤ up to --committee-length.
    Refinements,
}

#[derive(Debug, Args)]
pub struct ClusterArgs {
    #[command(flatten)]
    pub kb: KbArgs,
    /// Cluster the instances of this class expression (closed world), listed by the store,
    /// reading only them and their neighbourhood (`--individuals` is an older name).
    /// Default: every individual of a file KB; an endpoint needs this, --scope-query or
    /// --whole-kb.
    #[arg(
        long,
        value_name = "EXPR",
        alias = "individuals",
        conflicts_with = "scope_query"
    )]
    pub scope: Option<String>,
    /// Cluster the IRIs a SPARQL `SELECT ?v WHERE { … }` binds to its one variable (`@FILE`
    /// reads it from FILE), listed page by page.
    #[arg(long, value_name = "SPARQL")]
    pub scope_query: Option<String>,
    /// Ignore the KB's disjointness and complement axioms while learning (for evaluating
    /// the disjointness axioms the clusters propose).
    #[arg(long)]
    pub exclude_disjointness: bool,
    /// The exponent p of the distance d_p (≥ 1).
    #[arg(long, value_name = "P", default_value_t = 2.0)]
    pub p: f64,
    /// ν: stop splitting when the best split's medoids are closer than this multiple of the
    /// data's spread (the mean distance of all individuals to their medoid).
    #[arg(long, value_name = "X", default_value_t = 0.5)]
    pub stop_distance: f64,
    /// δ: when a test leaves one side empty, move to it the individuals farther than this
    /// multiple of the node's spread (mean distance to its medoid) from the other side's
    /// medoid.
    #[arg(long, value_name = "X", default_value_t = 1.0)]
    pub reassign_distance: f64,
    /// The projection of an unknown membership.
    #[arg(long, value_enum, default_value_t)]
    pub unknown: UnknownValue,
    /// Most levels below the root (a bound on recursion: branches end below ν or when no
    /// test separates their individuals).
    #[arg(long, value_name = "N", default_value_t = 32)]
    pub max_depth: usize,
    /// Smallest cluster a split may leave.
    #[arg(long, value_name = "N", default_value_t = 1)]
    pub min_cluster_size: usize,
    /// Candidate tests: refinements of a node's concept at most this much longer.
    #[arg(long, value_name = "N", default_value_t = 3)]
    pub refinement_length: usize,
    /// Most candidate tests scored per node.
    #[arg(long, value_name = "N", default_value_t = 200)]
    pub max_candidates: usize,
    /// Where the committee of features comes from (ignored with --feature).
    #[arg(long, value_enum, default_value_t)]
    pub committee: CommitteeArg,
    /// Longest refinement of ⊤ in a `--committee refinements` committee.
    #[arg(long, value_name = "N", default_value_t = 2)]
    pub committee_length: usize,
    /// A committee feature (repeatable): the committee is exactly these concepts.
    #[arg(long = "feature", value_name = "EXPR")]
    pub feature: Vec<String>,
    /// Above this many distinct projection patterns a medoid is found by seeded sampling.
    #[arg(long, value_name = "N", default_value_t = 400)]
    pub exact_medoid_limit: usize,
    /// Seeds the medoid sampling.
    #[arg(long, value_name = "N", default_value_t = 1)]
    pub seed: u64,
    /// Stop growing after this many seconds (open nodes become leaves).
    #[arg(long, value_name = "SECS")]
    pub max_runtime: Option<f64>,
    /// Stop growing after scoring this many candidate tests.
    #[arg(long, value_name = "N")]
    pub max_tests: Option<u64>,
    /// Write the model (for `predict`) to FILE.
    #[arg(long, value_name = "FILE")]
    pub save_model: Option<PathBuf>,
    /// Write the candidate axioms as OWL functional syntax to FILE.
    #[arg(long, value_name = "FILE")]
    pub owl: Option<PathBuf>,
    /// Score the class disjointness the clusters imply against the asserted axioms, next to
    /// the no-shared-instance baseline; report the mean silhouette, time and queries.
    #[arg(long)]
    pub evaluate_disjointness: bool,
    /// With --evaluate-disjointness: propose the class pairs whose confidence is at least
    /// this (1 = instances in different clusters only; ½ adds the pairs the clusters
    /// cannot judge, where a class has no instance; 0 = every pair with no shared instance
    /// that the hierarchy allows).
    #[arg(long, value_name = "X", default_value_t = 0.5)]
    pub min_confidence: f64,
    /// One JSON document on stdout.
    #[arg(long)]
    pub json: bool,
    /// No progress bar and no notes on stderr (errors still go there).
    #[arg(long)]
    pub quiet: bool,
    /// Also write a self-contained HTML report (the tree, cluster sizes, axioms).
    #[arg(long, value_name = "FILE.html")]
    pub report: Option<PathBuf>,
}

#[derive(Serialize)]
struct ClusterJson {
    cluster: String,
    concept: String,
    size: usize,
    medoid: String,
}

#[derive(Serialize)]
struct PairJson {
    left: String,
    right: String,
}

#[derive(Serialize)]
struct SubsumptionJson {
    sub: String,
    sup: String,
}

#[derive(Serialize)]
struct ClassPairJson {
    left: String,
    right: String,
    #[serde(flatten)]
    proposal: Proposal,
}

#[derive(Serialize)]
struct CurvePoint {
    min_confidence: f64,
    #[serde(flatten)]
    score: DisjointnessScore,
}

#[derive(Serialize)]
struct Evaluation {
    silhouette: Option<f64>,
    min_confidence: f64,
    /// Class pairs the clusters propose disjoint (at least `min_confidence`), best first.
    class_disjointness: Vec<ClassPairJson>,
    /// The proposals at `min_confidence`.
    tct: DisjointnessScore,
    /// Those of them the clusters support (not presumed).
    tct_clusters_only: DisjointnessScore,
    /// Precision and recall as the confidence threshold falls.
    curve: Vec<CurvePoint>,
    baseline: DisjointnessScore,
    baseline_populated: DisjointnessScore,
    /// The baseline without the pairs the class hierarchy makes unsatisfiable (the same
    /// filter the tree's proposals pass): what the clusters add beyond it.
    baseline_consistent: DisjointnessScore,
    /// Queries and time the evaluation itself took (class instances, silhouette).
    queries: u64,
    elapsed_ms: u64,
}

#[derive(Serialize)]
struct Output {
    individuals: usize,
    committee: usize,
    informative_features: usize,
    clusters: Vec<ClusterJson>,
    disjointness: Vec<PairJson>,
    subsumptions: Vec<SubsumptionJson>,
    tree: serde_json::Value,
    stats: crate::learn::RunStats,
    load_ms: u64,
    #[serde(skip_serializing_if = "Option::is_none")]
    evaluation: Option<Evaluation>,
}

fn params(args: &ClusterArgs) -> anyhow::Result<ClusterParams> {
    if !(0.0..=1.0).contains(&args.min_confidence) {
        bail!(
            "--min-confidence must be between 0 and 1, not {}",
            args.min_confidence
        );
    }
    let p = ClusterParams {
        p: args.p,
        stop_distance: args.stop_distance,
        reassign_distance: args.reassign_distance,
        unknown: args.unknown,
        max_depth: args.max_depth,
        min_cluster_size: args.min_cluster_size,
        refinement_length: args.refinement_length,
        max_candidates: args.max_candidates,
        sampling: Sampling {
            exact_limit: args.exact_medoid_limit,
            ..Sampling::default()
        },
        seed: args.seed,
    };
    p.validate()
        .context("invalid cluster parameters (see --help)")?;
    Ok(p)
}

/// The operator of the paper: atoms and their negations, ∃r.⊤, ∀r.⊤ (as ∀r.E), and
/// refinements inside restrictions; no disjunction, cardinalities or data.
pub fn operator_options() -> RhoOptions {
    RhoOptions {
        use_cardinality: false,
        use_boolean_data: false,
        use_numeric_data: false,
        use_disjunction: false,
        ..RhoOptions::default()
    }
}

/// The KB, with the individuals to cluster and the concept they belong to.
fn open(args: &ClusterArgs) -> anyhow::Result<(KnowledgeBase, IndividualSet, Concept)> {
    if args.scope.is_none() && args.scope_query.is_none() {
        if args.kb.endpoint.is_some() && !args.kb.whole_kb {
            bail!(
                "on an endpoint, give --scope EXPR or --scope-query SPARQL (the individuals \
                 to cluster), or --whole-kb to read the endpoint's whole active domain"
            );
        }
        let kb = kb_source::open_kb(&args.kb, None, IndividualScope::ActiveDomain)?;
        let all = kb.individuals();
        return Ok((kb, all, Concept::Top));
    }
    // First the schema alone, to list the individuals; then their neighbourhood.
    let schema = kb_source::open_kb(&args.kb, None, IndividualScope::Schema)?;
    let (candidates, what) = match (&args.scope, &args.scope_query) {
        (Some(text), _) => (
            Candidates::Instances(
                schema
                    .parse_concept(text)
                    .with_context(|| format!("--scope {text}"))?,
            ),
            format!("--scope {text}"),
        ),
        (None, Some(text)) => (
            Candidates::Query(ScopeQuery::from_argument(text)?),
            "--scope-query".to_owned(),
        ),
        (None, None) => unreachable!("handled above"),
    };
    let mut seeds: Vec<Iri> = Vec::new();
    for page in schema.candidate_pages(&candidates, 10_000)? {
        seeds.extend(page.with_context(|| format!("listing the individuals of {what}"))?);
    }
    if seeds.is_empty() {
        match &args.scope {
            Some(_) => bail!("{what}: the class expression has no instances in the KB"),
            None => bail!("{what}: the query binds no individual of the KB"),
        }
    }
    let mut n = Neighbourhood::of(seeds.iter().cloned());
    n.depth = args.kb.scope_depth;
    n.max_individuals = args.kb.scope_max_individuals.max(1);
    let scope = if args.kb.whole_kb {
        IndividualScope::ActiveDomain
    } else {
        IndividualScope::Neighbourhood(n)
    };
    let kb = kb_source::open_kb(&args.kb, None, scope)?;
    let sig = kb.signature();
    let set = sig
        .set_of(seeds.iter().map(Iri::as_str))
        .map_err(|missing| {
            anyhow::anyhow!(
                "the individuals of {what} are not all individuals of the KB: {}",
                missing.join(", ")
            )
        })?;
    let concept = match &args.scope {
        Some(text) => kb.parse_concept(text)?,
        None => Concept::Top,
    };
    Ok((kb, set, concept))
}

/// The signature without disjointness and complement axioms.
fn without_disjointness(sig: &Signature) -> Signature {
    let mut s = sig.clone();
    s.disjoint_classes.clear();
    s.complement_classes.clear();
    s
}

pub fn run(args: ClusterArgs) -> anyhow::Result<()> {
    let params = params(&args)?;
    let started = Instant::now();
    let (kb, individuals, start) = open(&args)?;
    let load_ms = started.elapsed().as_millis() as u64;
    // Learning may see a signature without disjointness: its own oracle over the same store.
    let stripped;
    let oracle: &dyn MembershipOracle = if args.exclude_disjointness {
        let sig = Arc::new(without_disjointness(kb.signature()));
        stripped = Cached::new(
            SparqlOracle::with_signature(
                kb.oracle().inner().backend(),
                sig,
                kb_source::oracle_options(&args.kb),
            ),
            CacheOptions::default(),
        );
        &stripped
    } else {
        kb.oracle()
    };
    let rho = Rho::new(Arc::new(oracle.signature().clone()), operator_options());
    let source = committee_source(&args, &kb)?;
    let features = crate::learn::cluster::committee::committee(oracle.signature(), &rho, &source);
    if features.is_empty() {
        bail!("the committee is empty: the KB names no classes (give --feature EXPR)");
    }
    let control = run_control(&args)?;
    let run = fit(
        oracle,
        &individuals,
        &individuals,
        &rho,
        &features,
        &start,
        &params,
        &control,
    )?;
    let disjoint = disjointness(&run.model.root);
    let subsumed = subsumptions(&run.model.root);
    write_files(&args, &kb, &run, &params, &disjoint, &subsumed)?;
    let evaluation = if args.evaluate_disjointness {
        Some(evaluate_run(
            &kb,
            &run,
            &individuals,
            &params,
            args.min_confidence,
        )?)
    } else {
        None
    };
    let out = Output {
        individuals: individuals.len(),
        committee: features.len(),
        informative_features: run.projections.features(),
        clusters: clusters_json(&run.model.root),
        disjointness: disjoint.iter().map(pair_json).collect(),
        subsumptions: subsumed
            .iter()
            .map(|a| SubsumptionJson {
                sub: to_manchester_full(&a.left),
                sup: to_manchester_full(&a.right),
            })
            .collect(),
        tree: run.model.body()?["tree"].clone(),
        stats: run.stats.clone(),
        load_ms,
        evaluation,
    };
    if let Some(path) = &args.report {
        super::report::write(path, &out)?;
    }
    if args.json {
        return print_json(&out);
    }
    print_text(&kb, &run, &out, &disjoint, &subsumed)
}

/// The committee: `--feature` expressions, else the classes or short refinements.
fn committee_source(args: &ClusterArgs, kb: &KnowledgeBase) -> anyhow::Result<CommitteeSource> {
    if args.feature.is_empty() {
        return Ok(match args.committee {
            CommitteeArg::Classes => CommitteeSource::Classes,
            CommitteeArg::Refinements => CommitteeSource::Refinements {
                max_length: args.committee_length.max(1),
                max_features: 500,
            },
        });
    }
    let given = args
        .feature
        .iter()
        .map(|t| {
            kb.parse_concept(t)
                .with_context(|| format!("--feature {t}"))
        })
        .collect::<anyhow::Result<Vec<_>>>()?;
    Ok(CommitteeSource::Given(given))
}

/// `--save-model` and `--owl`, each written atomically.
fn write_files(
    args: &ClusterArgs,
    kb: &KnowledgeBase,
    run: &ClusterRun,
    params: &ClusterParams,
    disjoint: &[AxiomPair],
    subsumed: &[AxiomPair],
) -> anyhow::Result<()> {
    if let Some(path) = &args.save_model {
        let text = document::to_json(
            &run.model,
            serde_json::to_value(params)?,
            None,
            kb.signature(),
        )?;
        crate::enrich::file::write_atomically(path, text.as_bytes())?;
    }
    if let Some(path) = &args.owl {
        write_owl(path, disjoint, subsumed)?;
    }
    Ok(())
}

fn run_control(args: &ClusterArgs) -> anyhow::Result<RunControl> {
    let mut control = RunControl::default().with_cancel(cancel_flag());
    if let Some(secs) = args.max_runtime {
        if !(secs.is_finite() && secs > 0.0) {
            bail!("--max-runtime must be a positive number of seconds, not {secs}");
        }
        control = control.with_max_runtime(Duration::from_secs_f64(secs));
    }
    if let Some(n) = args.max_tests {
        control = control.with_max_tests(n);
    }
    Ok(control)
}

#[cfg(feature = "owl")]
fn write_owl(
    path: &std::path::Path,
    disjoint: &[AxiomPair],
    subsumed: &[AxiomPair],
) -> anyhow::Result<()> {
    let text = crate::learn::cluster::owl::functional_syntax(disjoint, subsumed)?;
    Ok(crate::enrich::file::write_atomically(
        path,
        text.as_bytes(),
    )?)
}

#[cfg(not(feature = "owl"))]
fn write_owl(_: &std::path::Path, _: &[AxiomPair], _: &[AxiomPair]) -> anyhow::Result<()> {
    bail!("--owl needs the `owl` feature (horned-owl), which this build leaves out")
}

fn pair_json(a: &AxiomPair) -> PairJson {
    PairJson {
        left: to_manchester_full(&a.left),
        right: to_manchester_full(&a.right),
    }
}

fn clusters_json(root: &TreeNode) -> Vec<ClusterJson> {
    root.leaves()
        .into_iter()
        .filter_map(|l| match l {
            TreeNode::Leaf {
                cluster,
                concept,
                size,
                medoid,
            } => Some(ClusterJson {
                cluster: cluster_name(*cluster),
                concept: to_manchester_full(concept),
                size: *size,
                medoid: medoid.iri.as_str().to_owned(),
            }),
            TreeNode::Split { .. } => None,
        })
        .collect()
}

/// The confidence thresholds of the precision/recall curve.
const CURVE: [f64; 7] = [1.0, 0.9, 0.75, 0.6, 0.5, 0.25, 0.0];

/// Disjointness figures (see [`evaluate`]) and the silhouette. Class instances are read
/// with the KB's full oracle over its universe (for the consistency check); proposals and
/// the baseline see only the clustered individuals.
fn evaluate_run(
    kb: &KnowledgeBase,
    run: &ClusterRun,
    individuals: &IndividualSet,
    params: &ClusterParams,
    min_confidence: f64,
) -> anyhow::Result<Evaluation> {
    let started = Instant::now();
    let before = kb.oracle().stats().queries_sent;
    let sig = kb.signature();
    let classes: Vec<Iri> = sig.classes.iter().cloned().collect();
    let in_kb = evaluate::class_instances(kb.oracle(), &classes, &sig.all_individuals())?;
    let clustered: std::collections::BTreeMap<Iri, IndividualSet> = in_kb
        .iter()
        .map(|(c, s)| (c.clone(), s.intersection(individuals)))
        .collect();
    let proposals = evaluate::tree_proposals(&run.assignment, &clustered, sig);
    let proposed = evaluate::at_least(&proposals, min_confidence);
    let supported: std::collections::BTreeSet<_> = proposed
        .iter()
        .filter(|p| matches!(proposals[*p].basis, Basis::Clusters { .. }))
        .cloned()
        .collect();
    let curve = CURVE
        .iter()
        .map(|&t| CurvePoint {
            min_confidence: t,
            score: evaluate::score(&evaluate::at_least(&proposals, t), sig, &in_kb),
        })
        .collect();
    let mut listed: Vec<(&(Iri, Iri), &Proposal)> = proposals
        .iter()
        .filter(|(k, _)| proposed.contains(*k))
        .collect();
    listed.sort_by(|(ka, a), (kb, b)| b.confidence.total_cmp(&a.confidence).then(ka.cmp(kb)));
    let clusters: Vec<usize> = run.assignment.iter().map(|(_, k)| *k).collect();
    let silhouette = evaluate::silhouette(
        &run.projections,
        &clusters,
        Metric::new(params.p),
        2000,
        params.seed,
    );
    Ok(Evaluation {
        silhouette,
        min_confidence,
        class_disjointness: listed
            .into_iter()
            .map(|((a, b), p)| ClassPairJson {
                left: format!("<{}>", a.as_str()),
                right: format!("<{}>", b.as_str()),
                proposal: p.clone(),
            })
            .collect(),
        tct: evaluate::score(&proposed, sig, &in_kb),
        tct_clusters_only: evaluate::score(&supported, sig, &in_kb),
        curve,
        baseline: evaluate::score(&evaluate::baseline(&clustered, Baseline::All), sig, &in_kb),
        baseline_consistent: evaluate::score(
            &evaluate::consistent_with_hierarchy(
                evaluate::baseline(&clustered, Baseline::All),
                sig,
            ),
            sig,
            &in_kb,
        ),
        baseline_populated: evaluate::score(
            &evaluate::baseline(&clustered, Baseline::Populated),
            sig,
            &in_kb,
        ),
        queries: kb.oracle().stats().queries_sent.saturating_sub(before),
        elapsed_ms: started.elapsed().as_millis() as u64,
    })
}

fn print_text(
    kb: &KnowledgeBase,
    run: &ClusterRun,
    out: &Output,
    disjoint: &[AxiomPair],
    subsumed: &[AxiomPair],
) -> anyhow::Result<()> {
    outln!(
        "{} individuals, committee of {} features ({} informative), {} clusters",
        out.individuals,
        out.committee,
        out.informative_features,
        out.clusters.len()
    );
    let mut lines = Vec::new();
    tree_lines(kb, &run.model.root, 0, &mut lines);
    for l in lines {
        outln!("{l}");
    }
    outln!("clusters:");
    for leaf in run.model.root.leaves() {
        if let TreeNode::Leaf {
            cluster,
            concept,
            size,
            medoid,
        } = leaf
        {
            outln!(
                "  {}  size {size}  medoid {}\n    {}",
                cluster_name(*cluster),
                medoid.iri.local_name(),
                kb.manchester(concept)
            );
        }
    }
    outln!("candidate disjointness axioms ({}):", disjoint.len());
    for a in disjoint {
        outln!(
            "  ({}) disjoint with ({})",
            kb.manchester(&a.left),
            kb.manchester(&a.right)
        );
    }
    outln!("candidate subsumption axioms ({}):", subsumed.len());
    for a in subsumed {
        outln!(
            "  ({}) subclass of ({})",
            kb.manchester(&a.left),
            kb.manchester(&a.right)
        );
    }
    let s = &run.stats;
    outln!(
        "stats: {} tests, {} queries, {} ms ({}), load {} ms",
        s.concepts_tested,
        s.queries_sent,
        s.elapsed_ms,
        s.termination.name(),
        out.load_ms
    );
    if let Some(e) = &out.evaluation {
        print_evaluation(e)?;
    }
    Ok(())
}

/// The disjointness evaluation (`--evaluate-disjointness`) as text.
fn print_evaluation(e: &Evaluation) -> anyhow::Result<()> {
    match e.silhouette {
        Some(v) => outln!("mean silhouette (d_p): {v:.4}"),
        None => outln!("mean silhouette (d_p): undefined (one cluster)"),
    }
    let tct = format!("tct (confidence ≥ {})", e.min_confidence);
    let curve: Vec<(String, &DisjointnessScore)> = e
        .curve
        .iter()
        .map(|c| {
            (
                format!("  curve: confidence ≥ {}", c.min_confidence),
                &c.score,
            )
        })
        .collect();
    for (name, s) in [
        (tct.as_str(), &e.tct),
        ("tct, supported by the clusters", &e.tct_clusters_only),
        ("baseline", &e.baseline),
        ("baseline (populated classes)", &e.baseline_populated),
        ("baseline (hierarchy-consistent)", &e.baseline_consistent),
    ]
    .into_iter()
    .chain(curve.iter().map(|(n, s)| (n.as_str(), *s)))
    {
        outln!(
            "{name}: {} proposed, precision {}, recall {} ({} of {} asserted), {} contradicting ({} inconsistent, {} unsatisfiable)",
            s.proposed,
            fmt_ratio(s.precision),
            fmt_ratio(s.recall),
            s.recalled,
            s.asserted,
            s.contradicting,
            s.inconsistent,
            s.unsatisfiable
        );
    }
    outln!("evaluation: {} queries, {} ms", e.queries, e.elapsed_ms);
    Ok(())
}

fn fmt_ratio(r: Option<f64>) -> String {
    r.map_or_else(|| "-".to_owned(), |v| format!("{v:.3}"))
}

fn tree_lines(kb: &KnowledgeBase, node: &TreeNode, depth: usize, out: &mut Vec<String>) {
    let pad = "  ".repeat(depth);
    match node {
        TreeNode::Leaf { cluster, size, .. } => {
            out.push(format!("{pad}→ {} ({size})", cluster_name(*cluster)));
        }
        TreeNode::Split {
            test,
            size,
            distance,
            left,
            right,
            ..
        } => {
            out.push(format!(
                "{pad}[{}] ({size}, medoid distance {distance:.4})",
                kb.manchester(test)
            ));
            out.push(format!("{pad} yes:"));
            tree_lines(kb, left, depth + 1, out);
            out.push(format!("{pad} no:"));
            tree_lines(kb, right, depth + 1, out);
        }
    }
}

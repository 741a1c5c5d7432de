//! Argument definitions (clap derive).

use std::path::PathBuf;

use clap::{Args, Parser, Subcommand, ValueEnum};

use super::learners::LearnArgs;
use super::options::{ApplyArgs, KbArgs};
use crate::enrich::Mode;
use crate::oracle::Semantics;

#[derive(Debug, Parser)]
#[command(
    name = "oxilearn",
    version,
    about = "Learn OWL class expressions directly over Linked Data",
    disable_help_subcommand = true
)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Command,
}

#[derive(Debug, Subcommand)]
pub enum Command {
    /// List the individuals of a class expression, sorted (closed world: page by page,
    /// `--limit` to stop early; open world: one answer over the whole active domain).
    Instances(InstancesArgs),
    /// Score a class expression on learning problems (tp/fp/tn/fn, accuracy, precision, recall, F1).
    Evaluate(EvaluateArgs),
    /// Summarise the knowledge base's signature (classes, properties, hierarchy, individuals).
    Signature(SignatureArgs),
    /// Learn class expressions that separate each problem's positive from its negative examples.
    Learn(LearnArgs),
    /// Stratified k-fold cross-validation of a learner on each problem.
    Cv(CvArgs),
    /// Apply a saved model (`learn --save-model`) to individuals of a KB.
    Predict(PredictArgs),
    /// Write a saved model's predicted memberships (and, for scored models, scores with
    /// provenance) into one named graph of a dataset file or a SPARQL Update endpoint.
    Enrich(EnrichArgs),
    /// Write a saved model's definition as an OWL axiom (functional syntax, OWL/XML or
    /// Manchester syntax).
    Export(ExportArgs),
    /// Measure speed and quality: `bench oracle` (evaluations/s cold and warm), `bench load`
    /// (triples/s), `bench learn` (learners per problem and backend), `bench scale` (the KB replicated k times).
    Bench(BenchArgs),
    /// Seeded random target concepts with ≥ 10 positives and ≥ 10 negatives of the same order
    /// of magnitude, written as a list-JSON problem file.
    GenerateProblems(GenerateArgs),
    /// A node-classification problem with a train/test split in a folder: a synthetic KB
    /// (links to specific individuals, numeric thresholds, label noise, imbalance), or an
    /// existing KB labelled by a property it then leaves out (--from-kb, --label-property).
    GenerateNodeProblems(super::generate_nodes::NodeArgs),
    /// Large-signature problems with deep targets (`A ⊓ ∃r.∃s.(B ⊔ C)` over 1,000+ classes)
    /// with a train/test split in a folder: `kb.nt`, `train.json`, `test.json`, `meta.json`.
    GenerateDeepProblems(super::generate_deep::DeepArgs),
    /// Terminological cluster trees: cluster individuals, describe each cluster by a class
    /// expression, propose disjointness and subsumption axioms; a model `predict` applies.
    Cluster(super::cluster::ClusterArgs),
    /// A SPARQL 1.1 Protocol endpoint at /sparql over the KB files, with oxilearn's functions
    /// (`<urn:oxilearn:member>`, `score`, `covers`) and the loaded models; `POST /learn` and
    /// `POST /predict`. Read-only unless --allow-update.
    Serve(ServeArgs),
    /// Help on a command (`help learn`), a learner's options (`help learner celoe`; `help
    /// learner` lists the learners), the endpoint options (`help endpoint`) or the options
    /// that draw examples from the KB (`help examples`).
    Help(HelpArgs),
    /// One self-contained HTML report with plots from saved JSON outputs (`learn --json`,
    /// `cv --json`, `cluster --json`, `bench scale --out-json`); those commands also take
    /// `--report FILE.html` to write one directly.
    Report(super::report::ReportArgs),
}

#[derive(Debug, Args)]
pub struct InstancesArgs {
    #[command(flatten)]
    pub kb: KbArgs,
    /// Class expression in Manchester or DL syntax.
    #[arg(long, value_name = "EXPR")]
    pub concept: String,
    /// `open` also reports the provable non-instances and the unknowns; it reads the whole
    /// active domain at once and is not paged.
    #[arg(long, value_enum, default_value_t)]
    pub semantics: Semantics,
    /// List at most N individuals; the answer is then reported as truncated (stderr and
    /// `truncated` in JSON).
    #[arg(long, value_name = "N")]
    pub limit: Option<usize>,
    /// Individuals whose membership is asked per oracle call (closed world: candidates the
    /// store listed from the concept; open world: the interned active domain).
    #[arg(long, value_name = "N", default_value_t = 10_000)]
    pub page_size: usize,
    /// One JSON document on stdout.
    #[arg(long)]
    pub json: bool,
    /// No progress bar and no notes on stderr (errors still go there).
    #[arg(long)]
    pub quiet: bool,
}

#[derive(Debug, Args)]
pub struct EvaluateArgs {
    #[command(flatten)]
    pub kb: KbArgs,
    /// Learning problems: Ontolearn JSON, list JSON, DL-Learner .conf, or an SML-Bench folder.
    #[arg(long, value_name = "LPFILE")]
    pub problems: PathBuf,
    /// Evaluate only these problems (repeatable; default: all).
    #[arg(long = "problem", value_name = "NAME")]
    pub problem: Vec<String>,
    /// The class expression to score.
    #[arg(
        long,
        value_name = "EXPR",
        required_unless_present = "model",
        conflicts_with = "model"
    )]
    pub concept: Option<String>,
    /// A saved model (`learn --save-model`) to score instead of a concept: F1, accuracy, and
    /// AUC-PR/AUC-ROC for scored models; a multi-class model gets the multi-class measures
    /// of `learn --test` on labelled examples.
    #[arg(long, value_name = "FILE")]
    pub model: Option<PathBuf>,
    /// Membership semantics: closed for a concept by default; with --model, the model's
    /// own (a CELOE model takes either; a TBC model only the one it was trained with).
    #[arg(long, value_enum)]
    pub semantics: Option<Semantics>,
    #[arg(long)]
    pub json: bool,
    /// No progress bar and no notes on stderr (errors still go there).
    #[arg(long)]
    pub quiet: bool,
    /// With a multi-class model: the class column of a TSV file of labelled examples.
    #[arg(long, value_name = "NAME", requires = "model")]
    pub label_column: Option<String>,
}

#[derive(Debug, Args)]
pub struct CvArgs {
    #[command(flatten)]
    pub learn: LearnArgs,
    /// Number of stratified folds.
    #[arg(long, value_name = "K", default_value_t = 10)]
    pub folds: usize,
    /// Seed of the fold assignment.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
}

/// `predict`: which individuals, from which KB, with which model.
#[derive(Debug, Args)]
#[command(group(clap::ArgGroup::new("which").args(["individuals", "scope", "scope_query", "all", "whole_kb"]).multiple(false)))]
pub struct PredictArgs {
    #[command(flatten)]
    pub kb: KbArgs,
    /// The saved model (`learn --save-model`).
    #[arg(long, value_name = "FILE")]
    pub model: PathBuf,
    #[command(flatten)]
    pub apply: ApplyArgs,
    /// Every individual of the KB: the former default, now `--whole-kb`.
    #[arg(long, hide = true)]
    pub all: bool,
    /// One JSON document `{model, predictions}` on stdout (streamed as pages are answered).
    #[arg(long)]
    pub json: bool,
    /// No progress bar and no notes on stderr (errors still go there).
    #[arg(long)]
    pub quiet: bool,
}

/// `enrich`: where predictions go and which.
#[derive(Debug, Args)]
#[command(mut_arg("graph", |a| a.long("read-graph")))]
#[command(group(clap::ArgGroup::new("destination").args(["out", "update_endpoint"])))]
pub struct EnrichArgs {
    #[command(flatten)]
    pub kb: KbArgs,
    /// The saved model (`learn --save-model`).
    #[arg(long, value_name = "FILE")]
    pub model: PathBuf,
    /// With --kb: the dataset to write (.nq or .trig): the KB's triples plus the graph of
    /// predictions, sorted; written to a temporary file and renamed into place.
    #[arg(long, value_name = "FILE", requires = "kb")]
    pub out: Option<PathBuf>,
    /// With --endpoint: its SPARQL 1.1 Update endpoint.
    #[arg(long, value_name = "URL", requires = "endpoint")]
    pub update_endpoint: Option<String>,
    /// The named graph the predictions go into (never the default graph).
    #[arg(long = "graph", value_name = "IRI")]
    pub target_graph: String,
    /// The class predicted members are typed with (default: the class the model was trained
    /// for, when its problem is named by an IRI).
    #[arg(long, value_name = "IRI")]
    pub target_class: Option<String>,
    #[arg(long, value_enum, default_value_t)]
    pub mode: Mode,
    /// Scored models: a member is an individual whose score (probability, degree) is at
    /// least this (default: the model's own decision).
    #[arg(long, value_name = "P")]
    pub threshold: Option<f64>,
    #[command(flatten)]
    pub apply: ApplyArgs,
    /// Write nothing; print what would be written (counts and a sample).
    #[arg(long)]
    pub dry_run: bool,
    /// Write into a graph that holds triples oxilearn did not write.
    #[arg(long)]
    pub force: bool,
    /// Triples per INSERT DATA request (endpoints).
    #[arg(long, value_name = "N", default_value_t = 1000)]
    pub chunk_size: usize,
    /// Record the run's time (prov:endedAtTime): reruns then differ in that triple.
    #[arg(long)]
    pub record_time: bool,
    /// Refresh a graph an earlier enrich wrote, after the data changed: a SELECT with one
    /// variable listing both ends of every inserted or deleted triple (or @FILE). Only the
    /// individuals within the model's role depth of a change are predicted again and
    /// patched; give the same model, graph, class, scope and threshold as the full run.
    /// Schema changes need a full run.
    #[arg(long, value_name = "SPARQL|@FILE", conflicts_with = "mode")]
    pub changed_query: Option<String>,
    /// One JSON summary on stdout.
    #[arg(long)]
    pub json: bool,
    /// No progress bar and no notes on stderr (errors still go there).
    #[arg(long)]
    pub quiet: bool,
}

/// `export`: a model's definition as an OWL axiom.
#[derive(Debug, Args)]
#[command(mut_arg("format", |a| a.long("kb-format")))]
pub struct ExportArgs {
    #[command(flatten)]
    pub kb: KbArgs,
    /// The saved model (`learn --save-model`).
    #[arg(long, value_name = "FILE")]
    pub model: PathBuf,
    /// The syntax written.
    #[arg(long = "format", value_enum, default_value_t)]
    pub syntax: ExportFormat,
    /// The class being defined (default: the class the model was trained for, when its
    /// problem is named by an IRI).
    #[arg(long, value_name = "IRI")]
    pub target_class: Option<String>,
    /// Write `C SubClassOf Target` instead of `Target EquivalentTo C`.
    #[arg(long)]
    pub subclass: bool,
    /// Write to this file (temporary file renamed into place) instead of stdout.
    #[arg(long, value_name = "FILE")]
    pub out: Option<PathBuf>,
}

#[derive(Debug, Clone, Copy, ValueEnum, Default, PartialEq, Eq)]
pub enum ExportFormat {
    /// OWL 2 functional syntax.
    #[default]
    Ofn,
    /// OWL/XML.
    Owx,
    /// Manchester syntax.
    Manchester,
}

#[derive(Debug, Args)]
pub struct SignatureArgs {
    #[command(flatten)]
    pub kb: KbArgs,
    /// Everything as one JSON document (counts plus the lists).
    #[arg(long)]
    pub json: bool,
    /// No progress bar and no notes on stderr (errors still go there).
    #[arg(long)]
    pub quiet: bool,
}

#[derive(Debug, Args)]
pub struct BenchArgs {
    #[command(subcommand)]
    pub what: BenchCommand,
}

// Parsed once per process: the size of the largest variant costs nothing worth boxing for.
#[allow(clippy::large_enum_variant)]
#[derive(Debug, Subcommand)]
pub enum BenchCommand {
    /// Concept evaluations per second: cold (a query per concept) and warm (cache + composition).
    Oracle(BenchOracleArgs),
    /// Load speed in triples per second.
    Load(BenchLoadArgs),
    /// Learner quality and concepts tested per second, per problem and backend.
    Learn(BenchLearnArgs),
    /// The same problem on the KB replicated k times: time to the first test, signature and
    /// search time, tests/s, queries per test, peak RSS, same best solution (issue 9).
    Scale(super::bench_scale::BenchScaleArgs),
}

#[derive(Debug, Args)]
pub struct BenchOracleArgs {
    #[command(flatten)]
    pub kb: KbArgs,
    /// Problems whose examples are the individuals to classify (default: every individual).
    #[arg(long, value_name = "LPFILE")]
    pub problems: Option<PathBuf>,
    /// Which problem's examples to use (default: the first).
    #[arg(long, value_name = "NAME")]
    pub problem: Option<String>,
    /// Length of the concept stream.
    #[arg(long, default_value_t = 2000)]
    pub concepts: usize,
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Also run the same concept stream against these endpoints (holding the same data), for
    /// side-by-side figures (repeatable).
    #[arg(long = "compare", value_name = "URL")]
    pub compare: Vec<String>,
    /// The graph holding the data at the compared endpoints.
    #[arg(long = "compare-graph", value_name = "IRI")]
    pub compare_graph: Option<String>,
    #[arg(long)]
    pub json: bool,
}

#[derive(Debug, Args)]
pub struct BenchLearnArgs {
    #[command(flatten)]
    pub learn: LearnArgs,
    /// Also run the same problems against these endpoints (holding the same data).
    #[arg(long = "compare", value_name = "URL")]
    pub compare: Vec<String>,
    /// The graph holding the data at the compared endpoints.
    #[arg(long = "compare-graph", value_name = "IRI")]
    pub compare_graph: Option<String>,
}

#[derive(Debug, Args)]
pub struct BenchLoadArgs {
    #[command(flatten)]
    pub kb: KbArgs,
    /// Repetitions (the best and median are reported).
    #[arg(long, default_value_t = 3)]
    pub repeat: usize,
    #[arg(long)]
    pub json: bool,
}

#[derive(Debug, Args)]
pub struct GenerateArgs {
    #[command(flatten)]
    pub kb: KbArgs,
    /// How many targets.
    #[arg(long, default_value_t = 20)]
    pub count: usize,
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// open: positives are entailed members, negatives entailed non-members (the
    /// terminological-classifier experiments); closed: members vs all other individuals.
    #[arg(long, value_enum, default_value_t)]
    pub semantics: Semantics,
    /// Fewest positives and fewest negatives.
    #[arg(long, value_name = "N", default_value_t = 10)]
    pub min_size: usize,
    /// Largest ratio between the bigger and the smaller example set.
    #[arg(long, value_name = "R", default_value_t = 10.0)]
    pub max_ratio: f64,
    /// Constructor nesting of the random concepts.
    #[arg(long, value_name = "N", default_value_t = 3)]
    pub max_depth: usize,
    /// Random concepts to try (default 200 per target, at least 1000).
    #[arg(long, value_name = "N")]
    pub attempts: Option<usize>,
    /// Sample at most N individuals of the KB (a deterministic LIMIT query) and draw the
    /// targets' examples from that sample only, so the KB's whole active domain is never
    /// enumerated.
    #[arg(long, value_name = "N", default_value_t = 10_000)]
    pub max_individuals: usize,
    /// Sample the N smallest IRIs (`ORDER BY`), the same on every engine holding the same
    /// data, at the price of the store sorting the whole active domain. Default: the first N
    /// the store returns, deterministic for one store and engine version, without a sort.
    #[arg(long)]
    pub sorted_sample: bool,
    /// Write the problems here instead of stdout.
    #[arg(long, value_name = "FILE")]
    pub out: Option<PathBuf>,
}

/// `serve`: the KB, the models, the address and the limits.
#[derive(Debug, Args)]
pub struct ServeArgs {
    /// Knowledge-base file(s), loaded into an in-memory store (formats as for `learn`).
    #[arg(long = "kb", value_name = "FILE", required = true)]
    pub kb: Vec<PathBuf>,
    /// Override the format detected from the extension and content.
    #[arg(long, value_name = "FORMAT")]
    pub format: Option<String>,
    /// A saved model (`learn --save-model`), named by its file stem, or `NAME=FILE`
    /// (repeatable). SPARQL functions and `/predict` refer to models by these names.
    #[arg(long = "model", value_name = "[NAME=]FILE")]
    pub model: Vec<String>,
    /// Address to listen on (port 0: any free port; the address is printed on stderr).
    #[arg(long, value_name = "ADDR", default_value = "127.0.0.1:7878")]
    pub bind: String,
    /// Accept SPARQL updates (refused with 403 otherwise).
    #[arg(long)]
    pub allow_update: bool,
    /// Queries without a dataset (no FROM, no default-graph-uri) see the union of all graphs
    /// as their default graph, as embedded learning does for N-Quads/TriG files (default:
    /// the default graph only).
    #[arg(long)]
    pub union_default_graph: bool,
    /// Largest request body in bytes (larger ones get 413).
    #[arg(long, value_name = "BYTES", default_value_t = 1 << 20)]
    pub max_request_bytes: usize,
    /// Time limit of a query, update or prediction in seconds (then 504).
    #[arg(long, value_name = "SECS", default_value_t = 30.0)]
    pub query_timeout: f64,
    /// Most requests handled at once (further ones get 503).
    #[arg(long, value_name = "N", default_value_t = 4)]
    pub max_concurrent: usize,
    /// Largest `max-runtime` a `/learn` request may ask for, in seconds (its default too).
    #[arg(long, value_name = "SECS", default_value_t = 60.0)]
    pub max_learn_runtime: f64,
    /// Bearer tokens and their scopes, one a line: `SCOPES TOKEN [# name]`, scopes among
    /// `read`, `update`, `learn` joined by commas; `sha256:<hex>` may stand for the token.
    /// Every request then needs `Authorization: Bearer TOKEN` with the route's scope.
    #[arg(long, value_name = "FILE")]
    pub tokens_file: Option<PathBuf>,
    /// With --tokens-file: queries and `/predict` need no token (updates and `/learn` still do).
    #[arg(long, requires = "tokens_file")]
    pub public_read: bool,
    /// Listen on a non-loopback address without --tokens-file: anyone who reaches the server
    /// may use it (refused otherwise).
    #[arg(long, conflicts_with = "tokens_file")]
    pub insecure_no_auth: bool,
    /// Requests per second a client may send (a burst of N, then N a second): per token,
    /// else per address; beyond it 429 with `Retry-After`.
    #[arg(long, value_name = "N")]
    pub rate_limit: Option<u32>,
    /// The client's address is the last one of `X-Forwarded-For` (the one the reverse proxy
    /// in front of serve added), not the connection's.
    #[arg(long)]
    pub trust_proxy: bool,
    /// One JSON line per request (time, client, token name, route, scope, status, duration,
    /// bytes; updates' SHA-256 and quads changed) appended to FILE, or `-` for stderr.
    #[arg(long, value_name = "FILE|-")]
    pub audit_log: Option<String>,
}

/// `help`'s topic.
#[derive(Debug, Args)]
pub struct HelpArgs {
    /// `learner [NAME]`, `endpoint`, or a command (`learn`, `bench scale`, …).
    #[arg(value_name = "TOPIC")]
    pub topic: Vec<String>,
}

//! Argument definitions (clap derive).

use std::path::PathBuf;

use clap::{Args, Parser, Subcommand, ValueEnum};

use crate::oracle::Semantics;

#[derive(Debug, Parser)]
#[command(
    name = "oxilearn",
    version,
    about = "Learn OWL class expressions directly over Linked Data"
)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Command,
}

#[derive(Debug, Subcommand)]
pub enum Command {
    /// List the individuals of a class expression, sorted.
    Instances(InstancesArgs),
    /// Score a class expression on learning problems (tp/fp/tn/fn, accuracy, precision, recall, F1).
    Evaluate(EvaluateArgs),
    /// Summarise the knowledge base's signature (classes, properties, hierarchy, individuals).
    Signature(SignatureArgs),
    /// Measure speed: `bench oracle` (evaluations/s cold and warm), `bench load` (triples/s).
    Bench(BenchArgs),
}

/// Where the knowledge base comes from.
#[derive(Debug, Args, Clone)]
pub struct KbArgs {
    /// Knowledge-base file(s): RDF/XML, Turtle, N-Triples, N-Quads, TriG, OWL/XML, OWL
    /// functional syntax; `.gz` is decompressed.
    #[arg(long = "kb", value_name = "FILE")]
    pub kb: Vec<PathBuf>,
    /// Override the format detected from the extension and content
    /// (rdfxml, turtle, ntriples, nquads, trig, owlxml, ofn).
    #[arg(long, value_name = "FORMAT")]
    pub format: Option<String>,
}

#[derive(Debug, Clone, Copy, ValueEnum, Default)]
pub enum SemanticsArg {
    /// Closed world over the data (default).
    #[default]
    Closed,
    /// Three-valued open world: provable members only.
    Open,
}

impl From<SemanticsArg> for Semantics {
    fn from(s: SemanticsArg) -> Self {
        match s {
            SemanticsArg::Closed => Semantics::Closed,
            SemanticsArg::Open => Semantics::Open,
        }
    }
}

#[derive(Debug, Args)]
pub struct InstancesArgs {
    #[command(flatten)]
    pub kb: KbArgs,
    /// Class expression in Manchester or DL syntax.
    #[arg(long, value_name = "EXPR")]
    pub concept: String,
    #[arg(long, value_enum, default_value_t)]
    pub semantics: SemanticsArg,
    /// One JSON document on stdout.
    #[arg(long)]
    pub json: bool,
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
    #[arg(long, value_name = "EXPR")]
    pub concept: String,
    #[arg(long, value_enum, default_value_t)]
    pub semantics: SemanticsArg,
    #[arg(long)]
    pub json: bool,
}

#[derive(Debug, Args)]
pub struct SignatureArgs {
    #[command(flatten)]
    pub kb: KbArgs,
    /// Everything as one JSON document (counts plus the lists).
    #[arg(long)]
    pub json: bool,
}

#[derive(Debug, Args)]
pub struct BenchArgs {
    #[command(subcommand)]
    pub what: BenchCommand,
}

#[derive(Debug, Subcommand)]
pub enum BenchCommand {
    /// Concept evaluations per second: cold (a query per concept) and warm (cache + composition).
    Oracle(BenchOracleArgs),
    /// Load speed in triples per second.
    Load(BenchLoadArgs),
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
    #[arg(long)]
    pub json: bool,
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

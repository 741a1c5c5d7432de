//! The CLI side of each learner, and the registry the CLI runs them from. `learn`, `cv` and
//! `bench learn` go through [`REGISTRY`] and nothing else: adding a learner is its library
//! module plus a file here with its clap options and one [`LearnerEntry`] (its constructor
//! from the parsed arguments, the shared flags it can use and its own option groups). The
//! arguments every learner command takes ([`LearnArgs`]) live here too, so a learner's file
//! imports only its parent.

pub mod boost;
pub mod celoe;
pub mod forest;
pub mod multiclass;
pub mod tbc;
pub mod tdt;
pub mod trf;

use std::path::PathBuf;

use anyhow::bail;
use clap::Args;
use clap::builder::{PossibleValue, PossibleValuesParser, TypedValueParser};

use crate::KnowledgeBase;
use crate::learn::{Examples, FitResult, Learner};
use crate::refine::rho::{Rho, RhoOptions};

use self::boost::{BoostArgs, WeakArgs};
use self::celoe::{CeloeArgs, HasValueArgs, SolutionArgs, StartArgs};
use self::forest::ForestArgs;
use self::multiclass::MulticlassArgs;
use self::tbc::TbcArgs;
use self::tdt::TreeArgs;
use super::options::KbArgs;
use crate::learn::QualityMeasure;
use crate::oracle::Semantics;

/// Builds the learner from the arguments (parameters validated) over the command's operator.
pub type BuildFn =
    for<'a> fn(&LearnArgs, &KnowledgeBase, &'a Rho) -> anyhow::Result<Box<dyn Learner + 'a>>;

/// Learner-specific JSON fields of one run (`fold`: for a cross-validation fold, where
/// per-example output is left out).
pub type ExtrasFn = fn(
    &KnowledgeBase,
    &FitResult,
    &Examples,
    bool,
) -> anyhow::Result<serde_json::Map<String, serde_json::Value>>;

/// One learner as the CLI sees it.
pub struct LearnerEntry {
    /// `--algorithm` value, also the model files' `algorithm`.
    pub name: &'static str,
    pub about: &'static str,
    /// The shared flags (budgets, operator language) it uses; the others are refused.
    pub shared: SharedFlags,
    /// Its own option groups (clap `Args` declared in its CLI file): their flags are
    /// refused for learners that do not list the group.
    pub own: &'static [FlagGroup],
    /// The operator's language for this learner.
    pub operator: fn(&LearnArgs) -> RhoOptions,
    /// Whether it fits multi-class problems (`learn`, `cv` give it a problems file that is
    /// one, see [`crate::problem::is_multiclass`]); the others learn binary ones only.
    pub multi_class: bool,
    pub build: BuildFn,
    pub extras: ExtrasFn,
}

/// The long names of one option group, read from clap.
pub type FlagGroup = fn() -> Vec<String>;

/// The long flag names of the clap `Args` `T`.
pub fn group<T: clap::Args>() -> Vec<String> {
    T::augment_args(clap::Command::new("group"))
        .get_arguments()
        .filter_map(|a| a.get_long().map(str::to_owned))
        .collect()
}

/// Which of the shared flags ([`shared_flags`]) a learner uses.
pub enum SharedFlags {
    All,
    /// Only these.
    Only(&'static [&'static str]),
    /// All but these.
    AllBut(&'static [&'static str]),
}

impl LearnerEntry {
    /// Its own flags: those of its groups.
    pub fn own_flags(&self) -> &'static [String] {
        flag_table().own.get(self.name).map_or(&[], Vec::as_slice)
    }

    /// Whether it takes `flag` (a learner flag; other flags are every command's).
    pub fn uses(&self, flag: &str) -> bool {
        let shared = match self.shared {
            SharedFlags::All => true,
            SharedFlags::Only(these) => these.contains(&flag),
            SharedFlags::AllBut(these) => !these.contains(&flag),
        };
        (shared && is_shared(flag)) || self.own_flags().iter().any(|f| f == flag)
    }
}

/// The flag names read from clap, once per process (every command's parse asks).
struct FlagTable {
    shared: Vec<String>,
    /// Per learner name, the flags of its own groups.
    own: std::collections::HashMap<&'static str, Vec<String>>,
}

fn flag_table() -> &'static FlagTable {
    static TABLE: std::sync::OnceLock<FlagTable> = std::sync::OnceLock::new();
    TABLE.get_or_init(|| {
        let mut shared = group::<SearchArgs>();
        shared.extend(group::<RhoArgs>());
        let own = REGISTRY
            .iter()
            .map(|e| (e.name, e.own.iter().flat_map(|g| g()).collect()))
            .collect();
        FlagTable { shared, own }
    })
}

/// Flags every learner command shares, whether or not the learner uses them: budgets and
/// limits, and the operator's language.
pub fn shared_flags() -> &'static [String] {
    &flag_table().shared
}

fn is_shared(flag: &str) -> bool {
    shared_flags().iter().any(|f| f == flag)
}

/// Whether `flag` belongs to some learner (shared or own), as opposed to the command's.
pub fn is_learner_flag(flag: &str) -> bool {
    is_shared(flag)
        || flag_table()
            .own
            .values()
            .any(|own| own.iter().any(|f| f == flag))
}

/// Every learner.
pub const REGISTRY: &[&LearnerEntry] = &[
    &celoe::ENTRY,
    &tbc::ENTRY,
    &forest::ENTRY,
    &boost::OWL_BOOST,
    &boost::WFOIL_DL,
    &multiclass::ENTRY,
    &tdt::ENTRY,
    &trf::ENTRY,
];

/// Other names `--algorithm` accepts, each with the registry name it stands for.
pub const ALIASES: &[(&str, &str)] = &[("decision-tree", "tdt"), ("random-forest", "trf")];

/// `--algorithm`'s parser: a registry name (each listed with its description in `--help`),
/// or a comma-separated list of them, which only `cv` accepts (it compares them side by
/// side); every name is checked here.
pub fn algorithm_parser() -> AlgorithmParser {
    AlgorithmParser
}

/// See [`algorithm_parser`].
#[derive(Clone, Copy, Debug)]
pub struct AlgorithmParser;

impl TypedValueParser for AlgorithmParser {
    type Value = String;

    fn parse_ref(
        &self,
        cmd: &clap::Command,
        arg: Option<&clap::Arg>,
        value: &std::ffi::OsStr,
    ) -> Result<String, clap::Error> {
        let names = PossibleValuesParser::new(self.possible_values().into_iter().flatten());
        let text = value
            .to_str()
            .ok_or_else(|| clap::Error::new(clap::error::ErrorKind::InvalidUtf8).with_cmd(cmd))?;
        let mut out = Vec::new();
        for name in text.split(',') {
            let name = names.parse_ref(cmd, arg, std::ffi::OsStr::new(name.trim()))?;
            let canonical = ALIASES.iter().find(|(a, _)| *a == name).map(|(_, n)| *n);
            out.push(canonical.map_or(name, str::to_owned));
        }
        Ok(out.join(","))
    }

    fn possible_values(&self) -> Option<Box<dyn Iterator<Item = PossibleValue> + '_>> {
        Some(Box::new(REGISTRY.iter().map(|e| {
            let aliases = ALIASES
                .iter()
                .filter(|(_, n)| *n == e.name)
                .map(|(a, _)| *a);
            PossibleValue::new(e.name).help(e.about).aliases(aliases)
        })))
    }
}

/// The names in `--algorithm` (one, or several for `cv`), duplicates refused.
pub fn algorithm_names(args: &LearnArgs) -> anyhow::Result<Vec<&str>> {
    let names: Vec<&str> = args.algorithm.split(',').map(str::trim).collect();
    for (i, n) in names.iter().enumerate() {
        if names[..i].contains(n) {
            bail!("--algorithm names {n} twice");
        }
    }
    Ok(names)
}

/// Per algorithm of a list, the arguments that run it alone: the learner flags given on the
/// command line are handed to the learners that use them, and refused when none does.
pub fn per_algorithm(args: &LearnArgs) -> anyhow::Result<Vec<LearnArgs>> {
    let names = algorithm_names(args)?;
    let entries = names
        .iter()
        .map(|n| {
            REGISTRY
                .iter()
                .copied()
                .find(|e| e.name == *n)
                .ok_or_else(|| anyhow::anyhow!("unknown --algorithm {n}"))
        })
        .collect::<anyhow::Result<Vec<_>>>()?;
    let unused: Vec<String> = args
        .explicit
        .iter()
        .filter(|f| is_learner_flag(f) && !entries.iter().any(|e| e.uses(f)))
        .map(|f| format!("--{f}"))
        .collect();
    if !unused.is_empty() {
        bail!(
            "no learner of --algorithm {} takes {}",
            args.algorithm,
            unused.join(", ")
        );
    }
    Ok(entries
        .iter()
        .map(|e| {
            let mut one = args.clone();
            one.algorithm = e.name.to_owned();
            one.explicit.retain(|f| !is_learner_flag(f) || e.uses(f));
            one
        })
        .collect())
}

/// The entry of `--algorithm` after checking that every flag given on the command line is
/// one it uses; all refused flags are reported at once.
pub fn entry_for(args: &LearnArgs) -> anyhow::Result<&'static LearnerEntry> {
    if args.algorithm.contains(',') {
        bail!(
            "--algorithm {}: this command runs one learner (`cv` compares several)",
            args.algorithm
        );
    }
    let Some(entry) = REGISTRY.iter().copied().find(|e| e.name == args.algorithm) else {
        bail!(
            "unknown --algorithm {}; known: {}",
            args.algorithm,
            REGISTRY
                .iter()
                .map(|e| e.name)
                .collect::<Vec<_>>()
                .join(", ")
        );
    };
    let mut refused = Vec::new();
    for flag in &args.explicit {
        let flag = flag.as_str();
        if !is_learner_flag(flag) || entry.uses(flag) {
            continue;
        }
        match REGISTRY.iter().find(|e| e.uses(flag) && !is_shared(flag)) {
            Some(owner) => refused.push(format!(
                "--{flag} (an option of --algorithm {})",
                owner.name
            )),
            None => refused.push(format!("--{flag} (not used by {})", entry.name)),
        }
    }
    if !refused.is_empty() {
        bail!(
            "--algorithm {} does not take {}",
            entry.name,
            refused.join(", ")
        );
    }
    Ok(entry)
}

#[cfg(test)]
mod tests {
    use clap::CommandFactory;

    use super::LearnArgs;
    use super::{REGISTRY, SharedFlags, is_learner_flag, shared_flags};
    use crate::cli::args::Cli;
    use crate::cli::learners;

    /// `learn` arguments as parsed from `flags` (after the KB and problems).
    fn learn_args(flags: &[&str]) -> LearnArgs {
        let mut line = vec![
            "oxilearn",
            "learn",
            "--kb",
            "kb.ttl",
            "--problems",
            "p.json",
        ];
        line.extend_from_slice(flags);
        match <Cli as clap::Parser>::try_parse_from(line)
            .expect("parses")
            .command
        {
            crate::cli::args::Command::Learn(a) => a,
            _ => unreachable!("a learn command"),
        }
    }

    /// The names learners type for the shared flags they take (or leave) are clap's.
    #[test]
    fn every_typed_flag_name_is_a_flag() {
        let shared = shared_flags();
        for e in REGISTRY {
            if let SharedFlags::Only(these) | SharedFlags::AllBut(these) = e.shared {
                for f in these {
                    assert!(shared.iter().any(|s| s == f), "{}: --{f}", e.name);
                }
            }
            for f in e.own_flags() {
                assert!(is_learner_flag(f), "{}: --{f}", e.name);
            }
        }
    }

    /// One flag name, each learner's own default: `--max-axioms` (owl-boost 1, wfoil-dl 5),
    /// `--max-length` (tbc 3, the others unbounded), `--max-depth` (celoe 7, tdt 10, trf 12)
    /// and `--trees` (forest-mixing 2, trf 50).
    #[test]
    fn learners_share_a_flag_name_with_their_own_defaults() {
        let boost = learners::boost::params(&learn_args(&["--algorithm", "owl-boost"])).unwrap();
        let wfoil = learners::boost::params(&learn_args(&["--algorithm", "wfoil-dl"])).unwrap();
        assert_eq!((boost.max_axioms, wfoil.max_axioms), (1, 5));
        let given = learners::boost::params(&learn_args(&[
            "--algorithm",
            "wfoil-dl",
            "--max-axioms",
            "2",
        ]))
        .unwrap();
        assert_eq!(given.max_axioms, 2);
        let tbc = learners::tbc::params(&learn_args(&["--algorithm", "tbc"])).unwrap();
        assert_eq!(tbc.max_length, 3);
        let kb = crate::KnowledgeBase::builder()
            .open_files(&[
                std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/family/family.ttl")
            ])
            .unwrap();
        let celoe = learners::celoe::params(&learn_args(&[]), &kb).unwrap();
        assert_eq!(celoe.max_length, None);
        assert_eq!(celoe.max_depth, learners::celoe::MAX_DEPTH);
        let forest =
            learners::forest::params(&learn_args(&["--algorithm", "forest-mixing"]), &kb).unwrap();
        assert_eq!(forest.trees, learners::forest::TREES);
        // The tree learners take CELOE's --max-depth and Forest Mixing's --trees with their own
        // defaults (issue 31), and a given value still wins.
        let tdt = learners::tdt::params(&learn_args(&["--algorithm", "tdt"])).unwrap();
        let trf = learners::trf::params(&learn_args(&["--algorithm", "trf"])).unwrap();
        let depths = (celoe.max_depth, tdt.grow.max_depth, trf.grow.max_depth);
        assert_eq!(depths, (7, 10, 12));
        assert_eq!((forest.trees, trf.trees), (2, 50));
        let given = learn_args(&["--algorithm", "trf", "--max-depth", "3", "--trees", "4"]);
        let trf = learners::trf::params(&given).unwrap();
        assert_eq!((trf.grow.max_depth, trf.trees), (3, 4));
    }

    /// CELOE's neighbourhood proposals are on by default; `--no-neighbourhood` gives
    /// DL-Learner's top-down CELOE.
    #[test]
    fn no_neighbourhood_turns_the_proposals_off() {
        let kb = crate::KnowledgeBase::builder()
            .open_files(&[
                std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/family/family.ttl")
            ])
            .unwrap();
        let on = learners::celoe::params(&learn_args(&[]), &kb).unwrap();
        assert!(on.neighbourhood.is_some());
        let off = learners::celoe::params(&learn_args(&["--no-neighbourhood"]), &kb).unwrap();
        assert!(off.neighbourhood.is_none());
    }

    #[test]
    fn the_algorithm_help_names_every_registered_learner() {
        let cli = Cli::command();
        let learn = cli.find_subcommand("learn").expect("a learn command");
        let arg = learn
            .get_arguments()
            .find(|a| a.get_id() == "algorithm")
            .expect("an --algorithm flag");
        let help = arg.get_help().map(ToString::to_string).unwrap_or_default();
        for entry in REGISTRY {
            assert!(
                help.contains(entry.name),
                "{} missing in: {help}",
                entry.name
            );
        }
    }
}

/// The heading of `--test` and `--label-column`, options of every learner shown by
/// `oxilearn help learner NAME` (so `learn --help` fits a screen).
pub const HELD_OUT_HEADING: &str = "Held-out test and labelled examples (every learner)";

/// Budgets and limits every learner shares (each uses those it can; others are refused).
#[derive(Debug, Args, Clone)]
#[command(next_help_heading = "Budgets and limits (every learner)")]
pub struct SearchArgs {
    /// Time budget per problem (per fold in `cv`), in seconds, counted after the KB is
    /// loaded: the first problem's budget also pays for the signature (leaving the search at
    /// least a quarter); 0 = no limit.
    #[arg(long, value_name = "SECS", default_value_t = 10.0)]
    pub max_runtime: f64,
    /// Most candidate concepts to test per problem (deterministic runs use this).
    #[arg(long, value_name = "N")]
    pub max_tests: Option<u64>,
    /// The measure solutions are ranked by: f1 (F1 of the positives, Ontolearn's measure) or
    /// accuracy (over positives and negatives, DL-Learner's default).
    #[arg(long, value_enum, default_value_t, hide_possible_values = true)]
    pub quality: QualityMeasure,
    /// Longest class expression considered (CELOE: unbounded by default; TBC: 3).
    #[arg(long, value_name = "N")]
    pub max_length: Option<usize>,
}

/// The refinement operator's language (reference defaults).
#[derive(Debug, Args, Clone)]
#[command(next_help_heading = "Operator language (learners that refine concepts)")]
pub struct RhoArgs {
    /// No ¬ (negated most specific classes).
    #[arg(long)]
    pub no_negation: bool,
    /// No universal restrictions (∀ / only).
    #[arg(long)]
    pub no_all: bool,
    /// No existential restrictions (∃ / some).
    #[arg(long)]
    pub no_exists: bool,
    /// No cardinality restrictions (≥n, ≤n).
    #[arg(long)]
    pub no_cardinality: bool,
    /// Largest cardinality bound.
    #[arg(long, value_name = "N", default_value_t = 5)]
    pub cardinality_limit: u32,
    /// No boolean data restrictions.
    #[arg(long)]
    pub no_booleans: bool,
    /// No numeric data restrictions.
    #[arg(long)]
    pub no_numbers: bool,
    /// Split values per numeric data property, evenly spaced over its values (the examples'
    /// boundary values come on top, see --no-example-splits).
    #[arg(long, value_name = "N", default_value_t = 12)]
    pub numeric_splits: usize,
    /// No split values between the examples' least and greatest values along each role
    /// (at most 32 per property: the thresholds that change a restriction's coverage of
    /// the examples, however close together).
    #[arg(long)]
    pub no_example_splits: bool,
    /// ρ(⊤) offers only the widest numeric bound per property, refined one split value at
    /// a time (DL-Learner), instead of every split value.
    #[arg(long)]
    pub widest_bounds_only: bool,
    /// No disjunctions (⊔ / or).
    #[arg(long)]
    pub no_disjunction: bool,
    /// Use inverse roles.
    #[arg(long)]
    pub inverse: bool,
    /// Use ∃r.Self.
    #[arg(long = "self")]
    pub has_self: bool,
}

#[derive(Debug, Args, Clone)]
pub struct LearnArgs {
    #[command(flatten)]
    pub kb: KbArgs,
    /// Learning problems: Ontolearn JSON, list JSON, DL-Learner .conf, or an SML-Bench folder
    /// (`learn` also takes --describe-class or --positives-query instead).
    #[arg(long, value_name = "LPFILE", default_value = "", hide_default_value = true,
          value_parser = clap::builder::OsStringValueParser::new().map(PathBuf::from))]
    pub problems: PathBuf,
    /// Only these problems (repeatable; default: all).
    #[arg(long = "problem", value_name = "NAME")]
    pub problem: Vec<String>,
    /// The learner: celoe, forest-mixing, tbc, owl-boost, wfoil-dl, multiclass, tdt or trf.
    #[arg(long, default_value = "celoe", value_parser = algorithm_parser())]
    pub algorithm: String,
    #[arg(long, value_enum, default_value_t)]
    pub semantics: Semantics,
    /// One JSON document on stdout (an array over problems).
    #[arg(long)]
    pub json: bool,
    /// No progress bar.
    #[arg(long)]
    pub quiet: bool,
    /// `learn`: held-out examples (the formats of --problems, or a labelled TSV) to score
    /// the fitted model on, reported under `test`: the problem of the same name (binary
    /// learners: or the TSV's class of that name), or the file's only problem.
    #[arg(long = "test", value_name = "FILE", help_heading = HELD_OUT_HEADING)]
    pub test_file: Option<PathBuf>,
    /// The class column of a TSV file of labelled examples (first column: the individual),
    /// in --problems or --test.
    #[arg(long, value_name = "NAME", help_heading = HELD_OUT_HEADING)]
    pub label_column: Option<String>,
    /// Save the fitted model as a versioned JSON document (one problem only; written
    /// atomically). `predict --model` and `evaluate --model` read it.
    #[arg(long, value_name = "FILE")]
    pub save_model: Option<PathBuf>,
    /// Also write a self-contained HTML report with plots (`learn`, `cv`). Hidden from
    /// `learn --help`, which must fit a screen; `oxilearn help report` and
    /// docs/commands.md name it.
    #[arg(long, value_name = "FILE.html", hide = true)]
    pub report: Option<PathBuf>,
    #[command(flatten)]
    pub examples: super::describe_class::ExampleSourceArgs,
    #[command(flatten)]
    pub search: SearchArgs,
    #[command(flatten)]
    pub rho: RhoArgs,
    // Each learner's own options, declared in its CLI file (`cli/learners/*.rs`); the
    // registry reads their names from clap.
    #[command(flatten)]
    pub celoe: CeloeArgs,
    #[command(flatten)]
    pub solutions: SolutionArgs,
    #[command(flatten)]
    pub start: StartArgs,
    #[command(flatten)]
    pub values: HasValueArgs,
    #[command(flatten)]
    pub tbc: TbcArgs,
    /// Boxed: the bench command enum holds these arguments and must stay small.
    #[command(flatten)]
    pub forest: Box<ForestArgs>,
    #[command(flatten)]
    pub boost: BoostArgs,
    #[command(flatten)]
    pub weak: WeakArgs,
    #[command(flatten)]
    pub multiclass: MulticlassArgs,
    #[command(flatten)]
    pub trees: TreeArgs,
    /// Long names of the flags given on the command line (filled after parsing, so shared
    /// flags a learner cannot use are refused and defaults are not).
    #[arg(skip)]
    pub explicit: Vec<String>,
}

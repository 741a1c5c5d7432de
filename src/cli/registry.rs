//! The registry of learners the CLI can run. `learn`, `cv` and `bench learn` go through it
//! and nothing else: adding a learner is its library module plus one [`LearnerEntry`] here
//! (its constructor from the parsed arguments, the shared flags it can use and its own).

use anyhow::bail;
use clap::builder::{PossibleValue, PossibleValuesParser, TypedValueParser};

use super::args::{LearnArgs, RhoArgs, SearchArgs};
use super::learners;
use crate::KnowledgeBase;
use crate::learn::{Examples, FitResult, Learner};
use crate::refine::rho::{Rho, RhoOptions};

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
    pub fn own_flags(&self) -> Vec<String> {
        self.own.iter().flat_map(|g| g()).collect()
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

/// Flags every learner command shares, whether or not the learner uses them: budgets and
/// limits, and the operator's language.
pub fn shared_flags() -> Vec<String> {
    let mut flags = group::<SearchArgs>();
    flags.extend(group::<RhoArgs>());
    flags
}

fn is_shared(flag: &str) -> bool {
    shared_flags().iter().any(|f| f == flag)
}

/// Whether `flag` belongs to some learner (shared or own), as opposed to the command's.
pub fn is_learner_flag(flag: &str) -> bool {
    is_shared(flag)
        || REGISTRY
            .iter()
            .any(|e| e.own_flags().iter().any(|f| f == flag))
}

/// Every learner.
pub const REGISTRY: &[&LearnerEntry] = &[
    &learners::celoe::ENTRY,
    &learners::tbc::ENTRY,
    &learners::forest::ENTRY,
    &learners::boost::OWL_BOOST,
    &learners::boost::WFOIL_DL,
    &learners::multiclass::ENTRY,
];

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
            out.push(names.parse_ref(cmd, arg, std::ffi::OsStr::new(name.trim()))?);
        }
        Ok(out.join(","))
    }

    fn possible_values(&self) -> Option<Box<dyn Iterator<Item = PossibleValue> + '_>> {
        Some(Box::new(
            REGISTRY
                .iter()
                .map(|e| PossibleValue::new(e.name).help(e.about)),
        ))
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

    use super::{REGISTRY, SharedFlags, is_learner_flag, shared_flags};
    use crate::cli::args::{Cli, LearnArgs};
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
                assert!(is_learner_flag(&f), "{}: --{f}", e.name);
            }
        }
    }

    /// One flag name, each learner's own default: `--max-axioms` (owl-boost 1, wfoil-dl 5)
    /// and `--max-length` (tbc 3, the others unbounded).
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

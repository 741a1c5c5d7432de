//! The command line: clap arguments, one file per subcommand, errors to stderr with exit 2.

/// `println!` that returns an error on a closed pipe (`… | head`) instead of panicking.
macro_rules! outln {
    ($($arg:tt)*) => {{
        use std::io::Write as _;
        writeln!(std::io::stdout().lock(), $($arg)*)?
    }};
}

mod apply_scope;
mod args;
mod bench;
mod bench_learn;
mod bench_scale;
mod cluster;
mod conf_defaults;
mod cv;
mod describe_class;
mod enrich;
mod evaluate;
mod evaluate_multiclass;
mod export;
mod generate;
mod generate_deep;
mod generate_nodes;
mod held_out;
mod help;
mod instances;
mod kb_source;
mod learn;
mod learner;
mod learners;
mod model_file;
mod multiclass_learner;
mod multiclass_run;
mod options;
mod predict;
mod problems;
mod progress;
mod report;
mod sample;
mod serve;
mod signature;

use std::process::ExitCode;

use clap::{CommandFactory, FromArgMatches};

pub use args::{Cli, Command};

/// Parses arguments, runs the command, maps errors to exit code 2.
pub fn main() -> ExitCode {
    let cli = match parse() {
        Ok(cli) => cli,
        Err(e) => {
            let code = if e.use_stderr() { 2 } else { 0 };
            let _ = e.print();
            return ExitCode::from(code);
        }
    };
    match run(cli) {
        Ok(()) => ExitCode::SUCCESS,
        // A reader that closed the pipe (`… | head`) is not an error of ours.
        Err(e) if is_broken_pipe(&e) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e:#}");
            ExitCode::from(2)
        }
    }
}

/// Parses the command line, recording which flags were given (not defaulted) in the
/// learner commands' arguments, so a learner can refuse flags it cannot use.
pub fn parse() -> Result<Cli, clap::Error> {
    let matches = help::command().try_get_matches()?;
    let mut cli = Cli::from_arg_matches(&matches)?;
    let explicit = explicit_flags(&Cli::command(), &matches);
    match &mut cli.command {
        Command::Learn(a) => a.explicit = explicit,
        Command::Cv(a) => a.learn.explicit = explicit,
        Command::Bench(b) => {
            if let args::BenchCommand::Learn(a) = &mut b.what {
                a.learn.explicit = explicit;
            }
        }
        _ => {}
    }
    Ok(cli)
}

/// The long names of the flags given on the command line of the innermost subcommand.
fn explicit_flags(cmd: &clap::Command, matches: &clap::ArgMatches) -> Vec<String> {
    if let Some((name, sub)) = matches.subcommand()
        && let Some(sub_cmd) = cmd.find_subcommand(name)
    {
        return explicit_flags(sub_cmd, sub);
    }
    let mut out: Vec<String> = cmd
        .get_arguments()
        .filter(|a| {
            matches.value_source(a.get_id().as_str())
                == Some(clap::parser::ValueSource::CommandLine)
        })
        .filter_map(|a| a.get_long().map(str::to_owned))
        .collect();
    out.sort();
    out
}

pub fn run(cli: Cli) -> anyhow::Result<()> {
    progress::set_quiet(match &cli.command {
        Command::Learn(a) => a.quiet,
        Command::Cv(a) => a.learn.quiet,
        Command::Instances(a) => a.quiet,
        Command::Evaluate(a) => a.quiet,
        Command::Signature(a) => a.quiet,
        Command::Predict(a) => a.quiet,
        Command::Enrich(a) => a.quiet,
        Command::Cluster(a) => a.quiet,
        _ => false,
    });
    match cli.command {
        Command::Instances(a) => instances::run(a),
        Command::Evaluate(a) => evaluate::run(a),
        Command::Signature(a) => signature::run(a),
        Command::Learn(a) => learn::run(a),
        Command::Cv(a) => cv::run(a),
        Command::Predict(a) => predict::run(a),
        Command::Enrich(a) => enrich::run(a),
        Command::Export(a) => export::run(a),
        Command::Bench(a) => bench::run(a),
        Command::GenerateProblems(a) => generate::run(a),
        Command::GenerateNodeProblems(a) => generate_nodes::run(a),
        Command::GenerateDeepProblems(a) => generate_deep::run(a),
        Command::Cluster(a) => cluster::run(a),
        Command::Serve(a) => serve::run(a),
        Command::Help(a) => help::run(a),
        Command::Report(a) => report::run(a),
    }
}

fn is_broken_pipe(e: &anyhow::Error) -> bool {
    e.chain().any(|c| {
        c.downcast_ref::<std::io::Error>()
            .is_some_and(|io| io.kind() == std::io::ErrorKind::BrokenPipe)
    })
}

/// Writes one JSON document to stdout (a closed pipe is reported, not a panic).
fn print_json(value: &impl serde::Serialize) -> anyhow::Result<()> {
    use std::io::Write;
    let mut out = std::io::stdout().lock();
    let text = serde_json::to_string_pretty(value)?;
    writeln!(out, "{text}")?;
    Ok(())
}

/// `evaluate`'s JSON: one problem's result as an object, several as an array.
fn print_json_one_or_many(results: &[impl serde::Serialize]) -> anyhow::Result<()> {
    match results {
        [one] => print_json(one),
        many => print_json(&many),
    }
}

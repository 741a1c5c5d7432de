//! The command line: clap arguments, one file per subcommand, errors to stderr with exit 2.

/// `println!` that returns an error on a closed pipe (`… | head`) instead of panicking.
macro_rules! outln {
    ($($arg:tt)*) => {{
        use std::io::Write as _;
        writeln!(std::io::stdout().lock(), $($arg)*)?
    }};
}

mod args;
mod bench;
mod bench_learn;
mod bench_scale;
mod bench_tbc;
mod cv;
mod evaluate;
mod generate;
mod instances;
mod kb_source;
mod learn;
mod learner;
mod problems;
mod progress;
mod signature;
mod tbc;

use std::process::ExitCode;

use clap::Parser;

pub use args::{Cli, Command};

/// Parses arguments, runs the command, maps errors to exit code 2.
pub fn main() -> ExitCode {
    let cli = match Cli::try_parse() {
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

pub fn run(cli: Cli) -> anyhow::Result<()> {
    match cli.command {
        Command::Instances(a) => instances::run(a),
        Command::Evaluate(a) => evaluate::run(a),
        Command::Signature(a) => signature::run(a),
        Command::Learn(a) => learn::run(a),
        Command::Cv(a) => cv::run(a),
        Command::Bench(a) => bench::run(a),
        Command::GenerateProblems(a) => generate::run(a),
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

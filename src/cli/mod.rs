//! The command line: clap arguments, one file per subcommand, errors to stderr with exit 2.

mod args;
mod bench;
mod evaluate;
mod instances;
mod kb_source;
mod signature;

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
        Command::Bench(a) => bench::run(a),
    }
}

/// Writes one JSON document to stdout.
fn print_json(value: &impl serde::Serialize) -> anyhow::Result<()> {
    println!("{}", serde_json::to_string_pretty(value)?);
    Ok(())
}

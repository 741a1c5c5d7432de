//! The `oxilearn` command: argument parsing and exit codes only; the work is in `cli`.

use std::process::ExitCode;

fn main() -> ExitCode {
    oxilearn::cli::main()
}

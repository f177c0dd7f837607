//! The `chuhan` binary: parse arguments, run, map the outcome to an exit code.

use clap::Parser;
use std::process::ExitCode;

fn main() -> ExitCode {
    let cli = chuhan_arena::cli::Cli::parse();
    match chuhan_arena::run(cli) {
        Ok(code) => ExitCode::from(code),
        Err(err) => {
            eprintln!("chuhan: error: {err:#}");
            ExitCode::from(2)
        }
    }
}

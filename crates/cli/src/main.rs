//! The `chuhan` binary: the command line of the Chuhan engine and harness. It owns the top of
//! the command line ([`args`]), one module per command with its flags ([`commands`]), what
//! several commands share ([`common`]), the dispatch and the exit codes;
//! the work itself is done by the `chuhan-engine` and `chuhan-arena` libraries, which know
//! nothing of this crate.
#![forbid(unsafe_code)]

use clap::Parser;
use std::process::ExitCode;

#[macro_use]
mod output;
mod args;
mod commands;
mod common;
mod signals;

/// Exit code for success.
pub const EXIT_OK: u8 = 0;
/// Exit code for a failed check (a perft mismatch, an SPRT that accepted H0 is *not* a failure).
pub const EXIT_FAIL: u8 = 1;
/// Exit code for unusable input (bad FEN, missing file, malformed config).
pub const EXIT_USAGE: u8 = 2;

/// Runs one parsed command line and returns the process exit code.
fn run(cli: args::Cli) -> anyhow::Result<u8> {
    use args::Command;
    match cli.command {
        Command::Perft(args) => commands::perft::run(&args),
        Command::Match(args) => commands::matches::run(&args),
        Command::Stats(args) => commands::stats::run(&args),
        Command::Sprt(args) => commands::sprt::run(&args),
        Command::Bench(args) => commands::bench::run(&args),
        Command::Judge(args) => commands::judge::run(&args),
        Command::Ladder(args) => commands::ladder::run(&args),
        Command::Datagen(args) => commands::datagen::run(&args),
        Command::Calibrate(args) => commands::calibrate::run(&args),
        Command::Merge(args) => commands::merge::run(&args),
        Command::Rate(args) => commands::rate::run(&args),
        Command::Uci(a) => match a.game {
            common::flags::GameArg::Xiangqi => commands::uci::run(),
            common::flags::GameArg::Chess => commands::uci_chess::run(),
        },
        Command::Params(args) => commands::params::run(&args),
        Command::Notation(args) => commands::notation::run(&args),
        Command::Tune(command) => commands::tune::run(&command),
        Command::EngineCheck(args) => commands::engine_check::run(&args),
        Command::Serve(args) => commands::serve::serve(&args),
        Command::Play(args) => commands::serve::play(&args),
    }
}

/// Whether a command is a long run that a signal stops cleanly (see [`signals`]).
fn stops_on_signal(command: &args::Command) -> bool {
    use args::Command;
    matches!(
        command,
        Command::Match(_)
            | Command::Sprt(_)
            | Command::Ladder(_)
            | Command::Calibrate(_)
            | Command::Datagen(_)
            | Command::Tune(_)
            | Command::Merge(_)
    )
}

fn main() -> ExitCode {
    let cli = args::Cli::parse();
    if stops_on_signal(&cli.command) {
        if let Err(err) = signals::install() {
            eprintln!("chuhan: error: cannot install the signal handlers: {err:#}");
            return ExitCode::from(EXIT_USAGE);
        }
    }
    let result = run(cli);
    if let Some(code) = signals::finish(&result) {
        return code;
    }
    match result {
        Ok(code) => ExitCode::from(code),
        // A write to a closed stdout propagated with `?` ends as quietly as one through `outln!`.
        Err(err) if output::is_broken_pipe(&err) => ExitCode::from(EXIT_OK),
        Err(err) => {
            eprintln!("chuhan: error: {}", error_text(&err));
            if not_writable(&err) {
                eprintln!("chuhan: {}", signals::not_writable_advice());
            }
            ExitCode::from(EXIT_USAGE)
        }
    }
}

/// The error and its causes as `{:#}` shows them, less a cause the text before it already ends
/// with (an error type whose message includes its source would otherwise say it twice).
pub fn error_text(err: &anyhow::Error) -> String {
    let mut text = String::new();
    for cause in err.chain().map(|c| c.to_string()) {
        if text.is_empty() {
            text = cause;
        } else if !text.ends_with(&cause) {
            text.push_str(": ");
            text.push_str(&cause);
        }
    }
    text
}

/// Whether a write was refused for want of permission or on a read-only file system (EACCES,
/// EPERM, EROFS).
fn not_writable(err: &anyhow::Error) -> bool {
    err.chain().any(|c| {
        c.downcast_ref::<std::io::Error>()
            .is_some_and(|e| matches!(e.raw_os_error(), Some(1 | 13 | 30)))
    })
}

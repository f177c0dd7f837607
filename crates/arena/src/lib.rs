//! # chuhan-arena
//!
//! The Chuhan harness around the engine: perft regressions, and (as the roadmap lands) rules
//! judging, matches with SPRT, ladders with joint ratings, difficulty calibration, tuning and
//! UCI. The binary `chuhan` is a thin wrapper around [`run`].

pub mod calibrate;
pub mod cli;
pub mod commands;
pub mod config;
pub mod curve;
pub mod datagen;
pub mod game;
pub mod ladder;
pub mod limits;
pub mod openings;
pub mod player;
pub mod plot;
pub mod ratings;
pub mod report;
pub mod results;
pub mod runner;
pub mod schedule;
pub mod stats;
pub mod tune;
pub mod uci_player;

/// Exit code for success.
pub const EXIT_OK: u8 = 0;
/// Exit code for a failed check (a perft mismatch, an SPRT that accepted H0 is *not* a failure).
pub const EXIT_FAIL: u8 = 1;
/// Exit code for unusable input (bad FEN, missing file, malformed config).
pub const EXIT_USAGE: u8 = 2;

/// Runs one parsed command line and returns the process exit code.
pub fn run(cli: cli::Cli) -> anyhow::Result<u8> {
    match cli.command {
        cli::Command::Perft(args) => commands::perft::run(&args),
        cli::Command::Match(args) => commands::matches::run(&args),
        cli::Command::Stats(args) => commands::stats::run(&args),
        cli::Command::Sprt(args) => commands::sprt::run(&args),
        cli::Command::Bench(args) => commands::bench::run(&args),
        cli::Command::Judge(args) => commands::judge::run(&args),
        cli::Command::Ladder(args) => commands::ladder::run(&args),
        cli::Command::Datagen(args) => commands::datagen::run(&args),
        cli::Command::Calibrate(args) => commands::calibrate::run(&args),
        cli::Command::Uci => commands::uci::run(),
        cli::Command::Params => commands::params::run(),
        cli::Command::Notation(args) => commands::notation::run(&args),
        cli::Command::Tune(command) => commands::tune::run(&command),
    }
}

//! The top of the command line (clap): [`Cli`] and its [`Command`]s. Each command's flags live
//! beside it (`commands/<command>`); the flag groups several commands share are in
//! [`crate::common::flags`]. Parsing only; each command resolves and validates its arguments
//! in its own module.

use crate::commands::{
    bench::BenchArgs, calibrate::CalibrateArgs, datagen::DatagenArgs,
    engine_check::EngineCheckArgs, judge::JudgeArgs, ladder::LadderArgs, matches::MatchArgs,
    merge::MergeArgs, notation::NotationArgs, params::ParamsArgs, perft::PerftArgs,
    serve::PlayArgs, serve::ServeArgs, sprt::SprtArgs, stats::StatsArgs, tune::TuneCommand,
    uci::UciArgs,
};
use clap::{Parser, Subcommand};

/// Chuhan: a fast, rules-exact xiangqi engine and the harness that tests and tunes it.
#[derive(Debug, Parser)]
#[command(name = "chuhan", version, about, long_about = None)]
pub struct Cli {
    /// The command to run.
    #[command(subcommand)]
    pub command: Command,
}

/// Every subcommand.
#[derive(Debug, Subcommand)]
pub enum Command {
    /// Count legal move paths (perft) for one position or check a whole suite.
    Perft(PerftArgs),
    /// Write moves in a notation (UCI, ICCS, WXF, Chinese), one line per move.
    Notation(NotationArgs),
    /// Elo, nElo, LOS and (with bounds) the SPRT log-likelihood ratio of given counts.
    Stats(StatsArgs),
    /// Play game pairs between two or more players (a round robin) and report the scores.
    Match(MatchArgs),
    /// Play a base player against a test player until an SPRT accepts a hypothesis.
    Sprt(SprtArgs),
    /// Search fixed positions to a fixed depth: prints the node-count signature and speed.
    Bench(BenchArgs),
    /// Play moves from a FEN under the game rules and print the verdict.
    Judge(JudgeArgs),
    /// Play a ladder of players (default: the embedded levels ladder) and fit joint ratings.
    Ladder(LadderArgs),
    /// Place difficulty levels at target Elo steps by fitting a curve over one knob's grid.
    Calibrate(CalibrateArgs),
    /// Merge the shard folders of a `--shard i/n` run (match, ladder, sprt) into one folder.
    Merge(MergeArgs),
    /// Joint ratings of PGN files (ours, cutechess-cli's, fastchess's), as Ordo fits them.
    Rate(crate::commands::rate::RateArgs),
    /// Self-play positions labelled with game results, for Texel tuning.
    Datagen(DatagenArgs),
    /// Speak UCI on stdin/stdout (for GUIs and other harnesses; xiangqi moves in a0-i9).
    Uci(UciArgs),
    /// List the tunable parameters: name, default, min, max, step, group.
    Params(ParamsArgs),
    /// Tune parameters (`chuhan tune texel`, `chuhan tune spsa`).
    #[command(subcommand)]
    Tune(TuneCommand),
    /// Check a UCI engine's protocol (uciok, options, isready in search, stop, time, perft).
    EngineCheck(EngineCheckArgs),
    /// Serve run folders (reports updating live, every game) and play in a browser, on
    /// 127.0.0.1 only.
    Serve(ServeArgs),
    /// Play a player in the browser: starts the web server on 127.0.0.1 and prints the page.
    Play(PlayArgs),
}

//! Command-line definitions (clap). Parsing only; each command resolves and validates its
//! arguments in its own module.

use clap::{Args, Parser, Subcommand};
use std::path::PathBuf;

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
    /// Search fixed positions to a fixed depth: prints the node-count signature and speed.
    Bench(BenchArgs),
    /// Play moves from a FEN under the game rules and print the verdict.
    Judge(JudgeArgs),
    /// Speak UCI on stdin/stdout (for GUIs and other harnesses; moves in a0-i9).
    Uci,
    /// List the tunable parameters: name, default, min, max, step, group.
    Params,
}

/// `chuhan judge`.
#[derive(Debug, Args)]
pub struct JudgeArgs {
    /// The starting position, as FEN (ranks 0-9, `w` = Red to move).
    #[arg(long)]
    pub fen: String,
    /// Moves in UCI form with ranks 0-9, separated by spaces: "h2e2 h9g7".
    #[arg(long, default_value = "")]
    pub moves: String,
    /// Repetition rules: `asian` (perpetual check and perpetual chase lose) or `check-only`.
    #[arg(long, default_value_t = chuhan_engine::RuleSet::Asian)]
    pub rules: chuhan_engine::RuleSet,
    /// Plies without a capture after which the game is drawn (0: no limit).
    #[arg(long, default_value_t = chuhan_engine::GameConfig::DEFAULT_MOVE_LIMIT)]
    pub move_limit: u16,
    /// Print one JSON object: {"result", "reason", "ply"}.
    #[arg(long)]
    pub json: bool,
}

/// `chuhan bench`.
#[derive(Debug, Args)]
pub struct BenchArgs {
    /// Search depth (the signature is defined at the default).
    #[arg(long, default_value_t = chuhan_engine::bench::BENCH_DEPTH)]
    pub depth: u32,
}

/// `chuhan perft`.
#[derive(Debug, Args)]
#[command(group(clap::ArgGroup::new("input").required(true).args(["fen", "suite"])))]
pub struct PerftArgs {
    /// The position, as FEN (ranks 0-9, `w` = Red to move). Use with --depth.
    #[arg(long, requires = "depth")]
    pub fen: Option<String>,
    /// Depth for --fen.
    #[arg(long)]
    pub depth: Option<u32>,
    /// With --fen: print `MOVE: COUNT` per legal root move, then `total: COUNT`.
    #[arg(long, requires = "fen")]
    pub divide: bool,
    /// A suite file of lines `FEN ;D1 n ;D2 n ...` (`#` comments allowed).
    #[arg(long, conflicts_with_all = ["fen", "depth", "divide"])]
    pub suite: Option<PathBuf>,
    /// With --suite: skip listed depths above this.
    #[arg(long, requires = "suite")]
    pub max_depth: Option<u32>,
    /// Worker threads (default: all cores). 1 is strictly single-threaded.
    #[arg(long)]
    pub threads: Option<usize>,
}

/// `chuhan notation`.
#[derive(Debug, Args)]
pub struct NotationArgs {
    /// The start position, as FEN (default: the standard start).
    #[arg(long)]
    pub fen: Option<String>,
    /// The moves, space-separated, in UCI (`h2e2`) or any other notation (ICCS, WXF, Chinese).
    #[arg(long, allow_hyphen_values = true)]
    pub moves: String,
    /// The notation to write: iccs, uci, wxf or chinese.
    #[arg(long, default_value = "iccs")]
    pub format: chuhan_engine::Notation,
}

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
    /// Search fixed positions to a fixed depth: prints the node-count signature and speed.
    Bench(BenchArgs),
    /// Speak UCI on stdin/stdout (for GUIs and other harnesses; moves in a0-i9).
    Uci,
    /// List the tunable parameters: name, default, min, max, step, group.
    Params,
    /// Tune parameters (`chuhan tune texel`).
    #[command(subcommand)]
    Tune(TuneCommand),
}

/// `chuhan tune` methods.
#[derive(Debug, Subcommand)]
pub enum TuneCommand {
    /// Texel tuning: fit the linear evaluation weights to game results by gradient descent.
    Texel(TexelArgs),
}

/// `chuhan tune texel`.
#[derive(Debug, Args)]
pub struct TexelArgs {
    /// Labelled positions, one `FEN;result;ply;eval` a line (`chuhan datagen` output).
    #[arg(long)]
    pub data: PathBuf,
    /// Parameters to tune: group names (material, pst, eval) or exact parameter names,
    /// comma-separated. Only linear parameters can be tuned.
    #[arg(long, value_delimiter = ',', default_value = "material,pst,eval")]
    pub params: Vec<String>,
    /// Full-batch epochs.
    #[arg(long, default_value_t = 300)]
    pub epochs: usize,
    /// Learning rate in centipawns (default: 1 for Adam, 5 for AdaGrad).
    #[arg(long)]
    pub lr: Option<f64>,
    /// Optimizer.
    #[arg(long, value_enum, default_value_t = crate::tune::texel::Optimizer::Adam)]
    pub optimizer: crate::tune::texel::Optimizer,
    /// Seed for the train/validation split.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Fraction of games (or positions, without `#game` markers) held out for validation.
    #[arg(long, default_value_t = 0.1)]
    pub validation: f64,
    /// Scaling constant K (default: fitted on the untuned evaluation).
    #[arg(long)]
    pub k: Option<f64>,
    /// Worker threads (default: all cores). Results do not depend on it.
    #[arg(long)]
    pub threads: Option<usize>,
    /// Output folder (default: results/<date>-texel). Must be empty unless --force.
    #[arg(long)]
    pub out: Option<PathBuf>,
    /// Write into a non-empty --out folder, replacing its files.
    #[arg(long)]
    pub force: bool,
    /// Start from this engine config's parameters instead of the defaults.
    #[arg(long)]
    pub base: Option<PathBuf>,
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

//! `chuhan engine-check FILE`: a short protocol check of a UCI engine; one line per finding
//! (`ok`, `PROBLEM`, `skip`), then the number of problems. Exit 1 when there is any. The
//! engine plays `--game` (xiangqi by default, or chess), whose rules judge its answers.

use crate::common::external;
use crate::common::flags::GameArg;
use crate::{EXIT_FAIL, EXIT_OK};
use chuhan_arena::engines::check::{run as check, Settings, Status};
use clap::Args;
use std::path::PathBuf;
use std::time::Duration;

/// `chuhan engine-check`.
#[derive(Debug, Args)]
pub struct EngineCheckArgs {
    /// The engine file (a .toml file with a `[uci]` table).
    pub file: PathBuf,
    /// The `go movetime` (ms) of the time check.
    #[arg(long, default_value_t = 300)]
    pub movetime: u64,
    /// How late (ms) past the move time a `bestmove` may come.
    #[arg(long, default_value_t = 150)]
    pub time_margin: u64,
    /// The perft depth compared with ours when the engine offers `go perft`.
    #[arg(long, default_value_t = 3)]
    pub perft_depth: u32,
    /// The game the engine plays: xiangqi (default) or chess. The positions searched and
    /// counted, the legality of its bestmoves and its perft are judged by that game's rules; an
    /// engine file of the other game (its `game = ...`) is an error naming it.
    #[arg(long, value_enum, default_value_t = GameArg::Xiangqi)]
    pub game: GameArg,
}

/// Runs the checks; exit 0 without problems, 1 with, 2 for an engine that cannot be used.
pub fn run(args: &EngineCheckArgs) -> anyhow::Result<u8> {
    if args.movetime == 0 || args.perft_depth == 0 {
        anyhow::bail!("--movetime and --perft-depth must be at least 1");
    }
    let engine = external::load_for(&args.file, "engine file", args.game)?;
    let settings = Settings {
        movetime: Duration::from_millis(args.movetime),
        time_margin: Duration::from_millis(args.time_margin),
        perft_depth: args.perft_depth,
    };
    let findings = check(&engine, &settings, &mut |f| {
        let tag = match f.status {
            Status::Ok => "ok",
            Status::Problem => "PROBLEM",
            Status::Skipped => "skip",
        };
        outln!("{tag:<8}{}: {}", f.check, f.detail);
    })?;
    let problems = findings
        .iter()
        .filter(|f| f.status == Status::Problem)
        .count();
    outln!("problems: {problems}  engine: {}", engine.name);
    Ok(if problems == 0 { EXIT_OK } else { EXIT_FAIL })
}

//! `chuhan engine-check FILE`: a short protocol check of a UCI engine; one line per finding
//! (`ok`, `PROBLEM`, `skip`), then the number of problems. Exit 1 when there is any. The
//! engine plays `--game` (xiangqi by default, or chess), whose rules judge its answers.

use crate::args::EngineCheckArgs;
use crate::{EXIT_FAIL, EXIT_OK};
use chuhan_arena::engines::check::{run as check, Settings, Status};
use std::time::Duration;

/// Runs the checks; exit 0 without problems, 1 with, 2 for an engine that cannot be used.
pub fn run(args: &EngineCheckArgs) -> anyhow::Result<u8> {
    if args.movetime == 0 || args.perft_depth == 0 {
        anyhow::bail!("--movetime and --perft-depth must be at least 1");
    }
    let engine = super::external::load_for(&args.file, "engine file", args.game)?;
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

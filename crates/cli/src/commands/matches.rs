//! `chuhan match`: game pairs between two or more players (a round robin), scores and Elo.

use crate::common::flags::RunArgs;
use crate::common::report::{
    expect_kind, print_played, write_and_print_summary, write_stat_blocks,
};
use crate::common::setup::{check_resume_chess960, config_from_args};
use crate::EXIT_OK;
use anyhow::bail;
use chuhan_arena::play::results::{spec_label, ResultsDir};
use chuhan_arena::play::results::{RunConfig, RunKind};
use chuhan_arena::play::schedule::{round_robin, Pairing};
use chuhan_arena::play::setup::{choose_config, execute, plan_from_config, PreparedRun};
use chuhan_arena::report::{describe_elo, summary_rows, tally};
use clap::Args;

/// `chuhan match`.
#[derive(Debug, Args)]
pub struct MatchArgs {
    /// A player: `random`, `greedy` (give two or more; more make a round robin).
    #[arg(long = "player")]
    pub players: Vec<String>,
    /// Game pairs per pairing.
    #[arg(long)]
    pub pairs: Option<u64>,
    /// Shared run options.
    #[command(flatten)]
    pub run: RunArgs,
}

/// The pairings of a match configuration.
pub fn pairings(config: &RunConfig) -> Vec<Pairing> {
    round_robin(config.players.len(), config.pairs)
}

/// Runs the command.
pub fn run(args: &MatchArgs) -> anyhow::Result<u8> {
    let from_args = if args.players.is_empty() && args.run.dir.resume.is_some() {
        None
    } else {
        if args.players.len() < 2 {
            bail!("give --player at least twice (or only --resume DIR)");
        }
        let pairs = match args.pairs {
            Some(p) => p,
            None => bail!("give --pairs N"),
        };
        Some(config_from_args(
            RunKind::Match,
            &args.players,
            pairs,
            &args.run,
            None,
        ))
    };
    if let (Some(dir), Some(game)) = (&args.run.dir.resume, args.run.game.kind()) {
        ResultsDir::check_game(dir, game)?;
    }
    check_resume_chess960(args.run.dir.resume.as_deref(), &args.run.game)?;
    let labels: Vec<String> = args.players.iter().map(|p| spec_label(p)).collect();
    let default_name = format!("match-{}", labels.join("-"));
    // Held until the run ends: one writer per results folder.
    let (config, destination, _lock) = choose_config(
        from_args,
        args.run.dir.resume.as_deref(),
        args.run.dir.out.as_deref(),
        &default_name,
    )?;
    expect_kind(&config, RunKind::Match)?;
    crate::signals::resume_with(&[
        "chuhan",
        "match",
        "--resume",
        &destination.path().to_string_lossy(),
    ]);
    let plan = plan_from_config(&config, pairings(&config), args.run.session.concurrency)?;
    let prepared = PreparedRun::new(config, plan, destination);
    let labels = prepared.pairing_labels();
    let finished = execute(
        &prepared,
        None,
        labels.clone(),
        Box::new(describe_elo),
        args.run.session.audience(),
    )?;
    let tallies = tally(&finished.records, labels.len(), None);
    let (header, rows) = summary_rows(&labels, &tallies);
    let blocks = write_stat_blocks(&finished, &labels, &tallies)?;
    write_and_print_summary(&finished, &header, &rows)?;
    out!("{blocks}");
    print_played(&prepared, &finished);
    Ok(EXIT_OK)
}

//! `chuhan match`: game pairs between two or more players (a round robin), scores and Elo.

use super::setup::config_from_args;
use crate::args::MatchArgs;
use crate::EXIT_OK;
use anyhow::{bail, Context};
use chuhan_arena::play::results::{spec_label, ResultsDir};
use chuhan_arena::play::results::{RunConfig, RunKind};
use chuhan_arena::play::schedule::{round_robin, Pairing};
use chuhan_arena::play::setup::{
    choose_config, execute, plan_from_config, termination_rows, Finished, PreparedRun,
};
use chuhan_arena::report::{describe_elo, statblock, summary_rows, table, tally, Tally};

/// The pairings of a match configuration.
pub fn pairings(config: &RunConfig) -> Vec<Pairing> {
    round_robin(config.players.len(), config.pairs)
}

/// Runs the command.
pub fn run(args: &MatchArgs) -> anyhow::Result<u8> {
    let from_args = if args.players.is_empty() && args.run.resume.is_some() {
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
    if let (Some(dir), Some(game)) = (&args.run.resume, args.run.game.kind()) {
        ResultsDir::check_game(dir, game)?;
    }
    crate::commands::setup::check_resume_chess960(args.run.resume.as_deref(), &args.run.game)?;
    let labels: Vec<String> = args.players.iter().map(|p| spec_label(p)).collect();
    let default_name = format!("match-{}", labels.join("-"));
    // Held until the run ends: one writer per results folder.
    let (config, destination, _lock) = choose_config(
        from_args,
        args.run.resume.as_deref(),
        args.run.out.as_deref(),
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

/// The stat block of each pairing (to paste into a commit message), from the run's manifest,
/// kept in the run folder for report.html (written before it); returns the text to print.
pub fn write_stat_blocks(
    finished: &Finished,
    labels: &[String],
    tallies: &[Tally],
) -> anyhow::Result<String> {
    let dir = finished.dir.path();
    let manifest = ResultsDir::read_manifest(dir)?;
    statblock::write_stat_blocks(dir, &manifest, labels, tallies)
        .with_context(|| format!("cannot write {}", statblock::stat_block_path(dir).display()))
}

/// The folder being resumed must hold a run of this command.
pub fn expect_kind(config: &RunConfig, kind: RunKind) -> anyhow::Result<()> {
    if config.command != kind {
        bail!(
            "that folder holds a '{}' run; resume it with chuhan {}",
            config.command,
            config.command
        );
    }
    Ok(())
}

/// Writes summary.csv and prints it, then the termination table (match and sprt).
pub fn write_and_print_summary(
    finished: &Finished,
    header: &[&str],
    rows: &[Vec<String>],
) -> anyhow::Result<()> {
    finished.dir.write_summary(header, rows)?;
    chuhan_arena::report::html::write_report(finished.dir.path())?;
    out!("{}", table(header, rows));
    outln!();
    out!(
        "{}",
        table(
            &["termination", "games"],
            &termination_rows(&finished.records)
        )
    );
    outln!();
    Ok(())
}

/// The last line of a match or sprt: games, time, speed, workers, folder.
pub fn print_played(prepared: &PreparedRun, finished: &Finished) {
    outln!(
        "played {} games in {:.1} s ({:.2} games/s) on {} workers; results in {}",
        finished.played,
        finished.seconds,
        finished.played as f64 / finished.seconds.max(1e-9),
        prepared.plan.concurrency,
        finished.dir.path().display()
    );
}

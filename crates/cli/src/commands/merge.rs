//! `chuhan merge`: the shard folders of a `--shard i/n` run (match, ladder, sprt) into the
//! folder a single machine would have written, or (`--check`) where the run stands.
//!
//! The library ([`chuhan_arena::jobs::merge`]) reads and checks the shards and writes
//! manifest.toml and games.csv; every other output comes from the merged games through the
//! functions the single-machine command uses (summary.csv and the tables for match and sprt;
//! ratings, gaps, pairings and the plot for a ladder), so a merged folder cannot drift from a
//! single-machine one.

use super::{ladder, matches, sprt};
use crate::args::MergeArgs;
use crate::{EXIT_FAIL, EXIT_OK};
use chuhan_arena::jobs::ladder::{write_outputs_of, LadderConfig, LADDER_COPY};
use chuhan_arena::jobs::merge::{write_folder, ShardSet};
use chuhan_arena::play::results::{RunConfig, RunKind};
use chuhan_arena::play::setup::Finished;
use chuhan_arena::report::{summary_rows, tally};

/// Runs the command.
pub fn run(args: &MergeArgs) -> anyhow::Result<u8> {
    let started = std::time::Instant::now();
    let mut set = ShardSet::read(&args.shards)?;
    for w in &set.warnings {
        eprintln!("chuhan: warning: {w}");
    }
    if args.check {
        let status = set.status();
        outln!("{status}");
        return Ok(if status.done { EXIT_OK } else { EXIT_FAIL });
    }
    let out = args
        .out
        .as_deref()
        .expect("clap requires --out without --check");
    // One writer per folder: a second merge (or any run) into the same --out is refused.
    let _lock = chuhan_arena::play::setup::lock_new(out)?;
    crate::signals::start_again();
    let merged = set.merged()?;
    // Once writing starts it runs to the end (seconds even for a million games), so the folder
    // is never left half merged.
    chuhan_arena::interrupt::check()?;
    let dir = write_folder(&set, &merged, out)?;
    let games = merged.records.len();
    let finished = Finished {
        records: merged.records,
        stopped_at: merged.stopped_at,
        played: 0,
        seconds: 0.0,
        dir,
    };
    let labels = labels(&set.config);
    match set.config.command {
        RunKind::Match => {
            let tallies = tally(&finished.records, labels.len(), None);
            let (header, rows) = summary_rows(&labels, &tallies);
            matches::write_and_print_summary(&finished, &header, &rows)?;
        }
        RunKind::Sprt => sprt::report(&set.config, &labels, &finished)?,
        RunKind::Ladder => {
            let name = set
                .ladder_copy
                .as_deref()
                .and_then(|t| LadderConfig::parse(t, LADDER_COPY).ok())
                .map_or_else(|| "ladder".to_string(), |c| c.name);
            let analysis = write_outputs_of(&set.config, &finished, &format!("Ladder '{name}'"))?;
            ladder::print_ratings(&analysis);
        }
        // The library refuses calibrate stages when it reads the shards.
        RunKind::Calibrate => anyhow::bail!("calibrate stages cannot be merged"),
    }
    let given = set.shards.iter().flatten().count();
    outln!(
        "merged {games} games of {given} shards (of {}) in {:.2} s; results in {}",
        set.count,
        started.elapsed().as_secs_f64(),
        finished.dir.path().display()
    );
    Ok(EXIT_OK)
}

/// `first vs second` for each pairing of the run, as the single-machine command labels them.
fn labels(config: &RunConfig) -> Vec<String> {
    chuhan_arena::jobs::merge::pairings_of(config)
        .iter()
        .map(|p| {
            format!(
                "{} vs {}",
                config.players[p.first].name, config.players[p.second].name
            )
        })
        .collect()
}

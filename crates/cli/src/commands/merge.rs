//! `chuhan merge`: the shard folders of a `--shard i/n` run (match, ladder, sprt) into the
//! folder a single machine would have written, or (`--check`) where the run stands.
//!
//! The library ([`chuhan_arena::jobs::merge`]) reads and checks the shards and writes
//! manifest.toml and games.csv; every other output comes from the merged games through the
//! functions the single-machine command uses (summary.csv and the tables for match and sprt;
//! ratings, gaps, pairings and the plot for a ladder), so a merged folder cannot drift from a
//! single-machine one.

use crate::common::report::{print_event, print_ratings, sprt_report, write_and_print_summary};
use crate::{EXIT_FAIL, EXIT_OK};
use chuhan_arena::jobs::calibrate::shard::{
    write_merged, Progress, Stage, StageShards, SETTINGS_FILE, STAGE_FILE,
};
use chuhan_arena::jobs::calibrate::CalibrationEvent;
use chuhan_arena::jobs::ladder::{write_outputs_of, LadderConfig, LADDER_COPY};
use chuhan_arena::jobs::merge::{write_folder, ShardSet};
use chuhan_arena::play::results::{RunConfig, RunKind};
use chuhan_arena::play::setup::Finished;
use chuhan_arena::report::{summary_rows, tally};
use clap::Args;
use std::path::PathBuf;

/// `chuhan merge`.
#[derive(Debug, Args)]
pub struct MergeArgs {
    /// The merged folder (absent or empty).
    #[arg(long, required_unless_present = "check", conflicts_with = "check")]
    pub out: Option<PathBuf>,
    /// Write nothing: print where the run stands and exit 0 when it can be merged (every
    /// shard complete, or the sprt decided), 1 when not yet, 2 for unusable folders.
    #[arg(long)]
    pub check: bool,
    /// The shard folders, any order (e.g. RUN_DIR/shard-*).
    #[arg(required = true, value_name = "SHARD_DIR")]
    pub shards: Vec<PathBuf>,
}

/// Runs the command.
pub fn run(args: &MergeArgs) -> anyhow::Result<u8> {
    let started = std::time::Instant::now();
    if let [dir] = &args.shards[..] {
        if args.check && is_calibration_folder(dir) {
            // A driver asking whether a calibration (merged stage by stage) is finished.
            let progress = Progress::read(dir)?;
            outln!("{progress}");
            return Ok(if progress.next.is_none() {
                EXIT_OK
            } else {
                EXIT_FAIL
            });
        }
    }
    let mut set = ShardSet::read(&args.shards)?;
    for w in &set.warnings {
        eprintln!("chuhan: warning: {w}");
    }
    if args.check {
        if let Some(c) = &set.calibration {
            outln!("stage: {}", c.stage);
        }
        let status = set.status();
        outln!("{status}");
        return Ok(if status.done { EXIT_OK } else { EXIT_FAIL });
    }
    let out = args
        .out
        .as_deref()
        .expect("clap requires --out without --check");
    if let Some(stage) = set.calibration.clone() {
        return merge_stage(&mut set, &stage, out, started);
    }
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
            write_and_print_summary(&finished, &header, &rows)?;
        }
        RunKind::Sprt => sprt_report(&set.config, &labels, &finished)?,
        RunKind::Ladder => {
            let name = set
                .ladder_copy
                .as_deref()
                .and_then(|t| LadderConfig::parse(t, LADDER_COPY).ok())
                .map_or_else(|| "ladder".to_string(), |c| c.name);
            let analysis = write_outputs_of(&set.config, &finished, &format!("Ladder '{name}'"))?;
            print_ratings(&analysis);
        }
        // Calibration stages are merged above.
        RunKind::Calibrate => anyhow::bail!("calibrate runs merge stage by stage"),
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

/// A calibration folder (not a shard): its settings and no stage file or run manifest.
fn is_calibration_folder(dir: &std::path::Path) -> bool {
    dir.join(SETTINGS_FILE).is_file()
        && !dir.join(STAGE_FILE).exists()
        && !dir.join("manifest.toml").exists()
}

/// Merges one calibration stage's shards into the calibration folder `out` (new for the grid;
/// the grid's merged folder for the validation), printing the stage's tables.
fn merge_stage(
    set: &mut ShardSet,
    stage: &StageShards,
    out: &std::path::Path,
    started: std::time::Instant,
) -> anyhow::Result<u8> {
    // One writer per folder, as for a run.
    let _lock = match stage.stage {
        Stage::Grid => chuhan_arena::play::setup::lock_new(out)?,
        Stage::Validate => {
            if !out.is_dir() {
                anyhow::bail!(
                    "--out {}: no such folder; the validation's shards merge into the \
                     calibration folder the grid's merge wrote",
                    out.display()
                );
            }
            chuhan_arena::play::setup::lock_existing(out)?
        }
    };
    let settings = stage.settings.clone();
    let mut on_event = |e: CalibrationEvent| print_event(&settings, e);
    let (_, games) = write_merged(set, out, &mut on_event)?;
    let given = set.shards.iter().flatten().count();
    outln!(
        "merged {games} games of the {} stage from {given} shards in {:.2} s; results in {}",
        stage.stage,
        started.elapsed().as_secs_f64(),
        out.display()
    );
    if stage.stage == Stage::Grid && settings.names.len() >= 2 {
        outln!(
            "next: the validation stage, each shard with chuhan calibrate --stage validate \
             --from {} --shard i/n --out SHARD_DIR",
            out.display()
        );
    }
    Ok(EXIT_OK)
}

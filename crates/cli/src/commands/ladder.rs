//! `chuhan ladder`: play a ladder (embedded default or a file), fit joint ratings with
//! bootstrap intervals, print the table, write ratings.csv, pairings.csv and ladder.svg.

use super::matches::{describe, pairing_labels};
use crate::args::LadderArgs;
use crate::EXIT_OK;
use anyhow::{bail, Context};
use chuhan_arena::jobs::ladder::{
    analyse, arena_pairings, describe_error, rating_games, Analysis, LadderConfig, DEFAULT_LADDER,
};
use chuhan_arena::play::results::{default_out_dir, ResultsDir, RunConfig};
use chuhan_arena::play::setup::{
    execute, plan_from_config, seed_of, Destination, Finished, Prepared,
};
use chuhan_arena::report::table;
use std::path::Path;
use std::sync::atomic::AtomicBool;
use std::sync::Arc;

/// File in the run folder that keeps the ladder's analysis settings.
const LADDER_COPY: &str = "ladder.toml";

/// Loads the ladder config: a file, or the embedded default.
pub fn load_config(path: Option<&Path>) -> anyhow::Result<(LadderConfig, String)> {
    match path {
        Some(p) => {
            let text = std::fs::read_to_string(p)
                .with_context(|| format!("cannot read ladder config {}", p.display()))?;
            Ok((LadderConfig::parse(&text, &p.display().to_string())?, text))
        }
        None => Ok((
            LadderConfig::parse(DEFAULT_LADDER, "configs/ladder.toml (built in)")?,
            DEFAULT_LADDER.to_string(),
        )),
    }
}

/// Plays (or resumes) a run with explicit pairings and returns what the arena recorded.
pub fn play(
    config: RunConfig,
    destination: Destination,
    concurrency: Option<usize>,
    quiet: bool,
) -> anyhow::Result<(Prepared, Finished)> {
    let pairings = arena_pairings(&config.pairings, config.pairs);
    let plan = plan_from_config(&config, pairings, concurrency)?;
    let prepared = Prepared::new(config, plan, destination);
    let labels = pairing_labels(&prepared);
    let finished = execute(
        &prepared,
        None,
        labels,
        Box::new(describe),
        quiet,
        Arc::new(AtomicBool::new(false)),
    )?;
    Ok((prepared, finished))
}

/// Fits and writes the ladder's outputs; prints the tables.
pub fn report(
    prepared: &Prepared,
    finished: &Finished,
    replicates: usize,
    title: &str,
) -> anyhow::Result<Analysis> {
    let names: Vec<String> = prepared
        .config
        .players
        .iter()
        .map(|p| p.name.clone())
        .collect();
    let games = rating_games(&finished.records, &names, None);
    let seed = seed_of(&prepared.config)?;
    let analysis = analyse(&games, &names, seed, replicates)
        .map_err(|e| anyhow::anyhow!("cannot fit ratings: {}", describe_error(&e, &names)))?;
    let dir = finished.dir.path();
    let header = ["rank", "name", "elo", "-", "+", "games", "score", "draws"];
    let rows = analysis.rating_rows();
    finished.dir.write_summary(&header, &rows)?;
    std::fs::write(dir.join("ratings.csv"), analysis.ratings_csv()?)
        .with_context(|| format!("cannot write {}", dir.join("ratings.csv").display()))?;
    std::fs::write(dir.join("pairings.csv"), analysis.pairings_csv()?)
        .with_context(|| format!("cannot write {}", dir.join("pairings.csv").display()))?;
    let points: Vec<(String, f64, f64, f64)> = analysis
        .players
        .iter()
        .map(|p| (p.name.clone(), p.elo, p.interval.lo, p.interval.hi))
        .collect();
    chuhan_arena::report::plots::ladder_svg(&dir.join("ladder.svg"), title, &points)?;
    println!("{}", table(&header, &rows));
    println!(
        "{}",
        table(
            &["neighbour gap", "elo", "95% interval"],
            &analysis.gap_rows()
        )
    );
    for note in &analysis.notes {
        println!("note: {note}");
    }
    Ok(analysis)
}

/// Runs the command.
pub fn run(args: &LadderArgs) -> anyhow::Result<u8> {
    let (config, destination, replicates, name) = match &args.resume {
        Some(dir) => {
            if args.config.is_some() || args.pairs.is_some() || args.seed.is_some() {
                bail!(
                    "--resume takes the configuration from {}; give no --config, --pairs or --seed",
                    dir.display()
                );
            }
            let manifest = ResultsDir::read_manifest(dir)?;
            if manifest.config.command != "ladder" {
                bail!(
                    "{} holds a '{}' run; resume it with chuhan {}",
                    dir.display(),
                    manifest.config.command,
                    manifest.config.command
                );
            }
            let stored = std::fs::read_to_string(dir.join(LADDER_COPY))
                .ok()
                .and_then(|t| LadderConfig::parse(&t, LADDER_COPY).ok());
            let replicates = args
                .bootstrap
                .or(stored.as_ref().map(|c| c.bootstrap))
                .unwrap_or(1000);
            let name = stored.map_or_else(|| "ladder".to_string(), |c| c.name);
            (
                manifest.config,
                Destination::Resume(dir.clone()),
                replicates,
                name,
            )
        }
        None => {
            let (mut ladder, _) = load_config(args.config.as_deref())?;
            if let Some(p) = args.pairs {
                if p == 0 {
                    bail!("--pairs must be at least 1");
                }
                ladder.pairs = p;
            }
            if let Some(s) = args.seed {
                ladder.seed = s;
            }
            if let Some(b) = args.bootstrap {
                if b < 100 {
                    bail!("--bootstrap must be at least 100");
                }
                ladder.bootstrap = b;
            }
            let dir = match &args.out {
                Some(d) => {
                    ResultsDir::check_new(d)?;
                    d.clone()
                }
                None => default_out_dir(&format!("ladder-{}", ladder.name)),
            };
            let replicates = ladder.bootstrap;
            let name = ladder.name.clone();
            let config = ladder.run_config("ladder");
            // Keep the ladder file (with overrides applied) beside the results.
            let copy = toml::to_string(&LadderCopy::from(&ladder))?;
            let destination = Destination::New(dir.clone());
            let (prepared, finished) = play(config, destination, args.concurrency, args.quiet)?;
            std::fs::write(dir.join(LADDER_COPY), copy)
                .with_context(|| format!("cannot write {}", dir.join(LADDER_COPY).display()))?;
            return finish(&prepared, &finished, replicates, &name);
        }
    };
    let (prepared, finished) = play(config, destination, args.concurrency, args.quiet)?;
    finish(&prepared, &finished, replicates, &name)
}

fn finish(
    prepared: &Prepared,
    finished: &Finished,
    replicates: usize,
    name: &str,
) -> anyhow::Result<u8> {
    report(prepared, finished, replicates, &format!("Ladder '{name}'"))?;
    println!(
        "played {} games in {:.1} s on {} workers; results in {}",
        finished.played,
        finished.seconds,
        prepared.plan.concurrency,
        finished.dir.path().display()
    );
    Ok(EXIT_OK)
}

/// The ladder file as written back into the run folder.
#[derive(serde::Serialize)]
struct LadderCopy {
    name: String,
    seed: u64,
    pairs: u64,
    neighbours: usize,
    anchors: Vec<String>,
    max_nodes: u64,
    opening_plies: u32,
    rules: String,
    move_limit: u16,
    bootstrap: usize,
    players: Vec<PlayerCopy>,
}

#[derive(serde::Serialize)]
struct PlayerCopy {
    name: String,
    spec: String,
}

impl From<&LadderConfig> for LadderCopy {
    fn from(c: &LadderConfig) -> Self {
        LadderCopy {
            name: c.name.clone(),
            seed: c.seed,
            pairs: c.pairs,
            neighbours: c.neighbours,
            anchors: c.anchors.clone(),
            max_nodes: c.max_nodes,
            opening_plies: c.opening_plies,
            rules: c.rules.clone(),
            move_limit: c.move_limit,
            bootstrap: c.bootstrap,
            players: c
                .players
                .iter()
                .map(|p| PlayerCopy {
                    name: p.name.clone(),
                    spec: p.spec.clone(),
                })
                .collect(),
        }
    }
}

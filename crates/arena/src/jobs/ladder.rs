//! Ladders: players in order, each meeting its next neighbours (plus fixed anchors) in game
//! pairs; ratings fitted jointly by maximum likelihood with the first player anchored at 0;
//! honest 95% intervals (`chuhan_stats::ratings::honest_intervals`: profile likelihood where the
//! games bound both sides, exact one-sided bounds after perfect or zero scores) for every rating
//! and every neighbour gap, written to ratings.csv and gaps.csv.
//!
//! One module each: `config` the ladder file, `analysis` the fit and its tables, `error`
//! the error type; [`adaptive`] plays to a precision, [`steps`] proposes in-between steps;
//! this module plays the ladder and writes its outputs.

use crate::play::results::{ResultsDir, RunConfig, RunKind};
use crate::play::runner::PlayedGame;
use crate::play::schedule::Pairing;
use crate::play::setup::{execute, plan_from_config, Destination, Finished, PreparedRun};
use crate::report::{describe_elo, Audience};
use config::LadderCopy;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

pub mod adaptive;
mod analysis;
mod config;
mod error;
pub mod steps;

pub use analysis::{
    analyse, analyse_with, describe_error, gaps_csv, rating_games, signed, write_gaps_csv,
    Analysis, Gap, PlayerRating, GAPS_CSV_HEADER, GAP_HEADER, RATING_HEADER,
};
pub use config::{
    disconnected, load_config, load_config_for, LadderConfig, LadderPlayer, DEFAULT_LADDER,
    LADDER_COPY,
};
pub use error::LadderError;

/// Arena pairings from `[first, second]` pairs with `pairs` game pairs each.
pub fn arena_pairings(pairs: &[[usize; 2]], per_pairing: u64) -> Vec<Pairing> {
    pairs
        .iter()
        .map(|&[first, second]| Pairing {
            first,
            second,
            pairs: per_pairing,
        })
        .collect()
}

/// Writes `text` to `path`, naming the file on error.
fn write_file(path: &Path, text: String) -> Result<(), LadderError> {
    std::fs::write(path, text).map_err(|source| LadderError::Write {
        path: path.to_path_buf(),
        source,
    })
}

/// Plays (or resumes) a run with explicit pairings and returns what the arena recorded.
pub fn play(
    config: RunConfig,
    destination: Destination,
    concurrency: Option<usize>,
    audience: Audience,
) -> Result<(PreparedRun, Finished), LadderError> {
    let pairings = arena_pairings(&config.pairings, config.pairs);
    let plan = plan_from_config(&config, pairings, concurrency)?;
    let prepared = PreparedRun::new(config, plan, destination);
    let labels = prepared.pairing_labels();
    let finished = execute(&prepared, None, labels, Box::new(describe_elo), audience)?;
    Ok((prepared, finished))
}

/// A ladder ready to play: a new one (from a ladder file, overrides applied) or one to resume.
pub struct LadderPlan {
    /// The run configuration (as in the manifest).
    pub config: RunConfig,
    /// Where results go.
    pub destination: Destination,
    /// The ladder's name (for the plot title).
    pub name: String,
    /// A new ladder's file as written back into the run folder (none when resuming).
    pub copy: Option<String>,
    /// Play to a precision (the ladder's `precision` key) instead of a fixed schedule.
    pub precision: Option<adaptive::Precision>,
}

impl LadderPlan {
    /// A new ladder writing to `dir`.
    pub fn new(ladder: &LadderConfig, dir: PathBuf) -> Result<LadderPlan, LadderError> {
        Ok(LadderPlan {
            config: ladder.run_config(RunKind::Ladder),
            destination: Destination::New(dir),
            name: ladder.name.clone(),
            copy: Some(toml::to_string(&LadderCopy::from(ladder))?),
            precision: adaptive::from_config(ladder)?,
        })
    }

    /// The interrupted ladder in `dir`.
    pub fn resume(dir: &Path) -> Result<LadderPlan, LadderError> {
        let manifest = ResultsDir::read_manifest(dir)?;
        if manifest.config.command != RunKind::Ladder {
            return Err(LadderError::WrongKind {
                dir: dir.to_path_buf(),
                kind: manifest.config.command,
            });
        }
        let stored = std::fs::read_to_string(dir.join(LADDER_COPY))
            .ok()
            .and_then(|t| LadderConfig::parse(&t, LADDER_COPY).ok());
        let precision = match &stored {
            Some(c) => adaptive::from_config(c)?,
            None => None,
        };
        let name = stored.map_or_else(|| "ladder".to_string(), |c| c.name);
        Ok(LadderPlan {
            config: manifest.config,
            destination: Destination::Resume(dir.to_path_buf()),
            name,
            copy: None,
            precision,
        })
    }
}

/// What a finished ladder produced.
pub struct LadderOutcome {
    /// The run as it was played.
    pub prepared: PreparedRun,
    /// The games.
    pub finished: Finished,
    /// The fitted ratings (none for a shard: `chuhan merge` fits the merged games).
    pub analysis: Option<Analysis>,
}

/// Plays (or resumes) the ladder, then fits the ratings and writes summary.csv, ratings.csv,
/// pairings.csv, ladder.svg (not for a shard) and (for a new ladder) the ladder file copy.
pub fn run(
    plan: LadderPlan,
    concurrency: Option<usize>,
    audience: Audience,
) -> Result<LadderOutcome, LadderError> {
    let (prepared, finished) = play(plan.config, plan.destination, concurrency, audience)?;
    if let Some(copy) = &plan.copy {
        write_file(&finished.dir.path().join(LADDER_COPY), copy.clone())?;
    }
    // A shard's games are every n-th pair: too few (maybe a disconnected schedule) to fit the
    // ladder, so only the merged folder gets ratings (`chuhan merge`).
    let analysis = match prepared.config.shard {
        None => Some(write_outputs(
            &prepared,
            &finished,
            &format!("Ladder '{}'", plan.name),
        )?),
        Some(_) => None,
    };
    Ok(LadderOutcome {
        prepared,
        finished,
        analysis,
    })
}

/// Fits the joint ratings of a played run with honest intervals; the error names the players
/// concerned.
pub fn fit_ratings(prepared: &PreparedRun, finished: &Finished) -> Result<Analysis, String> {
    fit_ratings_of(&prepared.config, &finished.records)
}

/// Fits the joint ratings of the games `records` of a run of `config`.
pub fn fit_ratings_of(
    config: &RunConfig,
    records: &BTreeMap<u64, PlayedGame>,
) -> Result<Analysis, String> {
    let names: Vec<String> = config.players.iter().map(|p| p.name.clone()).collect();
    let games = rating_games(records, &names, None);
    analyse_with(&games, &names, 0, config.first_move_advantage)
        .map_err(|e| describe_error(&e, &names))
}

/// Fits the ladder's ratings and writes its outputs (summary.csv, ratings.csv, gaps.csv,
/// pairings.csv, ladder.svg).
pub fn write_outputs(
    prepared: &PreparedRun,
    finished: &Finished,
    title: &str,
) -> Result<Analysis, LadderError> {
    write_outputs_of(&prepared.config, finished, title)
}

/// [`write_outputs`] for the games of a run of `config` (a played run, or merged shards).
pub fn write_outputs_of(
    config: &RunConfig,
    finished: &Finished,
    title: &str,
) -> Result<Analysis, LadderError> {
    let mut analysis = fit_ratings_of(config, &finished.records).map_err(LadderError::Fit)?;
    let names: Vec<String> = analysis.players.iter().map(|p| p.name.clone()).collect();
    let games = rating_games(&finished.records, &names, None);
    analysis
        .notes
        .extend(steps::ladder_notes(config, &games, &names));
    let dir = finished.dir.path();
    finished
        .dir
        .write_summary(&RATING_HEADER, &analysis.rating_rows())?;
    write_file(&dir.join("ratings.csv"), analysis.ratings_csv()?)?;
    write_file(&dir.join("pairings.csv"), analysis.pairings_csv()?)?;
    write_gaps_csv(dir, &analysis.gaps)?;
    crate::report::plots::ladder_svg(&dir.join("ladder.svg"), title, &analysis.plot_points())?;
    crate::report::html::write_report(dir)?;
    Ok(analysis)
}

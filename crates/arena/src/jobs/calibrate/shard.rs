//! A calibration on many machines, one stage at a time.
//!
//! The validation stage plays the levels placed on the curve fitted to the grid's games, so it
//! cannot start before the whole grid is played. The contract is therefore stage by stage:
//!
//! 1. every machine plays shard `i/n` of the grid ([`start_shard`] with [`Stage::Grid`]) into
//!    a folder of its own, which holds `calibrate.toml`, [`STAGE_FILE`] and `grid/` (the
//!    shard's ladder run);
//! 2. `chuhan merge --out MERGED` of the grid shards writes MERGED as the single-machine
//!    calibration folder after its grid stage ([`write_merged`]): calibrate.toml, `grid/`
//!    (every game), the curve and the placed levels;
//! 3. every machine plays shard `i/n` of the validation from MERGED ([`Stage::Validate`], the
//!    levels placed by MERGED's grid, recomputed from its games);
//! 4. `chuhan merge --out MERGED` of the validation shards adds `validate/` and the checks.
//!
//! With fixed budgets (`--pairs`, `--validate-pairs`) every stage's games are a pure function
//! of the settings and the seed, so MERGED equals the single-machine calibration game for game.
//! A calibration played to a precision plans each round from every game so far: no shard can,
//! so it is refused ([`refuse_precision`]). [`Progress`] tells a driver which stage comes next.

use super::error::{invalid, other, refuse, CalibrateError, IoContext};
use super::job::{place_levels, placement, stage_analysis, CalibrationEvent, GapCheck};
pub use super::settings::{Stage, StageFile, StageShards, SETTINGS_FILE, STAGE_FILE};
use super::CalibrateSettings;
use crate::jobs::ladder::{play, Analysis};
use crate::jobs::merge::{write_folder, MergeError, ShardSet, WrappedShards};
use crate::play::results::{FolderLock, ResultsDir, RunConfig, RunKind, GAMES_HEADER};
use crate::play::runner::PlayedGame;
use crate::play::schedule::Shard;
use crate::play::setup::{lock_new, Destination, Finished};
use crate::report::Audience;
use std::collections::BTreeMap;
use std::fmt;
use std::path::{Path, PathBuf};

type Result<T, E = CalibrateError> = std::result::Result<T, E>;

/// Whether `dir` is a shard folder of a calibration stage.
pub fn is_shard(dir: &Path) -> bool {
    dir.join(STAGE_FILE).is_file()
}

/// Reads the stage.toml of the shard folder `dir`.
pub fn read_stage(dir: &Path) -> Result<StageFile> {
    let path = dir.join(STAGE_FILE);
    let text =
        std::fs::read_to_string(&path).io_context(|| format!("cannot read {}", path.display()))?;
    toml::from_str(&text).map_err(|e| invalid!("{}: {e}", path.display()))
}

/// Refuses a calibration played to a precision: its rounds are planned from every game so far,
/// which no shard has.
pub fn refuse_precision(settings: &CalibrateSettings) -> Result<()> {
    if settings.precision.is_some() {
        refuse!(
            "--shard: a calibration played to --precision plans each round from every game so \
             far (adaptive rounds), so no shard can play its share; shard one with fixed \
             budgets (--pairs, --validate-pairs) and no --precision, --grid-precision, \
             --max-games or --max-time"
        );
    }
    Ok(())
}

/// The run configuration of shard `shard` of `stage`: the grid's, or (with `from`, the merged
/// calibration folder after its grid) the validation of the levels `from`'s grid placed.
pub fn stage_config(
    settings: &CalibrateSettings,
    stage: Stage,
    from: Option<&Path>,
    shard: Shard,
) -> Result<RunConfig> {
    refuse_precision(settings)?;
    let mut config = match (stage, from) {
        (Stage::Grid, None) => settings.grid_ladder()?.run_config(RunKind::Calibrate),
        (Stage::Grid, Some(_)) => {
            refuse!("--stage grid is the first stage: give no --from (it starts from nothing)")
        }
        (Stage::Validate, None) => refuse!(
            "--stage validate needs --from MERGED: the calibration folder `chuhan merge` wrote \
             from the grid's shards"
        ),
        (Stage::Validate, Some(from)) => {
            if settings.names.len() < 2 {
                refuse!(
                    "{}: a calibration of one level has no validation stage; it is finished",
                    from.display()
                );
            }
            let (_, specs) = placed_levels(settings, from)?;
            settings
                .validate_ladder(&specs)
                .run_config(RunKind::Calibrate)
        }
    };
    config.shard = Some(shard);
    Ok(config)
}

/// The knob values and player specs of the levels placed by the grid merged in the
/// calibration folder `dir` (recomputed from its games, as the merge placed them).
fn placed_levels(settings: &CalibrateSettings, dir: &Path) -> Result<(Vec<f64>, Vec<String>)> {
    let grid = dir.join(Stage::Grid.folder());
    if is_shard(dir) {
        refuse!(
            "{} is a shard folder of one stage; give the calibration folder chuhan merge wrote \
             from the grid's shards",
            dir.display()
        );
    }
    if !grid.join("manifest.toml").is_file() {
        refuse!(
            "{}: no merged grid stage in this folder (merge the grid's shards into it first: \
             chuhan merge --out {} GRID_SHARD_DIR...)",
            dir.display(),
            dir.display()
        );
    }
    let config = settings.grid_ladder()?.run_config(RunKind::Calibrate);
    let records = read_records(&grid)?;
    let fit = stage_analysis(
        &config,
        Stage::Grid.name(),
        None,
        &records,
        None,
        (&settings.knob, &settings.grid),
    )?;
    let (_, values, specs) = placement(settings, dir, &fit)?;
    Ok((values, specs))
}

/// The games of the finished stage folder `dir` (whole rows of games.csv).
fn read_records(dir: &Path) -> Result<BTreeMap<u64, PlayedGame>> {
    let path = dir.join("games.csv");
    let text =
        std::fs::read_to_string(&path).io_context(|| format!("cannot read {}", path.display()))?;
    if text.lines().next() != Some(GAMES_HEADER) {
        refuse!("{}:1: expected the header '{GAMES_HEADER}'", path.display());
    }
    let mut reader = csv::ReaderBuilder::new().from_reader(text.as_bytes());
    let mut records = BTreeMap::new();
    for (i, row) in reader.deserialize::<PlayedGame>().enumerate() {
        let row: PlayedGame = row.map_err(|e| invalid!("{}:{}: {e}", path.display(), i + 2))?;
        records.insert(row.game, row);
    }
    Ok(records)
}

/// A new shard folder `out` (absent or empty) of one stage: checks the settings, locks the
/// folder (hold the lock for the run) and writes calibrate.toml and stage.toml. Play it with
/// [`play_shard`].
pub fn start_shard(
    settings: &CalibrateSettings,
    stage: Stage,
    from: Option<&Path>,
    shard: Shard,
    out: &Path,
) -> Result<(StageFile, FolderLock)> {
    settings.check()?;
    // Checked before the folder is made: a refused shard leaves nothing behind.
    stage_config(settings, stage, from, shard)?;
    let lock = lock_new(out).map_err(other)?;
    let file = StageFile {
        stage,
        shard,
        from: from.map(|f| std::path::absolute(f).unwrap_or_else(|_| f.to_path_buf())),
    };
    write(
        &out.join(SETTINGS_FILE),
        &toml::to_string(settings).map_err(other)?,
    )?;
    write(
        &out.join(STAGE_FILE),
        &toml::to_string(&file).map_err(other)?,
    )?;
    Ok((file, lock))
}

fn write(path: &Path, text: &str) -> Result<()> {
    std::fs::write(path, text).io_context(|| format!("cannot write {}", path.display()))
}

/// Plays (or resumes: its stage folder exists) the shard in the shard folder `dir`. A shard
/// plays and records its games only; the merge fits them.
pub fn play_shard(
    dir: &Path,
    concurrency: Option<usize>,
    audience: Audience,
) -> Result<(StageFile, Finished)> {
    let file = read_stage(dir)?;
    let settings = super::job::resume(dir)?;
    let config = stage_config(&settings, file.stage, file.from.as_deref(), file.shard)?;
    let run_dir = file.run_dir(dir);
    let destination = if run_dir.join("manifest.toml").exists() {
        Destination::Resume(run_dir)
    } else {
        Destination::New(run_dir)
    };
    let (_, finished) = play(config, destination, concurrency, audience).map_err(other)?;
    Ok((file, finished))
}

/// A calibration stage's shards: each shard folder holds the stage's run shard in `DIR/<stage>`
/// with the settings and stage.toml beside it. The calibration owns their merge
/// ([`write_merged`]); [`ShardSet::read`] only unwraps them.
impl WrappedShards for StageShards {
    /// The stage folders of the calibration shard folders `dirs` (each `DIR/<stage>`), with
    /// their settings and stage, all checked equal; `None` when `dirs` are not calibration
    /// shards. A mix is refused, naming the folder.
    fn unwrap(dirs: &[PathBuf]) -> Result<Option<(Vec<PathBuf>, StageShards)>, MergeError> {
        let Some(first) = dirs.first() else {
            return Ok(None);
        };
        if !is_shard(first) {
            if let Some(d) = dirs.iter().find(|d| is_shard(d)) {
                return Err(foreign(
                    d,
                    first,
                    "calibration stage shard against a run's shard",
                ));
            }
            return Ok(None);
        }
        let read = |dir: &Path| -> Result<(String, StageFile), MergeError> {
            let text = |name: &str| {
                let path = dir.join(name);
                std::fs::read_to_string(&path).map_err(|source| MergeError::Io { path, source })
            };
            let settings = text(SETTINGS_FILE)?;
            let stage: StageFile =
                toml::from_str(&text(STAGE_FILE)?).map_err(|e| MergeError::Row {
                    path: dir.join(STAGE_FILE),
                    line: 1,
                    reason: e.to_string(),
                })?;
            Ok((settings, stage))
        };
        let (settings_text, stage) = read(first)?;
        let mut run_dirs = vec![stage.run_dir(first)];
        for dir in &dirs[1..] {
            if !is_shard(dir) {
                return Err(foreign(
                    dir,
                    first,
                    "run's shard against a calibration stage shard",
                ));
            }
            let (t, s) = read(dir)?;
            if s.stage != stage.stage {
                return Err(foreign(
                    dir,
                    first,
                    &format!("calibration stages ({} vs {})", s.stage, stage.stage),
                ));
            }
            if t != settings_text {
                return Err(foreign(dir, first, SETTINGS_FILE));
            }
            run_dirs.push(s.run_dir(dir));
        }
        let settings: CalibrateSettings =
            toml::from_str(&settings_text).map_err(|e| MergeError::Row {
                path: first.join(SETTINGS_FILE),
                line: 1,
                reason: e.to_string(),
            })?;
        Ok(Some((
            run_dirs,
            StageShards {
                settings,
                stage: stage.stage,
            },
        )))
    }
}

fn foreign(dir: &Path, first: &Path, what: &str) -> MergeError {
    MergeError::Foreign {
        dir: dir.to_path_buf(),
        first: first.to_path_buf(),
        what: what.to_string(),
    }
}

/// What a merged stage produced.
pub enum MergedStage {
    /// The grid: its ratings, the levels' knob values and specs.
    Grid {
        /// The grid's ratings.
        analysis: Analysis,
        /// Knob value of each level.
        values: Vec<f64>,
        /// Player spec of each level.
        specs: Vec<String>,
    },
    /// The validation: the levels' ratings and every gap checked.
    Validate {
        /// The levels' ratings.
        analysis: Analysis,
        /// The gap checks.
        gaps: Vec<GapCheck>,
    },
}

/// Merges the shards of one calibration stage into the calibration folder `out`: the grid
/// into a new folder (absent or empty: calibrate.toml, grid/, the curve and the levels, as a
/// single machine writes them after its grid stage), the validation into the folder the
/// grid's merge wrote (validate/, validation.csv, gaps.csv). The caller holds `out`'s lock.
/// Errors name the shard or the folder. Returns what the stage produced and its games.
pub fn write_merged(
    set: &mut ShardSet,
    out: &Path,
    on_event: &mut dyn FnMut(CalibrationEvent),
) -> Result<(MergedStage, usize)> {
    let shards = set
        .calibration
        .clone()
        .ok_or_else(|| invalid!("the shards given are not a calibration stage's"))?;
    let settings = &shards.settings;
    let knob = &settings.knob;
    let first_dir = set
        .shards
        .iter()
        .flatten()
        .next()
        .map(|s| s.dir.clone())
        .unwrap_or_default();
    let stage_dir = out.join(shards.stage.folder());
    match shards.stage {
        Stage::Grid => {
            ResultsDir::check_new(out)?;
            let merged = set.merged()?;
            std::fs::create_dir_all(out)
                .io_context(|| format!("cannot create {}", out.display()))?;
            write(
                &out.join(SETTINGS_FILE),
                &toml::to_string(settings).map_err(other)?,
            )?;
            write_folder(set, &merged, &stage_dir)?;
            let analysis = stage_analysis(
                &set.config,
                Stage::Grid.name(),
                None,
                &merged.records,
                Some(&stage_dir),
                (knob, &settings.grid),
            )?;
            crate::report::html::write_report(&stage_dir).map_err(other)?;
            on_event(CalibrationEvent::Grid(&analysis));
            let (values, specs) = place_levels(settings, out, &analysis)?;
            on_event(CalibrationEvent::Placed {
                values: &values,
                specs: &specs,
            });
            if settings.names.len() < 2 {
                crate::jobs::ladder::write_gaps_csv(out, &analysis.gaps).map_err(other)?;
                crate::report::html::write_report(out).map_err(other)?;
            }
            let games = merged.records.len();
            Ok((
                MergedStage::Grid {
                    analysis,
                    values,
                    specs,
                },
                games,
            ))
        }
        Stage::Validate => {
            let ours = super::job::resume(out)?;
            if &ours != settings {
                return Err(
                    foreign(&first_dir, out, "calibration settings (calibrate.toml)").into(),
                );
            }
            let (values, specs) = placed_levels(settings, out)?;
            let placed: Vec<&str> = set.config.players.iter().map(|p| p.spec.as_str()).collect();
            if placed != specs.iter().map(String::as_str).collect::<Vec<_>>() {
                return Err(foreign(
                    &first_dir,
                    out,
                    &format!("the levels its grid placed ({})", specs.join(", ")),
                )
                .into());
            }
            if stage_dir.join("manifest.toml").exists() {
                refuse!(
                    "{}: the validation stage is merged already",
                    stage_dir.display()
                );
            }
            let merged = set.merged()?;
            write_folder(set, &merged, &stage_dir)?;
            let analysis = stage_analysis(
                &set.config,
                Stage::Validate.name(),
                None,
                &merged.records,
                Some(&stage_dir),
                (knob, &values),
            )?;
            crate::report::html::write_report(&stage_dir).map_err(other)?;
            let (gaps, refinement) = super::job::check_gaps(settings, out, &analysis, &values)?;
            on_event(CalibrationEvent::Validated {
                analysis: &analysis,
                gaps: &gaps,
                refinement: refinement.as_ref(),
            });
            Ok((
                MergedStage::Validate { analysis, gaps },
                merged.records.len(),
            ))
        }
    }
}

/// Where a calibration folder (merged from shards, or played on one machine) stands.
#[derive(Clone, Debug, PartialEq)]
pub struct Progress {
    /// Stages played or merged, in order.
    pub done: Vec<Stage>,
    /// The stage to play next (`None`: the calibration is finished).
    pub next: Option<Stage>,
}

impl Progress {
    /// Reads the calibration folder `dir`.
    pub fn read(dir: &Path) -> Result<Progress> {
        let settings = super::job::resume(dir)?;
        let merged = |s: Stage| dir.join(s.folder()).join("manifest.toml").is_file();
        // A stage folder is whole once the outputs that follow it are written.
        let grid = merged(Stage::Grid) && dir.join("calibration.csv").is_file();
        let validate = merged(Stage::Validate) && dir.join("validation.csv").is_file();
        let mut done = Vec::new();
        let next = if !grid {
            Some(Stage::Grid)
        } else if settings.names.len() >= 2 && !validate {
            done.push(Stage::Grid);
            Some(Stage::Validate)
        } else {
            done.push(Stage::Grid);
            if validate {
                done.push(Stage::Validate);
            }
            None
        };
        Ok(Progress { done, next })
    }
}

impl fmt::Display for Progress {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "run: calibrate")?;
        let done: Vec<&str> = self.done.iter().map(|s| s.name()).collect();
        writeln!(
            f,
            "stages done: {}",
            if done.is_empty() {
                "none".to_string()
            } else {
                done.join(", ")
            }
        )?;
        if let Some(next) = self.next {
            writeln!(f, "next stage: {next}")?;
        }
        write!(
            f,
            "done: {}",
            if self.next.is_none() { "yes" } else { "no" }
        )
    }
}

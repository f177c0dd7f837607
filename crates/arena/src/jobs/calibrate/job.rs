//! The calibration job: the grid stage, the curve and the placed levels, the validation stage.
//! Settings are kept in `calibrate.toml` so that an interrupted calibration resumes; each stage
//! is a ladder run of its own (`grid/`, `validate/`).
//!
//! With a precision (`--precision X`), each stage is a ladder played to a precision by the
//! adaptive machinery ([`crate::jobs::ladder::adaptive::run_to_precision`]): rounds of game
//! pairs go to the pairings that shrink the widest neighbour-gap interval most, until every gap
//! of the stage has a 95% half-width of at most X Elo (the grid's own target may differ:
//! `--grid-precision`) or a budget is spent. Because every round is planned from the games of
//! the earlier rounds, the same seed gives the same games at any concurrency, and a resumed
//! calibration finishes the round it was in.
//!
//! A validated gap passes only when its 95% interval lies within the target gap ± the tolerance
//! ([`gap_passes`]): a wide interval that merely contains the target is not a pass.

use super::error::{invalid, other, refuse, CalibrateError, IoContext};
use super::shard::Stage;
use super::{levels_toml, Calibration, ExternalKnob, Knob};
use crate::jobs::ladder::adaptive::{parse_duration, run_to_precision, AdaptiveStop, Precision};
use crate::jobs::ladder::{
    fit_ratings_of, play, rating_games, steps, write_gaps_csv, Analysis, Gap, LadderConfig,
    LadderPlan, LadderPlayer,
};
use crate::play::any::GameKind;
use crate::play::config::{builtin_levels, resolve_engine};
use crate::play::player::external_knobs::engine_file_with;
use crate::play::player::{resolve_player_for, PlayerSpec};
use crate::play::results::RunConfig;
use crate::play::results::{default_out_dir, today, FolderLock, RunKind};
use crate::play::runner::PlayedGame;
use crate::play::setup::Destination;
use crate::ratings::Bound;
use crate::report::Audience;
use chuhan_engine::{Notation, RuleSet};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

type Result<T, E = CalibrateError> = std::result::Result<T, E>;

/// Default tolerance of a validated gap: its 95% interval must lie within target ± this.
pub const DEFAULT_TOLERANCE: f64 = 50.0;

fn default_tolerance() -> f64 {
    DEFAULT_TOLERANCE
}

/// Settings of a calibration run (saved as calibrate.toml in the run folder).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CalibrateSettings {
    /// Knob.
    pub knob: Knob,
    /// Base player spec the knob is applied to.
    pub base: String,
    /// Grid of knob values, weakest first.
    pub grid: Vec<f64>,
    /// Target Elo of each level above the first grid setting.
    pub targets: Vec<f64>,
    /// Level names.
    pub names: Vec<String>,
    /// Game pairs per grid pairing.
    pub pairs: u64,
    /// Game pairs per validation pairing.
    pub validate_pairs: u64,
    /// Per-move node cap.
    pub max_nodes: u64,
    /// Random plies of generated openings.
    pub opening_plies: u32,
    /// Run seed.
    pub seed: u64,
    /// Bootstrap replicates: no longer used (the intervals are honest); kept so that older
    /// calibration folders resume.
    pub bootstrap: usize,
    /// Play each stage to this 95% half-width of every neighbour gap (Elo); `None`: a fixed
    /// schedule of `pairs` / `validate_pairs` per pairing.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub precision: Option<f64>,
    /// The grid stage's own precision target (default: `precision`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub grid_precision: Option<f64>,
    /// With a precision: at most this many games in each stage.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub max_games: Option<u64>,
    /// With a precision: wall-time budget of one session of the whole calibration (e.g. `1h`);
    /// the validation stage gets what the grid left.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub max_time: Option<String>,
    /// A validated gap passes when its 95% interval lies within target ± this many Elo.
    #[serde(default = "default_tolerance")]
    pub tolerance: f64,
    /// The game (not written for xiangqi, so earlier calibrate.toml files read as xiangqi).
    #[serde(default, skip_serializing_if = "GameKind::is_xiangqi")]
    pub game: GameKind,
    /// Chess960 (chess only): every stage's games start from the 960 start positions.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub chess960: bool,
    /// Move notation of every stage's games.pgn (ICCS when absent, as older folders have it).
    #[serde(
        default = "iccs",
        skip_serializing_if = "is_iccs",
        with = "crate::play::results::as_text"
    )]
    pub pgn_format: Notation,
}

fn iccs() -> Notation {
    Notation::Iccs
}

fn is_iccs(n: &Notation) -> bool {
    *n == Notation::Iccs
}

impl CalibrateSettings {
    /// Checks the settings (errors name the flag).
    pub fn check(&self) -> Result<()> {
        self.knob.check_grid(&self.grid)?;
        if self.targets.is_empty() {
            refuse!("--targets needs at least one value");
        }
        if self.targets.windows(2).any(|w| w[1] <= w[0]) {
            refuse!("--targets must increase (weakest level first)");
        }
        if self.names.len() != self.targets.len() {
            refuse!(
                "--names gives {} names for {} targets",
                self.names.len(),
                self.targets.len()
            );
        }
        if self.names.iter().any(|n| n.is_empty()) {
            refuse!("--names: a level name is empty");
        }
        if self.pairs == 0 || self.validate_pairs == 0 || self.max_nodes == 0 {
            refuse!("--pairs, --validate-pairs and --max-nodes must be at least 1");
        }
        if self.bootstrap < 100 {
            refuse!("--bootstrap must be at least 100");
        }
        if !(self.tolerance.is_finite() && self.tolerance > 0.0) {
            refuse!(
                "--tolerance must be a positive number of Elo, not {}",
                self.tolerance
            );
        }
        match self.precision {
            None if self.grid_precision.is_some()
                || self.max_games.is_some()
                || self.max_time.is_some() =>
            {
                refuse!(
                    "--grid-precision, --max-games and --max-time apply to a calibration played \
                     to a precision: add --precision"
                )
            }
            _ => {}
        }
        if let Some(p) = self.precision {
            self.stage_precision(p, 1)
                .check(self.grid_pairings())
                .map_err(other)?;
            let g = self.grid_precision.unwrap_or(p);
            self.stage_precision(g, 1)
                .check(self.grid_pairings())
                .map_err(|e| {
                    invalid!(
                        "{}",
                        e.to_string().replace("--precision", "--grid-precision")
                    )
                })?;
            if self.names.len() >= 2 {
                self.stage_precision(p, 1)
                    .check(self.names.len() - 1)
                    .map_err(other)?;
            }
        }
        if let Some((_, mods)) = self.base.split_once(':') {
            let key = self.knob.key();
            if mods
                .split(',')
                .filter_map(|kv| kv.split_once('='))
                .any(|(k, _)| k.trim() == key)
            {
                refuse!("--base already sets {key}; the calibration moves it");
            }
        }
        let base = resolve_player_for(&self.base, self.game)
            .map_err(|e| invalid!("--base '{}': {e}", self.base))?;
        match (&base, self.knob.is_external()) {
            (PlayerSpec::External(_), true)
            | (PlayerSpec::Engine(_) | PlayerSpec::ChessEngine(_), false) => {}
            (_, true) => refuse!(
                "--knob {} moves an external engine: --base must be an engine file with a \
                 [uci] table, not '{}'",
                self.knob.key(),
                self.base
            ),
            (_, false) => refuse!(
                "--knob {} moves the built-in engine: --base must be default, a level or a \
                 built-in engine file, not '{}' (an external engine takes go-nodes, go-depth, \
                 movetime or option:<name>)",
                self.knob.key(),
                self.base
            ),
        }
        for v in &self.grid {
            resolve_player_for(&self.spec(*v), self.game)
                .map_err(|e| invalid!("--base '{}': {e}", self.base))?;
        }
        Ok(())
    }

    /// The player spec of a knob setting.
    pub fn spec(&self, value: f64) -> String {
        let v = self.knob.format(value);
        if self.base.contains(':') {
            format!("{},{}={v}", self.base, self.knob.key())
        } else {
            format!("{}:{}={v}", self.base, self.knob.key())
        }
    }

    /// Pairings of the grid stage (neighbours and next-but-one).
    fn grid_pairings(&self) -> usize {
        let n = self.grid.len();
        (n - 1) + n.saturating_sub(2)
    }

    /// The wall-time budget, parsed.
    pub fn time_budget(&self) -> Result<Option<Duration>> {
        self.max_time
            .as_deref()
            .map(|t| parse_duration(t, "--max-time").map_err(other))
            .transpose()
    }

    /// The adaptive settings of a stage with target `precision` whose first round plays
    /// `first_pairs` per pairing (the time budget is set by [`run`]).
    fn stage_precision(&self, precision: f64, first_pairs: u64) -> Precision {
        Precision {
            precision,
            max_games: self.max_games,
            max_time: None,
            first_pairs,
        }
    }

    /// The engine file of an external engine level at knob value `value`: the base engine file
    /// with the base's own overrides and the knob set (see [`engine_file_with`]), headed by a
    /// comment saying how it was calibrated.
    pub fn engine_file(&self, value: f64) -> Result<String> {
        let Knob::External(knob) = &self.knob else {
            refuse!(
                "--knob {} is not a knob of an external engine",
                self.knob.key()
            );
        };
        let (path, mods) = match self.base.split_once(':') {
            Some((p, m)) => (p.trim(), m),
            None => (self.base.trim(), ""),
        };
        let mut text =
            std::fs::read_to_string(path).io_context(|| format!("--base: cannot read {path}"))?;
        let Some(resolved) =
            crate::play::player::uci::load_external(Path::new(path)).map_err(other)?
        else {
            refuse!("--base {path} is not an external engine file (no [uci] table)");
        };
        for item in mods.split(',').filter(|s| !s.trim().is_empty()) {
            let (k, v) = item
                .split_once('=')
                .ok_or_else(|| invalid!("--base: '{item}' is not key=value"))?;
            let other = ExternalKnob::parse(k)
                .ok_or_else(|| invalid!("--base: '{}' is not an external engine knob", k.trim()))?;
            text = engine_file_with(&text, &resolved, &other, v.trim())
                .map_err(super::error::other)?;
        }
        text = engine_file_with(&text, &resolved, knob, &self.knob.format(value)).map_err(other)?;
        Ok(format!(
            "# Calibrated by `chuhan calibrate` on {}: {} = {} (base {}, grid {:?}, targets {:?}).\n\
             # Recalibrate whenever the engine changes.\n{text}",
            today(),
            self.knob.key(),
            self.knob.format(value),
            self.base,
            self.grid,
            self.targets
        ))
    }

    /// What the built-in base engine has that a levels file cannot carry (a level table holds
    /// only level settings, and a level played by name runs on the default engine): another
    /// evaluation, other parameter values or other search options. `None` for a base that is
    /// the default engine with or without a level (`default`, `hard`), and for chess.
    pub fn base_beyond_levels(&self) -> Option<String> {
        if self.game != GameKind::Xiangqi || self.knob.is_external() {
            return None;
        }
        let base = resolve_engine(&self.base, &builtin_levels()).ok()?;
        let default = chuhan_engine::EngineConfig::default();
        let mut what = Vec::new();
        match (&base.network, &default.network) {
            (None, Some(_)) => what.push("the handcrafted evaluation"),
            (Some(a), Some(b)) if !std::sync::Arc::ptr_eq(a, b) => what.push("its own network"),
            _ => {}
        }
        if base.params != default.params {
            what.push("parameter values of its own");
        }
        if base.options != default.options {
            what.push("search options of its own");
        }
        (!what.is_empty()).then(|| {
            format!(
                "the base {} has {}, which a levels file cannot hold: played by name from \
                 levels.toml these levels would run on the default engine; play them by their \
                 player specs (as the validation did)",
                self.base,
                what.join(" and ")
            )
        })
    }

    /// The levels file of the placed levels (their `specs`, in target order),
    /// with a header saying how they were calibrated.
    pub fn levels_file(&self, specs: &[String]) -> Result<String> {
        let levels: Vec<chuhan_engine::Level> = specs
            .iter()
            .map(|s| {
                let level = match self.game {
                    GameKind::Xiangqi => resolve_engine(s, &builtin_levels()).map_err(other)?.level,
                    GameKind::Chess => {
                        crate::play::player::builtin::resolve_chess_engine(s)
                            .map_err(other)?
                            .level
                    }
                };
                Ok(level.unwrap_or_else(|| chuhan_engine::Level {
                    name: s.clone(),
                    ..chuhan_engine::Level::easy()
                }))
            })
            .collect::<Result<_>>()?;
        let mut header = format!(
            "Calibrated by `chuhan calibrate` on {}; engine bench signature {}.\n\
             Knob: {}; base: {}; grid: {:?}; targets (Elo above the first grid setting): {:?}.\n\
             Recalibrate whenever the bench signature changes.",
            today(),
            self.game.bench_signature(),
            self.knob.key(),
            self.base,
            self.grid,
            self.targets
        );
        if let Some(warning) = self.base_beyond_levels() {
            header.push_str(&format!("\nWarning: {warning}."));
        }
        Ok(levels_toml(
            &self.names,
            specs,
            &levels,
            &self.targets,
            &header,
        ))
    }

    /// The grid stage's ladder: every grid setting, neighbours and next-but-one.
    pub fn grid_ladder(&self) -> Result<LadderConfig> {
        let knob = &self.knob;
        let players: Vec<LadderPlayer> = self
            .grid
            .iter()
            .map(|&v| LadderPlayer {
                name: format!("{}={}", knob.key(), knob.format(v)),
                spec: self.spec(v),
            })
            .collect();
        let grid = self.ladder(Stage::Grid.name(), players, self.pairs, 2);
        grid.validate("calibration grid").map_err(other)?;
        Ok(grid)
    }

    /// The validation stage's ladder: the placed levels (their `specs`), neighbours only.
    pub fn validate_ladder(&self, specs: &[String]) -> LadderConfig {
        let players: Vec<LadderPlayer> = self
            .names
            .iter()
            .zip(specs)
            .map(|(n, s)| LadderPlayer {
                name: n.clone(),
                spec: s.clone(),
            })
            .collect();
        self.ladder(Stage::Validate.name(), players, self.validate_pairs, 1)
    }

    /// The ladder of one stage.
    pub fn ladder(
        &self,
        name: &str,
        players: Vec<LadderPlayer>,
        pairs: u64,
        neighbours: usize,
    ) -> LadderConfig {
        LadderConfig {
            game: Some(self.game),
            chess960: self.chess960,
            name: name.to_string(),
            seed: self.seed,
            pairs,
            precision: None,
            max_games: None,
            max_time: None,
            neighbours,
            anchors: Vec::new(),
            max_nodes: self.max_nodes,
            opening_plies: self.opening_plies,
            rules: RuleSet::Asian,
            move_limit: 120,
            bootstrap: self.bootstrap,
            pgn_format: self.pgn_format,
            players,
        }
    }
}

fn stage_destination(dir: &Path) -> Destination {
    if dir.join("manifest.toml").exists() {
        Destination::Resume(dir.to_path_buf())
    } else {
        Destination::New(dir.to_path_buf())
    }
}

/// Plays (or resumes) one stage of the calibration in `dir`, fits its ratings and writes the
/// stage's gaps.csv. With `precision` the stage is played in rounds to that precision (its
/// stop is returned); without, the fixed schedule of the ladder's `pairs`.
fn play_stage(
    ladder: &LadderConfig,
    dir: &Path,
    knob: (&Knob, &[f64]),
    precision: Option<&Precision>,
    concurrency: Option<usize>,
    audience: Audience,
) -> Result<(Analysis, Option<AdaptiveStop>)> {
    let (analysis, records, stop) = match precision {
        Some(p) => {
            let plan = LadderPlan {
                config: ladder.run_config(RunKind::Calibrate),
                destination: stage_destination(dir),
                name: ladder.name.clone(),
                copy: None,
                precision: Some(*p),
            };
            let (outcome, stop) =
                run_to_precision(plan, p, concurrency, audience).map_err(other)?;
            // A stage played to a precision is never sharded, so the ladder fits its ratings.
            let analysis = outcome
                .analysis
                .ok_or_else(|| invalid!("the {} stage fitted no ratings", ladder.name))?;
            (Some(analysis), outcome.finished.records, Some(stop))
        }
        None => {
            let (_, finished) = play(
                ladder.run_config(RunKind::Calibrate),
                stage_destination(dir),
                concurrency,
                audience,
            )
            .map_err(other)?;
            (None, finished.records, None)
        }
    };
    let config = ladder.run_config(RunKind::Calibrate);
    let analysis = stage_analysis(&config, &ladder.name, analysis, &records, Some(dir), knob)?;
    Ok((analysis, stop))
}

/// The ratings of a stage's games `records` (fitted here unless `fitted` is given), with the
/// stage's gaps.csv written to `dir` and notes on steps too wide on the knob's scale: the same
/// for a stage played here and for one merged from shards.
pub(super) fn stage_analysis(
    config: &RunConfig,
    stage: &str,
    fitted: Option<Analysis>,
    records: &BTreeMap<u64, PlayedGame>,
    dir: Option<&Path>,
    knob: (&Knob, &[f64]),
) -> Result<Analysis> {
    let mut analysis = match fitted {
        Some(a) => a,
        None => fit_ratings_of(config, records)
            .map_err(|e| invalid!("cannot fit the {stage} stage: {e}"))?,
    };
    if let Some(dir) = dir {
        write_gaps_csv(dir, &analysis.gaps).map_err(other)?;
    }
    // Steps too far apart, with an in-between setting on the knob's scale (a ladder's own
    // node-budget notes are replaced: the knob's scale is the one to propose on).
    let (knob, values) = knob;
    analysis.notes.retain(|n| !n.starts_with("step "));
    let names: Vec<String> = analysis.players.iter().map(|p| p.name.clone()).collect();
    let games = rating_games(records, &names, None);
    let scale: Vec<Option<f64>> = values.iter().map(|&v| Some(knob.to_scale(v))).collect();
    analysis
        .notes
        .extend(steps::wide_step_notes(&games, &names, &scale, &|x| {
            format!("{}={}", knob.key(), knob.format(knob.from_scale(x)))
        }));
    Ok(analysis)
}

/// The grid's `(knob value, Elo, standard error)` points for the curve: the Elo of the fit
/// (with the weak prior when a grid setting scored 100%, whose rating is otherwise infinite),
/// and the standard error from the honest half-width; a one-sided interval gives a large
/// error (a weak weight), since its other side is not measured.
pub fn curve_points(grid: &[f64], fit: &Analysis) -> Vec<(f64, f64, f64)> {
    grid.iter()
        .zip(&fit.players)
        .map(|(&v, p)| {
            let se = p
                .interval
                .half_width()
                .map_or(ONE_SIDED_SE, |h| h / chuhan_stats::Z95);
            (v, p.elo.unwrap_or(p.shrunk), se.max(1.0))
        })
        .collect()
}

/// Standard error given to a grid point whose interval is one-sided.
const ONE_SIDED_SE: f64 = 200.0;

/// A level name as a file name: letters, digits, `.`, `-` and `_` kept, anything else `_`.
fn file_stem(name: &str) -> String {
    name.chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || "._-".contains(c) {
                c
            } else {
                '_'
            }
        })
        .collect()
}

fn write(path: &Path, text: &str) -> Result<()> {
    std::fs::write(path, text).io_context(|| format!("cannot write {}", path.display()))
}

/// One validated gap: adjacent calibrated levels, target against measured.
#[derive(Clone, Debug, PartialEq)]
pub struct GapCheck {
    /// The measured gap with its interval.
    pub gap: Gap,
    /// The target gap.
    pub target: f64,
    /// The tolerance: the interval must lie within `target ± tolerance`.
    pub tolerance: f64,
    /// Whether it does (see [`gap_passes`]).
    pub pass: bool,
}

/// The levels re-placed after a validation with a failed gap ([`super::refine_placement`]),
/// written as a ladder file that validates them (`refine.toml` in the calibration folder;
/// an external engine's re-placed levels as engine files in `refine-levels/`).
#[derive(Clone, Debug, PartialEq)]
pub struct Refinement {
    /// The re-placed knob values, in level order.
    pub values: Vec<f64>,
    /// Their player specs.
    pub specs: Vec<String>,
    /// The ladder file: `chuhan ladder --config <file>` plays the re-placed levels.
    pub file: PathBuf,
}

/// Whether a validated gap passes: its 95% interval is two-sided and lies within
/// `target ± tolerance`. An interval that merely contains the target does not pass, since a
/// wide interval contains almost any target; a one-sided bound never passes (its open side is
/// not measured).
pub fn gap_passes(interval: &Bound, target: f64, tolerance: f64) -> bool {
    match (interval.low, interval.high) {
        (Some(lo), Some(hi)) => lo >= target - tolerance && hi <= target + tolerance,
        _ => false,
    }
}

/// Why a stage played to a precision stopped, as the stage and the reason in words.
#[derive(Clone, Debug, PartialEq)]
pub struct StageStop {
    /// `grid` or `validate`.
    pub stage: String,
    /// The stop.
    pub stop: AdaptiveStop,
    /// The stop in words (precision reached, or which budget).
    pub text: String,
}

/// What a calibration run produced.
#[derive(Clone, Debug, PartialEq, Default)]
pub struct CalibrationOutcome {
    /// The validated gaps (empty with one level, or when the time budget ran out before the
    /// validation stage).
    pub gaps: Vec<GapCheck>,
    /// The stops of the stages played to a precision.
    pub stops: Vec<StageStop>,
    /// The validation stage was not played in this session (its time budget was spent by the
    /// grid): resume to play it.
    pub validation_pending: bool,
    /// The levels re-placed from the validation, when a gap failed.
    pub refinement: Option<Refinement>,
}

/// What the calibration reports as it goes.
pub enum CalibrationEvent<'a> {
    /// The grid stage is played and fitted.
    Grid(&'a Analysis),
    /// A stage played to a precision stopped (after its tables, before the next stage).
    Stopped(&'a StageStop),
    /// The curve is fitted and the levels placed (knob values and specs, in target order).
    Placed {
        /// Knob value of each level.
        values: &'a [f64],
        /// Player spec of each level.
        specs: &'a [String],
    },
    /// The validation stage is played and its gaps checked.
    Validated {
        /// Ratings of the calibrated levels.
        analysis: &'a Analysis,
        /// Every adjacent gap.
        gaps: &'a [GapCheck],
        /// The levels re-placed from the measured slopes, when a gap failed and every gap is
        /// ordered (its 95% interval two-sided and above 0).
        refinement: Option<&'a Refinement>,
    },
}

/// A new calibration in `out` (default `results/<date>-calibrate-<knob>/`, absent or empty):
/// checks the settings, creates and locks the folder (hold the lock for the run) and writes
/// calibrate.toml.
pub fn start(settings: &CalibrateSettings, out: Option<&Path>) -> Result<(PathBuf, FolderLock)> {
    settings.check()?;
    let dir = match out {
        Some(d) => d.to_path_buf(),
        None => default_out_dir(&format!("calibrate-{}", settings.knob.key())),
    };
    let lock = crate::play::setup::lock_new(&dir).map_err(other)?;
    write(
        &dir.join("calibrate.toml"),
        &toml::to_string(settings).map_err(other)?,
    )?;
    Ok((dir, lock))
}

/// The settings of the calibration in `dir` (its calibrate.toml).
pub fn resume(dir: &Path) -> Result<CalibrateSettings> {
    let path = dir.join("calibrate.toml");
    let text = std::fs::read_to_string(&path)
        .io_context(|| format!("cannot read {} (not a calibration folder?)", path.display()))?;
    toml::from_str(&text).map_err(|e| invalid!("{}: {e}", path.display()))
}

/// Reports and keeps the stop of `stage` when it was played adaptively (`precision`) and
/// stopped.
fn note_stop(
    stage: &str,
    precision: Option<&Precision>,
    stop: Option<AdaptiveStop>,
    outcome: &mut CalibrationOutcome,
    on_event: &mut dyn FnMut(CalibrationEvent),
) {
    if let (Some(p), Some(stop)) = (precision, stop) {
        let s = StageStop {
            stage: stage.to_string(),
            stop,
            text: stop.describe(p),
        };
        on_event(CalibrationEvent::Stopped(&s));
        outcome.stops.push(s);
    }
}

/// Runs (or continues) the calibration in `dir`: plays the grid, fits the curve, writes
/// levels.toml, calibration.csv and calibration.svg, then plays and checks the validation
/// stage (validation.csv) when there are two levels or more. Each stage folder gets its
/// gaps.csv, and the calibration folder the gaps.csv of the calibrated levels (of the grid when
/// there is one level). Returns the gap checks and the stages' stops.
pub fn run(
    settings: &CalibrateSettings,
    dir: &Path,
    concurrency: Option<usize>,
    audience: Audience,
    on_event: &mut dyn FnMut(CalibrationEvent),
) -> Result<CalibrationOutcome> {
    settings.check()?;
    let knob = &settings.knob;
    let started = Instant::now();
    let time_budget = settings.time_budget()?;
    let mut outcome = CalibrationOutcome::default();

    // 1. The grid: neighbours and next-but-one, all ratings jointly.
    let grid = settings.grid_ladder()?;
    let grid_precision = settings.precision.map(|p| Precision {
        max_time: time_budget,
        ..settings.stage_precision(settings.grid_precision.unwrap_or(p), settings.pairs)
    });
    let (fit, stop) = play_stage(
        &grid,
        &dir.join(Stage::Grid.folder()),
        (knob, &settings.grid),
        grid_precision.as_ref(),
        concurrency,
        audience,
    )?;
    on_event(CalibrationEvent::Grid(&fit));
    note_stop(
        "grid",
        grid_precision.as_ref(),
        stop,
        &mut outcome,
        on_event,
    );

    // 2. Fit the curve and place the levels.
    let (placed, specs) = place_levels(settings, dir, &fit)?;
    on_event(CalibrationEvent::Placed {
        values: &placed,
        specs: &specs,
    });

    // 3. Validate: adjacent calibrated levels against each other.
    if settings.names.len() < 2 {
        write_gaps_csv(dir, &fit.gaps).map_err(other)?;
        crate::report::html::write_report(dir).map_err(other)?;
        return Ok(outcome);
    }
    let validate_precision = match settings.precision {
        None => None,
        Some(p) => {
            let left = match time_budget {
                Some(t) => match t.checked_sub(started.elapsed()) {
                    Some(left) if left > Duration::ZERO => Some(left),
                    _ => {
                        // The grid used the session's time: the levels are placed; a resumed
                        // session (with a fresh time budget) plays the validation.
                        outcome.validation_pending = true;
                        return Ok(outcome);
                    }
                },
                None => None,
            };
            Some(Precision {
                max_time: left,
                ..settings.stage_precision(p, settings.validate_pairs)
            })
        }
    };
    let ladder = settings.validate_ladder(&specs);
    let (check, stop) = play_stage(
        &ladder,
        &dir.join(Stage::Validate.folder()),
        (knob, &placed),
        validate_precision.as_ref(),
        concurrency,
        audience,
    )?;
    let (gaps, refinement) = check_gaps(settings, dir, &check, &placed)?;
    on_event(CalibrationEvent::Validated {
        analysis: &check,
        gaps: &gaps,
        refinement: refinement.as_ref(),
    });
    note_stop(
        "validate",
        validate_precision.as_ref(),
        stop,
        &mut outcome,
        on_event,
    );
    outcome.gaps = gaps;
    outcome.refinement = refinement;
    Ok(outcome)
}

/// The knob values and player specs of the levels the grid's fit places at the targets. An
/// external engine's levels are its engine files in `dir/levels/` (absolute paths, so that a
/// resumed calibration, or a shard of the validation on another machine, finds them).
pub(super) fn placement(
    settings: &CalibrateSettings,
    dir: &Path,
    fit: &Analysis,
) -> Result<(Calibration, Vec<f64>, Vec<String>)> {
    let knob = &settings.knob;
    let measured = curve_points(&settings.grid, fit);
    let cal = Calibration::fit(knob.clone(), &measured)
        .map_err(|e| invalid!("cannot fit Elo({knob}): {e}"))?;
    let placed = cal.place(&settings.targets)?;
    let specs = if knob.is_external() {
        settings
            .names
            .iter()
            .map(|name| {
                let p = level_file(dir, name);
                std::path::absolute(&p).unwrap_or(p).display().to_string()
            })
            .collect()
    } else {
        placed.iter().map(|&v| settings.spec(v)).collect()
    };
    Ok((cal, placed, specs))
}

/// The engine file of an external engine's level `name` in the calibration folder `dir`.
fn level_file(dir: &Path, name: &str) -> PathBuf {
    dir.join("levels").join(format!("{}.toml", file_stem(name)))
}

/// Fits the curve to the grid's ratings `fit`, places the levels and writes them (levels.toml,
/// or an external engine's files in levels/), calibration.csv, calibration.svg and the report.
/// Returns the placed knob values and the levels' player specs.
pub(super) fn place_levels(
    settings: &CalibrateSettings,
    dir: &Path,
    fit: &Analysis,
) -> Result<(Vec<f64>, Vec<String>)> {
    let knob = &settings.knob;
    let (cal, placed, specs) = placement(settings, dir, fit)?;
    if settings.knob.is_external() {
        // The levels as engine files; the validation plays these files, so what is checked is
        // what was written.
        let folder = dir.join("levels");
        std::fs::create_dir_all(&folder)
            .io_context(|| format!("cannot create {}", folder.display()))?;
        for (name, &v) in settings.names.iter().zip(&placed) {
            write(&level_file(dir, name), &settings.engine_file(v)?)?;
        }
    } else {
        write(&dir.join("levels.toml"), &settings.levels_file(&specs)?)?;
    }
    // An infinite Elo and an open side are empty fields, as in ratings.csv.
    let mut csv = String::from("knob_value,elo,elo_lo95,elo_hi95\n");
    for (v, p) in settings.grid.iter().zip(&fit.players) {
        let [lo, hi] = p.interval.csv_fields(1);
        let elo = p.elo.map_or(String::new(), |e| format!("{e:.1}"));
        csv.push_str(&format!("{v},{elo},{lo},{hi}\n"));
    }
    write(&dir.join("calibration.csv"), &csv)?;
    let points: Vec<(f64, f64, f64, f64)> = settings
        .grid
        .iter()
        .zip(fit.plot_points())
        .map(|(&v, (_, at, lo, hi))| (v, at, lo, hi))
        .collect();
    let chosen: Vec<(f64, f64)> = placed
        .iter()
        .copied()
        .zip(settings.targets.iter().copied())
        .collect();
    crate::report::plots::curve_svg(
        &dir.join("calibration.svg"),
        &crate::report::plots::CurvePlot {
            title: &format!("Elo by {} ({})", knob.key(), settings.base),
            x_label: &knob.key(),
            points: &points,
            curve: &cal.samples(8),
            chosen: &chosen,
            log_x: *knob == Knob::Nodes,
        },
    )
    .map_err(other)?;
    crate::report::html::write_report(dir).map_err(other)?;
    Ok((placed, specs))
}

/// Checks every validated gap of `check` (the levels placed at knob values `placed`) against
/// its target and writes validation.csv, the calibration's gaps.csv (the neighbour gaps of the
/// calibrated levels) and the report. When a gap fails, re-places the levels from the measured
/// slopes and writes the ladder that validates them ([`Refinement`]).
pub(super) fn check_gaps(
    settings: &CalibrateSettings,
    dir: &Path,
    check: &Analysis,
    placed: &[f64],
) -> Result<(Vec<GapCheck>, Option<Refinement>)> {
    let mut gaps = Vec::new();
    let mut csv =
        String::from("from,to,target_gap,measured_gap,lo95,hi95,half_width,tolerance,pass\n");
    for (k, g) in check.gaps.iter().enumerate() {
        let target = settings.targets[k + 1] - settings.targets[k];
        let tolerance = settings.tolerance;
        let pass = gap_passes(&g.interval, target, tolerance);
        let [lo, hi] = g.interval.csv_fields(1);
        let measured = g.elo.map_or(String::new(), |e| format!("{e:.1}"));
        let half = g
            .interval
            .half_width()
            .map_or(String::new(), |h| format!("{h:.1}"));
        csv.push_str(&format!(
            "{},{},{target:.1},{measured},{lo},{hi},{half},{tolerance:.1},{pass}\n",
            g.from, g.to
        ));
        gaps.push(GapCheck {
            gap: g.clone(),
            target,
            tolerance,
            pass,
        });
    }
    write(&dir.join("validation.csv"), &csv)?;
    write_gaps_csv(dir, &check.gaps).map_err(other)?;
    crate::report::html::write_report(dir).map_err(other)?;
    let refinement = if gaps.iter().all(|g| g.pass) {
        None
    } else {
        refine(settings, dir, placed, &gaps)?
    };
    Ok((gaps, refinement))
}

/// The levels re-placed from a validation's measured slopes, written as a ladder file of
/// the validation's settings (`refine.toml`; an external engine's levels as engine files in
/// `refine-levels/`). `None` when a gap gives no slope: a gap whose 95% interval holds 0 or
/// is open on a side (see [`super::refine_placement`]).
fn refine(
    settings: &CalibrateSettings,
    dir: &Path,
    placed: &[f64],
    gaps: &[GapCheck],
) -> Result<Option<Refinement>> {
    let measured: Vec<Option<f64>> = gaps
        .iter()
        .map(|g| match (g.gap.interval.low, g.gap.interval.high) {
            (Some(lo), Some(_)) if lo > 0.0 => g.gap.elo,
            _ => None,
        })
        .collect();
    let targets: Vec<f64> = gaps.iter().map(|g| g.target).collect();
    let Some(values) = super::refine_placement(&settings.knob, placed, &measured, &targets) else {
        return Ok(None);
    };
    let specs: Vec<String> = if settings.knob.is_external() {
        let folder = dir.join("refine-levels");
        std::fs::create_dir_all(&folder)
            .io_context(|| format!("cannot create {}", folder.display()))?;
        let mut specs = Vec::new();
        for (name, &v) in settings.names.iter().zip(&values) {
            let p = folder.join(format!("{}.toml", file_stem(name)));
            write(&p, &settings.engine_file(v)?)?;
            specs.push(std::path::absolute(&p).unwrap_or(p).display().to_string());
        }
        specs
    } else {
        values.iter().map(|&v| settings.spec(v)).collect()
    };
    let file = dir.join("refine.toml");
    write(&file, &refine_ladder(settings, &specs))?;
    Ok(Some(Refinement {
        values,
        specs,
        file,
    }))
}

/// The ladder file that validates re-placed levels (`specs`) as the validation stage did:
/// neighbours only, the same pairs, precision, budget, openings and node cap, another seed.
fn refine_ladder(settings: &CalibrateSettings, specs: &[String]) -> String {
    let quote = |s: &str| toml::Value::String(s.to_string()).to_string();
    let mut s = format!(
        "# The levels of this calibration re-placed from the validation's measured slopes\n\
         # (written by `chuhan calibrate` because a gap failed). Validate them with\n\
         #     chuhan ladder --config <this file>\n\
         # and take them when every neighbour gap's 95% interval lies within its target\n\
         # ± {:.0} Elo. Targets (Elo above the first level): {:?}.\n\n\
         name = \"refine\"\ngame = \"{}\"\nseed = {}\npairs = {}\nneighbours = 1\n\
         max_nodes = {}\nopening_plies = {}\npgn_format = {}\n",
        settings.tolerance,
        settings.targets,
        settings.game.name(),
        settings.seed.wrapping_add(1),
        settings.validate_pairs,
        settings.max_nodes,
        settings.opening_plies,
        quote(&settings.pgn_format.to_string()),
    );
    if settings.chess960 {
        s.push_str("chess960 = true\n");
    }
    if let Some(p) = settings.precision {
        s.push_str(&format!("precision = {p}\n"));
        if let Some(m) = settings.max_games {
            s.push_str(&format!("max_games = {m}\n"));
        }
        if let Some(t) = &settings.max_time {
            s.push_str(&format!("max_time = {}\n", quote(t)));
        }
    }
    for (name, spec) in settings.names.iter().zip(specs) {
        s.push_str(&format!(
            "\n[[players]]\nname = {}\nspec = {}\n",
            quote(name),
            quote(spec)
        ));
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_gap_passes_only_when_its_interval_lies_within_the_tolerance() {
        let b = |lo: Option<f64>, hi: Option<f64>| Bound { low: lo, high: hi };
        // Measured +338 and +417 around a +200 target: wide intervals that contain it fail.
        assert!(!gap_passes(&b(Some(90.0), Some(590.0)), 200.0, 50.0));
        assert!(!gap_passes(&b(Some(160.0), Some(260.0)), 200.0, 50.0));
        assert!(gap_passes(&b(Some(160.0), Some(240.0)), 200.0, 50.0));
        assert!(
            gap_passes(&b(Some(150.0), Some(250.0)), 200.0, 50.0),
            "edges count"
        );
        // Precise but off target.
        assert!(!gap_passes(&b(Some(260.0), Some(300.0)), 200.0, 50.0));
        // One-sided or unbounded: never.
        assert!(!gap_passes(&b(Some(180.0), None), 200.0, 50.0));
        assert!(!gap_passes(&b(None, Some(220.0)), 200.0, 50.0));
        assert!(!gap_passes(&b(None, None), 200.0, 1e9));
    }
}

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

mod levels;
mod plan;
mod stage;

pub(in crate::jobs::calibrate) use levels::{check_gaps, place_levels, placement};
pub use levels::{gap_passes, GapCheck, Refinement};
pub use stage::curve_points;
pub(in crate::jobs::calibrate) use stage::stage_analysis;

use crate::jobs::calibrate::error::{invalid, other, CalibrateError, IoContext};
use crate::jobs::calibrate::settings::Stage;
use crate::jobs::calibrate::CalibrateSettings;
use crate::jobs::ladder::adaptive::{AdaptiveStop, Precision};
use crate::jobs::ladder::{write_gaps_csv, Analysis};
use crate::play::results::{default_out_dir, FolderLock};
use crate::report::Audience;
use stage::{play_stage, write};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

type Result<T, E = CalibrateError> = std::result::Result<T, E>;

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

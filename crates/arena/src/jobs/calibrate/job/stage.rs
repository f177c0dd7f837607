//! One stage played (a ladder run of its own folder, plain or to a precision) and its
//! analysis: ratings, the curve points, the files it writes.

use super::Result;
use crate::jobs::calibrate::error::{invalid, other, IoContext};
use crate::jobs::calibrate::Knob;
use crate::jobs::ladder::adaptive::{run_to_precision, AdaptiveStop, Precision};
use crate::jobs::ladder::{
    fit_ratings_of, play, rating_games, steps, write_gaps_csv, Analysis, LadderConfig, LadderPlan,
};
use crate::play::results::RunConfig;
use crate::play::results::RunKind;
use crate::play::runner::PlayedGame;
use crate::play::setup::Destination;
use crate::report::Audience;
use std::collections::BTreeMap;
use std::path::Path;

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
pub(super) fn play_stage(
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
pub(in crate::jobs::calibrate) fn stage_analysis(
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
pub(super) fn file_stem(name: &str) -> String {
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

pub(super) fn write(path: &Path, text: &str) -> Result<()> {
    std::fs::write(path, text).io_context(|| format!("cannot write {}", path.display()))
}

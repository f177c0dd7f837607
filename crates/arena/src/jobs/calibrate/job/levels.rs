//! The levels placed on the fitted curve, their files, the validated gaps and the refinement
//! a failed gap asks for.

use super::stage::{curve_points, file_stem, write};
use super::Result;
use crate::jobs::calibrate::error::{invalid, other, IoContext};
use crate::jobs::calibrate::settings::CalibrateSettings;
use crate::jobs::calibrate::{Calibration, Knob};
use crate::jobs::ladder::{write_gaps_csv, Analysis, Gap};
use crate::ratings::Bound;
use std::path::{Path, PathBuf};

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

/// The levels re-placed after a validation with a failed gap ([`super::super::refine_placement`]),
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

/// The knob values and player specs of the levels the grid's fit places at the targets. An
/// external engine's levels are its engine files in `dir/levels/` (absolute paths, so that a
/// resumed calibration, or a shard of the validation on another machine, finds them).
pub(in crate::jobs::calibrate) fn placement(
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
pub(in crate::jobs::calibrate) fn place_levels(
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
pub(in crate::jobs::calibrate) fn check_gaps(
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
/// is open on a side (see [`super::super::refine_placement`]).
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
    let Some(values) =
        crate::jobs::calibrate::refine_placement(&settings.knob, placed, &measured, &targets)
    else {
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

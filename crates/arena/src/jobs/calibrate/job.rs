//! The calibration job: the grid stage, the curve and the placed levels, the validation stage.
//! Settings are kept in `calibrate.toml` so that an interrupted calibration resumes; each stage
//! is a ladder run of its own (`grid/`, `validate/`).

use super::{levels_toml, Calibration, Knob};
use crate::jobs::ladder::{
    fit_ratings, play, rating_games, steps, write_gaps_csv, Analysis, Gap, LadderConfig,
    LadderPlayer,
};
use crate::play::config::{builtin_levels, resolve_engine};
use crate::play::results::{default_out_dir, today, FolderLock, RunKind};
use crate::play::setup::Destination;
use crate::report::Audience;
use anyhow::{anyhow, bail, Context};
use chuhan_engine::RuleSet;
use serde::{Deserialize, Serialize};
use std::path::{Path, PathBuf};

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
}

impl CalibrateSettings {
    /// Checks the settings (errors name the flag).
    pub fn check(&self) -> anyhow::Result<()> {
        self.knob.check_grid(&self.grid)?;
        if self.targets.is_empty() {
            bail!("--targets needs at least one value");
        }
        if self.targets.windows(2).any(|w| w[1] <= w[0]) {
            bail!("--targets must increase (weakest level first)");
        }
        if self.names.len() != self.targets.len() {
            bail!(
                "--names gives {} names for {} targets",
                self.names.len(),
                self.targets.len()
            );
        }
        if self.names.iter().any(|n| n.is_empty()) {
            bail!("--names: a level name is empty");
        }
        if self.pairs == 0 || self.validate_pairs == 0 || self.max_nodes == 0 {
            bail!("--pairs, --validate-pairs and --max-nodes must be at least 1");
        }
        if self.bootstrap < 100 {
            bail!("--bootstrap must be at least 100");
        }
        if self.base.contains(':')
            && self.base.split(':').nth(1).is_some_and(|m| {
                m.split(',')
                    .any(|kv| kv.trim().starts_with(&format!("{}=", self.knob.key())))
            })
        {
            bail!(
                "--base already sets {}; the calibration moves it",
                self.knob.key()
            );
        }
        for v in &self.grid {
            resolve_engine(&self.spec(*v), &builtin_levels())
                .map_err(|e| anyhow!("--base '{}': {e}", self.base))?;
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

    /// The ladder of one stage.
    pub fn ladder(
        &self,
        name: &str,
        players: Vec<LadderPlayer>,
        pairs: u64,
        neighbours: usize,
    ) -> LadderConfig {
        LadderConfig {
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
            pgn_format: chuhan_engine::Notation::Iccs,
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
/// stage's gaps.csv.
fn play_stage(
    ladder: &LadderConfig,
    dir: &Path,
    knob: (Knob, &[f64]),
    concurrency: Option<usize>,
    audience: Audience,
) -> anyhow::Result<Analysis> {
    let (prepared, finished) = play(
        ladder.run_config(RunKind::Calibrate),
        stage_destination(dir),
        concurrency,
        audience,
    )?;
    let mut analysis = fit_ratings(&prepared, &finished)
        .map_err(|e| anyhow!("cannot fit the {} stage: {e}", ladder.name))?;
    write_gaps_csv(dir, &analysis.gaps)?;
    // Steps too far apart, with an in-between setting on the knob's scale.
    let (knob, values) = knob;
    let names: Vec<String> = analysis.players.iter().map(|p| p.name.clone()).collect();
    let games = rating_games(&finished.records, &names, None);
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

fn write(path: &Path, text: &str) -> anyhow::Result<()> {
    std::fs::write(path, text).with_context(|| format!("cannot write {}", path.display()))
}

/// One validated gap: adjacent calibrated levels, target against measured.
#[derive(Clone, Debug, PartialEq)]
pub struct GapCheck {
    /// The measured gap with its interval.
    pub gap: Gap,
    /// The target gap.
    pub target: f64,
    /// Whether the target lies in the measured 95% interval.
    pub pass: bool,
}

/// What the calibration reports as it goes.
pub enum CalibrationEvent<'a> {
    /// The grid stage is played and fitted.
    Grid(&'a Analysis),
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
    },
}

/// A new calibration in `out` (default `results/<date>-calibrate-<knob>/`, absent or empty):
/// checks the settings, creates and locks the folder (hold the lock for the run) and writes
/// calibrate.toml.
pub fn start(
    settings: &CalibrateSettings,
    out: Option<&Path>,
) -> anyhow::Result<(PathBuf, FolderLock)> {
    settings.check()?;
    let dir = match out {
        Some(d) => d.to_path_buf(),
        None => default_out_dir(&format!("calibrate-{}", settings.knob.key())),
    };
    let lock = crate::play::setup::lock_new(&dir)?;
    write(&dir.join("calibrate.toml"), &toml::to_string(settings)?)?;
    Ok((dir, lock))
}

/// The settings of the calibration in `dir` (its calibrate.toml).
pub fn resume(dir: &Path) -> anyhow::Result<CalibrateSettings> {
    let path = dir.join("calibrate.toml");
    let text = std::fs::read_to_string(&path)
        .with_context(|| format!("cannot read {} (not a calibration folder?)", path.display()))?;
    toml::from_str(&text).map_err(|e| anyhow!("{}: {e}", path.display()))
}

/// Runs (or continues) the calibration in `dir`: plays the grid, fits the curve, writes
/// levels.toml, calibration.csv and calibration.svg, then plays and checks the validation
/// stage (validation.csv) when there are two levels or more. Each stage folder gets its
/// gaps.csv, and the calibration folder the gaps.csv of the calibrated levels (of the grid when
/// there is one level). Returns the gap checks.
pub fn run(
    settings: &CalibrateSettings,
    dir: &Path,
    concurrency: Option<usize>,
    audience: Audience,
    on_event: &mut dyn FnMut(CalibrationEvent),
) -> anyhow::Result<Vec<GapCheck>> {
    settings.check()?;
    let knob = settings.knob;

    // 1. The grid: neighbours and next-but-one, all ratings jointly.
    let grid_players: Vec<LadderPlayer> = settings
        .grid
        .iter()
        .map(|&v| LadderPlayer {
            name: format!("{}={}", knob.key(), knob.format(v)),
            spec: settings.spec(v),
        })
        .collect();
    let grid = settings.ladder("grid", grid_players, settings.pairs, 2);
    grid.validate("calibration grid")?;
    let fit = play_stage(
        &grid,
        &dir.join("grid"),
        (knob, &settings.grid),
        concurrency,
        audience,
    )?;
    let measured = curve_points(&settings.grid, &fit);
    on_event(CalibrationEvent::Grid(&fit));

    // 2. Fit the curve and place the levels.
    let cal =
        Calibration::fit(knob, &measured).map_err(|e| anyhow!("cannot fit Elo({knob}): {e}"))?;
    let placed = cal.place(&settings.targets)?;
    let specs: Vec<String> = placed.iter().map(|&v| settings.spec(v)).collect();
    let levels: Vec<chuhan_engine::Level> = specs
        .iter()
        .map(|s| {
            resolve_engine(s, &builtin_levels()).map(|c| {
                c.level.unwrap_or_else(|| chuhan_engine::Level {
                    name: s.clone(),
                    ..chuhan_engine::Level::easy()
                })
            })
        })
        .collect::<anyhow::Result<_>>()?;
    let header = format!(
        "Calibrated by `chuhan calibrate` on {}; engine bench signature {}.\n\
         Knob: {}; base: {}; grid: {:?}; targets (Elo above the first grid setting): {:?}.\n\
         Recalibrate whenever the bench signature changes.",
        today(),
        chuhan_engine::bench::SIGNATURE,
        knob.key(),
        settings.base,
        settings.grid,
        settings.targets
    );
    write(
        &dir.join("levels.toml"),
        &levels_toml(&settings.names, &specs, &levels, &settings.targets, &header),
    )?;
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
            x_label: knob.key(),
            points: &points,
            curve: &cal.samples(8),
            chosen: &chosen,
            log_x: knob == Knob::Nodes,
        },
    )?;
    crate::report::html::write_report(dir)?;
    on_event(CalibrationEvent::Placed {
        values: &placed,
        specs: &specs,
    });

    // 3. Validate: adjacent calibrated levels against each other.
    if settings.names.len() < 2 {
        write_gaps_csv(dir, &fit.gaps)?;
        crate::report::html::write_report(dir)?;
        return Ok(Vec::new());
    }
    let players: Vec<LadderPlayer> = settings
        .names
        .iter()
        .zip(&specs)
        .map(|(n, s)| LadderPlayer {
            name: n.clone(),
            spec: s.clone(),
        })
        .collect();
    let ladder = settings.ladder("validate", players, settings.validate_pairs, 1);
    let check = play_stage(
        &ladder,
        &dir.join("validate"),
        (knob, &placed),
        concurrency,
        audience,
    )?;
    let mut gaps = Vec::new();
    let mut csv = String::from("from,to,target_gap,measured_gap,lo95,hi95,pass\n");
    for (k, g) in check.gaps.iter().enumerate() {
        let target = settings.targets[k + 1] - settings.targets[k];
        let pass = g.interval.contains(target);
        let [lo, hi] = g.interval.csv_fields(1);
        let measured = g.elo.map_or(String::new(), |e| format!("{e:.1}"));
        csv.push_str(&format!(
            "{},{},{target:.1},{measured},{lo},{hi},{pass}\n",
            g.from, g.to
        ));
        gaps.push(GapCheck {
            gap: g.clone(),
            target,
            pass,
        });
    }
    write(&dir.join("validation.csv"), &csv)?;
    // The calibration's own gaps.csv: the neighbour gaps of the calibrated levels.
    write_gaps_csv(dir, &check.gaps)?;
    crate::report::html::write_report(dir)?;
    on_event(CalibrationEvent::Validated {
        analysis: &check,
        gaps: &gaps,
    });
    Ok(gaps)
}

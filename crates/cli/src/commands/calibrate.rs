//! `chuhan calibrate`: place difficulty levels at target Elo steps by playing a grid of one
//! knob's settings, fitting a monotone Elo(knob) curve and inverting it; then validate by
//! playing the adjacent calibrated levels against each other.

use super::ladder::play;
use crate::args::CalibrateArgs;
use crate::EXIT_OK;
use anyhow::{anyhow, bail, Context};
use chuhan_arena::jobs::calibrate::{levels_toml, parse_list, Calibration, Knob};
use chuhan_arena::jobs::ladder::{
    analyse, describe_error, rating_games, signed, LadderConfig, LadderPlayer,
};
use chuhan_arena::play::config::{builtin_levels, resolve_engine};
use chuhan_arena::play::results::{default_out_dir, today, ResultsDir};
use chuhan_arena::play::setup::Destination;
use chuhan_arena::report::table;
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
    /// Bootstrap replicates.
    pub bootstrap: usize,
}

impl CalibrateSettings {
    fn from_args(args: &CalibrateArgs) -> anyhow::Result<CalibrateSettings> {
        let knob: Knob = args
            .knob
            .as_deref()
            .ok_or_else(|| anyhow!("give --knob nodes|depth|margin|random_rate"))?
            .parse()
            .map_err(|e: String| anyhow!("--knob: {e}"))?;
        let grid = match &args.grid {
            Some(g) => parse_list(g, "--grid")?,
            None => knob.default_grid(),
        };
        let targets = parse_list(
            args.targets.as_deref().ok_or_else(|| {
                anyhow!("give --targets, e.g. 0,200,400 (Elo above the first grid setting)")
            })?,
            "--targets",
        )?;
        let names = match &args.names {
            Some(n) => n.split(',').map(|s| s.trim().to_string()).collect(),
            None => (1..=targets.len()).map(|i| format!("level-{i}")).collect(),
        };
        Ok(CalibrateSettings {
            knob,
            base: args.base.clone(),
            grid,
            targets,
            names,
            pairs: args.pairs,
            validate_pairs: args.validate_pairs.unwrap_or(args.pairs),
            max_nodes: args.max_nodes,
            opening_plies: args.opening_plies,
            seed: args.seed,
            bootstrap: args.bootstrap,
        })
    }

    fn check(&self) -> anyhow::Result<()> {
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

    fn ladder(
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
            neighbours,
            anchors: Vec::new(),
            max_nodes: self.max_nodes,
            opening_plies: self.opening_plies,
            rules: "asian".into(),
            move_limit: 120,
            bootstrap: self.bootstrap,
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

/// Plays (or resumes) one stage of the calibration in `dir` and fits its ratings.
fn play_stage(
    ladder: &LadderConfig,
    dir: &Path,
    args: &CalibrateArgs,
    seed: u64,
) -> anyhow::Result<chuhan_arena::jobs::ladder::Analysis> {
    let (prepared, finished) = play(
        ladder.run_config("calibrate"),
        stage_destination(dir),
        args.concurrency,
        args.quiet,
    )?;
    let names: Vec<String> = prepared
        .config
        .players
        .iter()
        .map(|p| p.name.clone())
        .collect();
    let games = rating_games(&finished.records, &names, None);
    analyse(&games, &names, seed, ladder.bootstrap).map_err(|e| {
        anyhow!(
            "cannot fit the {} stage: {}",
            ladder.name,
            describe_error(&e, &names)
        )
    })
}

fn write(path: &Path, text: &str) -> anyhow::Result<()> {
    std::fs::write(path, text).with_context(|| format!("cannot write {}", path.display()))
}

/// Runs the command.
pub fn run(args: &CalibrateArgs) -> anyhow::Result<u8> {
    let (settings, dir): (CalibrateSettings, PathBuf) = match &args.resume {
        Some(dir) => {
            let path = dir.join("calibrate.toml");
            let text = std::fs::read_to_string(&path).with_context(|| {
                format!("cannot read {} (not a calibration folder?)", path.display())
            })?;
            let s: CalibrateSettings =
                toml::from_str(&text).map_err(|e| anyhow!("{}: {e}", path.display()))?;
            (s, dir.clone())
        }
        None => {
            let s = CalibrateSettings::from_args(args)?;
            s.check()?;
            let dir = match &args.out {
                Some(d) => d.clone(),
                None => default_out_dir(&format!("calibrate-{}", s.knob.key())),
            };
            ResultsDir::check_new(&dir)?;
            std::fs::create_dir_all(&dir)
                .with_context(|| format!("cannot create {}", dir.display()))?;
            write(&dir.join("calibrate.toml"), &toml::to_string(&s)?)?;
            (s, dir)
        }
    };
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
    let fit = play_stage(&grid, &dir.join("grid"), args, settings.seed)?;
    let measured: Vec<(f64, f64, f64)> = settings
        .grid
        .iter()
        .zip(&fit.players)
        .map(|(&v, p)| (v, p.elo, ((p.interval.hi - p.interval.lo) / 3.92).max(1.0)))
        .collect();
    println!("grid ({} {}):", knob.key(), settings.base);
    println!(
        "{}",
        table(
            &["rank", "name", "elo", "-", "+", "games", "score", "draws"],
            &fit.rating_rows()
        )
    );
    for note in &fit.notes {
        println!("note: {note}");
    }

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
    let mut csv = String::from("knob_value,elo,elo_lo95,elo_hi95\n");
    for (v, p) in settings.grid.iter().zip(&fit.players) {
        csv.push_str(&format!(
            "{v},{:.1},{:.1},{:.1}\n",
            p.elo, p.interval.lo, p.interval.hi
        ));
    }
    write(&dir.join("calibration.csv"), &csv)?;
    let points: Vec<(f64, f64, f64, f64)> = settings
        .grid
        .iter()
        .zip(&fit.players)
        .map(|(&v, p)| (v, p.elo, p.interval.lo, p.interval.hi))
        .collect();
    let chosen: Vec<(f64, f64)> = placed
        .iter()
        .copied()
        .zip(settings.targets.iter().copied())
        .collect();
    chuhan_arena::report::plots::curve_svg(
        &dir.join("calibration.svg"),
        &chuhan_arena::report::plots::CurvePlot {
            title: &format!("Elo by {} ({})", knob.key(), settings.base),
            x_label: knob.key(),
            points: &points,
            curve: &cal.samples(8),
            chosen: &chosen,
        },
    )?;
    println!(
        "{}",
        table(
            &["level", "target", knob.key(), "spec"],
            &settings
                .names
                .iter()
                .zip(&settings.targets)
                .zip(&placed)
                .zip(&specs)
                .map(|(((n, t), v), s)| vec![n.clone(), signed(*t), knob.format(*v), s.clone()])
                .collect::<Vec<_>>()
        )
    );

    // 3. Validate: adjacent calibrated levels against each other.
    if settings.names.len() >= 2 {
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
        let check = play_stage(&ladder, &dir.join("validate"), args, settings.seed ^ 1)?;
        let mut rows = Vec::new();
        let mut csv = String::from("from,to,target_gap,measured_gap,lo95,hi95,pass\n");
        for (k, g) in check.gaps.iter().enumerate() {
            let target = settings.targets[k + 1] - settings.targets[k];
            let pass = g.interval.lo <= target && target <= g.interval.hi;
            rows.push(vec![
                format!("{} -> {}", g.from, g.to),
                signed(target),
                signed(g.elo),
                format!("[{}, {}]", signed(g.interval.lo), signed(g.interval.hi)),
                if pass { "pass" } else { "FAIL" }.to_string(),
            ]);
            csv.push_str(&format!(
                "{},{},{target:.1},{:.1},{:.1},{:.1},{pass}\n",
                g.from, g.to, g.elo, g.interval.lo, g.interval.hi
            ));
        }
        write(&dir.join("validation.csv"), &csv)?;
        println!(
            "validation (adjacent levels, {} pairs each):",
            settings.validate_pairs
        );
        println!(
            "{}",
            table(
                &["levels", "target", "measured", "95% interval", "check"],
                &rows
            )
        );
        for note in &check.notes {
            println!("note: {note}");
        }
        let failed = rows.iter().filter(|r| r[4] == "FAIL").count();
        if failed > 0 && args.strict {
            println!(
                "{failed} gap(s) outside their interval; results in {}",
                dir.display()
            );
            return Ok(crate::EXIT_FAIL);
        }
    }
    println!(
        "levels written to {}; results in {}",
        dir.join("levels.toml").display(),
        dir.display()
    );
    Ok(EXIT_OK)
}

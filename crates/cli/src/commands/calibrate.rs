//! `chuhan calibrate`: place difficulty levels at target Elo steps with the library's
//! calibration job (a grid of one knob's settings, a monotone Elo(knob) curve, validation of the
//! adjacent calibrated levels); print each stage's tables as it completes.

use crate::args::CalibrateArgs;
use crate::{EXIT_FAIL, EXIT_OK};
use anyhow::{anyhow, bail};
use chuhan_arena::jobs::calibrate::shard::{self, Stage};
use chuhan_arena::jobs::calibrate::{self, parse_list, CalibrateSettings, CalibrationEvent, Knob};
use chuhan_arena::jobs::ladder::{signed, RATING_HEADER};
use chuhan_arena::play::schedule::Shard;
use chuhan_arena::play::setup::lock_existing;
use chuhan_arena::report::table;
use std::path::Path;

/// Runs the command.
pub fn run(args: &CalibrateArgs) -> anyhow::Result<u8> {
    if let Some(shard) = &args.shard {
        return run_shard(args, shard);
    }
    if let Some(dir) = args.resume.as_deref().filter(|d| shard::is_shard(d)) {
        let _lock = lock_existing(dir)?;
        return play_shard(dir, args);
    }
    // Held until the run ends: one writer per results folder.
    let (settings, dir, _lock) = match &args.resume {
        Some(dir) => {
            let lock = lock_existing(dir)?;
            let settings = calibrate::job::resume(dir)?;
            if let Some(game) = args.game.kind().filter(|&g| g != settings.game) {
                anyhow::bail!(
                    "--resume {}: the calibration there plays {}, and --game {game} was given; resume it with --game {}, or without --game",
                    dir.display(),
                    settings.game,
                    settings.game
                );
            }
            let asked = match (args.game.chess960(), args.game.kind()) {
                (Some(asked), _) => Some(asked),
                (None, Some(chuhan_arena::play::any::GameKind::Chess)) => Some(false),
                _ => None,
            };
            if let Some(asked) = asked.filter(|&a| a != settings.chess960) {
                let name = |c: bool| if c { "chess960" } else { "standard chess" };
                anyhow::bail!(
                    "--resume {}: the calibration there plays {}, and the command line asks for {}; resume it with only --resume",
                    dir.display(),
                    name(settings.chess960),
                    name(asked)
                );
            }
            (settings, dir.clone(), lock)
        }
        None => {
            let s = settings_from_args(args)?;
            let (dir, lock) = calibrate::job::start(&s, args.out.as_deref())?;
            (s, dir, lock)
        }
    };
    crate::signals::resume_with(&["chuhan", "calibrate", "--resume", &dir.to_string_lossy()]);
    let mut on_event = |event: CalibrationEvent| print_event(&settings, event);
    let outcome = calibrate::run(
        &settings,
        &dir,
        args.session.concurrency,
        args.session.audience(),
        &mut on_event,
    )?;
    if let Some(warning) = settings.base_beyond_levels() {
        outln!("warning: {warning}");
    }
    if outcome.validation_pending {
        outln!(
            "--max-time spent by the grid stage: levels placed in {}, not yet validated; \
             continue with chuhan calibrate --resume {}",
            dir.join(if settings.knob.is_external() {
                "levels"
            } else {
                "levels.toml"
            })
            .display(),
            dir.display()
        );
        return Ok(if args.strict { EXIT_FAIL } else { EXIT_OK });
    }
    let failed = outcome.gaps.iter().filter(|c| !c.pass).count();
    if failed > 0 && args.strict {
        outln!(
            "{failed} gap(s) whose 95% interval is not within target ± {:.0} Elo; results in {}",
            settings.tolerance,
            dir.display()
        );
        return Ok(EXIT_FAIL);
    }
    if settings.knob.is_external() {
        outln!(
            "levels written as engine files to {}; results in {}",
            dir.join("levels").display(),
            dir.display()
        );
    } else {
        outln!(
            "levels written to {}; results in {}",
            dir.join("levels.toml").display(),
            dir.display()
        );
    }
    Ok(EXIT_OK)
}

/// The table of levels placed at knob `values` (player `specs`), in target order.
fn levels_table(settings: &CalibrateSettings, values: &[f64], specs: &[String]) -> String {
    let knob = &settings.knob;
    table(
        &["level", "target", &knob.key(), "spec"],
        &settings
            .names
            .iter()
            .zip(&settings.targets)
            .zip(values)
            .zip(specs)
            .map(|(((n, t), v), s)| vec![n.clone(), signed(*t), knob.format(*v), s.clone()])
            .collect::<Vec<_>>(),
    )
}

/// Prints one stage's tables as the calibration (or a merge of its shards) completes it.
pub fn print_event(settings: &CalibrateSettings, event: CalibrationEvent) {
    let knob = &settings.knob;
    match event {
        CalibrationEvent::Grid(fit) => {
            outln!("grid ({} {}):", knob.key(), settings.base);
            outln!("{}", table(&RATING_HEADER, &fit.rating_rows()));
            for note in &fit.notes {
                outln!("note: {note}");
            }
        }
        CalibrationEvent::Placed { values, specs } => {
            outln!("{}", levels_table(settings, values, specs))
        }
        CalibrationEvent::Stopped(stop) => outln!("{} stage: {}", stop.stage, stop.text),
        CalibrationEvent::Validated {
            analysis,
            gaps,
            refinement,
        } => {
            let rows: Vec<Vec<String>> = gaps
                .iter()
                .map(|c| {
                    let g = &c.gap;
                    vec![
                        format!("{} -> {}", g.from, g.to),
                        signed(c.target),
                        g.elo_text(),
                        g.interval.to_string(),
                        g.half_width_text(),
                        format!(
                            "[{}, {}]",
                            signed(c.target - c.tolerance),
                            signed(c.target + c.tolerance)
                        ),
                        if c.pass { "pass" } else { "FAIL" }.to_string(),
                    ]
                })
                .collect();
            match settings.precision {
                Some(p) => outln!("validation (adjacent levels, played to ±{p:.0} Elo):"),
                None => outln!(
                    "validation (adjacent levels, {} pairs each):",
                    settings.validate_pairs
                ),
            }
            outln!(
                "{}",
                table(
                    &[
                        "levels",
                        "target",
                        "measured",
                        "95% interval",
                        "half-width",
                        "must lie within",
                        "check"
                    ],
                    &rows
                )
            );
            outln!(
                "a gap passes when its 95% interval lies within target ± {:.0} Elo (--tolerance)",
                settings.tolerance
            );
            for note in &analysis.notes {
                outln!("note: {note}");
            }
            if let Some(r) = refinement {
                outln!(
                    "re-placed from the measured slopes (the first level kept, each next one at \
                     its target gap above the re-placed level below, at the Elo per {} the \
                     validation measured between them):",
                    if knob.is_log_scale() {
                        format!("doubling of {}", knob.key())
                    } else {
                        format!("unit of {}", knob.key())
                    }
                );
                outln!("{}", levels_table(settings, &r.values, &r.specs));
                outln!(
                    "validate them with: chuhan ladder --config {}",
                    r.file.display()
                );
            }
        }
    }
}

/// The settings the flags give (checked by the library before anything is played).
fn settings_from_args(args: &CalibrateArgs) -> anyhow::Result<CalibrateSettings> {
    let knob: Knob = args
        .knob
        .as_deref()
        .ok_or_else(|| {
            anyhow!(
                "give --knob nodes|depth|margin|random_rate (an external engine: go-nodes, \
                 go-depth, movetime or option:<name>)"
            )
        })?
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
        precision: args.precision,
        grid_precision: args.grid_precision,
        max_games: args.max_games,
        max_time: args.max_time.clone(),
        tolerance: args.tolerance,
        game: args.game.kind().unwrap_or_default(),
        chess960: crate::commands::setup::chess960_for(
            &args.game,
            args.game.kind().unwrap_or_default(),
        )?,
        pgn_format: match args.pgn_format.as_deref() {
            Some(name) => name.parse().map_err(anyhow::Error::msg)?,
            None => chuhan_engine::Notation::Iccs,
        },
    })
}

/// `--shard i/n --stage NAME`: a new shard folder of one stage, played.
fn run_shard(args: &CalibrateArgs, shard: &str) -> anyhow::Result<u8> {
    let shard: Shard = shard.parse().map_err(anyhow::Error::msg)?;
    let stage: Stage = args
        .stage
        .as_deref()
        .unwrap_or_default()
        .parse()
        .map_err(anyhow::Error::msg)?;
    let out = args
        .out
        .as_deref()
        .ok_or_else(|| anyhow!("--shard needs --out SHARD_DIR, the shard's own folder"))?;
    let settings = match (stage, &args.from) {
        (Stage::Validate, Some(from)) => {
            if args.knob.is_some()
                || args.grid.is_some()
                || args.targets.is_some()
                || args.names.is_some()
                || args.precision.is_some()
                || args.pgn_format.is_some()
            {
                bail!(
                    "--stage validate takes the settings from {}; give no --knob, --grid, \
                     --targets, --names, --precision or --pgn-format",
                    from.join(shard::SETTINGS_FILE).display()
                );
            }
            calibrate::job::resume(from)?
        }
        (Stage::Validate, None) => bail!(
            "--stage validate needs --from MERGED: the calibration folder chuhan merge wrote \
             from the grid's shards"
        ),
        (Stage::Grid, _) => {
            let settings = settings_from_args(args)?;
            // The reason first: an adaptive calibration cannot be split at all.
            shard::refuse_precision(&settings)?;
            settings
        }
    };
    let (_, _lock) = shard::start_shard(&settings, stage, args.from.as_deref(), shard, out)?;
    play_shard(out, args)
}

/// Plays (or resumes) the shard in the shard folder `dir` and says what comes next.
fn play_shard(dir: &Path, args: &CalibrateArgs) -> anyhow::Result<u8> {
    let (file, finished) =
        shard::play_shard(dir, args.session.concurrency, args.session.audience())?;
    outln!(
        "shard {} of the {} stage: {} games in {}; when every shard is done, merge them: \
         chuhan merge --out MERGED SHARD_DIR...",
        file.shard,
        file.stage,
        finished.records.len(),
        finished.dir.path().display()
    );
    Ok(EXIT_OK)
}

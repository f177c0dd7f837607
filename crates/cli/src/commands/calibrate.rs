//! `chuhan calibrate`: place difficulty levels at target Elo steps with the library's
//! calibration job (a grid of one knob's settings, a monotone Elo(knob) curve, validation of the
//! adjacent calibrated levels); print each stage's tables as it completes.

use crate::common::flags::{
    BudgetArgs, FirstMoveArgs, GameArgs, PgnFormatArgs, RunDirArgs, SeedArgs, SessionArgs,
    ShardArgs,
};
use crate::common::report::print_event;
use crate::common::setup::chess960_for;
use crate::{EXIT_FAIL, EXIT_OK};
use anyhow::{anyhow, bail};
use chuhan_arena::jobs::calibrate::shard::{self, Stage};
use chuhan_arena::jobs::calibrate::{self, parse_list, CalibrateSettings, CalibrationEvent, Knob};
use chuhan_arena::play::schedule::Shard;
use chuhan_arena::play::setup::{lock_existing, DEFAULT_SEED};
use clap::Args;
use std::path::{Path, PathBuf};

/// `chuhan calibrate`.
#[derive(Debug, Args)]
#[command(mut_arg("seed", |a| a.help("Run seed (default 1)")))]
#[command(mut_arg("out", |a| a.help(
    "Results folder (default results/<date>-calibrate-<knob>/); must be absent or empty",
)))]
#[command(mut_arg("resume", |a| a.help(
    "Continue an interrupted calibration in this folder (settings come from it)",
)))]
#[command(mut_arg("precision", |a| a.help(
    "Play each stage in rounds until every neighbour gap's 95% half-width is at most this many \
     Elo (the grid's gaps and the validated gaps; the first round plays --pairs and \
     --validate-pairs per pairing). Reproducible at any --concurrency; --resume continues the \
     round it was in",
)))]
#[command(mut_arg("max_games", |a| a.help("With --precision: at most this many games in each stage")))]
#[command(mut_arg("max_time", |a| a.help(
    "With --precision: wall-time budget of this session (e.g. 30m, 1h), the grid first, the \
     validation with what is left. Not reproducible: a busier machine plays fewer games",
)))]
#[command(mut_arg("shard", |a| a
    .help(
        "Play one stage's shard `i/n` on this machine (fixed budgets only: no --precision), \
         into --out; `chuhan merge` joins a stage's shards into the calibration folder the next \
         stage starts from. Needs --stage",
    )
    .requires("stage")
    .conflicts_with("resume")))]
#[command(mut_arg("pgn_format", |a| a.help(
    "Move notation of every stage's games.pgn: `iccs` (default), `wxf` or `chinese`",
)))]
pub struct CalibrateArgs {
    /// The knob that moves: nodes, depth, margin, random_rate or skill (the built-in engine;
    /// skill, 0 to 20, sets the node budget, straying margin and random-move rate at once);
    /// go-nodes, go-depth, movetime (ms) or option:<UCI option>, e.g. "option:Skill Level" (an
    /// external engine file as --base: the levels are written as engine files).
    #[arg(long)]
    pub knob: Option<String>,
    /// Base player the knob is applied to (`default`, `handcrafted`, a level, an engine .toml, with overrides;
    /// an external engine file for go-nodes, go-depth, movetime and option:<name>).
    #[arg(long, default_value = "default")]
    pub base: String,
    /// Knob settings, weakest first, comma-separated (default: a grid for the knob).
    #[arg(long)]
    pub grid: Option<String>,
    /// Target Elo of each level above the first grid setting, increasing: e.g. 0,200,400.
    #[arg(long, allow_hyphen_values = true)]
    pub targets: Option<String>,
    /// Level names, comma-separated (default level-1, level-2, ...).
    #[arg(long)]
    pub names: Option<String>,
    /// Game pairs per grid pairing (neighbours and next-but-one).
    #[arg(long, default_value_t = 8)]
    pub pairs: u64,
    /// Game pairs per validation pairing (default: --pairs).
    #[arg(long)]
    pub validate_pairs: Option<u64>,
    /// Per-move node cap on top of each player's own budget.
    #[arg(long, default_value_t = 2_000_000)]
    pub max_nodes: u64,
    /// Random plies of generated openings.
    #[arg(long, default_value_t = 6)]
    pub opening_plies: u32,
    /// Run seed.
    #[command(flatten)]
    pub seed: SeedArgs,
    /// Ignored, kept so older scripts still run: the intervals are honest, not bootstrapped.
    #[arg(long, default_value_t = 500, hide = true)]
    pub bootstrap: usize,
    /// Results folder, or the calibration to resume.
    #[command(flatten)]
    pub dir: RunDirArgs,
    /// Exit 1 when a validated gap does not pass: its 95% interval is not within target ±
    /// --tolerance.
    #[arg(long)]
    pub strict: bool,
    /// A validated gap passes when its 95% interval lies within the target gap ± this many Elo.
    #[arg(long, default_value_t = 50.0)]
    pub tolerance: f64,
    /// The precision to play each stage to, and its budgets.
    #[command(flatten)]
    pub budget: BudgetArgs,
    /// With --precision: the grid stage's own target half-width (default: --precision).
    #[arg(long)]
    pub grid_precision: Option<f64>,
    /// The game played.
    #[command(flatten)]
    pub game: GameArgs,
    /// One stage's shard.
    #[command(flatten)]
    pub sharding: ShardArgs,
    /// With --shard: the stage, grid (first; settings from the flags) or validate (settings
    /// and placed levels from --from).
    #[arg(long, requires = "shard")]
    pub stage: Option<String>,
    /// With --stage validate: the calibration folder `chuhan merge` wrote from the grid's
    /// shards.
    #[arg(long, requires = "stage")]
    pub from: Option<PathBuf>,
    /// games.pgn's notation.
    #[command(flatten)]
    pub notation: PgnFormatArgs,
    /// The first-move term of every stage's fit.
    #[command(flatten)]
    pub first_move: FirstMoveArgs,
    /// Games at once, progress output.
    #[command(flatten)]
    pub session: SessionArgs,
}

/// Runs the command.
pub fn run(args: &CalibrateArgs) -> anyhow::Result<u8> {
    if let Some(shard) = args.sharding.shard {
        return run_shard(args, shard);
    }
    if let Some(dir) = args.dir.resume.as_deref().filter(|d| shard::is_shard(d)) {
        let _lock = lock_existing(dir)?;
        return play_shard(dir, args);
    }
    // Held until the run ends: one writer per results folder.
    let (settings, dir, _lock) = match &args.dir.resume {
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
            if let Some(w) = args
                .first_move
                .first_move_advantage
                .filter(|&w| w != settings.first_move_advantage)
            {
                anyhow::bail!(
                    "--resume {}: the calibration there fits with --first-move-advantage {}, and the command line asks for {w}; resume it without --first-move-advantage",
                    dir.display(),
                    settings.first_move_advantage
                );
            }
            (settings, dir.clone(), lock)
        }
        None => {
            let s = settings_from_args(args)?;
            let (dir, lock) = calibrate::job::start(&s, args.dir.out.as_deref())?;
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
        seed: args.seed.or(DEFAULT_SEED),
        bootstrap: args.bootstrap,
        precision: args.budget.precision,
        grid_precision: args.grid_precision,
        max_games: args.budget.max_games,
        max_time: args.budget.max_time.as_ref().map(|t| t.text.clone()),
        tolerance: args.tolerance,
        game: args.game.kind().unwrap_or_default(),
        chess960: chess960_for(&args.game, args.game.kind().unwrap_or_default())?,
        pgn_format: args.notation.notation()?,
        first_move_advantage: args.first_move.first_move_advantage.unwrap_or_default(),
    })
}

/// `--shard i/n --stage NAME`: a new shard folder of one stage, played.
fn run_shard(args: &CalibrateArgs, shard: Shard) -> anyhow::Result<u8> {
    let stage: Stage = args
        .stage
        .as_deref()
        .unwrap_or_default()
        .parse()
        .map_err(anyhow::Error::msg)?;
    let out = args
        .dir
        .out
        .as_deref()
        .ok_or_else(|| anyhow!("--shard needs --out SHARD_DIR, the shard's own folder"))?;
    let settings = match (stage, &args.from) {
        (Stage::Validate, Some(from)) => {
            if args.knob.is_some()
                || args.grid.is_some()
                || args.targets.is_some()
                || args.names.is_some()
                || args.budget.precision.is_some()
                || args.notation.pgn_format.is_some()
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

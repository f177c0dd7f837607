//! `chuhan tune texel`: load labelled positions, fit K, tune, write the results folder.

use super::{check_fit_args, FitDataArgs};
use crate::common::flags::{GameArgs, ProgressArgs};
use crate::EXIT_OK;
use anyhow::{bail, Context};
use chuhan_arena::jobs::tune::texel::{self, Optimizer, TexelProblem, TexelSettings};
use chuhan_arena::jobs::tune::{choose_out_dir, select_params};
use chuhan_arena::play::any::GameKind;
use chuhan_arena::play::config::{builtin_levels, load_handcrafted_base};
use chuhan_arena::play::results::FolderLock;
use chuhan_arena::report::ProgressReporter;
use chuhan_engine::chess::{ChessConfig, EvalParams};
use chuhan_engine::EngineConfig;
use clap::builder::{PossibleValuesParser, TypedValueParser};
use clap::Args;
use std::path::PathBuf;
use std::time::Instant;

/// `chuhan tune texel`.
#[derive(Debug, Args)]
pub struct TexelArgs {
    /// The data, its split, threads and --force.
    #[command(flatten)]
    pub fit: FitDataArgs,
    /// Parameters to tune: group names (material, pst, eg, eval) or exact parameter names,
    /// comma-separated. Only linear parameters can be tuned. The default leaves out `eg`, the
    /// endgame offsets.
    #[arg(long, value_delimiter = ',', default_value = "material,pst,eval")]
    pub params: Vec<String>,
    /// Full-batch epochs (at most, with --patience).
    #[arg(long, default_value_t = 300)]
    pub epochs: usize,
    /// Early stopping: end the run once this many epochs pass without a new lowest validation
    /// loss, and write the weights of the epoch with the lowest (needs --validation above 0).
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..))]
    pub patience: Option<u64>,
    /// Learning rate in centipawns (default: 1 for Adam, 5 for AdaGrad).
    #[arg(long)]
    pub lr: Option<f64>,
    /// Optimizer.
    #[arg(
        long,
        default_value_t = Optimizer::Adam,
        value_parser = PossibleValuesParser::new(["adam", "adagrad"])
            .map(|s| s.parse::<Optimizer>().expect("a listed optimizer")),
    )]
    pub optimizer: Optimizer,
    /// Scaling constant K (default: fitted on the untuned evaluation).
    #[arg(long)]
    pub k: Option<f64>,
    /// Weight of the game result in the target, from 0 to 1: the rest is the position's
    /// recorded score (the data's `eval` field, through the same sigmoid). 1 fits results only;
    /// 0 fits the scores an external engine reported (`datagen --engine`).
    #[arg(long, default_value_t = 1.0)]
    pub lambda: f64,
    /// Output folder (default: results/<date>-texel). Must be empty unless --force.
    #[arg(long)]
    pub out: Option<PathBuf>,
    /// Start from this engine config's parameters instead of the defaults.
    #[arg(long)]
    pub base: Option<PathBuf>,
    /// The game of the data: chess tunes the chess evaluation table (`--params` then takes its
    /// names, or `all`; the default groups mean all of them) and `--base` a chess engine file.
    #[command(flatten)]
    pub game: GameArgs,
    /// Progress output.
    #[command(flatten)]
    pub progress: ProgressArgs,
}

/// Checks the numeric arguments before any work.
fn check_args(args: &TexelArgs) -> anyhow::Result<f64> {
    check_fit_args(&args.fit, args.lambda, args.k)?;
    if args.epochs == 0 {
        bail!("--epochs must be at least 1");
    }
    if args.patience.is_some() && args.fit.validation == 0.0 {
        bail!("--patience stops on the validation loss: give --validation above 0");
    }
    let lr = args
        .lr
        .unwrap_or_else(|| args.optimizer.default_learning_rate());
    if !(lr.is_finite() && lr > 0.0) {
        bail!("--lr {lr} must be a positive number");
    }
    Ok(lr)
}

/// `chuhan tune texel`: exit 0 when the results are written, 2 on unusable input.
pub fn run(args: &TexelArgs) -> anyhow::Result<u8> {
    let lr = check_args(args)?;
    if args.game.chess960().is_some() {
        bail!("--chess960/--variant: tune texel reads standard chess positions only");
    }
    if args.game.kind() == Some(GameKind::Chess) {
        return run_chess_texel(args, lr);
    }
    let tuned = select_params(&args.params, true).context("--params")?;
    let base: EngineConfig = match &args.base {
        Some(path) => load_handcrafted_base(path, &builtin_levels())?,
        None => EngineConfig {
            name: "default".into(),
            ..EngineConfig::handcrafted()
        },
    };
    if chuhan_engine::eval::EvalTables::new(&base.params).has_nonlinear_terms() {
        eprintln!(
            "chuhan: warning: the base config switches on a non-linear evaluation term \
             (eval.hanging); Texel tunes the linear part only and ignores it"
        );
    }
    // Held until the outputs are written: one writer per results folder.
    let (out, _lock, pool) = start(args)?;
    let started = Instant::now();

    let (positions, split, problem) = pool.install(|| -> anyhow::Result<_> {
        let positions = within_max_eval(args, texel::read_data(&args.fit.data)?)?;
        let split = texel::split(&positions, args.fit.validation, args.fit.seed());
        check_held_out(args, &split)?;
        let problem = TexelProblem::new(&positions, &split, tuned, base.params.clone());
        Ok((positions, split, problem))
    })?;
    let games = game_count(&positions);
    drop(positions);
    chuhan_arena::interrupt::check()?;
    eprintln!(
        "loaded {} positions from {} games: {} train, {} validation ({:.1} s)",
        split.train.len() + split.validation.len(),
        games,
        split.train.len(),
        split.validation.len(),
        started.elapsed().as_secs_f64()
    );

    let (settings, outcome) = tune_problem(args, &problem, lr, &pool);

    // Stopped early: the weights are not the run's result, so nothing is written.
    chuhan_arena::interrupt::check()?;
    let mut header = header_start(args, None, games, split.train.len(), split.validation.len());
    header.extend([
        format!(
            "params: {} ({} tuned)",
            args.params.join(","),
            problem.tuned.len()
        ),
        format!(
            "base: {}",
            args.base.as_ref().map_or_else(
                || "engine defaults".to_string(),
                |p| p.display().to_string()
            )
        ),
        optimizer_line(args, &settings, lr),
    ]);
    texel::write_outputs(&out, &base, &problem, &outcome, &header)?;
    out!("{}", texel::summary_text(&header, &problem, &outcome, 20));
    outln!("seconds: {:.1}", started.elapsed().as_secs_f64());
    outln!("written: {}", out.display());
    Ok(EXIT_OK)
}

/// The chess parameters `--params` names (indices in [`EvalParams::NAMES`]): chess names or
/// `all`; the default (xiangqi's groups) means all.
fn chess_selection(names: &[String]) -> anyhow::Result<Vec<usize>> {
    let default = names == ["material", "pst", "eval"];
    if default || names.iter().any(|n| n.trim() == "all") {
        return Ok((0..EvalParams::NAMES.len()).collect());
    }
    let mut picked = Vec::new();
    for name in names.iter().map(|n| n.trim()).filter(|n| !n.is_empty()) {
        let Some(i) = EvalParams::NAMES.iter().position(|n| *n == name) else {
            bail!(
                "--params: {}",
                chuhan_arena::jobs::tune::spsa::not_chess_reason(name)
            );
        };
        if !picked.contains(&i) {
            picked.push(i);
        }
    }
    if picked.is_empty() {
        bail!("--params: no parameters selected");
    }
    picked.sort_unstable();
    Ok(picked)
}

/// `chuhan tune texel --game chess`: the same loss, K and optimizers over the chess evaluation
/// table; tuned.toml is a chess engine file.
fn run_chess_texel(args: &TexelArgs, lr: f64) -> anyhow::Result<u8> {
    let tuned = chess_selection(&args.params)?;
    let base: ChessConfig = match &args.base {
        Some(path) => {
            chuhan_arena::play::player::builtin::resolve_chess_engine(&path.to_string_lossy())
                .map_err(|e| anyhow::anyhow!("--base {}: {e}", path.display()))?
        }
        None => ChessConfig {
            name: "default".into(),
            ..ChessConfig::default()
        },
    };
    // Held until the outputs are written: one writer per results folder.
    let (out, _lock, pool) = start(args)?;
    let started = Instant::now();
    let values: Vec<f64> = EvalParams::NAMES
        .iter()
        .map(|n| f64::from(base.params.get(n).expect("a table name")))
        .collect();
    // The chess table has no ranges: a generous bound that only guards against runaways.
    let bounds = tuned
        .iter()
        .map(|&i| (values[i] - 2000.0, values[i] + 2000.0))
        .collect();
    let (positions, split, problem) = pool.install(|| -> anyhow::Result<_> {
        let positions =
            within_max_eval(args, texel::read_data_for(&args.fit.data, GameKind::Chess)?)?;
        let split = texel::split(&positions, args.fit.validation, args.fit.seed());
        check_held_out(args, &split)?;
        let problem = TexelProblem::with_values(&positions, &split, tuned, &values, bounds);
        Ok((positions, split, problem))
    })?;
    let games = game_count(&positions);
    drop(positions);
    chuhan_arena::interrupt::check()?;
    let (settings, outcome) = tune_problem(args, &problem, lr, &pool);
    chuhan_arena::interrupt::check()?;
    let mut header = header_start(
        args,
        Some("game: chess"),
        games,
        split.train.len(),
        split.validation.len(),
    );
    header.extend([
        format!("params: {} tuned", problem.tuned.len()),
        optimizer_line(args, &settings, lr),
    ]);
    texel::write_chess_outputs(&out, &base, &problem, &outcome, &header)?;
    out!("{}", std::fs::read_to_string(out.join("summary.txt"))?);
    outln!("seconds: {:.1}", started.elapsed().as_secs_f64());
    outln!("written: {}", out.display());
    Ok(EXIT_OK)
}

/// The results folder, locked, and the worker pool. Texel keeps nothing until its outputs are
/// written, so an interrupted run starts again.
fn start(args: &TexelArgs) -> anyhow::Result<(PathBuf, FolderLock, rayon::ThreadPool)> {
    let out = choose_out_dir(args.out.as_deref(), args.fit.force, "texel")?;
    let lock = chuhan_arena::play::results::lock_folder(&out)?;
    if !args.fit.force {
        // Checked again under the lock: another run may have written there since.
        choose_out_dir(Some(&out), false, "texel")?;
    }
    crate::signals::start_again();
    Ok((out, lock, chuhan_arena::thread_pool(args.fit.threads)?))
}

/// The games the positions come from.
fn game_count(positions: &[texel::LabelledPosition]) -> usize {
    positions
        .iter()
        .map(|p| p.game)
        .collect::<std::collections::BTreeSet<u32>>()
        .len()
}

/// With --patience, refuses a split that holds nothing out (too few games for the fraction).
fn check_held_out(args: &TexelArgs, split: &texel::Split) -> anyhow::Result<()> {
    if args.patience.is_some() && split.validation.is_empty() {
        bail!(
            "{}: --patience: no game is held out for validation (--validation {} of too few \
             games); give more games or a larger --validation",
            args.fit.data.display(),
            args.fit.validation
        );
    }
    Ok(())
}

/// summary.txt's line of the optimizer and the target: method, learning rate, epochs, lambda
/// and `--max-eval`.
fn optimizer_line(args: &TexelArgs, settings: &TexelSettings, lr: f64) -> String {
    format!(
        "optimizer: {}, lr {lr}, {} epochs{}, lambda {}{}",
        settings.optimizer,
        settings.epochs,
        settings
            .patience
            .map_or_else(String::new, |p| format!(" at most (patience {p})")),
        settings.lambda,
        args.fit
            .max_eval
            .map_or_else(String::new, |m| format!(", max-eval {m}"))
    )
}

/// The positions `--max-eval` keeps (all without it); saying how many it left out.
fn within_max_eval(
    args: &TexelArgs,
    mut positions: Vec<texel::LabelledPosition>,
) -> anyhow::Result<Vec<texel::LabelledPosition>> {
    if let Some(max) = args.fit.max_eval {
        let dropped = texel::drop_extreme_scores(&mut positions, max);
        eprintln!("left out {dropped} positions scored beyond ±{max} (--max-eval)");
        if positions.is_empty() {
            bail!(
                "{}: no position is scored within ±{max} (--max-eval)",
                args.fit.data.display()
            );
        }
    }
    Ok(positions)
}

/// Tunes `problem` with the run's settings on `pool`, the progress going to the run's reporter.
fn tune_problem(
    args: &TexelArgs,
    problem: &TexelProblem,
    lr: f64,
    pool: &rayon::ThreadPool,
) -> (TexelSettings, texel::TexelOutcome) {
    let settings = TexelSettings {
        epochs: args.epochs,
        learning_rate: lr,
        optimizer: args.optimizer,
        k: args.k,
        lambda: args.lambda,
        patience: args.patience.map(|p| p as usize),
    };
    let mut reporter = ProgressReporter::new(args.progress.audience());
    let outcome = pool
        .install(|| texel::tune_with_progress(problem, &settings, &mut |event| reporter.on(event)));
    (settings, outcome)
}

/// The first lines of summary.txt for both games: version and git state, the game when it is
/// not xiangqi, the data file and the positions' split.
fn header_start(
    args: &TexelArgs,
    game: Option<&str>,
    games: usize,
    train: usize,
    validation: usize,
) -> Vec<String> {
    let (commit, dirty) = chuhan_arena::play::results::git_state();
    let mut lines = vec![format!(
        "chuhan {} (git {commit}, dirty {dirty})",
        env!("CARGO_PKG_VERSION")
    )];
    lines.extend(game.map(str::to_string));
    lines.push(format!("data: {}", args.fit.data.display()));
    lines.push(format!(
        "positions: {} from {games} games ({train} train, {validation} validation; seed {}, validation fraction {})",
        train + validation,
        args.fit.seed(),
        args.fit.validation
    ));
    lines
}

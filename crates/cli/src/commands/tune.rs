//! `chuhan tune texel` (load labelled positions, fit K, tune, write the results folder) and the
//! dispatch to `chuhan tune spsa` ([`super::spsa`]).

use crate::args::{FitDataArgs, NnueArgs, TexelArgs, TuneCommand};
use crate::EXIT_OK;
use anyhow::{bail, Context};
use chuhan_arena::jobs::tune::texel::{self, TexelProblem, TexelSettings};
use chuhan_arena::jobs::tune::{choose_out_dir, select_params};
use chuhan_arena::play::any::GameKind;
use chuhan_arena::play::config::{builtin_levels, load_handcrafted_base};
use chuhan_arena::report::ProgressReporter;
use chuhan_engine::chess::{ChessConfig, EvalParams};
use chuhan_engine::EngineConfig;
use std::time::Instant;

/// Runs a `chuhan tune` method.
pub fn run(command: &TuneCommand) -> anyhow::Result<u8> {
    match command {
        TuneCommand::Texel(args) => run_texel(args),
        TuneCommand::Spsa(args) => super::spsa::run(args),
        TuneCommand::Nnue(args) => run_nnue(args),
    }
}

/// `chuhan tune nnue`: exit 0 when the network and its files are written, 2 on unusable input.
fn run_nnue(args: &NnueArgs) -> anyhow::Result<u8> {
    use chuhan_arena::jobs::tune::nnue;
    check_fit_args(&args.fit, args.lambda, Some(args.k))?;
    if args.epochs == 0 || args.patience == 0 || args.batch == 0 {
        bail!("--epochs, --patience and --batch must be at least 1");
    }
    if args.hidden == 0 || args.hidden > chuhan_engine::eval::nnue::MAX_HIDDEN {
        bail!(
            "--hidden {} must be 1..={}",
            args.hidden,
            chuhan_engine::eval::nnue::MAX_HIDDEN
        );
    }
    if !(args.lr.is_finite() && args.lr > 0.0) {
        bail!("--lr {} must be a positive number", args.lr);
    }
    let out = choose_out_dir(args.out.as_deref(), args.fit.force, "nnue")?;
    let _lock = chuhan_arena::play::results::lock_folder(&out)?;
    if !args.fit.force {
        choose_out_dir(Some(&out), false, "nnue")?;
    }
    crate::signals::start_again();
    let pool = chuhan_arena::thread_pool(args.fit.threads)?;
    let started = Instant::now();
    let source = args.fit.data.display().to_string();
    let (train, validation, games) = pool.install(|| -> anyhow::Result<_> {
        let text = std::fs::read_to_string(&args.fit.data)
            .with_context(|| format!("cannot read {source}"))?;
        let mut positions = texel::parse_data(&text, &source)?;
        if let Some(max) = args.fit.max_eval {
            let dropped = texel::drop_extreme_scores(&mut positions, max);
            if !args.quiet {
                eprintln!("left out {dropped} positions scored beyond ±{max} (--max-eval)");
            }
        }
        if positions.is_empty() {
            bail!("{source}: no positions to train on");
        }
        let split = texel::split(&positions, args.fit.validation, args.fit.seed);
        let games = positions
            .iter()
            .map(|p| p.game)
            .collect::<std::collections::BTreeSet<u32>>()
            .len();
        let pick = |idx: &[usize]| {
            idx.iter()
                .map(|&i| positions[i].clone())
                .collect::<Vec<_>>()
        };
        let train = nnue::samples(&text, &source, &pick(&split.train), args.k, args.lambda)?;
        let validation = nnue::samples(
            &text,
            &source,
            &pick(&split.validation),
            args.k,
            args.lambda,
        )?;
        Ok((train, validation, games))
    })?;
    if train.is_empty() {
        bail!("{source}: every game is held out; give more games or a smaller --validation");
    }
    chuhan_arena::interrupt::check()?;
    if !args.quiet {
        eprintln!(
            "loaded {} positions from {games} games: {} train, {} validation ({:.1} s)",
            train.len() + validation.len(),
            train.len(),
            validation.len(),
            started.elapsed().as_secs_f64()
        );
    }
    let settings = nnue::NnueSettings {
        hidden: args.hidden,
        epochs: args.epochs,
        patience: Some(args.patience),
        learning_rate: args.lr,
        batch: args.batch,
        seed: args.fit.seed,
        k: args.k,
        residual: args.residual,
    };
    let quiet = args.quiet;
    let outcome = pool.install(|| {
        nnue::train(
            &train,
            &validation,
            &settings,
            &mut |e| {
                if !quiet {
                    eprintln!(
                        "epoch {}: train {:.6} validation {:.6}",
                        e.epoch, e.train, e.validation
                    );
                }
            },
            &|| chuhan_arena::interrupt::check().is_err(),
        )
    });
    // Stopped early: the weights are not the run's result, so nothing is written.
    chuhan_arena::interrupt::check()?;
    let (commit, dirty) = chuhan_arena::play::results::git_state();
    let last = outcome.history.last().copied();
    let summary = [
        format!(
            "chuhan {} (git {commit}, dirty {dirty})",
            env!("CARGO_PKG_VERSION")
        ),
        format!("data: {source}"),
        format!(
            "positions: {} from {games} games ({} train, {} validation; seed {}, validation fraction {})",
            train.len() + validation.len(),
            train.len(),
            validation.len(),
            args.fit.seed,
            args.fit.validation
        ),
        format!(
            "network: 1260 -> {} x2 -> 1, SCReLU, QA {} QB {} SCALE {}{}",
            args.hidden,
            nnue::QA,
            nnue::QB,
            nnue::SCALE,
            if args.residual {
                ", residual (added to the handcrafted evaluation)"
            } else {
                ""
            }
        ),
        format!(
            "settings: adam lr {}, batch {}, {} epochs at most (patience {}), K {}, lambda {}{}",
            args.lr,
            args.batch,
            args.epochs,
            args.patience,
            args.k,
            args.lambda,
            args.fit.max_eval
                .map_or_else(String::new, |m| format!(", max-eval {m}"))
        ),
        format!(
            "epochs run: {}; kept epoch {}",
            last.map_or(0, |e| e.epoch),
            outcome.kept
        ),
        format!(
            "loss of the kept network (float): train {:.6} validation {:.6}",
            outcome.history[outcome.kept].train, outcome.history[outcome.kept].validation
        ),
        format!(
            "loss of the kept network (quantised, as the engine evaluates): train {:.6} validation {:.6}",
            outcome.quantised.0, outcome.quantised.1
        ),
        format!(
            "loss of the handcrafted evaluation (engine defaults): train {:.6} validation {:.6}",
            outcome.handcrafted.0, outcome.handcrafted.1
        ),
    ]
    .join("\n")
        + "\n";
    let write = |name: &str, bytes: &[u8]| -> anyhow::Result<()> {
        let path = out.join(name);
        std::fs::write(&path, bytes).with_context(|| format!("cannot write {}", path.display()))
    };
    write("network.nnue", &outcome.network.to_bytes())?;
    write(
        "engine.toml",
        format!(
            "# Written by chuhan tune nnue: the default engine with the network of this folder.\n\
             name = \"nnue-{}\"\nnetwork = \"network.nnue\"\n",
            args.hidden
        )
        .as_bytes(),
    )?;
    let mut csv = String::from("epoch,train_loss,validation_loss\n");
    for e in &outcome.history {
        csv.push_str(&format!("{},{},{}\n", e.epoch, e.train, e.validation));
    }
    write("nnue.csv", csv.as_bytes())?;
    write("summary.txt", summary.as_bytes())?;
    out!("{summary}");
    outln!("seconds: {:.1}", started.elapsed().as_secs_f64());
    outln!("written: {}", out.display());
    Ok(EXIT_OK)
}

/// The arguments `tune texel` and `tune nnue` share, checked before any work: their
/// [`FitDataArgs`], and `--lambda` and `--k` (`None`: texel fits K), which each declares with
/// its own default.
fn check_fit_args(fit: &FitDataArgs, lambda: f64, k: Option<f64>) -> anyhow::Result<()> {
    let FitDataArgs {
        threads,
        validation,
        max_eval,
        ..
    } = *fit;
    if threads == Some(0) {
        bail!("--threads must be at least 1");
    }
    if !(0.0..1.0).contains(&validation) {
        bail!("--validation {validation} must be at least 0 and below 1");
    }
    if !(0.0..=1.0).contains(&lambda) {
        bail!("--lambda {lambda} must be between 0 and 1");
    }
    if let Some(max) = max_eval {
        if !(max.is_finite() && max >= 0.0) {
            bail!("--max-eval {max} must be a number of at least 0");
        }
    }
    if let Some(k) = k {
        if !(k.is_finite() && k > 0.0) {
            bail!("--k {k} must be a positive number");
        }
    }
    Ok(())
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
fn run_texel(args: &TexelArgs) -> anyhow::Result<u8> {
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
    let out = choose_out_dir(args.out.as_deref(), args.fit.force, "texel")?;
    // Held until the outputs are written: one writer per results folder.
    let _lock = chuhan_arena::play::results::lock_folder(&out)?;
    if !args.fit.force {
        // Checked again under the lock: another run may have written there since.
        choose_out_dir(Some(&out), false, "texel")?;
    }
    // Texel keeps nothing until its outputs are written: an interrupted run starts again.
    crate::signals::start_again();
    let pool = chuhan_arena::thread_pool(args.fit.threads)?;
    let started = Instant::now();

    let (positions, split, problem) = pool.install(|| -> anyhow::Result<_> {
        let positions = within_max_eval(args, texel::read_data(&args.fit.data)?)?;
        let split = texel::split(&positions, args.fit.validation, args.fit.seed);
        check_held_out(args, &split)?;
        let problem = TexelProblem::new(&positions, &split, tuned, base.params.clone());
        Ok((positions, split, problem))
    })?;
    let games = positions
        .iter()
        .map(|p| p.game)
        .collect::<std::collections::BTreeSet<u32>>()
        .len();
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
    let out = choose_out_dir(args.out.as_deref(), args.fit.force, "texel")?;
    let _lock = chuhan_arena::play::results::lock_folder(&out)?;
    if !args.fit.force {
        choose_out_dir(Some(&out), false, "texel")?;
    }
    crate::signals::start_again();
    let pool = chuhan_arena::thread_pool(args.fit.threads)?;
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
        let split = texel::split(&positions, args.fit.validation, args.fit.seed);
        check_held_out(args, &split)?;
        let problem = TexelProblem::with_values(&positions, &split, tuned, &values, bounds);
        Ok((positions, split, problem))
    })?;
    let games = positions
        .iter()
        .map(|p| p.game)
        .collect::<std::collections::BTreeSet<u32>>()
        .len();
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
        args.fit.seed,
        args.fit.validation
    ));
    lines
}

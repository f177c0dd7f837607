//! `chuhan tune spsa`: flags to a validated [`SpsaConfig`], the library's SPSA job, the final
//! table and the SPRT that must confirm the gain.

use crate::common::flags::RunArgs;
use crate::EXIT_OK;
use anyhow::{bail, Context};
use chuhan_arena::jobs::tune::spsa::{
    self, parse_param_file_for, resolve_base_for, Gains, SpsaConfig, DEFAULT_ITERATIONS,
    DEFAULT_NODES,
};
use chuhan_arena::play::openings::OpeningSource;
use chuhan_arena::play::setup::DEFAULT_SEED;
use chuhan_arena::report::table;
use clap::Args;
use std::path::PathBuf;

/// `chuhan tune spsa`.
#[derive(Debug, Args)]
#[command(group(clap::ArgGroup::new("spsa_params").args(["params_file", "params"])))]
pub struct SpsaArgs {
    /// Parameter file: lines `name, start, min, max, c_end, r_end` (fishtest format, `#`
    /// comments).
    #[arg(long)]
    pub params_file: Option<PathBuf>,
    /// Parameter names, comma-separated: start from the base engine, min and max from the
    /// table, c_end = (max - min) / 20, r_end = 0.002.
    #[arg(long)]
    pub params: Option<String>,
    /// Iterations N (default 1000).
    #[arg(long)]
    pub iterations: Option<u64>,
    /// Game pairs per iteration (default 1), all at the same perturbation.
    #[arg(long)]
    pub pairs_per_iteration: Option<u64>,
    /// Evaluate iteration k at theta after iteration k-1-LAG (default 0: plain sequential
    /// SPSA); LAG > 0 lets LAG+1 iterations run at once. Results never depend on --concurrency.
    #[arg(long)]
    pub lag: Option<u64>,
    /// The engine to tune: `default`, `handcrafted` (the handcrafted evaluation, whose
    /// parameters act only there), a level name, or an engine .toml file (default: default).
    #[arg(long)]
    pub base: Option<String>,
    /// Also write games.pgn (every game of every iteration; `--pgn-format` implies it).
    #[arg(long)]
    pub pgn: bool,
    /// The play flags shared with match and sprt (spsa takes a node or depth limit and no
    /// adjudication or shard; nodes default to 2000).
    #[command(flatten)]
    pub run: RunArgs,
}

/// Runs `chuhan tune spsa`.
pub fn run(args: &SpsaArgs) -> anyhow::Result<u8> {
    reject_unsupported(&args.run)?;
    // On --resume the settings come from the run; a command line that gives parameters must
    // then describe the same run.
    let given = args.params_file.is_some() || args.params.is_some();
    let from_args = (args.run.dir.resume.is_none() || given).then(|| config_from_args(args));
    // Held until the run ends: one writer per results folder.
    let (config, destination, _lock) = spsa::choose_config(
        from_args,
        args.run.dir.resume.as_deref(),
        args.run.dir.out.as_deref(),
    )?;
    crate::signals::resume_with(&[
        "chuhan",
        "tune",
        "spsa",
        "--resume",
        &destination.path().to_string_lossy(),
    ]);
    let outcome = spsa::run(
        &config,
        &destination,
        args.run.session.concurrency,
        args.run.session.audience(),
    )?;
    let rows: Vec<Vec<String>> = outcome
        .spsa
        .params
        .iter()
        .zip(&outcome.theta)
        .map(|(p, t)| {
            vec![
                p.name.clone(),
                format!("{}", p.start),
                format!("{t:.3}"),
                format!("{}", t.round() as i64),
                format!("{}", p.min),
                format!("{}", p.max),
            ]
        })
        .collect();
    out!(
        "{}",
        table(
            &["parameter", "start", "theta", "tuned", "min", "max"],
            &rows
        )
    );
    outln!();
    outln!(
        "{} iterations; played {} games in {:.1} s on {} workers; results in {}",
        outcome.spsa.gains.iterations,
        outcome.played,
        outcome.seconds,
        outcome.concurrency,
        outcome.dir.display()
    );
    outln!("accept the tuned values only after an SPRT against the start values:");
    outln!("  {}", outcome.sprt_command);
    Ok(EXIT_OK)
}

/// Builds the configuration from the command line (validated; nothing written).
fn config_from_args(args: &SpsaArgs) -> anyhow::Result<SpsaConfig> {
    let game = args.run.game.kind().unwrap_or_default();
    if args.run.game.chess960().is_some() {
        bail!("--chess960/--variant: tune spsa plays standard chess only (Chess960 runs: match, sprt, ladder, calibrate)");
    }
    let base = args.base.clone().unwrap_or_else(|| "default".into());
    let (base_config, base_hash) = resolve_base_for(&base, game)?;
    let params = match (&args.params_file, &args.params) {
        (Some(path), _) => {
            let text = std::fs::read_to_string(path)
                .with_context(|| format!("cannot read parameter file {}", path.display()))?;
            parse_param_file_for(&text, &path.display().to_string(), game)?
        }
        (None, Some(list)) => base_config.params_from_names(list)?,
        (None, None) => bail!("give --params-file FILE or --params name,name"),
    };
    let iterations = args.iterations.unwrap_or(DEFAULT_ITERATIONS);
    if iterations == 0 {
        bail!("--iterations must be at least 1");
    }
    let pairs_per_iteration = args.pairs_per_iteration.unwrap_or(1);
    if pairs_per_iteration == 0 {
        bail!("--pairs-per-iteration must be at least 1");
    }
    let limit = args.run.limit(Some(DEFAULT_NODES))?;
    let (openings, positions) = args.run.opening_source()?;
    if let (OpeningSource::File { path, .. }, Some(0)) = (&openings, positions) {
        bail!("opening file {} holds no position", path.display());
    }
    let (rules, move_limit, ply_cap) = args.run.game_rules()?;
    let gains = Gains::new(iterations);
    Ok(SpsaConfig {
        command: "tune spsa".into(),
        seed: args.run.seed.or(DEFAULT_SEED),
        iterations,
        pairs_per_iteration,
        lag: args.lag.unwrap_or(0),
        base,
        base_hash,
        rules,
        move_limit,
        ply_cap,
        big_a: gains.big_a,
        alpha: gains.alpha,
        gamma: gains.gamma,
        limit,
        game,
        openings,
        params,
        pgn: (args.pgn || args.run.notation.pgn_format.is_some()).then(|| {
            args.run
                .notation
                .pgn_format
                .clone()
                .unwrap_or_else(|| "iccs".into())
        }),
    })
}

/// The shared play flags that SPSA does not use: it plays node- or depth-limited game pairs,
/// every pair, without adjudication.
fn reject_unsupported(run: &RunArgs) -> anyhow::Result<()> {
    let given = [
        ("--movetime", run.limits.movetime.is_some()),
        ("--tc", run.tc.is_some()),
        ("--resign-score", run.resign_score.is_some()),
        ("--draw-score", run.draw_score.is_some()),
        ("--shard", run.sharding.shard.is_some()),
    ];
    if let Some((flag, _)) = given.iter().find(|(_, given)| *given) {
        bail!("tune spsa does not take {flag}: it plays node- or depth-limited game pairs without adjudication");
    }
    Ok(())
}

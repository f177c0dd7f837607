//! `chuhan datagen`: labelled self-play positions for Texel tuning (format in `chuhan_arena::jobs::datagen`).

use crate::args::{DatagenArgs, ScoreArg};
use crate::EXIT_OK;
use anyhow::bail;
use chuhan_arena::jobs::datagen::{run as generate, DatagenConfig, DatagenEngine, Score};
use chuhan_arena::play::any::GameKind;
use chuhan_arena::play::config::{builtin_levels, resolve_engine};
use chuhan_arena::play::player::builtin::resolve_chess_engine;
use chuhan_arena::play::player::{resolve_player_for, PlayerSpec, PlayerSpecError};
use chuhan_arena::play::schedule::Shard;
use chuhan_arena::report::ProgressReporter;

/// Runs the command.
pub fn run(args: &DatagenArgs) -> anyhow::Result<u8> {
    if args.games == 0 || args.nodes == 0 {
        bail!("--games and --nodes must be at least 1");
    }
    if args.session.concurrency == Some(0) {
        bail!("--concurrency must be at least 1");
    }
    if args.game.chess960().is_some() {
        // Texel reads data positions by standard rules, so 960 data could not be used yet.
        bail!("--chess960/--variant: datagen plays standard chess only (tune texel reads standard positions)");
    }
    let kind = args.game.kind().unwrap_or_default();
    // An external engine file (a [uci] table) plays through the arena's player; every other
    // spec is a built-in engine, read as before.
    let external = match resolve_player_for(&args.engine, kind) {
        Ok(PlayerSpec::External(e)) => Some(e),
        Err(PlayerSpecError::External(e)) | Err(PlayerSpecError::WrongGame(e)) => {
            bail!("--engine {}: {e}", args.engine)
        }
        _ => None,
    };
    if external.is_some() && args.score.is_some() {
        bail!(
            "--score: {} is an external engine, which has no static evaluation to ask for; its search's score is always recorded (leave --score out)",
            args.engine
        );
    }
    let engine = match kind {
        _ if external.is_some() => {
            let spec = PlayerSpec::External(external.clone().expect("checked"));
            spec.check()
                .map_err(|e| anyhow::anyhow!("--engine {}: {e}", args.engine))?;
            DatagenEngine::External(external.expect("checked"))
        }
        GameKind::Xiangqi => {
            let mut engine = resolve_engine(&args.engine, &builtin_levels())?;
            if let Some(l) = engine.level.as_mut() {
                l.time = None; // reproducible: node budgets decide
            }
            DatagenEngine::Xiangqi(engine)
        }
        // The chess built-ins drop a level's time cap already.
        GameKind::Chess => DatagenEngine::Chess(
            resolve_chess_engine(&args.engine)
                .map_err(|e| anyhow::anyhow!("--engine {}: {e}", args.engine))?,
        ),
    };
    let config = DatagenConfig {
        games: args.games,
        nodes: args.nodes,
        random_plies: args.random_plies,
        skip_plies: args.skip_plies,
        max_plies: args.max_plies,
        seed: args.seed,
        engine,
        shard: args
            .shard
            .as_deref()
            .map(str::parse::<Shard>)
            .transpose()
            .map_err(anyhow::Error::msg)?,
        spec: args.engine.clone(),
        record: args.record.record(),
        score: args.score.map_or(Score::Static, ScoreArg::score),
    };
    // Like every command, `--resume` names what it continues (here the output file).
    let (out, resume) = match (&args.resume, &args.out) {
        (Some(file), _) => (file, true),
        (None, Some(file)) => (file, false),
        (None, None) => bail!("give --out FILE, or --resume FILE to continue one"),
    };
    // Held until the run ends: one writer per output file.
    let _lock = chuhan_arena::play::results::lock_file(out)?;
    crate::signals::resume_with_same_flags();
    let start = std::time::Instant::now();
    let mut reporter = ProgressReporter::new(args.session.audience());
    let (games, positions) = generate(
        &config,
        out,
        resume,
        args.session.concurrency,
        &mut |event| reporter.on(event),
    )?;
    outln!(
        "wrote {games} games, {positions} positions to {} in {:.1} s",
        out.display(),
        start.elapsed().as_secs_f64()
    );
    Ok(EXIT_OK)
}

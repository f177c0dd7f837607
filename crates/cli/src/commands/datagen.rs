//! `chuhan datagen`: labelled self-play positions for Texel tuning (format in `chuhan_arena::jobs::datagen`).

use crate::common::flags::{GameArgs, RunDirArgs, SeedArgs, SessionArgs, ShardArgs};
use crate::EXIT_OK;
use anyhow::bail;
use chuhan_arena::jobs::datagen::{run as generate, DatagenConfig, DatagenEngine, Score};
use chuhan_arena::play::any::GameKind;
use chuhan_arena::play::config::{builtin_levels, resolve_engine};
use chuhan_arena::play::player::builtin::resolve_chess_engine;
use chuhan_arena::play::player::{resolve_player_for, PlayerSpec, PlayerSpecError};
use chuhan_arena::play::setup::DEFAULT_SEED;
use chuhan_arena::report::ProgressReporter;
use clap::Args;

/// `chuhan datagen`.
#[derive(Debug, Args)]
#[command(mut_arg("seed", |a| a.help("Run seed (default 1)")))]
#[command(mut_arg("out", |a| a
    .help(
        "Output file (`FEN;result;ply;eval` lines and `#game` markers); must be absent or empty",
    )
    .required_unless_present("resume")))]
#[command(mut_arg("resume", |a| a
    .help("Continue the interrupted output file FILE (cut after its last complete game)")
    .value_name("FILE")))]
#[command(mut_arg("shard", |a| a.help(
    "Play only games `i` modulo `n` (`--shard i/n`, same seeds as the whole run); the shards' \
     files together hold the whole run's games. Resume a shard with the same flag",
)))]
pub struct DatagenArgs {
    /// Games to play.
    #[arg(long, default_value_t = 200)]
    pub games: u64,
    /// Nodes per move.
    #[arg(long, default_value_t = 4000)]
    pub nodes: u64,
    /// Random plies from the start before the engine plays.
    #[arg(long, default_value_t = 8)]
    pub random_plies: u32,
    /// Positions within this many plies after the random opening are skipped.
    #[arg(long, default_value_t = 4)]
    pub skip_plies: u32,
    /// Games reaching this many plies are scored as draws.
    #[arg(long, default_value_t = 400)]
    pub max_plies: u32,
    /// Run seed.
    #[command(flatten)]
    pub seed: SeedArgs,
    /// The engine that plays both sides (`default`, `handcrafted`, a level, a built-in engine
    /// .toml, or an external engine file with a [uci] table, played at `go nodes N`). Data
    /// for Texel tuning with `--score static`: `handcrafted`.
    #[arg(long, default_value = "default")]
    pub engine: String,
    /// The output file, or the one to resume.
    #[command(flatten)]
    pub dir: RunDirArgs,
    /// One share of the run's games.
    #[command(flatten)]
    pub sharding: ShardArgs,
    /// Which positions are recorded (after the random and skipped plies; never in check).
    #[arg(long, value_enum, default_value_t = RecordArg::QuietBoard)]
    pub record: RecordArg,
    /// What a position's `eval` field holds with a built-in engine: its static evaluation
    /// (the default) or its search's score at the node budget (the target for a network
    /// bootstrapped from the engine's own search). An external engine always records its
    /// search's score, so the flag is refused with one. Resume with the same flag.
    #[arg(long, value_enum)]
    pub score: Option<ScoreArg>,
    /// The game of the self-play (`--engine` then names a chess built-in); resume with the
    /// same flag.
    #[command(flatten)]
    pub game: GameArgs,
    /// Games at once, progress output.
    #[command(flatten)]
    pub session: SessionArgs,
}

/// Which positions datagen records.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum RecordArg {
    /// No capture on the board (positions a static evaluation judges as they stand; few in
    /// xiangqi).
    QuietBoard,
    /// The move played is not a capture (the filter of NNUE data; several times as many).
    QuietMove,
    /// Every position not in check (what a search evaluates).
    All,
}

impl RecordArg {
    /// The arena's name for it.
    pub fn record(self) -> chuhan_arena::jobs::datagen::Record {
        match self {
            RecordArg::QuietBoard => chuhan_arena::jobs::datagen::Record::QuietBoard,
            RecordArg::QuietMove => chuhan_arena::jobs::datagen::Record::QuietMove,
            RecordArg::All => chuhan_arena::jobs::datagen::Record::All,
        }
    }
}

/// What datagen records as a position's score.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum ScoreArg {
    /// The engine's static evaluation.
    Static,
    /// The score of the engine's search from the position (mate scores as they are: about
    /// ±30,000).
    Search,
}

impl ScoreArg {
    /// The arena's name for it.
    pub fn score(self) -> chuhan_arena::jobs::datagen::Score {
        match self {
            ScoreArg::Static => chuhan_arena::jobs::datagen::Score::Static,
            ScoreArg::Search => chuhan_arena::jobs::datagen::Score::Search,
        }
    }
}

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
        seed: args.seed.or(DEFAULT_SEED),
        engine,
        shard: args.sharding.shard,
        spec: args.engine.clone(),
        record: args.record.record(),
        score: args.score.map_or(Score::Static, ScoreArg::score),
    };
    // Like every command, `--resume` names what it continues (here the output file).
    let (out, resume) = match (&args.dir.resume, &args.dir.out) {
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

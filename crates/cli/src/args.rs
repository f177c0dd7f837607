//! Command-line definitions (clap). Parsing only; each command resolves and validates its
//! arguments in its own module.

use chuhan_arena::jobs::tune::texel::Optimizer;
use chuhan_arena::report::Audience;
use clap::builder::{PossibleValuesParser, TypedValueParser};
use clap::{Args, Parser, Subcommand};
use std::path::PathBuf;

/// Chuhan: a fast, rules-exact xiangqi engine and the harness that tests and tunes it.
#[derive(Debug, Parser)]
#[command(name = "chuhan", version, about, long_about = None)]
pub struct Cli {
    /// The command to run.
    #[command(subcommand)]
    pub command: Command,
}

/// Every subcommand.
#[derive(Debug, Subcommand)]
pub enum Command {
    /// Count legal move paths (perft) for one position or check a whole suite.
    Perft(PerftArgs),
    /// Write moves in a notation (UCI, ICCS, WXF, Chinese), one line per move.
    Notation(NotationArgs),
    /// Elo, nElo, LOS and (with bounds) the SPRT log-likelihood ratio of given counts.
    Stats(StatsArgs),
    /// Play game pairs between two or more players (a round robin) and report the scores.
    Match(MatchArgs),
    /// Play a base player against a test player until an SPRT accepts a hypothesis.
    Sprt(SprtArgs),
    /// Search fixed positions to a fixed depth: prints the node-count signature and speed.
    Bench(BenchArgs),
    /// Play moves from a FEN under the game rules and print the verdict.
    Judge(JudgeArgs),
    /// Play a ladder of players (default: the embedded levels ladder) and fit joint ratings.
    Ladder(LadderArgs),
    /// Place difficulty levels at target Elo steps by fitting a curve over one knob's grid.
    Calibrate(CalibrateArgs),
    /// Merge the shard folders of a `--shard i/n` run (match, ladder, sprt) into one folder.
    Merge(MergeArgs),
    /// Joint ratings of PGN files (ours, cutechess-cli's, fastchess's), as Ordo fits them.
    Rate(crate::commands::rate::RateArgs),
    /// Self-play positions labelled with game results, for Texel tuning.
    Datagen(DatagenArgs),
    /// Speak UCI on stdin/stdout (for GUIs and other harnesses; xiangqi moves in a0-i9).
    Uci(UciArgs),
    /// List the tunable parameters: name, default, min, max, step, group.
    Params(ParamsArgs),
    /// Tune parameters (`chuhan tune texel`, `chuhan tune spsa`).
    #[command(subcommand)]
    Tune(TuneCommand),
    /// Check a UCI engine's protocol (uciok, options, isready in search, stop, time, perft).
    EngineCheck(EngineCheckArgs),
    /// Serve run folders (reports updating live, every game) and play in a browser, on
    /// 127.0.0.1 only.
    Serve(ServeArgs),
    /// Play a player in the browser: starts the web server on 127.0.0.1 and prints the page.
    Play(PlayArgs),
}

/// How the browser games are played (`serve`, `play`).
#[derive(Debug, Args)]
pub struct WebPlayArgs {
    /// Nodes per move of the player (default 10000).
    #[arg(long)]
    pub nodes: Option<u64>,
    /// Depth per move of the player.
    #[arg(long)]
    pub depth: Option<u32>,
    /// Milliseconds per move of the player.
    #[arg(long)]
    pub movetime: Option<u64>,
    /// Repetition rules: `asian` or `check-only` (default asian).
    #[arg(long)]
    pub rules: Option<chuhan_engine::RuleSet>,
    /// Port on 127.0.0.1 (0: any free port).
    #[arg(long, default_value_t = 8080)]
    pub port: u16,
    /// The game the page offers first (xiangqi or chess).
    #[command(flatten)]
    pub game: GameArgs,
}

/// `chuhan serve`.
#[derive(Debug, Args)]
pub struct ServeArgs {
    /// The folder whose run folders are listed.
    #[arg(default_value = "results")]
    pub dir: PathBuf,
    /// The opponent the play page offers first.
    #[arg(long, default_value = "easy")]
    pub player: String,
    /// Limits, rules and port.
    #[command(flatten)]
    pub web: WebPlayArgs,
}

/// `chuhan play`.
#[derive(Debug, Args)]
pub struct PlayArgs {
    /// The opponent: a level, `default`, `handcrafted`, an engine file or an external engine file.
    #[arg(long, default_value = "easy")]
    pub player: String,
    /// Folder the games are saved in as PGN (`game-<n>.pgn`).
    #[arg(long, default_value = "results/play")]
    pub save: PathBuf,
    /// Do not open the page in the desktop's browser (it is opened only when a display is
    /// set and `xdg-open` exists).
    #[arg(long)]
    pub no_open: bool,
    /// Limits, rules and port.
    #[command(flatten)]
    pub web: WebPlayArgs,
}

/// `chuhan engine-check`.
#[derive(Debug, Args)]
pub struct EngineCheckArgs {
    /// The engine file (a .toml file with a `[uci]` table).
    pub file: PathBuf,
    /// The `go movetime` (ms) of the time check.
    #[arg(long, default_value_t = 300)]
    pub movetime: u64,
    /// How late (ms) past the move time a `bestmove` may come.
    #[arg(long, default_value_t = 150)]
    pub time_margin: u64,
    /// The perft depth compared with ours when the engine offers `go perft`.
    #[arg(long, default_value_t = 3)]
    pub perft_depth: u32,
    /// The game the engine plays: xiangqi (default) or chess. The positions searched and
    /// counted, the legality of its bestmoves and its perft are judged by that game's rules; an
    /// engine file of the other game (its `game = ...`) is an error naming it.
    #[arg(long, value_enum, default_value_t = GameArg::Xiangqi)]
    pub game: GameArg,
}

/// `chuhan tune` methods.
#[derive(Debug, Subcommand)]
// Parsed once per process: the size of the largest variant costs nothing.
#[allow(clippy::large_enum_variant)]
pub enum TuneCommand {
    /// Texel tuning: fit the linear evaluation weights to game results by gradient descent.
    Texel(TexelArgs),
    /// SPSA (fishtest-compatible): perturb the parameters, play game pairs, follow the result.
    Spsa(SpsaArgs),
    /// Train a network (NNUE: 1,260 inputs per side → hidden → 1) on labelled positions; the
    /// folder gets network.nnue and an engine file that plays with it.
    Nnue(NnueArgs),
}

/// The flags `tune texel` and `tune nnue` share: the labelled positions, their split, the
/// threads and --force.
#[derive(Debug, Args)]
pub struct FitDataArgs {
    /// Labelled positions, one `FEN;result;ply;eval` a line (`chuhan datagen` output).
    #[arg(long)]
    pub data: PathBuf,
    /// Seed for the train/validation split (and, for nnue, the initial weights and the
    /// shuffles).
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Fraction of games (or positions, without `#game` markers) held out for validation.
    #[arg(long, default_value_t = 0.1)]
    pub validation: f64,
    /// Leave out positions whose recorded score (the data's `eval` field) is beyond this many
    /// centipawns either way, such as mate scores (default: keep every position).
    #[arg(long)]
    pub max_eval: Option<f64>,
    /// Worker threads (default: all cores). Results do not depend on it.
    #[arg(long)]
    pub threads: Option<usize>,
    /// Write into a non-empty --out folder, replacing its files.
    #[arg(long)]
    pub force: bool,
}

/// `chuhan tune nnue`.
#[derive(Debug, Args)]
pub struct NnueArgs {
    /// The data, its split, threads and --force.
    #[command(flatten)]
    pub fit: FitDataArgs,
    /// Hidden units per side.
    #[arg(long, default_value_t = 32)]
    pub hidden: usize,
    /// Epochs at most.
    #[arg(long, default_value_t = 100)]
    pub epochs: usize,
    /// Early stopping: end once this many epochs pass without a new lowest validation loss
    /// (the weights of the lowest are written either way).
    #[arg(long, default_value_t = 8)]
    pub patience: usize,
    /// Adam's step size.
    #[arg(long, default_value_t = 0.002)]
    pub lr: f32,
    /// Positions per step.
    #[arg(long, default_value_t = 4096)]
    pub batch: usize,
    /// Scaling constant K of the sigmoid (win probability of K × centipawns).
    #[arg(long, default_value_t = 0.68)]
    pub k: f64,
    /// Weight of the game result in the target, from 0 to 1 (0: the recorded scores only, for
    /// `datagen --engine` data).
    #[arg(long, default_value_t = 0.0)]
    pub lambda: f64,
    /// Train the network as a correction added to the handcrafted evaluation (the engine then
    /// evaluates with both) instead of a replacement for it.
    #[arg(long)]
    pub residual: bool,
    /// Output folder (default: results/<date>-nnue). Must be empty unless --force.
    #[arg(long)]
    pub out: Option<PathBuf>,
    /// No progress output on stderr.
    #[arg(long)]
    pub quiet: bool,
}

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

/// `chuhan judge`.
#[derive(Debug, Args)]
pub struct JudgeArgs {
    /// The starting position, as FEN (xiangqi: ranks 0-9, `w` = Red to move).
    #[arg(long)]
    pub fen: String,
    /// Moves separated by spaces: xiangqi in UCI form with ranks 0-9 ("h2e2 h9g7"); chess in
    /// UCI ("e2e4 e7e5") or SAN ("e4 e5 Nf3"), mixed as you like.
    #[arg(long, default_value = "")]
    pub moves: String,
    /// Xiangqi repetition rules: `asian` (perpetual check and perpetual chase lose; the
    /// default) or `check-only`. Not for chess.
    #[arg(long)]
    pub rules: Option<chuhan_engine::RuleSet>,
    /// Xiangqi: plies without a capture after which the game is drawn (0: no limit; default
    /// 120). Not for chess, whose fifty-move rule is fixed (100 plies without a capture or pawn
    /// move).
    #[arg(long)]
    pub move_limit: Option<u16>,
    /// The game: xiangqi (default) or chess (checkmate, stalemate, threefold repetition, the
    /// fifty-move rule, insufficient material).
    #[arg(long, value_enum, default_value_t = GameArg::Xiangqi)]
    pub game: GameArg,
    /// Print one JSON object: {"result", "reason", "ply"}.
    #[arg(long)]
    pub json: bool,
}

/// `chuhan stats`.
#[derive(Debug, Args)]
pub struct StatsArgs {
    /// Counts, low to high: `L,D,W` (games) or `LL,LD,DD_WL,WD,WW` (game pairs).
    #[arg(long)]
    pub counts: String,
    /// SPRT H0 bound (with --elo1).
    #[arg(long, requires = "elo1", allow_hyphen_values = true)]
    pub elo0: Option<f64>,
    /// SPRT H1 bound (with --elo0).
    #[arg(long, requires = "elo0", allow_hyphen_values = true)]
    pub elo1: Option<f64>,
    /// Scale of the bounds: `normalized` (nElo) or `logistic` (Elo).
    #[arg(long, default_value = "normalized")]
    pub model: String,
    /// SPRT type I error.
    #[arg(long, default_value_t = 0.05)]
    pub alpha: f64,
    /// SPRT type II error.
    #[arg(long, default_value_t = 0.05)]
    pub beta: f64,
    /// Print one JSON object instead of text.
    #[arg(long)]
    pub json: bool,
}

/// How a command that plays games runs them: games at once and progress output. Shared by
/// match, sprt, spsa, ladder, calibrate and datagen.
#[derive(Debug, Args, Clone)]
pub struct SessionArgs {
    /// Games played at once (default: all cores). Results do not depend on it. (`--threads`
    /// is for threads inside one computation: perft, Texel tuning.)
    #[arg(long)]
    pub concurrency: Option<usize>,
    /// Progress output.
    #[command(flatten)]
    pub progress: ProgressArgs,
}

impl SessionArgs {
    /// Who the progress output is for.
    pub fn audience(&self) -> Audience {
        self.progress.audience()
    }
}

/// How progress is shown on stderr: every long-running command takes these.
#[derive(Debug, Args, Clone)]
pub struct ProgressArgs {
    /// No progress output on stderr.
    #[arg(long)]
    pub quiet: bool,
    /// Progress output: `bar`, `plain` (a status line every 5 s) or `json` (one event object a
    /// line). Default: a bar on a terminal, plain lines otherwise.
    #[arg(long, value_name = "FORMAT", conflicts_with = "quiet")]
    pub progress: Option<ProgressFormat>,
}

/// `--progress` formats.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum ProgressFormat {
    /// An indicatif bar.
    Bar,
    /// A plain status line every few seconds.
    Plain,
    /// One JSON object per event.
    Json,
}

impl ProgressArgs {
    /// Who the progress output is for.
    pub fn audience(&self) -> Audience {
        match self.progress {
            Some(ProgressFormat::Bar) => Audience::Terminal,
            Some(ProgressFormat::Plain) => Audience::Plain,
            Some(ProgressFormat::Json) => Audience::Json,
            None => Audience::detect(self.quiet),
        }
    }
}

/// The play flags shared by `chuhan match`, `chuhan sprt` and `chuhan tune spsa`: limits,
/// openings, seed, rules, adjudication, results folder, and the session flags.
#[derive(Debug, Args, Clone)]
#[command(group(clap::ArgGroup::new("limit").args(["nodes", "depth", "movetime", "tc"])))]
#[command(group(clap::ArgGroup::new("dir").args(["out", "resume"])))]
pub struct RunArgs {
    /// Nodes per move (the default limit, reproducible: 10000; tune spsa: 2000).
    #[arg(long)]
    pub nodes: Option<u64>,
    /// Depth per move.
    #[arg(long)]
    pub depth: Option<u32>,
    /// Milliseconds per move.
    #[arg(long)]
    pub movetime: Option<u64>,
    /// Clock: `moves/seconds+increment` (e.g. 40/60+0.6) or `seconds+increment`.
    #[arg(long)]
    pub tc: Option<String>,
    /// Opening file: one FEN or EPD per line (`#` comments allowed), or a PGN book (`*.pgn`, one
    /// opening per record); shuffled by the seed.
    #[arg(long)]
    pub openings: Option<std::path::PathBuf>,
    /// Random plies from the start for generated openings (default 6); with a PGN book
    /// (`--openings FILE.pgn`), at most this many of each record's moves (default: all).
    #[arg(long)]
    pub opening_plies: Option<u32>,
    /// Run seed (default 1): the same seed and options give the same games.
    #[arg(long)]
    pub seed: Option<u64>,
    /// Results folder (default results/<date>-<name>/); must be absent or empty.
    #[arg(long)]
    pub out: Option<std::path::PathBuf>,
    /// Continue the interrupted run in this folder.
    #[arg(long)]
    pub resume: Option<std::path::PathBuf>,
    /// Repetition rules: `asian` or `check-only` (default asian).
    #[arg(long)]
    pub rules: Option<chuhan_engine::RuleSet>,
    /// Moves per side after which the judge draws the game (default 120).
    #[arg(long)]
    pub move_limit: Option<u16>,
    /// Resign adjudication: centipawn threshold (with --resign-plies).
    #[arg(long, requires = "resign_plies")]
    pub resign_score: Option<i32>,
    /// Resign adjudication: consecutive plies both sides agree.
    #[arg(long, requires = "resign_score")]
    pub resign_plies: Option<u32>,
    /// Draw adjudication: centipawn threshold (with --draw-plies).
    #[arg(long, requires = "draw_plies")]
    pub draw_score: Option<i32>,
    /// Draw adjudication: consecutive plies within the threshold.
    #[arg(long, requires = "draw_score")]
    pub draw_plies: Option<u32>,
    /// Draw adjudication: first ply it may apply (default 0).
    #[arg(long, requires = "draw_score")]
    pub draw_after: Option<u32>,
    /// Draw any game that reaches this many plies.
    #[arg(long)]
    pub ply_cap: Option<u32>,
    /// Play only pairs `i` modulo `n` (`--shard i/n`).
    #[arg(long)]
    pub shard: Option<String>,
    /// Move notation of games.pgn: `iccs` (default), `wxf` or `chinese`.
    #[arg(long, value_parser = ["iccs", "wxf", "chinese"])]
    pub pgn_format: Option<String>,
    /// The game played.
    #[command(flatten)]
    pub game: GameArgs,
    /// Games at once, progress output.
    #[command(flatten)]
    pub session: SessionArgs,
}

/// The game a run plays: one flag for match, sprt and ladder.
#[derive(Debug, Args, Clone)]
pub struct GameArgs {
    /// The game: xiangqi (the default) or chess. Every player must play it; a ladder file may
    /// say `game = "chess"` instead, and a resumed run keeps the game it started with.
    #[arg(long, value_enum)]
    pub game: Option<GameArg>,
    /// Chess960 (with chess): games start from the 960 start positions (Scharnagl numbers,
    /// chosen by the seed; both games of a pair from the same one) or from `--openings` of
    /// Chess960 FEN/EPD lines, castling by Chess960's rules; external engines are sent
    /// `UCI_Chess960`.
    #[arg(long, conflicts_with = "variant")]
    pub chess960: bool,
    /// The chess variant: `standard` (the default) or `chess960` (as `--chess960`).
    #[arg(long, value_parser = ["standard", "chess960"])]
    pub variant: Option<String>,
}

impl GameArgs {
    /// Chess960 asked for (`--chess960`, `--variant chess960`): `Some(true)`; `--variant
    /// standard`: `Some(false)`; neither: `None`.
    pub fn chess960(&self) -> Option<bool> {
        if self.chess960 {
            return Some(true);
        }
        self.variant.as_deref().map(|v| v == "chess960")
    }

    /// The game asked for, if `--game` was given.
    pub fn kind(&self) -> Option<chuhan_arena::play::any::GameKind> {
        self.game.map(|g| match g {
            GameArg::Xiangqi => chuhan_arena::play::any::GameKind::Xiangqi,
            GameArg::Chess => chuhan_arena::play::any::GameKind::Chess,
        })
    }
}

/// `chuhan match`.
#[derive(Debug, Args)]
pub struct MatchArgs {
    /// A player: `random`, `greedy` (give two or more; more make a round robin).
    #[arg(long = "player")]
    pub players: Vec<String>,
    /// Game pairs per pairing.
    #[arg(long)]
    pub pairs: Option<u64>,
    /// Shared run options.
    #[command(flatten)]
    pub run: RunArgs,
}

/// `chuhan sprt`.
#[derive(Debug, Args)]
pub struct SprtArgs {
    /// The reference player.
    #[arg(long)]
    pub base: Option<String>,
    /// The player under test.
    #[arg(long)]
    pub test: Option<String>,
    /// H0 bound.
    #[arg(long, allow_hyphen_values = true)]
    pub elo0: Option<f64>,
    /// H1 bound.
    #[arg(long, allow_hyphen_values = true)]
    pub elo1: Option<f64>,
    /// Scale of the bounds: `normalized` (nElo) or `logistic` (Elo).
    #[arg(long)]
    pub model: Option<String>,
    /// Type I error (default 0.05).
    #[arg(long)]
    pub alpha: Option<f64>,
    /// Type II error (default 0.05).
    #[arg(long)]
    pub beta: Option<f64>,
    /// Give up after this many pairs (default 20000).
    #[arg(long)]
    pub max_pairs: Option<u64>,
    /// Shared run options.
    #[command(flatten)]
    pub run: RunArgs,
}

/// `chuhan bench`.
#[derive(Debug, Args)]
pub struct BenchArgs {
    /// Search depth (the signature is defined at the default: 8 for xiangqi, 9 for chess).
    #[arg(long)]
    pub depth: Option<u32>,
    /// An external engine file (`[uci]` table): run its `bench` and read `Nodes searched : N`
    /// and `Nodes/second : N` (stdout or stderr) instead of the built-in bench.
    #[arg(long, conflicts_with = "depth")]
    pub engine: Option<PathBuf>,
    /// A network file (`chuhan tune nnue`'s network.nnue): the built-in xiangqi bench with
    /// the network as the evaluation (its node count is not the signature).
    #[arg(long, conflicts_with = "engine")]
    pub network: Option<PathBuf>,

    /// The built-in xiangqi bench with the handcrafted evaluation instead of the default
    /// engine's network (for speed comparisons; its node count is not the signature).
    #[arg(long, conflicts_with_all = ["network", "engine"])]
    pub handcrafted: bool,
    /// Words sent after `bench` (Stockfish: `16 1 13` = hash, threads, depth).
    #[arg(long, requires = "engine", allow_hyphen_values = true)]
    pub bench_args: Option<String>,
    /// The expected node count (signature): exit 1 when the bench gives another.
    #[arg(long)]
    pub expect: Option<u64>,
    /// The game: xiangqi (default) or chess, whose engine has its own bench positions and
    /// signature. With --engine, the engine file must play that game (its `game = ...`).
    #[arg(long, value_enum, default_value_t = GameArg::Xiangqi)]
    pub game: GameArg,
}

/// `chuhan params`.
#[derive(Debug, Args)]
pub struct ParamsArgs {
    /// The game: xiangqi (default; the table of `chuhan_engine::params`) or chess (the chess
    /// evaluation's table, with the ranges and steps `tune spsa --game chess --params` uses).
    #[arg(long, value_enum, default_value_t = GameArg::Xiangqi)]
    pub game: GameArg,
}

/// `chuhan perft`.
#[derive(Debug, Args)]
#[command(group(clap::ArgGroup::new("input").required(true).args(["fen", "suite"])))]
pub struct PerftArgs {
    /// The position, as FEN (ranks 0-9, `w` = Red to move). Use with --depth.
    #[arg(long, requires = "depth")]
    pub fen: Option<String>,
    /// Depth for --fen.
    #[arg(long)]
    pub depth: Option<u32>,
    /// With --fen: print `MOVE: COUNT` per legal root move, then `total: COUNT`.
    #[arg(long, requires = "fen")]
    pub divide: bool,
    /// A suite file of lines `FEN ;D1 n ;D2 n ...` (`#` comments allowed).
    #[arg(long, conflicts_with_all = ["fen", "depth", "divide"])]
    pub suite: Option<PathBuf>,
    /// With --suite: skip listed depths above this.
    #[arg(long, requires = "suite")]
    pub max_depth: Option<u32>,
    /// Worker threads (default: all cores). 1 is strictly single-threaded.
    #[arg(long)]
    pub threads: Option<usize>,
    /// The game: xiangqi (default; FEN ranks 0-9) or chess. With --engine, the engine file must
    /// play that game (its `game = ...`), and its divide is compared with our rules of it.
    #[arg(long, value_enum, default_value_t = GameArg::Xiangqi)]
    pub game: GameArg,
    /// An external engine file (`[uci]` table): compare its `go perft` divide with our counts
    /// and, on a difference, walk down to the position where the move lists differ.
    #[arg(long, conflicts_with_all = ["divide", "threads"])]
    pub engine: Option<PathBuf>,
    /// With --game chess: read the FEN (or every suite FEN) as Chess960, so a castling right
    /// may have its king and rook on any files (`KQkq` as the outermost rooks, or the rooks'
    /// files as in `HFhf`), and --divide writes castling as the king taking its own rook.
    #[arg(long)]
    pub chess960: bool,
}

/// `chuhan notation`.
#[derive(Debug, Args)]
pub struct NotationArgs {
    /// The start position, as FEN (default: the standard start of the game).
    #[arg(long)]
    pub fen: Option<String>,
    /// The moves, space-separated: xiangqi in UCI (`h2e2`) or any other notation (ICCS, WXF,
    /// Chinese); chess in UCI (`e2e4`, `e7e8q`) or SAN (`Nf3`, `exd5`, `e8=Q`, `O-O`).
    #[arg(long, allow_hyphen_values = true)]
    pub moves: String,
    /// The notation to write: xiangqi iccs (default), uci, wxf or chinese; chess san (default)
    /// or uci.
    #[arg(long)]
    pub format: Option<String>,
    /// The game: xiangqi (default) or chess.
    #[arg(long, value_enum, default_value_t = GameArg::Xiangqi)]
    pub game: GameArg,
}

/// `chuhan ladder`.
#[derive(Debug, Args)]
#[command(group(clap::ArgGroup::new("dir").args(["out", "resume"])))]
pub struct LadderArgs {
    /// Ladder file (default: the embedded configs/ladder.toml).
    #[arg(long)]
    pub config: Option<PathBuf>,
    /// Game pairs per pairing (overrides the file).
    #[arg(long)]
    pub pairs: Option<u64>,
    /// Run seed (overrides the file).
    #[arg(long)]
    pub seed: Option<u64>,
    /// Ignored, kept so older scripts still run: the 95% intervals are honest (profile
    /// likelihood, exact one-sided bounds after perfect scores), not bootstrapped.
    #[arg(long, hide = true)]
    pub bootstrap: Option<usize>,
    /// Play in rounds until every neighbour gap's 95% half-width is at most this many Elo:
    /// each round's game pairs go to the pairings that shrink the widest gap most, a gap whose
    /// interval still holds 0 counting as twice as wide (the first round plays --pairs per
    /// pairing). Reproducible: the same seed gives the same games at any
    /// --concurrency, and --resume continues the round it was in.
    #[arg(long, allow_negative_numbers = true)]
    pub precision: Option<f64>,
    /// With --precision: stop after at most this many games in all.
    #[arg(long)]
    pub max_games: Option<u64>,
    /// With --precision: stop after this much wall time (e.g. 90s, 5m, 1h). A time budget makes
    /// the run not reproducible: a faster or busier machine plays other games.
    #[arg(long)]
    pub max_time: Option<String>,
    /// Results folder (default results/<date>-ladder-<name>/); must be absent or empty.
    #[arg(long)]
    pub out: Option<PathBuf>,
    /// Continue the interrupted ladder in this folder.
    #[arg(long)]
    pub resume: Option<PathBuf>,
    /// Play only pairs `i` modulo `n` (`--shard i/n`) of a ladder with a fixed schedule (no
    /// precision); `chuhan merge` joins the shard folders.
    #[arg(long)]
    pub shard: Option<String>,
    /// The game played (must agree with the file's `game`).
    #[command(flatten)]
    pub game: GameArgs,
    /// Games at once, progress output.
    #[command(flatten)]
    pub session: SessionArgs,
}

/// `chuhan merge`.
#[derive(Debug, Args)]
pub struct MergeArgs {
    /// The merged folder (absent or empty).
    #[arg(long, required_unless_present = "check", conflicts_with = "check")]
    pub out: Option<PathBuf>,
    /// Write nothing: print where the run stands and exit 0 when it can be merged (every
    /// shard complete, or the sprt decided), 1 when not yet, 2 for unusable folders.
    #[arg(long)]
    pub check: bool,
    /// The shard folders, any order (e.g. RUN_DIR/shard-*).
    #[arg(required = true, value_name = "SHARD_DIR")]
    pub shards: Vec<PathBuf>,
}

/// `chuhan datagen`.
#[derive(Debug, Args)]
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
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// The engine that plays both sides (`default`, `handcrafted`, a level, a built-in engine
    /// .toml, or an external engine file with a [uci] table, played at `go nodes N`). Data
    /// for Texel tuning with `--score static`: `handcrafted`.
    #[arg(long, default_value = "default")]
    pub engine: String,
    /// Output file (`FEN;result;ply;eval` lines and `#game` markers); must be absent or empty.
    #[arg(long, required_unless_present = "resume", conflicts_with = "resume")]
    pub out: Option<PathBuf>,
    /// Continue the interrupted output file FILE (cut after its last complete game).
    #[arg(long, value_name = "FILE")]
    pub resume: Option<PathBuf>,
    /// Play only games `i` modulo `n` (`--shard i/n`, same seeds as the whole run); the
    /// shards' files together hold the whole run's games. Resume a shard with the same flag.
    #[arg(long)]
    pub shard: Option<String>,
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

/// `chuhan calibrate`.
#[derive(Debug, Args)]
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
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Ignored, kept so older scripts still run: the intervals are honest, not bootstrapped.
    #[arg(long, default_value_t = 500, hide = true)]
    pub bootstrap: usize,
    /// Results folder (default results/<date>-calibrate-<knob>/); must be absent or empty.
    #[arg(long, conflicts_with = "resume")]
    pub out: Option<PathBuf>,
    /// Continue an interrupted calibration in this folder (settings come from it).
    #[arg(long)]
    pub resume: Option<PathBuf>,
    /// Exit 1 when a validated gap does not pass: its 95% interval is not within target ±
    /// --tolerance.
    #[arg(long)]
    pub strict: bool,
    /// A validated gap passes when its 95% interval lies within the target gap ± this many Elo.
    #[arg(long, default_value_t = 50.0)]
    pub tolerance: f64,
    /// Play each stage in rounds until every neighbour gap's 95% half-width is at most this many
    /// Elo (the grid's gaps and the validated gaps; the first round plays --pairs and
    /// --validate-pairs per pairing). Reproducible at any --concurrency; --resume continues the
    /// round it was in.
    #[arg(long)]
    pub precision: Option<f64>,
    /// With --precision: the grid stage's own target half-width (default: --precision).
    #[arg(long)]
    pub grid_precision: Option<f64>,
    /// With --precision: at most this many games in each stage.
    #[arg(long)]
    pub max_games: Option<u64>,
    /// With --precision: wall-time budget of this session (e.g. 30m, 1h), the grid first, the
    /// validation with what is left. Not reproducible: a busier machine plays fewer games.
    #[arg(long)]
    pub max_time: Option<String>,
    /// The game played.
    #[command(flatten)]
    pub game: GameArgs,
    /// Play one stage's shard `i/n` on this machine (fixed budgets only: no --precision), into
    /// --out; `chuhan merge` joins a stage's shards into the calibration folder the next stage
    /// starts from. Needs --stage.
    #[arg(long, requires = "stage", conflicts_with = "resume")]
    pub shard: Option<String>,
    /// With --shard: the stage, grid (first; settings from the flags) or validate (settings
    /// and placed levels from --from).
    #[arg(long, requires = "shard")]
    pub stage: Option<String>,
    /// With --stage validate: the calibration folder `chuhan merge` wrote from the grid's
    /// shards.
    #[arg(long, requires = "stage")]
    pub from: Option<PathBuf>,
    /// Move notation of every stage's games.pgn: `iccs` (default), `wxf` or `chinese`.
    #[arg(long, value_parser = ["iccs", "wxf", "chinese"])]
    pub pgn_format: Option<String>,
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

/// Which game a command plays.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, clap::ValueEnum)]
pub enum GameArg {
    /// Xiangqi (Chinese chess), the default.
    #[default]
    Xiangqi,
    /// Chess (international chess).
    Chess,
}

impl GameArg {
    /// The arena's name for the game.
    pub fn kind(self) -> chuhan_arena::play::any::GameKind {
        match self {
            GameArg::Xiangqi => chuhan_arena::play::any::GameKind::Xiangqi,
            GameArg::Chess => chuhan_arena::play::any::GameKind::Chess,
        }
    }
}

/// `chuhan uci` options.
#[derive(Debug, Args)]
pub struct UciArgs {
    /// The game to speak UCI for.
    #[arg(long, value_enum, default_value_t = GameArg::Xiangqi)]
    pub game: GameArg,
}

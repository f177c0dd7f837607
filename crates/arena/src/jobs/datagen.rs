//! Self-play data for Texel tuning: seeded, parallel, node-limited games with random opening
//! plies, written as labelled quiet positions. The output is plain text, one position a line:
//!
//! ```text
//! FEN;result;ply;eval
//! #game INDEX RESULT POSITIONS
//! ```
//!
//! `result` is the game's result from Red's view (`1`, `0.5`, `0`), `ply` the game ply,
//! `eval` the static evaluation from Red's view (for an external engine, which has no static
//! evaluation to ask for, the score it reported for its search from the position, or 0 when
//! it reported none). Chess files (`--game chess`) have the same
//! lines with a chess FEN, White in Red's place; their manifest says `game = "chess"`. Each game's block ends with a `#game` marker,
//! so an interrupted file is resumed by cutting it after the last marker. Games are written
//! in index order whatever the concurrency, so the same seed gives the same file.
//!
//! Beside the output, `FILE.manifest.toml` records who wrote it and the settings that decide
//! its games ([`DatagenSettings`], and the engine file's text if the engine is one); a resume
//! refuses a file without one (not written by datagen) and other settings or an edited engine
//! file, so one file never mixes two data sets. `--games` may grow on resume: game `i` is the
//! same game whatever the total.
//!
//! `--record` chooses the positions: `quiet-board` (the default) keeps those with no capture on
//! the board, `quiet-move` those where the move played is not a capture (several times as
//! many in xiangqi, where some capture is on the board in most positions), `all` every
//! position (the kinds a search evaluates, for networks). None keeps a position in check.

use crate::play::any::{AnyGame, AnyMove, GameKind};
use crate::play::limits::MoveLimits;
use crate::play::player::uci::{ExternalEngine, ExternalPlayer};
use crate::play::player::{playable_moves, Player as _, PlayerFailure};
use crate::play::results::{
    check_engine_files, engine_build_note, engine_files, recorded_signature, Manifest, ResultsError,
};
use crate::play::schedule::Shard;
use crate::report::Progress;
use chuhan_engine::chess::{self, ChessConfig, ChessEngine};
use chuhan_engine::{
    Color, Engine, EngineConfig, Game, GameConfig, GameResult, GenKind, Limits, MoveList, Position,
};
use rand::{Rng, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;
use rayon::prelude::*;
use serde::{Deserialize, Serialize};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// Datagen settings.
#[derive(Clone, Debug)]
pub struct DatagenConfig {
    /// Games to play in total.
    pub games: u64,
    /// Node budget per move.
    pub nodes: u64,
    /// Random plies from the start position before the engines take over.
    pub random_plies: u32,
    /// Positions within this many plies after the random opening are not recorded.
    pub skip_plies: u32,
    /// Ply cap: games longer than this are scored as draws.
    pub max_plies: u32,
    /// Run seed.
    pub seed: u64,
    /// The engine that plays both sides (and so the game).
    pub engine: DatagenEngine,
    /// The spec `engine` was resolved from (`default`, a level, an engine file), as recorded.
    pub spec: String,
    /// Play only the games whose index is `i` modulo `n` (same seeds as the whole run); the
    /// shards' files together hold the whole run's games.
    pub shard: Option<Shard>,
    /// Which positions are recorded.
    pub record: Record,
    /// What a recorded position's `eval` field holds (built-in engines; an external engine's
    /// is always its search score).
    pub score: Score,
}

/// What a built-in engine's datagen records as a position's score.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Score {
    /// The engine's static evaluation: with `handcrafted` its parameters' evaluation (the
    /// target Texel tuning of those parameters needs: `--lambda 0` on it reproduces them);
    /// with `default`, the network's.
    #[default]
    Static,
    /// The score of the engine's search from the position at the run's node budget (the
    /// target of a network bootstrapped from the engine's own search; mate scores are written
    /// as they are, about ±30,000: train with `--max-eval`).
    Search,
}

impl Score {
    /// The flag's spelling (`static`, `search`).
    pub fn name(self) -> &'static str {
        match self {
            Score::Static => "static",
            Score::Search => "search",
        }
    }

    fn is_default(&self) -> bool {
        *self == Score::Static
    }
}

/// Which positions of a game datagen records (after the random and skipped plies).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Record {
    /// Not in check and no capture on the board: positions a static evaluation can judge
    /// as they stand. In xiangqi a capture is on the board in most positions, so a game gives
    /// few of them (about a quarter of its plies).
    #[default]
    QuietBoard,
    /// Not in check and the move the engine plays is not a capture (the filter of NNUE data
    /// sets): the engine found nothing to win by taking, so the position's score is its
    /// static worth. Captures on the board are allowed; a game gives several times as many
    /// positions.
    QuietMove,
    /// Every position not in check, whatever is on the board or played: the kinds of position
    /// a search evaluates, for training a network that must judge them all.
    All,
}

impl Record {
    /// The flag's spelling (`quiet-board`, `quiet-move`).
    pub fn name(self) -> &'static str {
        match self {
            Record::QuietBoard => "quiet-board",
            Record::QuietMove => "quiet-move",
            Record::All => "all",
        }
    }

    fn is_default(&self) -> bool {
        *self == Record::QuietBoard
    }

    /// Whether a position may be recorded before its move is known: not in check, and with
    /// `quiet-board` no capture on the board (asked only then: it generates moves).
    fn admits(self, in_check: bool, capture_on_board: impl FnOnce() -> bool) -> bool {
        !in_check && (self != Record::QuietBoard || !capture_on_board())
    }

    /// Whether an admitted position is kept once its move is known: with `quiet-move`, only
    /// when that move is not a capture.
    fn keeps(self, move_captures: bool) -> bool {
        !(self == Record::QuietMove && move_captures)
    }
}

/// The engine of a datagen run; its game is the run's.
#[derive(Clone, Debug)]
pub enum DatagenEngine {
    /// The xiangqi engine.
    Xiangqi(EngineConfig),
    /// The chess engine.
    Chess(ChessConfig),
    /// An external engine (UCI or UCCI) of its file's game, playing through the arena's
    /// player with a node limit per move (`go nodes N`).
    External(Arc<ExternalEngine>),
}

impl DatagenEngine {
    /// The game this engine plays.
    pub fn game(&self) -> GameKind {
        match self {
            DatagenEngine::Xiangqi(_) => GameKind::Xiangqi,
            DatagenEngine::Chess(_) => GameKind::Chess,
            DatagenEngine::External(e) => e.game,
        }
    }
}

/// What datagen's manifest records: every setting that decides the games, except their number.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct DatagenSettings {
    /// Always `datagen`.
    pub command: String,
    /// Node budget per move.
    pub nodes: u64,
    /// Random opening plies.
    pub random_plies: u32,
    /// Plies not recorded after the opening.
    pub skip_plies: u32,
    /// Ply cap.
    pub max_plies: u32,
    /// Run seed (as text: TOML integers are signed 64-bit).
    #[serde(with = "crate::play::results::as_text")]
    pub seed: u64,
    /// The engine spec.
    pub engine: String,
    /// The shard (`i/n`) when the run plays one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub shard: Option<String>,
    /// The game (`game = "chess"`; not written for xiangqi, so earlier manifests read back
    /// unchanged).
    #[serde(default, skip_serializing_if = "GameKind::is_xiangqi")]
    pub game: GameKind,
    /// Which positions are recorded (not written for `quiet-board`, so earlier manifests read
    /// back unchanged).
    #[serde(default, skip_serializing_if = "Record::is_default")]
    pub record: Record,
    /// What the `eval` field holds (not written for `static`, so earlier manifests read back
    /// unchanged).
    #[serde(default, skip_serializing_if = "Score::is_default")]
    pub score: Score,
}

impl DatagenConfig {
    /// The settings the manifest records.
    pub fn settings(&self) -> DatagenSettings {
        DatagenSettings {
            command: "datagen".into(),
            nodes: self.nodes,
            random_plies: self.random_plies,
            skip_plies: self.skip_plies,
            max_plies: self.max_plies,
            seed: self.seed,
            engine: self.spec.clone(),
            shard: self.shard.map(|s| s.to_string()),
            game: self.engine.game(),
            record: self.record,
            score: self.score,
        }
    }

    /// The game indices this run plays, in order.
    pub fn indices(&self) -> impl Iterator<Item = u64> {
        let (first, step) = self.shard.map_or((0, 1), |s| (s.index, s.count));
        (first..self.games).step_by(step as usize)
    }
}

/// `FILE.manifest.toml`: the manifest of datagen output `FILE`.
pub fn manifest_path(out: &Path) -> PathBuf {
    let mut name = out.as_os_str().to_owned();
    name.push(".manifest.toml");
    PathBuf::from(name)
}

/// Names of the settings that differ between two records.
fn differences(a: &DatagenSettings, b: &DatagenSettings) -> Vec<&'static str> {
    let mut out = Vec::new();
    let mut check = |name, differs: bool| {
        if differs {
            out.push(name);
        }
    };
    check("--nodes", a.nodes != b.nodes);
    check("--random-plies", a.random_plies != b.random_plies);
    check("--skip-plies", a.skip_plies != b.skip_plies);
    check("--max-plies", a.max_plies != b.max_plies);
    check("--seed", a.seed != b.seed);
    check("--engine", a.engine != b.engine);
    check("--shard", a.shard != b.shard);
    check("command", a.command != b.command);
    check("--game", a.game != b.game);
    check("--record", a.record != b.record);
    check("--score", a.score != b.score);
    out
}

/// One recorded position.
#[derive(Clone, Debug, PartialEq)]
pub struct Sample {
    /// Position.
    pub fen: String,
    /// Ply in the game.
    pub ply: u32,
    /// Score from Red's view: the static evaluation, or with [`Score::Search`] (and for an
    /// external engine) the search's score.
    pub eval: i32,
}

impl Sample {
    /// A sample whose `score` is from the side to move's view, stored from the first side's
    /// view (Red, White): negated when the second side is to move.
    fn new(fen: String, ply: u32, score: i32, first_to_move: bool) -> Sample {
        Sample {
            fen,
            ply,
            eval: if first_to_move { score } else { -score },
        }
    }
}

/// A game's result from the first side's view (Red; White in chess, whose results the
/// arena's games report in the same terms): 1, 0 or 0.5 (a draw or no verdict).
fn red_score(result: Option<GameResult>) -> f64 {
    match result {
        Some(GameResult::RedWins) => 1.0,
        Some(GameResult::BlackWins) => 0.0,
        _ => 0.5,
    }
}

/// One finished game's data.
#[derive(Clone, Debug, PartialEq)]
pub struct GameData {
    /// Game index.
    pub index: u64,
    /// Result from Red's view: 1, 0.5 or 0.
    pub result: f64,
    /// Recorded positions.
    pub samples: Vec<Sample>,
}

/// The seed of self-play game `index`: independent of order and concurrency. Not the arena's
/// [`crate::play::schedule::game_seed`]: datagen files made so far depend on this formula, so
/// it keeps its own (and its own name).
pub fn selfplay_seed(run_seed: u64, index: u64) -> u64 {
    let mut z = run_seed ^ index.wrapping_mul(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

fn has_capture(pos: &mut Position) -> bool {
    let mut list = MoveList::new();
    pos.generate_legal(GenKind::Captures, &mut list);
    !list.is_empty()
}

/// Plays one game and records its quiet positions.
pub fn play_selfplay_game(config: &DatagenConfig, index: u64, engine: &mut Engine) -> GameData {
    let seed = selfplay_seed(config.seed, index);
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
    engine.new_game(seed);
    let mut game = Game::new(Position::startpos(), GameConfig::default());
    let mut samples = Vec::new();
    let limits = Limits::nodes(config.nodes);
    let mut verdict = None;
    let mut ply = 0u32;
    while ply < config.max_plies {
        let legal = game.legal_moves();
        if legal.is_empty() {
            break;
        }
        let allowed = playable_moves(&mut game);
        let mv = if ply < config.random_plies {
            allowed[rng.gen_range(0..allowed.len())]
        } else {
            let pos = game.position().clone();
            let candidate = ply >= config.random_plies + config.skip_plies
                && config
                    .record
                    .admits(pos.in_check(), || has_capture(&mut pos.clone()));
            let result = engine.choose_move(&pos, &allowed, &limits, ply as usize, &mut |_| {});
            let mv = result.best_move;
            if candidate && config.record.keeps(pos.is_capture(mv)) {
                let stm = match config.score {
                    Score::Static => engine.searcher_mut().evaluate(&pos),
                    Score::Search => result.score,
                };
                let red_moves = pos.side_to_move() == Color::Red;
                samples.push(Sample::new(pos.to_fen(), ply, stm, red_moves));
            }
            mv
        };
        ply += 1;
        match game.play(mv) {
            Ok(Some(v)) => {
                verdict = Some(v);
                break;
            }
            Ok(None) => {}
            Err(e) => panic!("engine chose an illegal move: {e}"),
        }
    }
    GameData {
        index,
        result: red_score(verdict.map(|v| v.result)),
        samples,
    }
}

/// Plays one chess game and records its quiet positions (not in check, no capture on the
/// board), as [`play_selfplay_game`] does for xiangqi: the same seeds, random opening plies,
/// skipped plies and ply cap; `eval` is the chess static evaluation from White's view.
pub fn play_chess_selfplay_game(
    config: &DatagenConfig,
    index: u64,
    engine: &mut ChessEngine,
) -> GameData {
    let seed = selfplay_seed(config.seed, index);
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
    engine.new_game(seed);
    let mut game = chess::Game::new(chess::Position::startpos());
    let mut samples = Vec::new();
    let limits = Limits::nodes(config.nodes);
    let mut verdict = None;
    let mut ply = 0u32;
    while ply < config.max_plies {
        let legal = game.legal_moves();
        if legal.is_empty() {
            break;
        }
        let mv = if ply < config.random_plies {
            legal.as_slice()[rng.gen_range(0..legal.len())]
        } else {
            let pos = game.position().clone();
            let candidate = ply >= config.random_plies + config.skip_plies
                && config
                    .record
                    .admits(pos.in_check(), || legal.iter().any(|&m| pos.is_capture(m)));
            let result = engine.choose_move(&pos, &limits, ply as usize, &mut |_| {});
            let mv = result.best_move;
            if candidate && config.record.keeps(pos.is_capture(mv)) {
                let stm = match config.score {
                    Score::Static => chess::eval::evaluate(&pos, &engine.config().params),
                    Score::Search => result.score,
                };
                let white_moves = pos.side_to_move() == chess::Color::White;
                samples.push(Sample::new(pos.to_fen(), ply, stm, white_moves));
            }
            mv
        };
        ply += 1;
        match game.play(mv) {
            Ok(Some(v)) => {
                verdict = Some(v);
                break;
            }
            Ok(None) => {}
            Err(e) => panic!("engine chose an illegal move: {e}"),
        }
    }
    let result = match verdict.map(|v| v.result) {
        Some(chess::GameResult::WhiteWins) => 1.0,
        Some(chess::GameResult::BlackWins) => 0.0,
        _ => 0.5,
    };
    GameData {
        index,
        result,
        samples,
    }
}

/// Whether a position may be recorded before its move is known: not in check, and with
/// `quiet-board` no capture on the board.
fn is_quiet(game: &mut AnyGame, record: Record) -> bool {
    if let Some(g) = game.as_xiangqi() {
        let mut p = g.position().clone();
        return record.admits(p.in_check(), || has_capture(&mut p));
    }
    if let Some(g) = game.as_chess() {
        let pos = g.position().clone();
        return record.admits(pos.in_check(), || {
            g.legal_moves().iter().any(|&m| pos.is_capture(m))
        });
    }
    false
}

/// Whether `mv`, about to be played in `game`, is a capture.
fn captures(game: &mut AnyGame, mv: AnyMove) -> bool {
    match (game.as_xiangqi(), mv) {
        (Some(g), AnyMove::Xiangqi(m)) => g.position().is_capture(m),
        _ => match (game.as_chess(), mv) {
            (Some(g), AnyMove::Chess(m)) => g.position().is_capture(m),
            _ => false,
        },
    }
}

/// Plays one game between two sides of an external engine (one process, as in self-play:
/// `ucinewgame` between games) and records its quiet positions, with the same seeds, random
/// opening plies, skipped plies and ply cap as the built-in engines. `eval` is the score the
/// engine reported for its search from the position (first side's view; 0 when it reported
/// none). A failure of the engine (crash, hang, illegal move) ends the game with the failure.
pub fn play_external_game(
    config: &DatagenConfig,
    index: u64,
    player: &mut ExternalPlayer,
    kind: GameKind,
) -> Result<GameData, PlayerFailure> {
    let seed = selfplay_seed(config.seed, index);
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
    player.set_game_index(index);
    player.new_game(seed);
    let mut game = AnyGame::startpos(kind, GameConfig::default());
    let mut samples = Vec::new();
    let limits = MoveLimits {
        nodes: Some(config.nodes),
        ..MoveLimits::default()
    };
    let mut ruling = None;
    let mut ply = 0u32;
    while ply < config.max_plies {
        let allowed = game.playable_moves();
        if allowed.is_empty() {
            break;
        }
        let mv = if ply < config.random_plies {
            allowed[rng.gen_range(0..allowed.len())]
        } else {
            let record = ply >= config.random_plies + config.skip_plies
                && is_quiet(&mut game, config.record);
            let fen = game.fen();
            let first_moves = game.first_to_move();
            let choice = player.choose_move(&mut game, &limits)?;
            if record && config.record.keeps(captures(&mut game, choice.mv)) {
                let score = choice.score.unwrap_or(0);
                samples.push(Sample::new(fen, ply, score, first_moves));
            }
            choice.mv
        };
        ply += 1;
        match game.play(mv) {
            Ok(Some(r)) => {
                ruling = Some(r);
                break;
            }
            Ok(None) => {}
            Err(e) => return Err(PlayerFailure::IllegalMove(e)),
        }
    }
    Ok(GameData {
        index,
        result: red_score(ruling.map(|r| r.result)),
        samples,
    })
}

/// An engine of either game, one per worker thread.
enum Player {
    Xiangqi(Box<Engine>),
    Chess(Box<ChessEngine>),
    External(Box<ExternalPlayer>),
}

impl Player {
    fn new(engine: &DatagenEngine) -> Player {
        match engine {
            DatagenEngine::Xiangqi(c) => Player::Xiangqi(Box::new(Engine::new(c.clone()))),
            DatagenEngine::Chess(c) => Player::Chess(Box::new(ChessEngine::new(c.clone()))),
            DatagenEngine::External(e) => {
                Player::External(Box::new(ExternalPlayer::new(&e.name, (**e).clone())))
            }
        }
    }

    fn play(&mut self, config: &DatagenConfig, index: u64) -> Result<GameData, PlayerFailure> {
        match self {
            Player::Xiangqi(e) => Ok(play_selfplay_game(config, index, e)),
            Player::Chess(e) => Ok(play_chess_selfplay_game(config, index, e)),
            Player::External(p) => {
                let kind = config.engine.game();
                play_external_game(config, index, p, kind)
            }
        }
    }
}

/// Formats a game's block of lines (positions, then the `#game` marker).
pub fn format_game(g: &GameData) -> String {
    let r = if g.result == 1.0 {
        "1"
    } else if g.result == 0.0 {
        "0"
    } else {
        "0.5"
    };
    let mut s = String::new();
    for p in &g.samples {
        s.push_str(&format!("{};{};{};{}\n", p.fen, r, p.ply, p.eval));
    }
    s.push_str(&format!("#game {} {} {}\n", g.index, r, g.samples.len()));
    s
}

/// Why datagen could not start, resume or write its output. Messages name the file and line
/// (or the flag); nothing is changed on disk when a resume is refused.
#[derive(Debug, thiserror::Error)]
pub enum DatagenError {
    /// An external engine failed during a game: the games before it are written and
    /// `--resume` plays that game again.
    #[error("--engine {engine}: game {game}: the engine {failure}; {kept} games before it are in {file} (continue with --resume {file})")]
    EngineFailed {
        /// The engine spec.
        engine: String,
        /// The game's index.
        game: u64,
        /// How it failed.
        failure: PlayerFailure,
        /// The output file.
        file: String,
        /// Games the file holds.
        kept: u64,
    },
    /// A stop request ([`crate::interrupt`]) ended the run between batches; the written games
    /// are whole and `--resume` continues.
    #[error("the run was interrupted")]
    Interrupted(#[from] crate::interrupt::Interrupted),
    /// A complete line that datagen does not write (`line` from 1).
    #[error("{file}: line {line}: not a datagen line (FEN;result;ply;eval or a #game marker); nothing changed")]
    NotDatagenLine {
        /// The output file.
        file: String,
        /// The line.
        line: usize,
    },
    /// A `#game` marker without a game index.
    #[error("{file}: line {line}: malformed #game marker")]
    BadMarker {
        /// The output file.
        file: String,
        /// The line.
        line: usize,
    },
    /// A game out of order.
    #[error("{file}: line {line}: game {found} found where game {expected} was expected")]
    OutOfOrder {
        /// The output file.
        file: String,
        /// The line.
        line: usize,
        /// The game index found.
        found: u64,
        /// The index expected there.
        expected: u64,
    },
    /// A game past the run's last one.
    #[error("{file}: line {line}: game {found} is beyond this run's games")]
    BeyondRun {
        /// The output file.
        file: String,
        /// The line.
        line: usize,
        /// The game index found.
        found: u64,
    },
    /// A file or folder that cannot be read, opened, truncated, created or written.
    #[error("cannot {action} {}", path.display())]
    Io {
        /// `read`, `open`, `truncate`, `create` or `write`.
        action: &'static str,
        /// The file or folder.
        path: PathBuf,
        /// The operating system's reason.
        #[source]
        source: std::io::Error,
    },
    /// `--resume` of a file without a datagen manifest beside it.
    #[error("--resume {file}: {} is missing, so {file} was not written by chuhan datagen (or by a version before datagen manifests); it is left as it is", manifest.display())]
    NoManifest {
        /// The output file.
        file: String,
        /// The manifest's path.
        manifest: PathBuf,
    },
    /// A manifest that does not parse.
    #[error("{}: {error}", path.display())]
    Manifest {
        /// The manifest's path.
        path: PathBuf,
        /// The parser's error (with line and column).
        error: Box<toml::de::Error>,
    },
    /// `--resume` with other settings than the manifest's.
    #[error("--resume {file}: the command line differs from {} ({what}); resume with the settings that wrote the file", manifest.display())]
    SettingsDiffer {
        /// The output file.
        file: String,
        /// The manifest's path.
        manifest: PathBuf,
        /// The settings that differ.
        what: String,
    },
    /// An output that is not UTF-8 text.
    #[error("{0} is not text, so not a datagen file; nothing changed")]
    NotText(String),
    /// A new run onto a file that holds data.
    #[error("{0} exists and is not empty; continue it with --resume {0} or choose another --out")]
    NotEmpty(String),
    /// The manifest could not be written as TOML.
    #[error(transparent)]
    ManifestWrite(#[from] toml::ser::Error),
    /// The engine files, or writing the manifest.
    #[error(transparent)]
    Results(#[from] ResultsError),
    /// The worker threads.
    #[error(transparent)]
    Threads(#[from] crate::ThreadPoolError),
}

/// A [`DatagenError::Io`] naming `path`.
fn io_error(action: &'static str, path: &Path) -> impl FnOnce(std::io::Error) -> DatagenError {
    let path = path.to_path_buf();
    move |source| DatagenError::Io {
        action,
        path,
        source,
    }
}

/// Scans an existing output for resuming: the byte length up to the last complete `#game`
/// marker and the number of games completed. Game markers must be 0, 1, 2, ... in order, and
/// every other complete line a position line (`FEN;result;ply;eval`): nothing that datagen did
/// not write is cut away.
pub fn resume_point(text: &str, source: &str) -> Result<(usize, u64), DatagenError> {
    resume_point_of(text, source, &mut (0..))
}

/// [`resume_point`] for a run that plays the game indices `expected` in order (a shard).
pub fn resume_point_of(
    text: &str,
    source: &str,
    expected: &mut dyn Iterator<Item = u64>,
) -> Result<(usize, u64), DatagenError> {
    let mut offset = 0usize;
    let mut keep = 0usize;
    let mut games = 0u64;
    for (i, line) in text.split_inclusive('\n').enumerate() {
        offset += line.len();
        if !line.ends_with('\n') {
            break; // a truncated last line
        }
        if !line.starts_with("#game ") && !is_position_line(line.trim_end()) {
            return Err(DatagenError::NotDatagenLine {
                file: source.to_string(),
                line: i + 1,
            });
        }
        if let Some(rest) = line.strip_prefix("#game ") {
            let index: u64 = rest
                .split_whitespace()
                .next()
                .and_then(|s| s.parse().ok())
                .ok_or_else(|| DatagenError::BadMarker {
                    file: source.to_string(),
                    line: i + 1,
                })?;
            match expected.next() {
                Some(want) if want == index => {}
                Some(want) => {
                    return Err(DatagenError::OutOfOrder {
                        file: source.to_string(),
                        line: i + 1,
                        found: index,
                        expected: want,
                    })
                }
                None => {
                    return Err(DatagenError::BeyondRun {
                        file: source.to_string(),
                        line: i + 1,
                        found: index,
                    })
                }
            }
            games += 1;
            keep = offset;
        }
    }
    Ok((keep, games))
}

/// `FEN;result;ply;eval` with a result of 1, 0.5 or 0 and numbers for ply and eval.
fn is_position_line(line: &str) -> bool {
    let f: Vec<&str> = line.split(';').collect();
    f.len() == 4
        && !f[0].is_empty()
        && matches!(f[1], "1" | "0.5" | "0")
        && f[2].parse::<u32>().is_ok()
        && f[3].parse::<i32>().is_ok()
}

/// Runs datagen into `out`, resuming when asked, reporting [`Progress`] (games done, positions
/// written) after each batch. Returns (games, positions) written by this call.
pub fn run(
    config: &DatagenConfig,
    out: &Path,
    resume: bool,
    threads: Option<usize>,
    on_progress: &mut dyn FnMut(&Progress),
) -> Result<(u64, u64), DatagenError> {
    let shown = out.display().to_string();
    let existing = match std::fs::read(out) {
        Ok(bytes) => Some(bytes),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => None,
        Err(e) => return Err(io_error("read", out)(e)),
    };
    let settings = config.settings();
    let mpath = manifest_path(out);
    let start = if resume {
        let text = match std::fs::read_to_string(&mpath) {
            Ok(t) => t,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
                return Err(DatagenError::NoManifest {
                    file: shown,
                    manifest: mpath,
                })
            }
            Err(e) => return Err(io_error("read", &mpath)(e)),
        };
        let manifest: Manifest<DatagenSettings> =
            toml::from_str(&text).map_err(|e| DatagenError::Manifest {
                path: mpath.clone(),
                error: Box::new(e),
            })?;
        let diff = differences(&settings, &manifest.config);
        if !diff.is_empty() {
            return Err(DatagenError::SettingsDiffer {
                file: shown,
                manifest: mpath,
                what: diff.join(", "),
            });
        }
        check_engine_files(&manifest.engine_files, [settings.engine.as_str()], out)?;
        if let Some(text) = engine_build_note(
            recorded_signature(&manifest.bench_signature, settings.game),
            settings.game.bench_signature(),
            [settings.engine.as_str()],
            false,
            out,
        ) {
            on_progress(&Progress::Note { text });
        }
        // The manifest is written first: a run killed before its first line has no file yet.
        let text = String::from_utf8(existing.unwrap_or_default())
            .map_err(|_| DatagenError::NotText(shown.clone()))?;
        let (keep, games) = resume_point_of(&text, &shown, &mut config.indices())?;
        let f = std::fs::OpenOptions::new()
            .write(true)
            .create(true)
            .truncate(false)
            .open(out)
            .map_err(io_error("open", out))?;
        f.set_len(keep as u64).map_err(io_error("truncate", out))?;
        games
    } else {
        if existing.is_some_and(|b| !b.is_empty()) {
            return Err(DatagenError::NotEmpty(shown));
        }
        if let Some(dir) = out.parent().filter(|d| !d.as_os_str().is_empty()) {
            std::fs::create_dir_all(dir).map_err(io_error("create", dir))?;
        }
        let mut manifest = Manifest::new(settings.clone());
        manifest.bench_signature = settings.game.bench_signature().to_string();
        manifest.engine_files = engine_files([settings.engine.as_str()])?;
        crate::play::results::write_whole(&mpath, &toml::to_string(&manifest)?)?;
        0
    };
    if let Some(dir) = out.parent().filter(|d| !d.as_os_str().is_empty()) {
        std::fs::create_dir_all(dir).map_err(io_error("create", dir))?;
    }
    let mut file = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(out)
        .map_err(io_error("open", out))?;
    let pool = crate::thread_pool(threads)?;
    let workers = pool.current_num_threads() as u64;
    let batch = (workers * 4).max(1);
    let indices: Vec<u64> = config.indices().collect();
    let total = indices.len() as u64;
    on_progress(&Progress::Started {
        job: "datagen".into(),
        unit: "game".into(),
        total,
        done: start,
        workers: workers as usize,
        line_per_unit: false,
    });
    let mut next = start;
    let mut positions = 0u64;
    while next < total {
        // A stop request ends the run between batches: every written game is whole.
        crate::interrupt::check()?;
        let end = (next + batch).min(total);
        let games: Vec<Option<Result<GameData, PlayerFailure>>> = pool.install(|| {
            indices[next as usize..end as usize]
                .par_iter()
                .map_init(
                    || Player::new(&config.engine),
                    // After a stop request no game begins; those running finish.
                    |engine, &i| (!crate::interrupt::requested()).then(|| engine.play(config, i)),
                )
                .collect()
        });
        // The file holds games in index order: what follows the first game not played is
        // left for --resume (which plays it again, identically).
        let mut failed = None;
        for g in games.iter().map_while(Option::as_ref) {
            let g = match g {
                Ok(g) => g,
                Err(failure) => {
                    failed = Some((indices[next as usize], failure.clone()));
                    break;
                }
            };
            file.write_all(format_game(g).as_bytes())
                .map_err(io_error("write", out))?;
            positions += g.samples.len() as u64;
            next += 1;
        }
        file.flush().map_err(io_error("write", out))?;
        if let Some((game, failure)) = failed {
            return Err(DatagenError::EngineFailed {
                engine: config.spec.clone(),
                game,
                failure,
                file: shown,
                kept: next,
            });
        }
        on_progress(&Progress::Advanced {
            done: next,
            status: format!("{positions} positions"),
        });
    }
    on_progress(&Progress::Finished);
    Ok((next - start, positions))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_filters_admit_and_keep_what_their_names_say() {
        for record in [Record::QuietBoard, Record::QuietMove] {
            // In check: never, and the board is not even looked at.
            assert!(!record.admits(true, || panic!("asked about captures in check")));
        }
        // quiet-board looks at the board; quiet-move does not, and judges the move instead.
        assert!(Record::QuietBoard.admits(false, || false));
        assert!(!Record::QuietBoard.admits(false, || true));
        assert!(Record::QuietMove.admits(false, || panic!("quiet-move asked the board")));
        assert!(Record::QuietBoard.keeps(true) && Record::QuietBoard.keeps(false));
        assert!(Record::QuietMove.keeps(false) && !Record::QuietMove.keeps(true));
        // all admits every position not in check and keeps it whatever the move.
        assert!(Record::All.admits(false, || panic!("all asked the board")));
        assert!(!Record::All.admits(true, || false));
        assert!(Record::All.keeps(true) && Record::All.keeps(false));
    }

    #[test]
    fn samples_and_results_are_stored_from_the_first_sides_view() {
        let s = Sample::new("f".into(), 7, 35, true);
        assert_eq!((s.fen.as_str(), s.ply, s.eval), ("f", 7, 35));
        assert_eq!(Sample::new("f".into(), 8, 35, false).eval, -35);
        assert_eq!(red_score(Some(GameResult::RedWins)), 1.0);
        assert_eq!(red_score(Some(GameResult::BlackWins)), 0.0);
        assert_eq!(red_score(Some(GameResult::Draw)), 0.5);
        assert_eq!(red_score(None), 0.5);
    }
}

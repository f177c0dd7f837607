//! Players: anything that picks a move for a game under limits. Built-in players for testing the
//! harness without a search (`random`, `greedy`); engine configurations and external UCI
//! engines plug in behind the same trait.

use crate::config::{builtin_levels, resolve_engine};
use crate::limits::MoveLimits;
use crate::uci_player::{load_external, ExternalEngine, ExternalPlayer};
use chuhan_engine::{Engine, EngineConfig, Game, Limits, Move, PieceKind, Position};
use rand::{Rng, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;
use std::fmt;
use std::path::Path;
use std::sync::Arc;
use std::time::Duration;

/// A move and what the player said about it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MoveChoice {
    /// The move to play.
    pub mv: Move,
    /// Score in centipawns from the mover's point of view, if the player has one.
    pub score: Option<i32>,
    /// Depth reached, if the player searches.
    pub depth: Option<u32>,
    /// Nodes searched (0 for players that do not search).
    pub nodes: u64,
}

impl MoveChoice {
    /// A bare move with no score, depth or nodes.
    pub fn bare(mv: Move) -> MoveChoice {
        MoveChoice {
            mv,
            score: None,
            depth: None,
            nodes: 0,
        }
    }
}

/// How a player failed to produce a move. Each becomes a lost game with a named termination.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum PlayerFailure {
    /// The player crashed (a panic in-process, or an engine process that died).
    #[error("crashed: {0}")]
    Crash(String),
    /// The player did not answer in time.
    #[error("did not answer in time")]
    Timeout,
    /// The player answered with a move that is not legal.
    #[error("illegal move {0}")]
    IllegalMove(String),
    /// The connection to an external player was lost.
    #[error("disconnected: {0}")]
    Disconnect(String),
}

impl PlayerFailure {
    /// The termination name used in results files.
    pub fn termination(&self) -> &'static str {
        match self {
            PlayerFailure::Crash(_) => "crash",
            PlayerFailure::Timeout => "timeout",
            PlayerFailure::IllegalMove(_) => "illegal-move",
            PlayerFailure::Disconnect(_) => "disconnect",
        }
    }
}

/// Something that plays moves. One instance plays one game at a time and is reused across
/// games (each starting with [`Player::new_game`]).
pub trait Player: Send {
    /// The name used in reports.
    fn name(&self) -> &str;
    /// Tells the player the run's index of the game about to start (called before
    /// [`Player::new_game`]); players that keep per-game logs name them by it.
    fn set_game_index(&mut self, _index: u64) {}
    /// Resets per-game state; `seed` makes any randomness reproducible.
    fn new_game(&mut self, seed: u64);
    /// Picks a move for the side to move. The game is not finished and has a legal move.
    fn choose_move(
        &mut self,
        game: &mut Game,
        limits: &MoveLimits,
    ) -> Result<MoveChoice, PlayerFailure>;
}

/// A resolved player description: validated once, then turned into fresh [`Player`]
/// instances (one per worker thread).
#[derive(Clone, Debug, PartialEq)]
pub enum PlayerSpec {
    /// [`RandomPlayer`].
    Random,
    /// [`GreedyPlayer`].
    Greedy,
    /// The in-process engine ([`EnginePlayer`]) with this configuration.
    Engine(Arc<EngineConfig>),
    /// An external UCI engine ([`ExternalPlayer`]).
    External(Arc<ExternalEngine>),
}

/// Why a player spec could not be resolved.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum PlayerSpecError {
    /// Nothing matched the text, or the engine configuration is invalid.
    #[error("{0} (built-in test players: random, greedy)")]
    Unknown(String),
    /// An external engine file that is not valid.
    #[error("{0}")]
    External(String),
}

/// Resolves a player spec from the command line. The one place that knows every kind of player:
/// `random`, `greedy`, `default` (the engine at full strength), a level name (`easy`, `medium`,
/// `hard`) or an engine configuration file (`configs/engines/*.toml`): the in-process engine,
/// or an external UCI engine when the file has a `[uci]` table.
///
/// In the arena, time comes only from the run's limits: a level's own time cap is dropped so
/// that node- and depth-limited runs stay reproducible.
pub fn resolve_player(text: &str) -> Result<PlayerSpec, PlayerSpecError> {
    match text.trim() {
        "random" => Ok(PlayerSpec::Random),
        "greedy" => Ok(PlayerSpec::Greedy),
        other => {
            match load_external(Path::new(other)) {
                Ok(Some(engine)) => return Ok(PlayerSpec::External(Arc::new(engine))),
                Ok(None) => {}
                Err(e) => return Err(PlayerSpecError::External(format!("{e:#}"))),
            }
            let mut config = resolve_engine(other, &builtin_levels())
                .map_err(|e| PlayerSpecError::Unknown(format!("{e:#}")))?;
            if let Some(level) = config.level.as_mut() {
                level.time = None;
            }
            Ok(PlayerSpec::Engine(Arc::new(config)))
        }
    }
}

impl PlayerSpec {
    /// A fresh player instance named `name`.
    pub fn create(&self, name: &str) -> Box<dyn Player> {
        match self {
            PlayerSpec::Random => Box::new(RandomPlayer::new(name)),
            PlayerSpec::Greedy => Box::new(GreedyPlayer::new(name)),
            PlayerSpec::Engine(config) => Box::new(EnginePlayer::new(name, (**config).clone())),
            PlayerSpec::External(engine) => Box::new(ExternalPlayer::new(name, (**engine).clone())),
        }
    }

    /// Prepares the spec for a run writing to `run_dir` (`name` is the entrant's name):
    /// external engines keep their stderr under `run_dir/engines/<name>/`, with every
    /// character of the name other than letters, digits, `.`, `-` and `_` written `_`
    /// (`configs/engines/x.toml` -> `configs_engines_x.toml`).
    pub fn for_run(&self, name: &str, run_dir: &Path) -> PlayerSpec {
        let folder: String = name
            .chars()
            .map(|c| {
                if c.is_ascii_alphanumeric() || "._-".contains(c) {
                    c
                } else {
                    '_'
                }
            })
            .collect();
        match self {
            PlayerSpec::External(engine) => PlayerSpec::External(Arc::new(ExternalEngine {
                log_dir: Some(run_dir.join("engines").join(folder)),
                ..(**engine).clone()
            })),
            other => other.clone(),
        }
    }

    /// Checks that the player can play before a run starts (external engines are started,
    /// greeted and quit).
    pub fn check(&self) -> anyhow::Result<()> {
        match self {
            PlayerSpec::External(engine) => engine.probe(),
            _ => Ok(()),
        }
    }
}

impl fmt::Display for PlayerSpec {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PlayerSpec::Random => f.write_str("random"),
            PlayerSpec::Greedy => f.write_str("greedy"),
            PlayerSpec::Engine(c) => write!(f, "engine {}", c.name),
            PlayerSpec::External(e) => write!(f, "uci {}", e.name),
        }
    }
}

/// The in-process engine: searches under the move limits (and its level's caps), over the
/// moves that do not forfeit by a repetition rule.
pub struct EnginePlayer {
    name: String,
    engine: Engine,
}

impl EnginePlayer {
    /// An engine player called `name`.
    pub fn new(name: &str, config: EngineConfig) -> EnginePlayer {
        EnginePlayer {
            name: name.to_string(),
            engine: Engine::new(config),
        }
    }
}

/// Search limits for one move. On a clock: about 1/30 of the time left (or of the time to
/// the next control) plus most of the increment, never more than 40% of what is left.
pub fn search_limits(limits: &MoveLimits) -> Limits {
    let mut out = Limits {
        depth: limits.depth,
        nodes: limits.nodes,
        ..Limits::default()
    };
    if let Some(t) = limits.movetime {
        out.soft_time = Some(t);
        out.hard_time = Some(t);
    }
    if let Some(left) = limits.time_left {
        let moves = limits.moves_to_go.unwrap_or(30).clamp(1, 30) as f64;
        let left_s = left.as_secs_f64();
        let soft = (left_s / moves + 0.75 * limits.increment.as_secs_f64()).min(0.4 * left_s);
        let hard = (3.0 * soft).min(0.8 * left_s);
        out.soft_time = Some(Duration::from_secs_f64(soft.max(0.0)));
        out.hard_time = Some(Duration::from_secs_f64(hard.max(0.0)));
    }
    out
}

impl Player for EnginePlayer {
    fn name(&self) -> &str {
        &self.name
    }

    fn new_game(&mut self, seed: u64) {
        self.engine.new_game(seed);
    }

    fn choose_move(
        &mut self,
        game: &mut Game,
        limits: &MoveLimits,
    ) -> Result<MoveChoice, PlayerFailure> {
        let all = game.legal_moves().len();
        let safe = playable_moves(game);
        // Empty candidates mean "all legal moves" to the engine.
        let candidates = if safe.len() == all { Vec::new() } else { safe };
        self.engine.set_rules(game.config().rules);
        let ply = game.moves().len();
        let result = self.engine.choose_move(
            game.position(),
            &candidates,
            &search_limits(limits),
            ply,
            &mut |_| {},
        );
        if result.best_move.is_none() {
            return Err(PlayerFailure::Crash("the search returned no move".into()));
        }
        Ok(MoveChoice {
            mv: result.best_move,
            score: Some(result.score),
            depth: Some(result.depth),
            nodes: result.nodes,
        })
    }
}

/// Legal moves that do not lose by a repetition rule, or all legal moves when every one does.
fn playable_moves(game: &mut Game) -> Vec<Move> {
    let all: Vec<Move> = game.legal_moves().iter().copied().collect();
    let safe: Vec<Move> = all
        .iter()
        .copied()
        .filter(|&mv| !game.would_forfeit(mv))
        .collect();
    if safe.is_empty() {
        all
    } else {
        safe
    }
}

/// Plays a uniformly random legal move, avoiding moves that forfeit when it can.
#[derive(Debug)]
pub struct RandomPlayer {
    name: String,
    rng: Xoshiro256PlusPlus,
}

impl RandomPlayer {
    /// A random player called `name` (seeded by [`Player::new_game`]).
    pub fn new(name: &str) -> RandomPlayer {
        RandomPlayer {
            name: name.to_string(),
            rng: Xoshiro256PlusPlus::seed_from_u64(0),
        }
    }
}

impl Player for RandomPlayer {
    fn name(&self) -> &str {
        &self.name
    }

    fn new_game(&mut self, seed: u64) {
        self.rng = Xoshiro256PlusPlus::seed_from_u64(seed);
    }

    fn choose_move(
        &mut self,
        game: &mut Game,
        _limits: &MoveLimits,
    ) -> Result<MoveChoice, PlayerFailure> {
        let moves = playable_moves(game);
        if moves.is_empty() {
            return Err(PlayerFailure::Crash(
                "asked to move with no legal move".into(),
            ));
        }
        let mv = moves[self.rng.gen_range(0..moves.len())];
        Ok(MoveChoice::bare(mv))
    }
}

/// Material value of a piece kind, in centipawns (a rough scale for the greedy player).
pub fn piece_value(kind: PieceKind) -> i32 {
    match kind {
        PieceKind::General => 10_000,
        PieceKind::Chariot => 900,
        PieceKind::Cannon => 450,
        PieceKind::Horse => 400,
        PieceKind::Advisor | PieceKind::Elephant => 200,
        PieceKind::Soldier => 100,
    }
}

/// The material of one side minus the other's, from Red's point of view (generals excluded).
pub fn material_balance(pos: &Position) -> i32 {
    use chuhan_engine::Color;
    PieceKind::ALL
        .iter()
        .filter(|&&k| k != PieceKind::General)
        .map(|&k| {
            piece_value(k) * (pos.count(Color::Red, k) as i32 - pos.count(Color::Black, k) as i32)
        })
        .sum()
}

/// Captures the most valuable piece it can (ties broken at random), otherwise plays a random
/// move; never a forfeiting move when another exists. Clearly stronger than [`RandomPlayer`].
#[derive(Debug)]
pub struct GreedyPlayer {
    name: String,
    rng: Xoshiro256PlusPlus,
}

impl GreedyPlayer {
    /// A greedy player called `name` (seeded by [`Player::new_game`]).
    pub fn new(name: &str) -> GreedyPlayer {
        GreedyPlayer {
            name: name.to_string(),
            rng: Xoshiro256PlusPlus::seed_from_u64(0),
        }
    }
}

impl Player for GreedyPlayer {
    fn name(&self) -> &str {
        &self.name
    }

    fn new_game(&mut self, seed: u64) {
        self.rng = Xoshiro256PlusPlus::seed_from_u64(seed);
    }

    fn choose_move(
        &mut self,
        game: &mut Game,
        _limits: &MoveLimits,
    ) -> Result<MoveChoice, PlayerFailure> {
        let moves = playable_moves(game);
        if moves.is_empty() {
            return Err(PlayerFailure::Crash(
                "asked to move with no legal move".into(),
            ));
        }
        let pos = game.position();
        let gain = |mv: Move| pos.piece_at(mv.to()).kind().map_or(0, piece_value);
        let best = moves.iter().map(|&mv| gain(mv)).max().unwrap_or(0);
        let top: Vec<Move> = moves
            .iter()
            .copied()
            .filter(|&mv| gain(mv) == best)
            .collect();
        let mv = top[self.rng.gen_range(0..top.len())];
        Ok(MoveChoice::bare(mv))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use chuhan_engine::GameConfig;

    #[test]
    fn specs_resolve_and_unknown_names_are_named() {
        assert_eq!(resolve_player("random"), Ok(PlayerSpec::Random));
        assert_eq!(resolve_player("greedy"), Ok(PlayerSpec::Greedy));
        assert!(matches!(resolve_player("easy"), Ok(PlayerSpec::Engine(_))));
        let err = resolve_player("stockfish").unwrap_err().to_string();
        assert!(err.contains("unknown player 'stockfish'"), "{err}");
    }

    #[test]
    fn greedy_takes_the_most_valuable_piece() {
        // Red chariot on e4 can take a black soldier on e6 or a black chariot on a4.
        let fen = "4k4/9/9/4p4/9/r3R4/9/9/9/3K5 w - - 0 1";
        let pos = Position::from_fen(fen).unwrap();
        let mut game = Game::new(pos, GameConfig::default());
        let mut p = GreedyPlayer::new("g");
        p.new_game(1);
        let choice = p.choose_move(&mut game, &MoveLimits::default()).unwrap();
        assert_eq!(choice.mv.to_uci(), "e4a4");
    }

    #[test]
    fn random_is_reproducible_per_seed() {
        let pick = |seed| {
            let mut game = Game::new(Position::startpos(), GameConfig::default());
            let mut p = RandomPlayer::new("r");
            p.new_game(seed);
            (0..10)
                .map(|_| {
                    let mv = p.choose_move(&mut game, &MoveLimits::default()).unwrap().mv;
                    game.play(mv).unwrap();
                    mv
                })
                .collect::<Vec<_>>()
        };
        assert_eq!(pick(7), pick(7));
        assert_ne!(pick(7), pick(8));
    }
}

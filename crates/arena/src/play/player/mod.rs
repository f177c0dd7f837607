//! Players: anything that picks a move for a game under limits. The trait and its failures live
//! here; the kinds of player each have a module: [`spec`] (resolving a player from its text, the
//! one place that knows every kind), [`builtin`] (the in-process engine), [`simple`] (`random`
//! and `greedy`, for testing the harness without a search), [`uci`] (external UCI and UCCI
//! engines) and [`lines`] (reading their output with bounded memory).

pub mod builtin;
pub mod external_knobs;
pub mod lines;
pub mod simple;
pub mod spec;
pub mod uci;

pub use builtin::{search_limits, EnginePlayer};
pub use simple::SimplePlayer;
pub use spec::{resolve_player, resolve_player_for, PlayerSpec, PlayerSpecError};

use crate::play::any::{AnyGame, AnyMove};
use crate::play::limits::MoveLimits;
use chuhan_engine::{Game, Move};

/// A move and what the player said about it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MoveChoice {
    /// The move to play.
    pub mv: AnyMove,
    /// Score in centipawns from the mover's point of view, if the player has one.
    pub score: Option<i32>,
    /// Depth reached, if the player searches.
    pub depth: Option<u32>,
    /// Nodes searched (0 for players that do not search).
    pub nodes: u64,
}

impl MoveChoice {
    /// A bare move with no score, depth or nodes.
    pub fn bare(mv: AnyMove) -> MoveChoice {
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
        game: &mut AnyGame,
        limits: &MoveLimits,
    ) -> Result<MoveChoice, PlayerFailure>;
}

/// Legal moves of a xiangqi game that do not lose by a repetition rule, or all legal moves
/// when every one does (for code that plays xiangqi only: self-play data, the web board;
/// players use [`AnyGame::playable_moves`]).
pub fn playable_moves(game: &mut Game) -> Vec<Move> {
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

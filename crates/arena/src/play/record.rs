//! What a run produces, as data: a played game (one row of games.csv) and the events the runner
//! reports. The runner ([`crate::play::runner`]) makes them; results, PGN and reports read
//! them without depending on how games are scheduled and played.

use crate::play::game::MoveInfo;
use chuhan_engine::GameResult;
use serde::{Deserialize, Serialize};

/// A finished game, as stored in games.csv (one row each; see
/// [`crate::play::results::csv_fields`]).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct PlayedGame {
    /// Global pair index.
    pub pair: u64,
    /// Global game index.
    pub game: u64,
    /// Pairing index (not in games.csv: the schedule gives it).
    #[serde(skip)]
    pub pairing: usize,
    /// Opening FEN.
    pub opening: String,
    /// Red player's name (the side that moves first: White in chess).
    pub red: String,
    /// Black player's name.
    pub black: String,
    /// Result (`1-0`, `0-1`, `1/2-1/2` in games.csv).
    #[serde(with = "crate::play::results::csv_fields::result")]
    pub result: GameResult,
    /// Termination name.
    pub termination: String,
    /// Plies played.
    pub plies: u32,
    /// Nodes reported by both players.
    pub nodes: u64,
    /// Wall time, seconds.
    #[serde(serialize_with = "crate::play::results::csv_fields::rounded_seconds")]
    pub seconds: f64,
    /// The game's seed.
    pub seed: u64,
    /// Moves, UCI, space separated.
    pub moves: String,
    /// What the mover said about each move (score, depth, nodes, time), for games.pgn; not in
    /// games.csv, so empty for games read back from it.
    #[serde(skip)]
    pub search: Vec<MoveInfo>,
}

impl PlayedGame {
    /// Red's score: 1, 1/2 or 0.
    pub fn red_score(&self) -> f64 {
        match self.result {
            GameResult::RedWins => 1.0,
            GameResult::Draw => 0.5,
            GameResult::BlackWins => 0.0,
        }
    }
}

/// What the runner reports.
#[derive(Clone, Debug)]
pub enum Event {
    /// The run begins: games in the schedule and how many were already done (resume).
    RunStarted {
        /// Games in this schedule.
        total_games: u64,
        /// Games loaded from an earlier run.
        already_done: u64,
        /// Worker threads.
        workers: usize,
    },
    /// A game finished (`resumed`: loaded from an earlier run, not played now).
    GameFinished {
        /// The game.
        record: PlayedGame,
        /// Loaded from an earlier run.
        resumed: bool,
    },
    /// Both games of a pair are done (scores from the pairing's first player's view).
    PairFinished {
        /// Global pair index.
        pair: u64,
        /// Pairing index.
        pairing: usize,
        /// First player's score in the pair's first game.
        first: f64,
        /// First player's score in the second game.
        second: f64,
    },
    /// The stop rule fired at this pair; no new games start.
    Stopped {
        /// The last pair the verdict counts.
        at_pair: u64,
    },
    /// Every worker is done.
    RunFinished {
        /// Games played in this session.
        played: u64,
        /// Stop point, if the stop rule fired.
        stopped_at_pair: Option<u64>,
        /// Whether the run was cancelled from outside before finishing.
        cancelled: bool,
    },
}

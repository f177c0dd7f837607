//! The game judge: how a chess game ends.
//!
//! After every move, in this order:
//!
//! 1. the side to move with no legal move: checkmate (it loses) in check, stalemate (a draw)
//!    otherwise;
//! 2. neither side can ever mate ([`Position::insufficient_material`]: K v K, K and one minor
//!    v K, only bishops all on one colour): draw;
//! 3. the third occurrence of a position (same pieces, side to move, castling rights and
//!    en-passant possibility): draw;
//! 4. 100 plies without a capture or pawn move: draw.
//!
//! Repetition and the fifty-move rule are applied as soon as they hold, as match harnesses
//! do, rather than on a player's claim. Mate on the hundredth ply is a mate (rule 1 first).
//!
//! ```
//! use chuhan_engine::chess::{Game, GameResult, Position, Termination};
//! let pos = Position::from_fen("6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1").unwrap();
//! let mut game = Game::new(pos);
//! let mv = game.position().parse_san("Ra8#").unwrap();
//! let verdict = game.play(mv).unwrap().unwrap();
//! assert_eq!(verdict.result, GameResult::WhiteWins);
//! assert_eq!(verdict.termination, Termination::Checkmate);
//! ```

use super::movegen::MoveList;
use super::position::Position;
use super::types::{Color, Move};
use std::fmt;
use thiserror::Error;

/// Plies without a capture or pawn move after which the game is drawn.
pub const FIFTY_MOVE_PLIES: u16 = 100;

/// The result of a finished game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum GameResult {
    /// White won (`1-0`).
    WhiteWins,
    /// Black won (`0-1`).
    BlackWins,
    /// Drawn (`1/2-1/2`).
    Draw,
}

impl GameResult {
    /// The PGN result text: `1-0`, `0-1` or `1/2-1/2`.
    pub const fn as_pgn(&self) -> &'static str {
        match self {
            GameResult::WhiteWins => "1-0",
            GameResult::BlackWins => "0-1",
            GameResult::Draw => "1/2-1/2",
        }
    }

    /// The result in which `color` wins.
    pub const fn win_for(color: Color) -> GameResult {
        match color {
            Color::White => GameResult::WhiteWins,
            Color::Black => GameResult::BlackWins,
        }
    }

    /// The winning side, `None` for a draw.
    pub const fn winner(&self) -> Option<Color> {
        match self {
            GameResult::WhiteWins => Some(Color::White),
            GameResult::BlackWins => Some(Color::Black),
            GameResult::Draw => None,
        }
    }
}

impl fmt::Display for GameResult {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_pgn())
    }
}

/// How a game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Termination {
    /// The side to move is in check and has no legal move: it loses.
    Checkmate,
    /// The side to move is not in check and has no legal move: draw.
    Stalemate,
    /// Neither side has the material to mate: draw.
    InsufficientMaterial,
    /// The same position for the third time: draw.
    Repetition,
    /// 100 plies without a capture or pawn move: draw.
    FiftyMoves,
}

impl Termination {
    /// Every termination, in a stable order.
    pub const ALL: [Termination; 5] = [
        Termination::Checkmate,
        Termination::Stalemate,
        Termination::InsufficientMaterial,
        Termination::Repetition,
        Termination::FiftyMoves,
    ];

    /// The name used in reports and CSV files, e.g. `fifty-moves`.
    pub const fn as_str(&self) -> &'static str {
        match self {
            Termination::Checkmate => "checkmate",
            Termination::Stalemate => "stalemate",
            Termination::InsufficientMaterial => "insufficient-material",
            Termination::Repetition => "repetition",
            Termination::FiftyMoves => "fifty-moves",
        }
    }
}

impl fmt::Display for Termination {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// The end of a game: who won and why.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Verdict {
    /// The result.
    pub result: GameResult,
    /// Why the game ended.
    pub termination: Termination,
}

impl Verdict {
    /// `loser` loses by `termination`.
    pub const fn loss(loser: Color, termination: Termination) -> Verdict {
        Verdict {
            result: GameResult::win_for(loser.flip()),
            termination,
        }
    }

    /// A draw by `termination`.
    pub const fn draw(termination: Termination) -> Verdict {
        Verdict {
            result: GameResult::Draw,
            termination,
        }
    }
}

impl fmt::Display for Verdict {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} {}", self.result, self.termination)
    }
}

/// The verdict on a position (see the module documentation for the order), `None` while
/// the game goes on. Repetitions are counted over the position's stack.
pub fn judge(pos: &Position) -> Option<Verdict> {
    if !pos.has_legal_move() {
        return Some(if pos.in_check() {
            Verdict::loss(pos.side_to_move(), Termination::Checkmate)
        } else {
            Verdict::draw(Termination::Stalemate)
        });
    }
    if pos.insufficient_material() {
        return Some(Verdict::draw(Termination::InsufficientMaterial));
    }
    if pos.repetition_count() >= 3 {
        return Some(Verdict::draw(Termination::Repetition));
    }
    if pos.halfmove() >= FIFTY_MOVE_PLIES {
        return Some(Verdict::draw(Termination::FiftyMoves));
    }
    None
}

/// A move that is not legal in the position it was played in.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
#[error("{mv} is not a legal move in {fen}")]
pub struct IllegalMove {
    /// The move.
    pub mv: Move,
    /// The position, as FEN.
    pub fen: String,
}

/// A game being played: the position with its history, judged after every move.
#[derive(Clone, Debug)]
pub struct Game {
    position: Position,
    /// Plies already on the position's stack when the game started.
    start_ply: usize,
}

impl Game {
    /// Starts a game from a position. Moves already on the position's stack count as earlier
    /// history for repetitions but not as moves of this game.
    pub fn new(position: Position) -> Game {
        let start_ply = position.ply_count();
        Game {
            position,
            start_ply,
        }
    }

    /// The current position.
    pub fn position(&self) -> &Position {
        &self.position
    }

    /// The moves played since [`Game::new`], oldest first.
    pub fn moves(&self) -> Vec<Move> {
        self.position.history()[self.start_ply..]
            .iter()
            .map(|st| st.mv)
            .collect()
    }

    /// The legal moves in the current position.
    pub fn legal_moves(&self) -> MoveList {
        self.position.legal_moves()
    }

    /// Plays a legal move and judges the position it leads to. An illegal move changes
    /// nothing. The judge does not refuse moves after a verdict: stopping is the caller's
    /// business.
    pub fn play(&mut self, mv: Move) -> Result<Option<Verdict>, IllegalMove> {
        if !self.position.is_legal(mv) {
            return Err(IllegalMove {
                mv,
                fen: self.position.to_fen(),
            });
        }
        self.position.make(mv);
        Ok(self.verdict())
    }

    /// The verdict on the current position, `None` while the game goes on.
    pub fn verdict(&self) -> Option<Verdict> {
        judge(&self.position)
    }
}

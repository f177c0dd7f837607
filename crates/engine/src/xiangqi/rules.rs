//! The judge: plays moves on a position and says when and how a game ends.
//!
//! This is a minimal stand-in with the final API (to be replaced by the real judge): no legal
//! move loses, a threefold repetition is a draw, no attacking material is a draw, and the move
//! limit is a draw. Perpetual check and chase are not detected yet.

use super::movegen::MoveList;
use super::position::Position;
use super::types::{Color, Move};
use std::fmt;
use std::str::FromStr;

/// Which repetition rules apply.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum RuleSet {
    /// Asian rules: perpetual check and perpetual chase lose.
    #[default]
    Asian,
    /// Only perpetual check loses; other repetitions are draws.
    CheckOnly,
}

impl FromStr for RuleSet {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s {
            "asian" => Ok(RuleSet::Asian),
            "check-only" => Ok(RuleSet::CheckOnly),
            _ => Err(format!(
                "unknown rule set '{s}' (expected asian or check-only)"
            )),
        }
    }
}

impl fmt::Display for RuleSet {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            RuleSet::Asian => "asian",
            RuleSet::CheckOnly => "check-only",
        })
    }
}

/// The result of a finished game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum GameResult {
    /// Red won.
    RedWins,
    /// Black won.
    BlackWins,
    /// Drawn.
    Draw,
}

impl GameResult {
    /// The PGN result text.
    pub fn as_pgn(self) -> &'static str {
        match self {
            GameResult::RedWins => "1-0",
            GameResult::BlackWins => "0-1",
            GameResult::Draw => "1/2-1/2",
        }
    }
}

/// Why a game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Termination {
    /// The side to move is in check with no legal move.
    Checkmate,
    /// The side to move has no legal move and is not in check (a loss in xiangqi).
    Stalemate,
    /// One side checked perpetually.
    PerpetualCheck,
    /// One side chased perpetually.
    PerpetualChase,
    /// A position repeated without a forfeit.
    Repetition,
    /// Neither side can give mate.
    NoAttackingMaterial,
    /// The move limit was reached.
    MoveLimit,
}

impl Termination {
    /// A short name for files and reports.
    pub fn as_str(self) -> &'static str {
        match self {
            Termination::Checkmate => "checkmate",
            Termination::Stalemate => "stalemate",
            Termination::PerpetualCheck => "perpetual-check",
            Termination::PerpetualChase => "perpetual-chase",
            Termination::Repetition => "repetition",
            Termination::NoAttackingMaterial => "no-attacking-material",
            Termination::MoveLimit => "move-limit",
        }
    }
}

/// A result with its reason.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Verdict {
    /// Who won.
    pub result: GameResult,
    /// Why.
    pub termination: Termination,
}

/// Rule options of a game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct GameConfig {
    /// Repetition rules.
    pub rules: RuleSet,
    /// Moves (per side) after which the game is drawn.
    pub move_limit: u16,
}

impl Default for GameConfig {
    fn default() -> Self {
        GameConfig {
            rules: RuleSet::Asian,
            move_limit: 120,
        }
    }
}

/// A move that is not legal in the current position.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[error("illegal move {0}")]
pub struct IllegalMove(pub Move);

/// A game in progress: a position, its rules, and the moves played.
#[derive(Clone, Debug)]
pub struct Game {
    position: Position,
    config: GameConfig,
    moves: Vec<Move>,
}

impl Game {
    /// Starts a game from a position.
    pub fn new(position: Position, config: GameConfig) -> Game {
        Game {
            position,
            config,
            moves: Vec::new(),
        }
    }

    /// The current position.
    pub fn position(&self) -> &Position {
        &self.position
    }

    /// The rules.
    pub fn config(&self) -> &GameConfig {
        &self.config
    }

    /// The moves played since the start.
    pub fn moves(&self) -> Vec<Move> {
        self.moves.clone()
    }

    /// Legal moves of the side to move.
    pub fn legal_moves(&mut self) -> MoveList {
        self.position.legal_moves()
    }

    /// Plays a legal move and returns the verdict when it ended the game.
    pub fn play(&mut self, mv: Move) -> Result<Option<Verdict>, IllegalMove> {
        if !self.position.is_legal(mv) {
            return Err(IllegalMove(mv));
        }
        self.position.make(mv);
        self.moves.push(mv);
        Ok(self.verdict())
    }

    /// The verdict of the current position, `None` while the game goes on.
    pub fn verdict(&mut self) -> Option<Verdict> {
        if !self.position.has_legal_move() {
            let result = match self.position.side_to_move() {
                Color::Red => GameResult::BlackWins,
                Color::Black => GameResult::RedWins,
            };
            let termination = if self.position.in_check() {
                Termination::Checkmate
            } else {
                Termination::Stalemate
            };
            return Some(Verdict {
                result,
                termination,
            });
        }
        let draw = |termination| {
            Some(Verdict {
                result: GameResult::Draw,
                termination,
            })
        };
        if self.repetitions() >= 3 {
            return draw(Termination::Repetition);
        }
        if self.position.no_attacking_material() {
            return draw(Termination::NoAttackingMaterial);
        }
        if self.moves.len() >= 2 * self.config.move_limit as usize {
            return draw(Termination::MoveLimit);
        }
        None
    }

    /// Whether playing `mv` would lose by a repetition rule (never, in this stand-in).
    pub fn would_forfeit(&mut self, _mv: Move) -> bool {
        false
    }

    /// How many times the current position has occurred since the last capture.
    fn repetitions(&self) -> usize {
        let key = self.position.key();
        let history = self.position.history();
        let quiet = (self.position.quiet_plies() as usize).min(history.len());
        1 + history[history.len() - quiet..]
            .iter()
            .filter(|st| st.key_before == key)
            .count()
    }
}

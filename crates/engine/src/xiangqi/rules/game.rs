//! [`Game`]: a position judged after every move by the rules of the module documentation.

use super::repetition::{judge_span, repetition_span};
use super::{GameConfig, RepetitionOutcome, Termination, Verdict};
use crate::xiangqi::movegen::MoveList;
use crate::xiangqi::position::Position;
use crate::xiangqi::types::Move;
use thiserror::Error;

/// A move that is not legal in the position it was played in.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
#[error("{mv} is not a legal move in {fen}")]
pub struct IllegalMove {
    /// The move.
    pub mv: Move,
    /// The position, as FEN.
    pub fen: String,
}

/// A game being played: the position with its history, and the rules it is judged by.
///
/// Piece identities for the chase rule are not stored: within a repetition cycle no piece is
/// captured, so the judge gives every piece an identity at the start of the cycle and follows
/// it through the replayed moves.
#[derive(Clone, Debug)]
pub struct Game {
    position: Position,
    config: GameConfig,
    /// Plies already on the position's stack when the game started.
    start_ply: usize,
}

impl Game {
    /// Starts a game from a position. Moves already on the position's stack count as earlier
    /// history for the repetition rules but not as moves of this game.
    pub fn new(position: Position, config: GameConfig) -> Game {
        let start_ply = position.ply_count();
        Game {
            position,
            config,
            start_ply,
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

    /// The moves played since [`Game::new`], oldest first.
    pub fn moves(&self) -> Vec<Move> {
        self.position.history()[self.start_ply..]
            .iter()
            .map(|st| st.mv)
            .collect()
    }

    /// The legal moves in the current position.
    pub fn legal_moves(&mut self) -> MoveList {
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
    pub fn verdict(&mut self) -> Option<Verdict> {
        judge(&mut self.position, &self.config)
    }

    /// Whether playing `mv` now would lose on the spot by the repetition rules (perpetual
    /// check or chase). False for an illegal move.
    pub fn would_forfeit(&mut self, mv: Move) -> bool {
        if !self.position.is_legal(mv) {
            return false;
        }
        let mover = self.position.side_to_move();
        self.position.make(mv);
        let outcome = repetition_span(&self.position, 3)
            .map(|span| judge_span(&self.position, span, self.config.rules));
        self.position.unmake();
        matches!(outcome, Some(RepetitionOutcome::Loses(loser, _)) if loser == mover)
    }
}

/// The verdict on a position under `config` (see the module documentation for the order).
fn judge(pos: &mut Position, config: &GameConfig) -> Option<Verdict> {
    if !pos.has_legal_move() {
        let termination = if pos.in_check() {
            Termination::Checkmate
        } else {
            Termination::Stalemate
        };
        return Some(Verdict::loss(pos.side_to_move(), termination));
    }
    if let Some(span) = repetition_span(pos, 3) {
        return Some(judge_span(pos, span, config.rules).verdict());
    }
    if pos.no_attacking_material() {
        return Some(Verdict::draw(Termination::NoAttackingMaterial));
    }
    if config.move_limit > 0 && pos.quiet_plies() >= config.move_limit {
        return Some(Verdict::draw(Termination::MoveLimit));
    }
    None
}

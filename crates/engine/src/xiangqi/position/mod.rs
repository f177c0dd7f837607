//! The validated position: board, occupancy, generals, side to move, Zobrist key, and the
//! make/unmake stack that also serves repetition and perpetual-check detection.
//!
//! This file holds the type, how one is built (from a [`Setup`] or FEN) and its accessors;
//! the children hold the rest of `impl Position`: `make` (make/unmake, null moves),
//! `zobrist` (the key from scratch), `attacks` (check detection) and `movegen` (move
//! generation and legality).

mod attacks;
mod make;
mod movegen;
mod zobrist;

use super::fen::FenError;
use super::setup::{PositionError, Setup};
use super::types::{Color, Move, Piece, PieceKind, Square, SQUARE_COUNT};
use thiserror::Error;

/// Why FEN text gave no position: it is not FEN, or the FEN is not a legal position. The
/// message is the inner error's.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum FromFenError {
    /// The text is not FEN.
    #[error(transparent)]
    Syntax(#[from] FenError),
    /// The FEN breaks a rule of the game.
    #[error(transparent)]
    Position(#[from] PositionError),
}

/// What `make` pushes on the stack, and what `unmake` needs to restore everything bit for bit.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct StateInfo {
    /// The move played (`Move::NONE` for a null move).
    pub mv: Move,
    /// The piece the move captured (`Piece::EMPTY` for none).
    pub captured: Piece,
    /// The Zobrist key before the move.
    pub key_before: u64,
    /// Plies since the last capture before the move.
    pub quiet_plies_before: u16,
    /// Whether the side to move was in check before the move.
    pub in_check_before: bool,
    /// Whether the move gave check (the side to move after it is in check).
    pub gave_check: bool,
}

/// A legal xiangqi position with its move history since it was set up.
#[derive(Clone)]
pub struct Position {
    pub(crate) board: [Piece; SQUARE_COUNT],
    /// Occupancy per colour, bit `s` for point `s`.
    pub(crate) occupied: [u128; 2],
    pub(crate) generals: [Square; 2],
    pub(crate) side: Color,
    pub(crate) key: u64,
    pub(crate) in_check: bool,
    /// Plies since the last capture (FEN field 5).
    pub(crate) quiet_plies: u16,
    /// Move number (FEN field 6), incremented after Black moves.
    pub(crate) fullmove: u16,
    /// Piece counts per colour, indexed by kind bits (0 unused).
    pub(crate) counts: [[u8; 8]; 2],
    pub(crate) history: Vec<StateInfo>,
}

impl PartialEq for Position {
    /// Two positions are equal when board, side to move, clocks and history are equal.
    fn eq(&self, other: &Self) -> bool {
        self.board == other.board
            && self.side == other.side
            && self.key == other.key
            && self.quiet_plies == other.quiet_plies
            && self.fullmove == other.fullmove
            && self.in_check == other.in_check
            && self.history == other.history
            && self.occupied == other.occupied
            && self.generals == other.generals
            && self.counts == other.counts
    }
}

impl Eq for Position {}

impl std::fmt::Debug for Position {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Position({})", self.to_fen())
    }
}

impl Position {
    /// The standard start position (from [`Setup::START`]; no text is read).
    pub fn startpos() -> Position {
        Position::from_parts(Setup::START)
    }

    /// Checks every rule a real position obeys ([`Setup::check_board`], then that the side
    /// not to move is not in check) and builds the position.
    pub fn from_setup(setup: Setup) -> Result<Position, PositionError> {
        setup.check_board()?;
        let pos = Position::from_parts(setup);
        let other = pos.side.flip();
        if pos.general_attacked(other) {
            return Err(PositionError::OpponentInCheck(other));
        }
        Ok(pos)
    }

    /// Reads and validates a FEN.
    pub fn from_fen(fen: &str) -> Result<Position, FromFenError> {
        Ok(Position::from_setup(Setup::parse(fen)?)?)
    }

    /// The position as a setup: board, side to move and counters (the history is dropped).
    pub fn to_setup(&self) -> Setup {
        Setup {
            board: self.board,
            side: self.side,
            quiet_plies: self.quiet_plies,
            fullmove: self.fullmove,
        }
    }

    /// Writes the position as FEN (6 fields, `w`/`b` for the side to move).
    pub fn to_fen(&self) -> String {
        self.to_setup().to_fen()
    }

    /// Builds a position from a setup whose board passed [`Setup::check_board`] (so each side
    /// has one general).
    fn from_parts(setup: Setup) -> Position {
        let Setup {
            board,
            side,
            quiet_plies,
            fullmove,
        } = setup;
        let mut pos = Position {
            board,
            occupied: [0; 2],
            generals: [Square(0); 2],
            side,
            key: 0,
            in_check: false,
            quiet_plies,
            fullmove,
            counts: [[0; 8]; 2],
            history: Vec::with_capacity(256),
        };
        for (s, &p) in board.iter().enumerate() {
            if p.is_empty() {
                continue;
            }
            let c = p.color().index();
            pos.occupied[c] |= 1u128 << s;
            pos.counts[c][p.kind_bits() as usize] += 1;
            if p.kind() == Some(PieceKind::General) {
                pos.generals[c] = Square(s as u8);
            }
        }
        pos.key = pos.compute_key();
        pos.in_check = pos.general_attacked(side);
        pos
    }

    /// The piece on a point.
    #[inline]
    pub fn piece_at(&self, s: Square) -> Piece {
        self.board[s.index()]
    }

    /// The whole board, indexed by point.
    #[inline]
    pub fn board(&self) -> &[Piece; SQUARE_COUNT] {
        &self.board
    }

    /// The side to move.
    #[inline]
    pub fn side_to_move(&self) -> Color {
        self.side
    }

    /// The point of a side's general.
    #[inline]
    pub fn general(&self, color: Color) -> Square {
        self.generals[color.index()]
    }

    /// The Zobrist key (includes the side to move).
    #[inline]
    pub fn key(&self) -> u64 {
        self.key
    }

    /// Whether the side to move is in check.
    #[inline]
    pub fn in_check(&self) -> bool {
        self.in_check
    }

    /// Plies since the last capture (or since setup).
    #[inline]
    pub fn quiet_plies(&self) -> u16 {
        self.quiet_plies
    }

    /// The move number (FEN field 6).
    #[inline]
    pub fn fullmove(&self) -> u16 {
        self.fullmove
    }

    /// How many pieces of a kind a side has.
    #[inline]
    pub fn count(&self, color: Color, kind: PieceKind) -> u8 {
        self.counts[color.index()][kind as usize]
    }

    /// Occupancy bits of one side (bit `s` = point `s`).
    #[inline]
    pub fn occupancy(&self, color: Color) -> u128 {
        self.occupied[color.index()]
    }

    /// Moves made since setup, oldest first.
    #[inline]
    pub fn history(&self) -> &[StateInfo] {
        &self.history
    }

    /// Number of moves on the stack (plies made since setup).
    #[inline]
    pub fn ply_count(&self) -> usize {
        self.history.len()
    }

    /// Whether neither side has a chariot, horse, cannon or soldier left.
    pub fn no_attacking_material(&self) -> bool {
        self.counts.iter().all(|c| {
            c[PieceKind::Chariot as usize] == 0
                && c[PieceKind::Horse as usize] == 0
                && c[PieceKind::Cannon as usize] == 0
                && c[PieceKind::Soldier as usize] == 0
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::xiangqi::fen::START_FEN;

    #[test]
    fn startpos_equals_the_parsed_start_fen() {
        let parsed = Position::from_fen(START_FEN).unwrap();
        assert_eq!(Position::startpos(), parsed);
        assert_eq!(Position::from_setup(Setup::START), Ok(parsed));
        assert_eq!(
            Position::startpos().key(),
            Position::startpos().compute_key()
        );
        assert_eq!(Position::startpos().to_fen(), START_FEN);
    }

    #[test]
    fn syntax_and_position_errors_stay_apart() {
        assert!(matches!(
            Position::from_fen("9/9 w"),
            Err(FromFenError::Syntax(FenError::RowCount(2)))
        ));
        assert_eq!(
            Position::from_fen("4k4/9/9/9/9/9/9/9/9/4K4 w"),
            Err(FromFenError::Position(PositionError::GeneralsFacing))
        );
        // The message is the inner error's.
        let e = Position::from_fen("4k4/9/9/9/9/9/9/9/9/4K4 w").unwrap_err();
        assert_eq!(e.to_string(), PositionError::GeneralsFacing.to_string());
    }
}

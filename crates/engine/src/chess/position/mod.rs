//! The validated chess position: a mailbox of one-byte pieces beside bitboards by colour and
//! by kind, side to move, castling rights, en-passant square, counters, the Zobrist key, and
//! the make/unmake stack that also serves repetition detection.
//!
//! This file holds the type, how one is built (from a [`Setup`] or FEN) and its accessors;
//! the children hold the rest of `impl Position`: `make` (make/unmake), `attacks` (attack
//! and check queries) and `movegen` (legal move generation).

mod attacks;
mod castle;
mod make;
mod movegen;

pub(crate) use castle::CastleInfo;

use super::fen::FenError;
use super::setup::{PositionError, Setup};
use super::tables::{pawn_attacks, ZOBRIST_CASTLING, ZOBRIST_EP, ZOBRIST_PIECE, ZOBRIST_SIDE};
use super::types::{Bitboard, Castling, Color, Move, Piece, PieceKind, Square, SQUARE_COUNT};
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
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct StateInfo {
    /// The move played.
    pub mv: Move,
    /// The piece the move captured (`Piece::EMPTY` for none; the pawn for en passant).
    pub captured: Piece,
    /// The Zobrist key before the move.
    pub key_before: u64,
    /// Castling rights before the move.
    pub castling_before: Castling,
    /// En-passant square before the move.
    pub en_passant_before: Option<Square>,
    /// Plies since the last capture or pawn move, before the move.
    pub halfmove_before: u16,
    /// The move number before the move (kept rather than recomputed, so that a saturated
    /// counter also comes back exactly).
    pub fullmove_before: u16,
}

/// A legal chess position with its move history since it was set up.
///
/// The en-passant square is kept only when a pawn of the side to move stands beside the pawn
/// that double-stepped (as Stockfish does), so that positions that differ only by a capture
/// nobody can make have the same key and FEN.
#[derive(Clone, PartialEq, Eq)]
pub struct Position {
    pub(crate) board: [Piece; SQUARE_COUNT],
    /// Occupancy per colour.
    pub(crate) by_color: [Bitboard; 2],
    /// Occupancy per kind, indexed by kind bits (0 unused).
    pub(crate) by_kind: [Bitboard; 7],
    pub(crate) side: Color,
    pub(crate) castling: Castling,
    pub(crate) en_passant: Option<Square>,
    pub(crate) halfmove: u16,
    pub(crate) fullmove: u16,
    pub(crate) key: u64,
    /// Where each right's rook stands and which squares castling needs (fixed at setup:
    /// rights only ever disappear), and whether moves are written as Chess960's.
    pub(crate) castle: CastleInfo,
    pub(crate) history: Vec<StateInfo>,
}

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
        if pos.is_attacked(pos.king(other), pos.side, pos.occupied()) {
            return Err(PositionError::OpponentInCheck(other));
        }
        Ok(pos)
    }

    /// Reads and validates a FEN (standard chess).
    pub fn from_fen(fen: &str) -> Result<Position, FromFenError> {
        Ok(Position::from_setup(Setup::parse(fen)?)?)
    }

    /// Reads and validates a FEN as a Chess960 position ([`Setup::parse_chess960`]).
    pub fn from_fen_chess960(fen: &str) -> Result<Position, FromFenError> {
        Ok(Position::from_setup(Setup::parse_chess960(fen)?)?)
    }

    /// The position as a setup (the history is dropped).
    pub fn to_setup(&self) -> Setup {
        Setup {
            board: self.board,
            side: self.side,
            castling: self.castling,
            rook_files: self.castle.rook_files(self.castling),
            chess960: self.castle.chess960,
            en_passant: self.en_passant,
            halfmove: self.halfmove,
            fullmove: self.fullmove,
        }
    }

    /// Writes the position as FEN (6 fields).
    pub fn to_fen(&self) -> String {
        self.to_setup().to_fen()
    }

    /// Builds a position from a setup whose board passed [`Setup::check_board`].
    fn from_parts(setup: Setup) -> Position {
        let mut pos = Position {
            board: setup.board,
            by_color: [0; 2],
            by_kind: [0; 7],
            side: setup.side,
            castling: setup.castling,
            en_passant: None,
            halfmove: setup.halfmove,
            fullmove: setup.fullmove,
            key: 0,
            castle: CastleInfo::new(&setup),
            history: Vec::with_capacity(256),
        };
        for (s, &p) in setup.board.iter().enumerate() {
            if !p.is_empty() {
                pos.by_color[p.color().index()] |= 1u64 << s;
                pos.by_kind[(p.0 & 7) as usize] |= 1u64 << s;
            }
        }
        pos.en_passant = setup.en_passant.filter(|&ep| pos.ep_capturable(ep));
        pos.key = pos.compute_key();
        pos
    }

    /// Whether a pawn of the side to move could take en passant on `ep` (pins ignored).
    #[inline]
    pub(crate) fn ep_capturable(&self, ep: Square) -> bool {
        pawn_attacks(self.side.flip(), ep) & self.pieces(self.side, PieceKind::Pawn) != 0
    }

    /// The Zobrist key computed from scratch (tests compare it with the incremental key).
    pub fn compute_key(&self) -> u64 {
        let mut key = if self.side == Color::Black {
            ZOBRIST_SIDE
        } else {
            0
        };
        for (s, p) in self.board.iter().enumerate() {
            key ^= ZOBRIST_PIECE[p.index()][s];
        }
        key ^= ZOBRIST_CASTLING[self.castling.0 as usize];
        if let Some(ep) = self.en_passant {
            key ^= ZOBRIST_EP[ep.file() as usize];
        }
        key
    }

    /// The piece on a square.
    #[inline]
    pub fn piece_at(&self, s: Square) -> Piece {
        self.board[s.index()]
    }

    /// The whole board, indexed by square.
    #[inline]
    pub fn board(&self) -> &[Piece; SQUARE_COUNT] {
        &self.board
    }

    /// The side to move.
    #[inline]
    pub fn side_to_move(&self) -> Color {
        self.side
    }

    /// Castling rights.
    #[inline]
    pub fn castling(&self) -> Castling {
        self.castling
    }

    /// Whether the position follows Chess960's castling rules (set up by
    /// [`Position::from_fen_chess960`] or from a [`Setup`] with `chess960`): castling moves are
    /// then written as the king taking its own rook (`e1h1`, UCI's `UCI_Chess960`), not as
    /// the king's two-square step (`e1g1`).
    #[inline]
    pub fn is_chess960(&self) -> bool {
        self.castle.chess960
    }

    /// The square of the rook a castling move moves: the king-side rook when `king_side`.
    #[inline]
    pub fn castling_rook(&self, color: Color, king_side: bool) -> Square {
        self.castle.rook[color.index()][usize::from(!king_side)]
    }

    /// The en-passant square, when a pawn of the side to move stands ready to use it.
    #[inline]
    pub fn en_passant(&self) -> Option<Square> {
        self.en_passant
    }

    /// The square of a side's king.
    #[inline]
    pub fn king(&self, color: Color) -> Square {
        Square(self.pieces(color, PieceKind::King).trailing_zeros() as u8)
    }

    /// The Zobrist key (side to move, castling rights and en-passant file included).
    #[inline]
    pub fn key(&self) -> u64 {
        self.key
    }

    /// Plies since the last capture or pawn move (FEN field 5).
    #[inline]
    pub fn halfmove(&self) -> u16 {
        self.halfmove
    }

    /// The move number (FEN field 6).
    #[inline]
    pub fn fullmove(&self) -> u16 {
        self.fullmove
    }

    /// The squares of one side's pieces of one kind.
    #[inline]
    pub fn pieces(&self, color: Color, kind: PieceKind) -> Bitboard {
        self.by_color[color.index()] & self.by_kind[kind as usize]
    }

    /// The squares of one side's pieces.
    #[inline]
    pub fn occupancy(&self, color: Color) -> Bitboard {
        self.by_color[color.index()]
    }

    /// Every occupied square.
    #[inline]
    pub fn occupied(&self) -> Bitboard {
        self.by_color[0] | self.by_color[1]
    }

    /// How many pieces of a kind a side has.
    #[inline]
    pub fn count(&self, color: Color, kind: PieceKind) -> u32 {
        self.pieces(color, kind).count_ones()
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

    /// How many times the current position has occurred (1 = first time), counting the
    /// positions on the stack since the last capture or pawn move (and since the last null
    /// move) with the same side to move, castling rights and en-passant square (all in the
    /// key).
    pub fn repetition_count(&self) -> usize {
        let n = self.history.len();
        let window = (self.halfmove as usize).min(n);
        let mut count = 1;
        for back in 1..=window {
            let st = &self.history[n - back];
            if st.mv.is_none() {
                break;
            }
            if back % 2 == 0 && st.key_before == self.key {
                count += 1;
            }
        }
        count
    }

    /// Whether neither side can ever mate: no pawns, rooks or queens, and either at most one
    /// minor piece on the board or only bishops, all on squares of one colour.
    pub fn insufficient_material(&self) -> bool {
        let heavy = self.by_kind[PieceKind::Pawn as usize]
            | self.by_kind[PieceKind::Rook as usize]
            | self.by_kind[PieceKind::Queen as usize];
        if heavy != 0 {
            return false;
        }
        let knights = self.by_kind[PieceKind::Knight as usize];
        let bishops = self.by_kind[PieceKind::Bishop as usize];
        if (knights | bishops).count_ones() <= 1 {
            return true;
        }
        use super::tables::LIGHT_SQUARES;
        knights == 0 && (bishops & LIGHT_SQUARES == 0 || bishops & !LIGHT_SQUARES == 0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::chess::fen::START_FEN;

    #[test]
    fn startpos_equals_the_parsed_start_fen() {
        let parsed = Position::from_fen(START_FEN).unwrap();
        assert_eq!(Position::startpos(), parsed);
        assert_eq!(Position::startpos().key(), parsed.compute_key());
        assert_eq!(parsed.to_fen(), START_FEN);
    }

    #[test]
    fn syntax_and_position_errors_stay_apart() {
        assert!(matches!(
            Position::from_fen("8/8 w - -"),
            Err(FromFenError::Syntax(FenError::RowCount(2)))
        ));
        let e = Position::from_fen("8/8/8/8/8/8/8/K7 w - -").unwrap_err();
        assert_eq!(
            e,
            FromFenError::Position(PositionError::KingCount {
                color: Color::Black,
                count: 0
            })
        );
    }
}

//! Making and taking back moves (and null moves). Every change is undone bit for bit from the
//! [`StateInfo`] stack, which the repetition rules read too.

use super::{Position, StateInfo};
use crate::xiangqi::tables::{ZOBRIST_PIECE, ZOBRIST_SIDE};
use crate::xiangqi::types::{Color, Move, Piece, PieceKind, Square};

impl Position {
    /// Plays a move, which must be legal (or at least pseudo-legal and then undone at once).
    pub fn make(&mut self, mv: Move) {
        let from = mv.from().index();
        let to = mv.to().index();
        let piece = self.board[from];
        let captured = self.board[to];
        let us = self.side.index();
        debug_assert!(!piece.is_empty() && piece.color() == self.side);
        self.history.push(StateInfo {
            mv,
            captured,
            key_before: self.key,
            quiet_plies_before: self.quiet_plies,
            in_check_before: self.in_check,
            gave_check: false,
        });
        self.board[to] = piece;
        self.board[from] = Piece::EMPTY;
        self.key ^= ZOBRIST_PIECE[piece.index()][from]
            ^ ZOBRIST_PIECE[piece.index()][to]
            ^ ZOBRIST_PIECE[captured.index()][to]
            ^ ZOBRIST_SIDE;
        self.occupied[us] ^= (1u128 << from) | (1u128 << to);
        if captured.is_empty() {
            self.quiet_plies = self.quiet_plies.saturating_add(1);
        } else {
            self.occupied[us ^ 1] ^= 1u128 << to;
            self.counts[us ^ 1][captured.kind_bits() as usize] -= 1;
            self.quiet_plies = 0;
        }
        if piece.kind_bits() == PieceKind::General as u8 {
            self.generals[us] = Square(to as u8);
        }
        if self.side == Color::Black {
            self.fullmove = self.fullmove.saturating_add(1);
        }
        self.side = self.side.flip();
        self.in_check = self.general_attacked(self.side);
        if let Some(top) = self.history.last_mut() {
            top.gave_check = self.in_check;
        }
    }

    /// Takes back the last move made with [`Position::make`]. Does nothing on an empty stack.
    pub fn unmake(&mut self) {
        let Some(st) = self.history.pop() else {
            return;
        };
        if st.mv.is_none() {
            self.restore_null(&st);
            return;
        }
        let from = st.mv.from().index();
        let to = st.mv.to().index();
        let piece = self.board[to];
        self.side = self.side.flip();
        if self.side == Color::Black {
            self.fullmove -= 1;
        }
        let us = self.side.index();
        self.board[from] = piece;
        self.board[to] = st.captured;
        self.occupied[us] ^= (1u128 << from) | (1u128 << to);
        if !st.captured.is_empty() {
            self.occupied[us ^ 1] ^= 1u128 << to;
            self.counts[us ^ 1][st.captured.kind_bits() as usize] += 1;
        }
        if piece.kind_bits() == PieceKind::General as u8 {
            self.generals[us] = Square(from as u8);
        }
        self.key = st.key_before;
        self.quiet_plies = st.quiet_plies_before;
        self.in_check = st.in_check_before;
    }

    /// Passes the move to the other side (for null-move pruning). Must not be called in check.
    /// The plies-since-capture count restarts, so repetition scans stop at a null move.
    pub fn make_null(&mut self) {
        self.history.push(StateInfo {
            mv: Move::NONE,
            captured: Piece::EMPTY,
            key_before: self.key,
            quiet_plies_before: self.quiet_plies,
            in_check_before: self.in_check,
            gave_check: false,
        });
        self.key ^= ZOBRIST_SIDE;
        if self.side == Color::Black {
            self.fullmove = self.fullmove.saturating_add(1);
        }
        self.side = self.side.flip();
        self.quiet_plies = 0;
        self.in_check = false;
    }

    /// Takes back a null move (same as [`Position::unmake`] on a null move).
    pub fn unmake_null(&mut self) {
        self.unmake();
    }

    fn restore_null(&mut self, st: &StateInfo) {
        self.side = self.side.flip();
        if self.side == Color::Black {
            self.fullmove -= 1;
        }
        self.key = st.key_before;
        self.quiet_plies = st.quiet_plies_before;
        self.in_check = st.in_check_before;
    }
}

//! The validated position: board, occupancy, generals, side to move, Zobrist key, and the
//! make/unmake stack that also serves repetition and perpetual-check detection.

use super::tables::{HORSE_ATTACKS, RAYS, ZOBRIST_PIECE, ZOBRIST_SIDE};
use super::types::{Color, Move, Piece, PieceKind, Square, SQUARE_COUNT};

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
    /// The standard start position.
    pub fn startpos() -> Position {
        Position::from_fen(super::fen::START_FEN).expect("the start FEN is valid")
    }

    /// Builds a position from a board already known to be valid (used by FEN validation).
    pub(crate) fn from_parts(
        board: [Piece; SQUARE_COUNT],
        side: Color,
        quiet_plies: u16,
        fullmove: u16,
    ) -> Position {
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
        key
    }

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

    /// Whether the general of `color` is attacked. The enemy general counts as a chariot that
    /// attacks only along the file, so facing generals are caught by the same test.
    pub fn general_attacked(&self, color: Color) -> bool {
        let k = self.generals[color.index()].index();
        let them = color.flip();
        let board = &self.board;
        let horse = Piece::new(them, PieceKind::Horse);
        let ha = &HORSE_ATTACKS[k];
        for i in 0..ha.len as usize {
            if board[ha.to[i] as usize] == horse && board[ha.via[i] as usize].is_empty() {
                return true;
            }
        }
        let soldier = Piece::new(them, PieceKind::Soldier);
        // An enemy soldier attacks from the point ahead of the general (its forward step) or
        // beside it; next to a general in its palace a soldier has always crossed the river.
        let ahead = match color {
            Color::Red => k + 9,
            Color::Black => k.wrapping_sub(9),
        };
        if (ahead < SQUARE_COUNT && board[ahead] == soldier)
            || (k % 9 > 0 && board[k - 1] == soldier)
            || (k % 9 < 8 && board[k + 1] == soldier)
        {
            return true;
        }
        let chariot = Piece::new(them, PieceKind::Chariot);
        let cannon = Piece::new(them, PieceKind::Cannon);
        let general = Piece::new(them, PieceKind::General);
        for (d, ray) in RAYS[k].iter().enumerate() {
            let len = ray.len as usize;
            let mut i = 0;
            while i < len && board[ray.to[i] as usize].is_empty() {
                i += 1;
            }
            if i == len {
                continue;
            }
            let first = board[ray.to[i] as usize];
            if first == chariot || (d < 2 && first == general) {
                return true;
            }
            i += 1;
            while i < len && board[ray.to[i] as usize].is_empty() {
                i += 1;
            }
            if i < len && board[ray.to[i] as usize] == cannon {
                return true;
            }
        }
        false
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

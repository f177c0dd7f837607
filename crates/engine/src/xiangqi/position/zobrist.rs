//! The Zobrist key from scratch; `make` and `unmake` keep it incrementally.

use super::Position;
use crate::xiangqi::tables::{ZOBRIST_PIECE, ZOBRIST_SIDE};
use crate::xiangqi::types::Color;

impl Position {
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
}

//! Check detection: whether a general is attacked, from the general's point outward.

use super::Position;
use crate::xiangqi::tables::{HORSE_ATTACKS, RAYS};
use crate::xiangqi::types::{Color, Piece, PieceKind, SQUARE_COUNT};

impl Position {
    /// Whether the general of `color` is attacked. The enemy general counts as a chariot that
    /// attacks only along the file, so facing generals are caught by the same test.
    pub fn general_attacked(&self, color: Color) -> bool {
        let k = self.generals[color.index()].index();
        let them = color.flip();
        let board = &self.board;
        if self.horse_attacks(color) {
            return true;
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
        (0..4).any(|d| self.ray_attacks(color, d))
    }

    /// Whether an enemy horse attacks the general of `color`.
    #[inline(always)]
    pub(super) fn horse_attacks(&self, color: Color) -> bool {
        let k = self.generals[color.index()].index();
        let horse = Piece::new(color.flip(), PieceKind::Horse);
        let board = &self.board;
        let ha = &HORSE_ATTACKS[k];
        (0..ha.len as usize)
            .any(|i| board[ha.to[i] as usize] == horse && board[ha.via[i] as usize].is_empty())
    }

    /// Whether an enemy chariot, cannon or (on the file) general attacks the general of
    /// `color` along ray `d` ([`crate::xiangqi::tables::DIRECTIONS`] order).
    #[inline(always)]
    pub(super) fn ray_attacks(&self, color: Color, d: usize) -> bool {
        let k = self.generals[color.index()].index();
        let them = color.flip();
        let board = &self.board;
        let ray = &RAYS[k][d];
        let len = ray.len as usize;
        let mut i = 0;
        while i < len && board[ray.to[i] as usize].is_empty() {
            i += 1;
        }
        if i == len {
            return false;
        }
        let first = board[ray.to[i] as usize];
        if first == Piece::new(them, PieceKind::Chariot)
            || (d < 2 && first == Piece::new(them, PieceKind::General))
        {
            return true;
        }
        i += 1;
        while i < len && board[ray.to[i] as usize].is_empty() {
            i += 1;
        }
        i < len && board[ray.to[i] as usize] == Piece::new(them, PieceKind::Cannon)
    }
}

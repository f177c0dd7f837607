//! Attack queries: who attacks a square, whether the side to move is in check, and which of
//! its pieces are pinned to its king.

use super::Position;
use crate::chess::tables::{
    bishop_attacks, pawn_attacks, rook_attacks, BETWEEN, KING_ATTACKS, KNIGHT_ATTACKS,
};
use crate::chess::types::{Bitboard, Color, PieceKind, Square};

impl Position {
    /// Pieces of both sides that attack `sq` with the board occupied by `occ`.
    #[inline]
    pub fn attackers_to(&self, sq: Square, occ: Bitboard) -> Bitboard {
        let k = &self.by_kind;
        let diag = k[PieceKind::Bishop as usize] | k[PieceKind::Queen as usize];
        let orth = k[PieceKind::Rook as usize] | k[PieceKind::Queen as usize];
        (pawn_attacks(Color::White, sq) & self.pieces(Color::Black, PieceKind::Pawn))
            | (pawn_attacks(Color::Black, sq) & self.pieces(Color::White, PieceKind::Pawn))
            | (KNIGHT_ATTACKS[sq.index()] & k[PieceKind::Knight as usize])
            | (KING_ATTACKS[sq.index()] & k[PieceKind::King as usize])
            | (bishop_attacks(sq, occ) & diag)
            | (rook_attacks(sq, occ) & orth)
    }

    /// Whether a piece of `by` attacks `sq` with the board occupied by `occ`.
    #[inline]
    pub fn is_attacked(&self, sq: Square, by: Color, occ: Bitboard) -> bool {
        let them = self.by_color[by.index()];
        let k = &self.by_kind;
        if pawn_attacks(by.flip(), sq) & them & k[PieceKind::Pawn as usize] != 0
            || KNIGHT_ATTACKS[sq.index()] & them & k[PieceKind::Knight as usize] != 0
            || KING_ATTACKS[sq.index()] & them & k[PieceKind::King as usize] != 0
        {
            return true;
        }
        let queens = k[PieceKind::Queen as usize];
        let diag = (k[PieceKind::Bishop as usize] | queens) & them;
        let orth = (k[PieceKind::Rook as usize] | queens) & them;
        (diag != 0 && bishop_attacks(sq, occ) & diag != 0)
            || (orth != 0 && rook_attacks(sq, occ) & orth != 0)
    }

    /// The enemy pieces that give check to the side to move.
    #[inline]
    pub fn checkers(&self) -> Bitboard {
        self.attackers_to(self.king(self.side), self.occupied())
            & self.by_color[self.side.flip().index()]
    }

    /// Whether the side to move is in check.
    #[inline]
    pub fn in_check(&self) -> bool {
        self.is_attacked(self.king(self.side), self.side.flip(), self.occupied())
    }

    /// Pieces of `color` pinned to its own king by an enemy slider.
    pub fn pinned(&self, color: Color) -> Bitboard {
        let ksq = self.king(color);
        let them = self.by_color[color.flip().index()];
        let k = &self.by_kind;
        let queens = k[PieceKind::Queen as usize];
        let snipers = ((rook_attacks(ksq, 0) & (k[PieceKind::Rook as usize] | queens))
            | (bishop_attacks(ksq, 0) & (k[PieceKind::Bishop as usize] | queens)))
            & them;
        let occ = self.occupied();
        let ours = self.by_color[color.index()];
        let mut pinned = 0;
        let mut s = snipers;
        while s != 0 {
            let sniper = s.trailing_zeros() as usize;
            s &= s - 1;
            let between = BETWEEN[ksq.index()][sniper] & occ;
            if between.count_ones() == 1 {
                pinned |= between & ours;
            }
        }
        pinned
    }
}

//! Legal move generation. The check mask (the checker and the squares between it and the
//! king) and the pin rays make every generated move legal without trying it; king moves test
//! the destination with the king lifted off the board, and en passant, the one move that
//! removes two pieces from a line (the rank pin), is tested against the sliders directly.

use super::Position;
use crate::chess::movegen::MoveList;
use crate::chess::tables::{
    bishop_attacks, pawn_attacks, rook_attacks, BETWEEN, KING_ATTACKS, KNIGHT_ATTACKS, LINE,
    RANK_1, RANK_8,
};
use crate::chess::types::{Bitboard, Color, Move, MoveKind, PieceKind, Square};

#[inline]
fn push_all(list: &mut MoveList, from: Square, mut targets: Bitboard) {
    while targets != 0 {
        let to = Square(targets.trailing_zeros() as u8);
        targets &= targets - 1;
        list.push(Move::new(from, to));
    }
}

#[inline]
fn push_pawn(list: &mut MoveList, from: Square, to: Square) {
    if to.bb() & (RANK_1 | RANK_8) != 0 {
        for k in PieceKind::PROMOTIONS {
            list.push(Move::with_kind(from, to, MoveKind::Promotion(k)));
        }
    } else {
        list.push(Move::new(from, to));
    }
}

impl Position {
    /// Every legal move, in a fixed order (king, then the other pieces by square).
    pub fn legal_moves(&self) -> MoveList {
        let mut list = MoveList::new();
        self.generate_legal(&mut list);
        list
    }

    /// Fills `list` (cleared first) with every legal move.
    pub fn generate_legal(&self, list: &mut MoveList) {
        list.clear();
        let us = self.side;
        let them = us.flip();
        let ours = self.by_color[us.index()];
        let theirs = self.by_color[them.index()];
        let occ = ours | theirs;
        let ksq = self.king(us);
        let checkers = self.attackers_to(ksq, occ) & theirs;

        // King steps, tested with the king off the board so it cannot hide behind itself.
        let lifted = occ ^ ksq.bb();
        let mut steps = KING_ATTACKS[ksq.index()] & !ours;
        while steps != 0 {
            let to = Square(steps.trailing_zeros() as u8);
            steps &= steps - 1;
            if !self.is_attacked(to, them, lifted) {
                list.push(Move::new(ksq, to));
            }
        }
        if checkers.count_ones() > 1 {
            return;
        }
        let target = if checkers == 0 {
            !ours
        } else {
            let c = checkers.trailing_zeros() as usize;
            BETWEEN[ksq.index()][c] | checkers
        };
        let pinned = self.pinned(us);
        let k = &self.by_kind;
        let ray = |from: Square| -> Bitboard {
            if pinned & from.bb() != 0 {
                LINE[ksq.index()][from.index()]
            } else {
                !0
            }
        };

        let mut knights = k[PieceKind::Knight as usize] & ours & !pinned;
        while knights != 0 {
            let from = Square(knights.trailing_zeros() as u8);
            knights &= knights - 1;
            push_all(list, from, KNIGHT_ATTACKS[from.index()] & target);
        }
        let queens = k[PieceKind::Queen as usize];
        let mut diag = (k[PieceKind::Bishop as usize] | queens) & ours;
        while diag != 0 {
            let from = Square(diag.trailing_zeros() as u8);
            diag &= diag - 1;
            push_all(list, from, bishop_attacks(from, occ) & target & ray(from));
        }
        let mut orth = (k[PieceKind::Rook as usize] | queens) & ours;
        while orth != 0 {
            let from = Square(orth.trailing_zeros() as u8);
            orth &= orth - 1;
            push_all(list, from, rook_attacks(from, occ) & target & ray(from));
        }

        let (up, start_rank): (i8, u8) = match us {
            Color::White => (8, 1),
            Color::Black => (-8, 6),
        };
        let mut pawns = k[PieceKind::Pawn as usize] & ours;
        while pawns != 0 {
            let from = Square(pawns.trailing_zeros() as u8);
            pawns &= pawns - 1;
            let allowed = target & ray(from);
            let one = Square((from.0 as i8 + up) as u8);
            if occ & one.bb() == 0 {
                if allowed & one.bb() != 0 {
                    push_pawn(list, from, one);
                }
                if from.rank() == start_rank {
                    let two = Square((one.0 as i8 + up) as u8);
                    if (occ | !allowed) & two.bb() == 0 {
                        list.push(Move::new(from, two));
                    }
                }
            }
            let attacks = pawn_attacks(us, from);
            let mut caps = attacks & theirs & allowed;
            while caps != 0 {
                let to = Square(caps.trailing_zeros() as u8);
                caps &= caps - 1;
                push_pawn(list, from, to);
            }
            if let Some(ep) = self.en_passant {
                if attacks & ep.bb() != 0 && self.ep_is_legal(from, ep, ksq) {
                    list.push(Move::with_kind(from, ep, MoveKind::EnPassant));
                }
            }
        }

        if checkers == 0 && self.castling.0 != 0 {
            let c = us.index();
            for (i, king_side) in [(0, true), (1, false)] {
                if !self.castling.has(us, king_side) || self.castle.empty[c][i] & occ != 0 {
                    continue;
                }
                let rook = self.castle.rook[c][i];
                // With both pieces lifted: in Chess960 the rook may be what shields the
                // king's target (a queen on a1, the rook on b1, the king staying on c1).
                let lifted = occ ^ ksq.bb() ^ rook.bb();
                let mut safe = self.castle.safe[c][i];
                let mut attacked = false;
                while safe != 0 {
                    let s = Square(safe.trailing_zeros() as u8);
                    safe &= safe - 1;
                    if self.is_attacked(s, them, lifted) {
                        attacked = true;
                        break;
                    }
                }
                if !attacked {
                    let to = if self.castle.chess960 {
                        rook
                    } else {
                        super::castle::targets(ksq.rank(), king_side).0
                    };
                    list.push(Move::with_kind(ksq, to, MoveKind::Castle));
                }
            }
        }
    }

    /// Whether the en-passant capture from `from` to `ep` leaves the king safe: the board is
    /// taken with both pawns gone and the capturer on `ep`, and every enemy attack is checked
    /// (so a rank pin through both pawns, or a check the capture does not answer, refuses it).
    fn ep_is_legal(&self, from: Square, ep: Square, ksq: Square) -> bool {
        let captured = Square::new(ep.file(), from.rank());
        let occ = (self.occupied() ^ from.bb() ^ captured.bb()) | ep.bb();
        let them = self.by_color[self.side.flip().index()] & !captured.bb();
        self.attackers_to(ksq, occ) & them == 0
    }

    /// Number of legal moves (perft's last ply).
    #[inline]
    pub fn count_legal(&self) -> u64 {
        let mut list = MoveList::new();
        self.generate_legal(&mut list);
        list.len() as u64
    }

    /// Whether the side to move has a legal move.
    pub fn has_legal_move(&self) -> bool {
        self.count_legal() > 0
    }

    /// Whether `mv` (legal here) takes a piece, en passant included.
    #[inline]
    pub fn is_capture(&self, mv: Move) -> bool {
        mv.kind() == MoveKind::EnPassant
            || (mv.kind() != MoveKind::Castle && !self.board[mv.to().index()].is_empty())
    }

    /// Whether `mv` is legal in this position.
    pub fn is_legal(&self, mv: Move) -> bool {
        !mv.is_none() && self.legal_moves().contains(mv)
    }
}

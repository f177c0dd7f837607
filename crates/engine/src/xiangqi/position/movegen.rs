//! Move generation: pseudo-legal moves from the precomputed tables, a captures-only mode for
//! quiescence, and the legal filter (make + "is my general attacked", done only for moves that
//! can change the general's safety). Also the legality queries built on it.

use super::Position;
use crate::xiangqi::movegen::{GenKind, MoveList};
use crate::xiangqi::moves::MoveError;
use crate::xiangqi::tables::{
    Steps, ADVISOR_STEPS, ELEPHANT_STEPS, GENERAL_LINES, GENERAL_STEPS, HORSE_LEG, HORSE_STEPS,
    RAYS, SOLDIER_STEPS,
};
use crate::xiangqi::types::{Move, Piece, PieceKind, Square};

impl Position {
    #[inline(always)]
    fn push_target<const QUIETS: bool, const CAPTURES: bool>(
        &self,
        list: &mut MoveList,
        from: usize,
        to: usize,
    ) {
        let target = self.board[to];
        if target.is_empty() {
            if QUIETS {
                list.push(Move::new(Square(from as u8), Square(to as u8)));
            }
        } else if CAPTURES && target.color() != self.side {
            list.push(Move::new(Square(from as u8), Square(to as u8)));
        }
    }

    #[inline(always)]
    fn push_steps<const N: usize, const QUIETS: bool, const CAPTURES: bool>(
        &self,
        list: &mut MoveList,
        from: usize,
        steps: &Steps<N>,
        blockable: bool,
    ) {
        for i in 0..steps.len as usize {
            if blockable && !self.board[steps.via[i] as usize].is_empty() {
                continue;
            }
            self.push_target::<QUIETS, CAPTURES>(list, from, steps.to[i] as usize);
        }
    }

    #[inline(always)]
    fn gen_piece<const QUIETS: bool, const CAPTURES: bool>(
        &self,
        list: &mut MoveList,
        from: usize,
        piece: Piece,
    ) {
        let board = &self.board;
        match piece.kind_bits() {
            k if k == PieceKind::Chariot as u8 => {
                for ray in &RAYS[from] {
                    for &t in &ray.to[..ray.len as usize] {
                        let target = board[t as usize];
                        if target.is_empty() {
                            if QUIETS {
                                list.push(Move::new(Square(from as u8), Square(t)));
                            }
                        } else {
                            if CAPTURES && target.color() != self.side {
                                list.push(Move::new(Square(from as u8), Square(t)));
                            }
                            break;
                        }
                    }
                }
            }
            k if k == PieceKind::Cannon as u8 => {
                for ray in &RAYS[from] {
                    let to = &ray.to[..ray.len as usize];
                    let mut i = 0;
                    while i < to.len() && board[to[i] as usize].is_empty() {
                        if QUIETS {
                            list.push(Move::new(Square(from as u8), Square(to[i])));
                        }
                        i += 1;
                    }
                    if CAPTURES {
                        // Past the screen: only the first piece beyond it, if it is an enemy.
                        i += 1;
                        while i < to.len() && board[to[i] as usize].is_empty() {
                            i += 1;
                        }
                        if i < to.len() {
                            let target = board[to[i] as usize];
                            if target.color() != self.side {
                                list.push(Move::new(Square(from as u8), Square(to[i])));
                            }
                        }
                    }
                }
            }
            k if k == PieceKind::Horse as u8 => {
                self.push_steps::<8, QUIETS, CAPTURES>(list, from, &HORSE_STEPS[from], true)
            }
            k if k == PieceKind::Elephant as u8 => {
                self.push_steps::<4, QUIETS, CAPTURES>(list, from, &ELEPHANT_STEPS[from], true)
            }
            k if k == PieceKind::Advisor as u8 => {
                self.push_steps::<4, QUIETS, CAPTURES>(list, from, &ADVISOR_STEPS[from], false)
            }
            k if k == PieceKind::General as u8 => {
                self.push_steps::<4, QUIETS, CAPTURES>(list, from, &GENERAL_STEPS[from], false)
            }
            k if k == PieceKind::Soldier as u8 => self.push_steps::<3, QUIETS, CAPTURES>(
                list,
                from,
                &SOLDIER_STEPS[piece.color().index()][from],
                false,
            ),
            _ => {}
        }
    }

    fn gen_all<const QUIETS: bool, const CAPTURES: bool>(&self, list: &mut MoveList) {
        let mut bits = self.occupied[self.side.index()];
        while bits != 0 {
            let from = bits.trailing_zeros() as usize;
            bits &= bits - 1;
            self.gen_piece::<QUIETS, CAPTURES>(list, from, self.board[from]);
        }
    }

    /// Appends the pseudo-legal moves of the side to move (they may leave its general
    /// attacked).
    pub fn generate_pseudo(&self, kind: GenKind, list: &mut MoveList) {
        match kind {
            GenKind::All => self.gen_all::<true, true>(list),
            GenKind::Captures => self.gen_all::<false, true>(list),
            GenKind::Quiets => self.gen_all::<true, false>(list),
        }
    }

    /// Appends the pseudo-legal moves of the piece on `from` (none if it is not the mover's).
    pub fn generate_piece_pseudo(&self, from: Square, list: &mut MoveList) {
        let piece = self.board[from.index()];
        if !piece.is_empty() && piece.color() == self.side {
            self.gen_piece::<true, true>(list, from.index(), piece);
        }
    }

    /// Whether `mv` may give check: `false` only when it surely does not. A check after a
    /// move comes from a piece on the enemy general's file or rank (a chariot, a cannon or a
    /// cannon's screen arriving or leaving there, or a line opened by leaving it) or within
    /// two files and two ranks of it (a horse, its leg, a soldier); a move with neither of
    /// its points in those places gives no check. Read on the board before the move, without
    /// making it.
    #[inline]
    pub fn may_give_check(&self, mv: Move) -> bool {
        let g = self.generals[self.side.flip().index()];
        let near = |s: Square| {
            let (df, dr) = (s.file().abs_diff(g.file()), s.rank().abs_diff(g.rank()));
            df == 0 || dr == 0 || (df <= 2 && dr <= 2)
        };
        near(mv.from()) || near(mv.to())
    }

    /// Whether a pseudo-legal move keeps the mover's general safe.
    ///
    /// In check, and for a general move, the general is tested from scratch on the board
    /// after the move. Otherwise the general was safe, so only an attack line through a point
    /// the move touches can open: leaving a point can open any line through it (a ray, or a
    /// horse's leg), arriving on a ray can make a cannon screen (filling a leg only blocks).
    /// A move that touches none needs no test; one that does tests just those lines.
    #[inline]
    pub fn is_legal_pseudo(&mut self, mv: Move) -> bool {
        let from = mv.from().index();
        let to = mv.to().index();
        let piece = self.board[from];
        let us = self.side;
        if self.in_check || piece.kind_bits() == PieceKind::General as u8 {
            return self.safe_after(from, to, piece, |pos| !pos.general_attacked(us));
        }
        let lines = &GENERAL_LINES[self.generals[us.index()].index()];
        let touched = lines[from] | (lines[to] & !HORSE_LEG);
        if touched == 0 {
            return true;
        }
        self.safe_after(from, to, piece, |pos| {
            !(touched & HORSE_LEG != 0 && pos.horse_attacks(us))
                && (0..4).all(|d| touched & (1 << d) == 0 || !pos.ray_attacks(us, d))
        })
    }

    /// Moves `piece` from `from` to `to` on the board (and the general's point if it is the
    /// general), asks `safe`, and puts everything back. Occupancy, key and stacks are not
    /// touched: the attack tests read only the board and the generals.
    #[inline(always)]
    fn safe_after(
        &mut self,
        from: usize,
        to: usize,
        piece: Piece,
        safe: impl Fn(&Position) -> bool,
    ) -> bool {
        let us = self.side.index();
        let captured = self.board[to];
        self.board[to] = piece;
        self.board[from] = Piece::EMPTY;
        let saved_general = self.generals[us];
        if piece.kind_bits() == PieceKind::General as u8 {
            self.generals[us] = Square(to as u8);
        }
        let ok = safe(self);
        self.generals[us] = saved_general;
        self.board[from] = piece;
        self.board[to] = captured;
        ok
    }

    /// Appends the legal moves of the given kind.
    pub fn generate_legal(&mut self, kind: GenKind, list: &mut MoveList) {
        let start = list.len();
        self.generate_pseudo(kind, list);
        let mut j = start;
        for i in start..list.len() {
            let m = list.moves[i];
            if self.is_legal_pseudo(m) {
                list.moves[j] = m;
                j += 1;
            }
        }
        list.len = j;
    }

    /// All legal moves.
    pub fn legal_moves(&mut self) -> MoveList {
        let mut list = MoveList::new();
        self.generate_legal(GenKind::All, &mut list);
        list
    }

    /// Counts legal moves without storing them (perft's last ply).
    pub fn count_legal(&mut self) -> u64 {
        let mut list = MoveList::new();
        self.generate_pseudo(GenKind::All, &mut list);
        let mut n = 0;
        for i in 0..list.len() {
            n += u64::from(self.is_legal_pseudo(list.moves[i]));
        }
        n
    }

    /// Whether a move (from any source: TT, killers, text) is pseudo-legal here.
    pub fn is_pseudo_legal(&self, mv: Move) -> bool {
        if mv.is_none() {
            return false;
        }
        let mut list = MoveList::new();
        self.generate_piece_pseudo(mv.from(), &mut list);
        list.contains(mv)
    }

    /// Whether a move is legal here.
    pub fn is_legal(&mut self, mv: Move) -> bool {
        self.is_pseudo_legal(mv) && self.is_legal_pseudo(mv)
    }

    /// Whether the side to move has at least one legal move.
    pub fn has_legal_move(&mut self) -> bool {
        let mut list = MoveList::new();
        self.generate_pseudo(GenKind::All, &mut list);
        list.as_slice().iter().any(|&m| self.is_legal_pseudo(m))
    }

    /// Whether a move captures (the destination holds an enemy piece).
    #[inline]
    pub fn is_capture(&self, mv: Move) -> bool {
        !self.board[mv.to().index()].is_empty()
    }

    /// Parses UCI text (ranks 0–9) and checks that the move is legal here.
    pub fn parse_uci_move(&mut self, text: &str) -> Result<Move, MoveError> {
        let mv = Move::parse_uci(text).ok_or_else(|| MoveError::Syntax(text.to_string()))?;
        if self.is_legal(mv) {
            Ok(mv)
        } else {
            Err(MoveError::Illegal {
                text: text.to_string(),
                fen: self.to_fen(),
            })
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::{Rng, SeedableRng};
    use rand_xoshiro::Xoshiro256PlusPlus;

    /// The legality shortcut (testing only the lines a move touches) agrees with making the
    /// move and testing the general from scratch, on every pseudo-legal move of random games.
    #[test]
    fn legality_shortcut_agrees_with_make_and_full_test() {
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(11);
        for _ in 0..60 {
            let mut pos = Position::startpos();
            for _ in 0..160 {
                let mut list = MoveList::new();
                pos.generate_pseudo(GenKind::All, &mut list);
                let mover = pos.side_to_move();
                for &mv in list.iter() {
                    pos.make(mv);
                    let safe = !pos.general_attacked(mover);
                    pos.unmake();
                    assert_eq!(pos.is_legal_pseudo(mv), safe, "{mv} in {pos:?}");
                }
                let legal = pos.legal_moves();
                if legal.is_empty() {
                    break;
                }
                pos.make(legal.as_slice()[rng.gen_range(0..legal.len())]);
            }
        }
    }
}

//! Move generation: pseudo-legal moves from the precomputed tables, a captures-only mode for
//! quiescence, and the legal filter (make + "is my general attacked", done only for moves that
//! can change the general's safety). Also the legality queries built on it.

use super::Position;
use crate::xiangqi::movegen::{GenKind, MoveList};
use crate::xiangqi::moves::MoveError;
use crate::xiangqi::tables::{
    Steps, ADVISOR_STEPS, ELEPHANT_STEPS, GENERAL_STEPS, HORSE_STEPS, RAYS, SENSITIVE,
    SOLDIER_STEPS,
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

    /// Whether a pseudo-legal move keeps the mover's general safe. Only moves that touch the
    /// general's file, rank or diagonal neighbours (or any move while in check, or a general
    /// move) need the make-and-test.
    #[inline]
    pub fn is_legal_pseudo(&mut self, mv: Move) -> bool {
        let from = mv.from().index();
        let to = mv.to().index();
        let piece = self.board[from];
        let us = self.side;
        let sensitive = SENSITIVE[self.generals[us.index()].index()];
        if !self.in_check
            && piece.kind_bits() != PieceKind::General as u8
            && (sensitive >> from) & 1 == 0
            && (sensitive >> to) & 1 == 0
        {
            return true;
        }
        let captured = self.board[to];
        self.board[to] = piece;
        self.board[from] = Piece::EMPTY;
        let saved_general = self.generals[us.index()];
        if piece.kind_bits() == PieceKind::General as u8 {
            self.generals[us.index()] = Square(to as u8);
        }
        let attacked = self.general_attacked(us);
        self.generals[us.index()] = saved_general;
        self.board[from] = piece;
        self.board[to] = captured;
        !attacked
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

//! Move generation: pseudo-legal moves from the precomputed tables, a captures-only mode for
//! quiescence, and the legal filter (make + "is my general attacked", done only for moves that
//! can change the general's safety).

use super::position::Position;
use super::tables::{
    Steps, ADVISOR_STEPS, ELEPHANT_STEPS, GENERAL_STEPS, HORSE_STEPS, RAYS, SENSITIVE,
    SOLDIER_STEPS,
};
use super::types::{Move, Piece, PieceKind, Square};

/// Upper bound on pseudo-legal moves in any position reachable with a standard set
/// (2x17 chariot + 2x17 cannon + 2x8 horse + 2x4 elephant + 2x4 advisor + 4 + 5x3 = 119).
pub const MAX_MOVES: usize = 128;

/// A fixed-capacity list of moves (no allocation).
#[derive(Clone)]
pub struct MoveList {
    moves: [Move; MAX_MOVES],
    len: usize,
}

impl Default for MoveList {
    fn default() -> Self {
        MoveList::new()
    }
}

impl std::fmt::Debug for MoveList {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_list().entries(self.as_slice()).finish()
    }
}

impl MoveList {
    /// An empty list.
    #[inline]
    pub const fn new() -> MoveList {
        MoveList {
            moves: [Move::NONE; MAX_MOVES],
            len: 0,
        }
    }

    /// Appends a move.
    #[inline]
    pub fn push(&mut self, mv: Move) {
        self.moves[self.len] = mv;
        self.len += 1;
    }

    /// Number of moves.
    #[inline]
    pub fn len(&self) -> usize {
        self.len
    }

    /// Whether the list is empty.
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Removes every move.
    #[inline]
    pub fn clear(&mut self) {
        self.len = 0;
    }

    /// The moves as a slice.
    #[inline]
    pub fn as_slice(&self) -> &[Move] {
        &self.moves[..self.len]
    }

    /// The moves as a mutable slice (for ordering).
    #[inline]
    pub fn as_mut_slice(&mut self) -> &mut [Move] {
        &mut self.moves[..self.len]
    }

    /// Iterates over the moves.
    pub fn iter(&self) -> std::slice::Iter<'_, Move> {
        self.as_slice().iter()
    }

    /// Whether the list holds a move.
    pub fn contains(&self, mv: Move) -> bool {
        self.as_slice().contains(&mv)
    }

    /// Keeps only the moves for which `keep` returns true, in order.
    pub fn retain(&mut self, mut keep: impl FnMut(Move) -> bool) {
        let mut j = 0;
        for i in 0..self.len {
            let m = self.moves[i];
            if keep(m) {
                self.moves[j] = m;
                j += 1;
            }
        }
        self.len = j;
    }
}

impl<'a> IntoIterator for &'a MoveList {
    type Item = &'a Move;
    type IntoIter = std::slice::Iter<'a, Move>;
    fn into_iter(self) -> Self::IntoIter {
        self.iter()
    }
}

/// Which moves to generate.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GenKind {
    /// Captures and quiet moves.
    All,
    /// Captures only (quiescence).
    Captures,
    /// Non-captures only.
    Quiets,
}

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
}

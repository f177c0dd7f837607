//! Quiet-move history: a from-to table updated with "gravity" (bonuses shrink as a value
//! nears its bound, so the table never saturates and old lessons fade), a malus for the quiet
//! moves tried before a cutoff, and counter moves (the quiet reply that refuted each move).
//! Continuation history scores a quiet move by the (piece, to) of the move one and two plies
//! before it: what follows a given move is far better predicted by that move than by the
//! move's from-to alone.

use crate::xiangqi::types::{Move, Piece, SQUARE_COUNT};

/// Largest absolute history value.
pub(crate) const HISTORY_MAX: i32 = 16_384;

/// Number of (piece, to) keys: piece encodings (16) by points.
const PIECE_TO: usize = 16 * SQUARE_COUNT;

/// A (piece, to) key of a move made in the tree, for continuation history; `NONE` after a null
/// move or before the root.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct PieceTo(u16);

impl PieceTo {
    /// No move (null move, or beyond the root).
    pub(crate) const NONE: PieceTo = PieceTo(u16::MAX);

    /// The key of `piece` moving by `mv`.
    #[inline]
    pub(crate) fn new(piece: Piece, mv: Move) -> PieceTo {
        PieceTo((piece.index() * SQUARE_COUNT + mv.to().index()) as u16)
    }
}

/// History and counter-move tables, kept across searches of a game.
pub(crate) struct History {
    quiet: Vec<i32>,
    counter: Vec<Move>,
    // [previous (piece, to)][this (piece, to)], shared by the one- and two-ply continuations.
    cont: Vec<i16>,
}

impl History {
    /// Empty tables.
    pub(crate) fn new() -> History {
        History {
            quiet: vec![0; SQUARE_COUNT * SQUARE_COUNT],
            counter: vec![Move::NONE; SQUARE_COUNT * SQUARE_COUNT],
            cont: vec![0; PIECE_TO * PIECE_TO],
        }
    }

    /// Forgets everything (new game).
    pub(crate) fn clear(&mut self) {
        self.quiet.iter_mut().for_each(|h| *h = 0);
        self.counter.iter_mut().for_each(|m| *m = Move::NONE);
        self.cont.iter_mut().for_each(|h| *h = 0);
    }

    /// Ages the table at the start of a search.
    pub(crate) fn age(&mut self) {
        self.quiet.iter_mut().for_each(|h| *h /= 2);
    }

    /// The history score of a quiet move.
    #[inline]
    pub(crate) fn quiet(&self, mv: Move) -> i32 {
        self.quiet[mv.history_index()]
    }

    /// The counter move to `prev` (`Move::NONE` when unknown or after a null move).
    #[inline]
    pub(crate) fn counter(&self, prev: Move) -> Move {
        if prev.is_none() {
            Move::NONE
        } else {
            self.counter[prev.history_index()]
        }
    }

    /// The continuation history of `this` after the earlier move `prev` (0 without one).
    #[inline]
    pub(crate) fn cont(&self, prev: PieceTo, this: PieceTo) -> i32 {
        if prev == PieceTo::NONE {
            0
        } else {
            i32::from(self.cont[prev.0 as usize * PIECE_TO + this.0 as usize])
        }
    }

    /// A quiet `best` caused a cutoff at `depth` after `tried` (other quiet moves) failed;
    /// each move comes with its (piece, to) key, `conts` are the keys of the moves one and
    /// two plies earlier.
    pub(crate) fn reward(
        &mut self,
        best: (Move, PieceTo),
        tried: &[(Move, PieceTo)],
        prev: Move,
        conts: [PieceTo; 2],
        depth: i32,
    ) {
        let bonus = (120 * depth).min(1_500);
        self.update(best, conts, bonus);
        for &mv in tried {
            self.update(mv, conts, -bonus);
        }
        if !prev.is_none() {
            self.counter[prev.history_index()] = best.0;
        }
    }

    #[inline]
    fn update(&mut self, (mv, key): (Move, PieceTo), conts: [PieceTo; 2], bonus: i32) {
        let h = &mut self.quiet[mv.history_index()];
        *h += bonus - *h * bonus.abs() / HISTORY_MAX;
        for prev in conts {
            if prev != PieceTo::NONE {
                let c = &mut self.cont[prev.0 as usize * PIECE_TO + key.0 as usize];
                let v = i32::from(*c);
                *c = (v + bonus - v * bonus.abs() / HISTORY_MAX) as i16;
            }
        }
    }
}

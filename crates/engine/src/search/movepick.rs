//! Move ordering: the TT move, captures that do not lose material (most valuable victim,
//! least valuable attacker), killers, the counter move, quiet moves by history, and last the
//! captures that lose material by exchange; moves are picked one at a time.

use super::history::PieceTo;
use super::{see, Searcher};
use crate::xiangqi::movegen::MoveList;
use crate::xiangqi::types::Move;

impl Searcher {
    /// Scores every move of `list` into `order` for [`pick`].
    pub(super) fn score_moves(
        &self,
        list: &MoveList,
        order: &mut [i32],
        tt_move: Move,
        ply: usize,
    ) {
        let board = self.pos.board();
        let counter = self
            .history
            .counter(self.pos.history().last().map_or(Move::NONE, |st| st.mv));
        let conts = self.conts(ply);
        for (i, &mv) in list.iter().enumerate() {
            order[i] = if mv == tt_move {
                2_000_000
            } else {
                let victim = board[mv.to().index()];
                if !victim.is_empty() {
                    let attacker = board[mv.from().index()];
                    let (v, a) = (
                        self.see_values[victim.kind_bits() as usize],
                        self.see_values[attacker.kind_bits() as usize],
                    );
                    let mvv_lva = v * 16 - a / 16;
                    // A capture of a piece worth at least the capturer cannot lose material.
                    if a <= v || see::see(board, mv, &self.see_values) >= 0 {
                        1_000_000 + mvv_lva
                    } else {
                        BAD_CAPTURE + mvv_lva
                    }
                } else if self.killers[ply][0] == mv {
                    900_000
                } else if self.killers[ply][1] == mv {
                    899_000
                } else if counter == mv {
                    898_000
                } else {
                    let key = PieceTo::new(board[mv.from().index()], mv);
                    self.history.quiet(mv)
                        + self.history.cont(conts[0], key)
                        + self.history.cont(conts[1], key)
                }
            };
        }
    }
}

/// Order score of captures that lose material by exchange: after every quiet move.
pub(super) const BAD_CAPTURE: i32 = -1_000_000;

/// Selection step: swaps the best-scored remaining move into place `i` and returns it.
#[inline]
pub(super) fn pick(list: &mut MoveList, order: &mut [i32], i: usize) -> Move {
    let n = list.len();
    // The first best score of the rest, kept in a register, over a slice of known length
    // (no bounds check in the loop).
    let rest = &order[i..n];
    let mut best = 0;
    let mut best_score = rest[0];
    for (j, &s) in rest.iter().enumerate().skip(1) {
        if s > best_score {
            best = j;
            best_score = s;
        }
    }
    let best = i + best;
    if best != i {
        order.swap(i, best);
        list.as_mut_slice().swap(i, best);
    }
    list.as_slice()[i]
}

//! Quiescence search: captures (all evasions in check) until the position is quiet, with
//! stand pat, delta pruning, losing captures skipped, and the transposition table.

use super::movepick::pick;
use super::tt::Bound;
use super::{score_from_tt, score_to_tt, Searcher, INFINITE, MATE, MAX_PLY};
use crate::xiangqi::movegen::{GenKind, MoveList};
use crate::xiangqi::types::Move;

impl Searcher {
    pub(super) fn qsearch(&mut self, mut alpha: i32, beta: i32, ply: usize) -> i32 {
        self.nodes += 1;
        self.check_limits();
        if self.stopped {
            return 0;
        }
        self.seldepth = self.seldepth.max(ply);
        if ply >= MAX_PLY - 1 {
            return self.static_eval();
        }
        // The table serves quiescence too: a stored bound that settles the window ends the
        // node, and a stored move is tried first. Quiescence ignores repetitions, so its
        // scores are path independent; they are stored at depth 0, never over a full-width
        // entry for the same position.
        let key = self.pos.key();
        let mut tt_move = Move::NONE;
        let mut keep_entry = false;
        let mut tt_eval = None;
        if let Some(e) = self.tt.probe(key) {
            keep_entry = e.depth > 0;
            tt_eval = Some(i32::from(e.eval));
            let score = score_from_tt(e.score as i32, ply);
            let cut = match e.bound() {
                Bound::Exact => true,
                Bound::Lower => score >= beta,
                Bound::Upper => score <= alpha,
            };
            if cut {
                return score;
            }
            tt_move = e.mv;
        }
        let original_alpha = alpha;
        let in_check = self.pos.in_check();
        let mut best = -INFINITE;
        let stand_pat = if in_check {
            -INFINITE
        } else {
            tt_eval.unwrap_or_else(|| self.static_eval())
        };
        if !in_check {
            if stand_pat >= beta {
                if !keep_entry {
                    self.tt
                        .store(key, Move::NONE, stand_pat, stand_pat, 0, Bound::Lower);
                }
                return stand_pat;
            }
            alpha = alpha.max(stand_pat);
            best = stand_pat;
        }
        let mut list = MoveList::new();
        self.pos.generate_pseudo(
            if in_check {
                GenKind::All
            } else {
                GenKind::Captures
            },
            &mut list,
        );
        let mut order = [0i32; crate::xiangqi::movegen::MAX_MOVES];
        self.score_moves(&list, &mut order, tt_move, ply);
        let mut legal = 0;
        let mut best_move = Move::NONE;
        for i in 0..list.len() {
            let mv = pick(&mut list, &mut order, i);
            if !in_check {
                // Captures that lose material by exchange come last: none is worth trying.
                if order[i] < 0 {
                    break;
                }
                let victim = self.pos.piece_at(mv.to()).kind_bits() as usize;
                if stand_pat + self.eval.material[victim] + self.tunables.delta_margin < alpha {
                    continue;
                }
            }
            if !self.pos.is_legal_pseudo(mv) {
                continue;
            }
            legal += 1;
            self.make_at(mv, ply);
            let score = -self.qsearch(-beta, -alpha, ply + 1);
            self.unmake();
            if self.stopped {
                return 0;
            }
            if score > best {
                best = score;
                if score > alpha {
                    best_move = mv;
                    alpha = score;
                    if score >= beta {
                        break;
                    }
                }
            }
        }
        if in_check && legal == 0 {
            return -MATE + ply as i32;
        }
        let bound = if best >= beta {
            Bound::Lower
        } else if best > original_alpha {
            Bound::Exact
        } else {
            Bound::Upper
        };
        if !keep_entry {
            self.tt
                .store(key, best_move, score_to_tt(best, ply), stand_pat, 0, bound);
        }
        best
    }
}

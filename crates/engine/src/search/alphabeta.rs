//! The principal-variation search below the root: repetitions, mate distance, the
//! transposition-table cut, reverse futility, null move, internal iterative reduction, shallow
//! move pruning, check extensions and late-move reductions.

use super::movepick::pick;
use super::tt::Bound;
use super::{
    history, score_from_tt, score_to_tt, see, CycleVerdict, Searcher, INFINITE, MATE, MATE_BOUND,
    MAX_PLY,
};
use crate::xiangqi::movegen::{GenKind, MoveList};
use crate::xiangqi::types::{Move, PieceKind};

impl Searcher {
    fn draw_score(&self) -> i32 {
        if self.pos.side_to_move() == self.root_side {
            -self.tunables.contempt
        } else {
            self.tunables.contempt
        }
    }

    pub(super) fn alpha_beta(
        &mut self,
        depth: i32,
        mut alpha: i32,
        mut beta: i32,
        ply: usize,
        pv_node: bool,
        null_allowed: bool,
    ) -> i32 {
        self.pv_len[ply] = ply;
        if depth <= 0 {
            return self.qsearch(alpha, beta, ply);
        }
        self.check_limits();
        if self.stopped {
            return 0;
        }
        self.seldepth = self.seldepth.max(ply);

        // Repetition, judged from the stacks (cheap key scan when nothing repeats).
        if self.pos.quiet_plies() >= 4 {
            if let Some(verdict) = (self.judge)(&mut self.pos) {
                self.repetition_hits += 1;
                return match verdict {
                    CycleVerdict::Draw => self.draw_score(),
                    CycleVerdict::Loses(c) if c == self.pos.side_to_move() => -MATE + ply as i32,
                    CycleVerdict::Loses(_) => MATE - ply as i32,
                };
            }
        }
        // Mate distance pruning.
        alpha = alpha.max(-MATE + ply as i32);
        beta = beta.min(MATE - ply as i32 - 1);
        if alpha >= beta {
            return alpha;
        }
        if ply >= MAX_PLY - 1 {
            return self.static_eval();
        }

        let in_check = self.pos.in_check();
        let key = self.pos.key();
        let mut tt_move = Move::NONE;
        let mut tt_eval = None;
        let mut tt_bound = None;
        if let Some(e) = self.tt.probe(key) {
            tt_move = e.mv;
            tt_eval = Some(i32::from(e.eval));
            tt_bound = Some((score_from_tt(e.score as i32, ply), e.bound()));
            if !pv_node && e.depth as i32 >= depth {
                let score = score_from_tt(e.score as i32, ply);
                let cut = match e.bound() {
                    Bound::Exact => true,
                    Bound::Lower => score >= beta,
                    Bound::Upper => score <= alpha,
                };
                if cut {
                    return score;
                }
            }
        }
        // The table keeps each position's static evaluation: reusing it saves the non-
        // incremental terms.
        let static_eval = if in_check {
            -INFINITE
        } else {
            tt_eval.unwrap_or_else(|| self.static_eval())
        };
        self.evals[ply] = static_eval;
        // Better than two plies ago (or no comparison possible): prune less eagerly when not.
        let improving = !in_check && (ply < 2 || static_eval > self.evals[ply - 2]);
        // For pruning, a stored search score is a better estimate than the static
        // evaluation where its bound points away from it (a lower bound above it, an upper
        // bound below it); the raw evaluation stays the one stored and compared.
        let static_eval = match tt_bound {
            Some((score, bound)) if !in_check && score.abs() < MATE_BOUND => match bound {
                Bound::Exact => score,
                Bound::Lower if score > static_eval => score,
                Bound::Upper if score < static_eval => score,
                _ => static_eval,
            },
            _ => static_eval,
        };
        let raw_eval = self.evals[ply];

        if !pv_node && !in_check {
            // Reverse futility: far above beta at shallow depth; a margin per ply, one ply
            // less when the evaluation is improving.
            if self.options.futility
                && depth <= 6
                && static_eval - self.tunables.futility_margin * (depth - i32::from(improving))
                    >= beta
                && beta.abs() < MATE_BOUND
            {
                return static_eval;
            }
            // Null move, only with enough material that zugzwang is unlikely; reduced more
            // at depth and the further the evaluation is above beta.
            if self.options.null_move
                && null_allowed
                && depth >= 2
                && static_eval >= beta
                && self.null_material_ok()
            {
                let r =
                    self.tunables.null_reduction + depth / 4 + ((static_eval - beta) / 200).min(3);
                self.moved[ply] = history::PieceTo::NONE;
                self.pos.make_null();
                self.psq.push(self.psq.last().copied().unwrap_or_default());
                if let Some(net) = &self.net {
                    let n = 2 * net.hidden();
                    let len = self.acc.len();
                    self.acc.extend_from_within(len - n..);
                }
                let score =
                    -self.alpha_beta(depth - 1 - r, -beta, -beta + 1, ply + 1, false, false);
                self.psq.pop();
                if let Some(net) = &self.net {
                    self.acc.truncate(self.acc.len() - 2 * net.hidden());
                }
                self.pos.unmake_null();
                if self.stopped {
                    return 0;
                }
                if score >= beta {
                    return if score >= MATE_BOUND { beta } else { score };
                }
            }
        }

        // Internal iterative reduction: without a TT move the ordering is poor and the node
        // likely new to the tree; search it one ply shallower.
        let depth = if tt_move.is_none() && depth >= 4 {
            depth - 1
        } else {
            depth
        };

        let reps_before = self.repetition_hits;
        let mut list = MoveList::new();
        self.pos.generate_pseudo(GenKind::All, &mut list);
        let mut order = [0i32; crate::xiangqi::movegen::MAX_MOVES];
        self.score_moves(&list, &mut order, tt_move, ply);

        let prev_move = self.pos.history().last().map_or(Move::NONE, |st| st.mv);
        let conts = self.conts(ply);
        let mut quiets_tried = [(Move::NONE, history::PieceTo::NONE); 64];
        let mut quiet_count = 0;
        let original_alpha = alpha;
        let mut best_score = -INFINITE;
        let mut best_move = Move::NONE;
        let mut legal = 0usize;
        for i in 0..list.len() {
            let mv = pick(&mut list, &mut order, i);
            if !self.pos.is_legal_pseudo(mv) {
                continue;
            }
            legal += 1;
            let capture = self.pos.is_capture(mv);
            let is_killer = self.killers[ply].contains(&mv);
            let key = history::PieceTo::new(self.pos.board()[mv.from().index()], mv);
            let cont = [
                self.history.cont(conts[0], key),
                self.history.cont(conts[1], key),
            ];
            // Shallow pruning at non-PV nodes once a move has a score, judged (for quiet
            // moves) by the depth the move would be searched to after its late-move
            // reduction: quiet moves late in the list (half as many when the evaluation is
            // not improving), unable to lift the static evaluation to alpha, followed badly
            // by both earlier moves (continuation history below zero), or losing material
            // by exchange; captures that lose more than a margin per ply. Checking moves are
            // always searched.
            let prune = self.options.futility
                && !pv_node
                && !in_check
                && best_score > -MATE_BOUND
                && !is_killer
                && mv != tt_move
                && if capture {
                    depth <= 6
                        && order[i] < 0
                        && see::see(self.pos.board(), mv, &self.see_values)
                            < -self.tunables.capture_see * depth
                } else {
                    let lmr_depth = (depth
                        - 1
                        - self.tunables.lmr[depth.min(63) as usize][legal.min(63)] as i32)
                        .max(0);
                    (depth <= 8
                        && legal
                            > (self.tunables.lmp_base + 2 + (depth * depth) as usize)
                                * (1 + usize::from(improving))
                                / 2)
                        || (lmr_depth <= 5
                            && static_eval + self.tunables.futility_quiet * (lmr_depth + 1)
                                <= alpha)
                        || (lmr_depth <= 2 && cont[0] < 0 && cont[1] < 0)
                        || (lmr_depth <= 6
                            && see::see(self.pos.board(), mv, &self.see_values)
                                < -self.tunables.quiet_see * lmr_depth * lmr_depth)
                };
            // A pruned move is made only to see whether it checks, and not at all when it
            // cannot.
            if prune && !self.pos.may_give_check(mv) {
                continue;
            }
            self.make_at(mv, ply);
            let gives_check = self.pos.in_check();
            if prune && !gives_check {
                self.unmake();
                continue;
            }
            self.nodes += 1;
            // Only checks that do not lose the checking piece by exchange are extended: in
            // xiangqi a cannon or chariot can give a losing check almost every move, and
            // extending those grows the tree without finding anything.
            let ext = i32::from(
                self.options.check_extension
                    && gives_check
                    && ply < MAX_PLY / 2
                    && self.check_keeps_material(mv),
            );
            let new_depth = depth - 1 + ext;
            let score = if legal == 1 {
                -self.alpha_beta(new_depth, -beta, -alpha, ply + 1, pv_node, true)
            } else {
                let mut r = 0;
                if self.options.lmr
                    && depth >= self.tunables.lmr_min_depth
                    && legal > self.tunables.lmr_min_moves
                    && !capture
                    && !in_check
                    && !gives_check
                    && !is_killer
                {
                    r = self.tunables.lmr[depth.min(63) as usize][legal.min(63)] as i32;
                    if pv_node {
                        r -= 1;
                    }
                    // Moves that often refuted others are reduced less, rarely good ones more.
                    let hist = self.history.quiet(mv) + cont[0] + cont[1];
                    r -= hist * 4 / (3 * history::HISTORY_MAX);
                    r = r.clamp(0, new_depth - 1);
                }
                let mut s =
                    -self.alpha_beta(new_depth - r, -alpha - 1, -alpha, ply + 1, false, true);
                if s > alpha && r > 0 && !self.stopped {
                    s = -self.alpha_beta(new_depth, -alpha - 1, -alpha, ply + 1, false, true);
                }
                if s > alpha && s < beta && pv_node && !self.stopped {
                    s = -self.alpha_beta(new_depth, -beta, -alpha, ply + 1, true, true);
                }
                s
            };
            self.unmake();
            if self.stopped {
                return 0;
            }
            if !capture && score < beta && quiet_count < quiets_tried.len() {
                quiets_tried[quiet_count] = (mv, key);
                quiet_count += 1;
            }
            if score > best_score {
                best_score = score;
                best_move = mv;
                if score > alpha {
                    alpha = score;
                    if pv_node {
                        self.pv[ply][ply] = mv;
                        let child_len = self.pv_len[ply + 1].max(ply + 1);
                        for p in ply + 1..child_len {
                            self.pv[ply][p] = self.pv[ply + 1][p];
                        }
                        self.pv_len[ply] = child_len;
                    }
                    if score >= beta {
                        if !capture {
                            let k = &mut self.killers[ply];
                            if k[0] != mv {
                                k[1] = k[0];
                                k[0] = mv;
                            }
                            self.history.reward(
                                (mv, key),
                                &quiets_tried[..quiet_count],
                                prev_move,
                                conts,
                                depth,
                            );
                        }
                        break;
                    }
                }
            }
        }
        if legal == 0 {
            // Checkmate and stalemate both lose in xiangqi.
            return -MATE + ply as i32;
        }
        // Scores that depend on the path (a repetition below) are never stored.
        if self.repetition_hits == reps_before {
            let bound = if best_score >= beta {
                Bound::Lower
            } else if best_score > original_alpha {
                Bound::Exact
            } else {
                Bound::Upper
            };
            self.tt.store(
                key,
                best_move,
                score_to_tt(best_score, ply),
                raw_eval,
                depth,
                bound,
            );
        }
        best_score
    }

    /// Whether `mv`, just made, does not lose material by exchange (judged on the board
    /// before it: the move is unmade, judged and made again).
    fn check_keeps_material(&mut self, mv: Move) -> bool {
        self.unmake();
        let ok = see::see(self.pos.board(), mv, &self.see_values) >= 0;
        self.make(mv);
        ok
    }

    fn null_material_ok(&self) -> bool {
        let c = self.pos.side_to_move();
        let n = 2 * self.pos.count(c, PieceKind::Chariot) as i32
            + self.pos.count(c, PieceKind::Cannon) as i32
            + self.pos.count(c, PieceKind::Horse) as i32;
        n >= 2
    }
}

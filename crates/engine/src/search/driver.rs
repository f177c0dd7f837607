//! The iterative-deepening driver: the public entry points, aspiration windows around the
//! previous score, the time manager, and the root move loop (exact or straying scores).

use super::{
    is_mate_score, timeman, Limits, SearchInfo, SearchResult, Searcher, INFINITE, MATE, MAX_PLY,
};
use crate::xiangqi::position::Position;
use crate::xiangqi::types::Move;
use std::time::Instant;

impl Searcher {
    /// Searches `pos` (its move history is used for repetitions) within `limits`, calling
    /// `info` after every completed iteration. `root_moves` restricts the moves considered
    /// (empty = all legal moves). With `exact_root_scores`, every root move gets an exact
    /// score at each depth (slower; used by levels that stray).
    pub fn search(
        &mut self,
        pos: &Position,
        limits: &Limits,
        root_moves: &[Move],
        exact_root_scores: bool,
        info: &mut dyn FnMut(&SearchInfo),
    ) -> SearchResult {
        let stray = exact_root_scores.then_some(INFINITE);
        self.search_root(pos, limits, root_moves, stray, info)
    }

    /// [`Searcher::search`] for a level that may stray up to `margin` centipawns below the
    /// best move: every root move scoring within `margin` of the best gets an exact score in
    /// `root_scores`, every other move a bound below `best - margin` (so it is never within
    /// the margin). Far cheaper than exact scores for all moves: the other moves are refuted
    /// by null-window searches at `best - margin`, as the best move's rivals are in a plain
    /// search. A `margin` of 0 or less is a plain search.
    pub fn search_within(
        &mut self,
        pos: &Position,
        limits: &Limits,
        root_moves: &[Move],
        margin: i32,
        info: &mut dyn FnMut(&SearchInfo),
    ) -> SearchResult {
        let stray = (margin > 0).then_some(margin.min(INFINITE));
        self.search_root(pos, limits, root_moves, stray, info)
    }

    fn search_root(
        &mut self,
        pos: &Position,
        limits: &Limits,
        root_moves: &[Move],
        stray: Option<i32>,
        info: &mut dyn FnMut(&SearchInfo),
    ) -> SearchResult {
        let exact_root_scores = stray.is_some();
        self.pos = pos.clone();
        self.psq.clear();
        self.psq.push(self.eval.psq_full(&self.pos));
        if let Some(net) = &self.net {
            self.acc.clear();
            self.acc.resize(2 * net.hidden(), 0);
            net.refresh(&self.pos, &mut self.acc);
        }
        self.nodes = 0;
        self.seldepth = 0;
        self.stopped = false;
        self.limits = limits.clone();
        self.start = Instant::now();
        self.root_side = pos.side_to_move();
        self.tt.new_search();
        self.history.age();

        let mut moves: Vec<Move> = self.pos.legal_moves().iter().copied().collect();
        if !root_moves.is_empty() {
            moves.retain(|m| root_moves.contains(m));
        }
        let mut result = SearchResult {
            best_move: moves.first().copied().unwrap_or(Move::NONE),
            score: if moves.is_empty() { -MATE } else { 0 },
            depth: 0,
            seldepth: 0,
            nodes: 0,
            pv: moves.first().map(|&m| vec![m]).unwrap_or_default(),
            root_scores: Vec::new(),
        };
        if moves.is_empty() {
            return result;
        }
        // A mate in one (no legal reply: mate or stalemate, both win) is played at once.
        for &mv in &moves {
            self.pos.make(mv);
            let wins = !self.pos.has_legal_move();
            self.pos.unmake();
            if wins {
                result.best_move = mv;
                result.score = MATE - 1;
                result.depth = 1;
                result.pv = vec![mv];
                result.root_scores = moves
                    .iter()
                    .map(|&m| (m, if m == mv { MATE - 1 } else { -INFINITE }))
                    .collect();
                if exact_root_scores {
                    result.root_scores.retain(|&(m, _)| m == mv);
                }
                return result;
            }
        }

        let max_depth = limits
            .depth
            .unwrap_or(MAX_PLY as u32 - 8)
            .clamp(1, MAX_PLY as u32 - 8);
        let mut scores: Vec<(Move, i32)> = moves.iter().map(|&m| (m, -INFINITE)).collect();
        let mut prev_score = 0;
        let mut timer = timeman::TimeManager::new(limits);
        for depth in 1..=max_depth {
            if self.smp.as_ref().is_some_and(|l| l.skips(depth)) {
                continue;
            }
            let (mut alpha, mut beta) = (-INFINITE, INFINITE);
            let mut window = self.tunables.aspiration;
            // A straying level's window reaches `margin` further down, so that the moves
            // within the margin of the best are still scored exactly.
            let below = stray.unwrap_or(0);
            if depth >= 4 && below < 1000 && !is_mate_score(prev_score) {
                alpha = (prev_score - window - below).max(-INFINITE);
                beta = (prev_score + window).min(INFINITE);
            }
            let score = loop {
                let s = self.root(depth as i32, alpha, beta, &mut scores, stray);
                if self.stopped {
                    break s;
                }
                if s <= alpha {
                    alpha = (alpha - window).max(-INFINITE);
                    window *= 2;
                } else if s >= beta {
                    beta = (beta + window).min(INFINITE);
                    window *= 2;
                } else {
                    break s;
                }
                if window > 1000 {
                    alpha = -INFINITE;
                    beta = INFINITE;
                }
            };
            // An interrupted iteration still counts if it improved on the best move, except
            // for a straying level: it chooses among the last completed iteration's scores,
            // which a half-done iteration's best would not be comparable with.
            if self.stopped {
                if depth > 1
                    && stray.is_none()
                    && scores[0].1 > result.score
                    && scores[0].1 > -INFINITE
                {
                    result.best_move = scores[0].0;
                    result.score = scores[0].1;
                    result.pv = self.pv[0][..self.pv_len[0].max(1)].to_vec();
                    result.pv[0] = scores[0].0;
                }
                break;
            }
            prev_score = score;
            result.best_move = scores[0].0;
            result.score = score;
            result.depth = depth;
            result.seldepth = self.seldepth as u32;
            result.pv = self.pv[0][..self.pv_len[0]].to_vec();
            if result.pv.first() != Some(&result.best_move) {
                result.pv = vec![result.best_move];
            }
            result.root_scores = scores.clone();
            info(&SearchInfo {
                depth,
                seldepth: self.seldepth as u32,
                score,
                nodes: self.nodes,
                elapsed: self.start.elapsed(),
                pv: result.pv.clone(),
            });
            if is_mate_score(score) && depth as i32 > MATE - score.abs() + 2 {
                break;
            }
            if timer.stop_after_iteration(result.best_move, score, self.start.elapsed()) {
                break;
            }
        }
        result.nodes = self.nodes;
        result
    }

    /// Root search: moves in `scores` order (best first), updating their scores; keeps the
    /// list sorted so the best move is first.
    fn root(
        &mut self,
        depth: i32,
        mut alpha: i32,
        beta: i32,
        scores: &mut Vec<(Move, i32)>,
        stray: Option<i32>,
    ) -> i32 {
        // Every move exact (full window), or exact within a margin of the best.
        let exact = stray.is_some_and(|m| m >= INFINITE);
        let floor = alpha;
        self.pv_len[0] = 0;
        let mut best = -INFINITE;
        for i in 0..scores.len() {
            let mv = scores[i].0;
            // The lower edge of this move's window: alpha, or the best less the margin.
            let low = match stray {
                Some(m) if !exact && i > 0 => (best - m - 1).max(floor).min(alpha),
                _ => alpha,
            };
            self.make_at(mv, 0);
            self.nodes += 1;
            let ext = i32::from(self.options.check_extension && self.pos.in_check());
            let score = if i == 0 || exact {
                let a = if exact { -INFINITE } else { alpha };
                -self.alpha_beta(depth - 1 + ext, -beta, -a, 1, true, true)
            } else {
                let mut s = -self.alpha_beta(depth - 1 + ext, -low - 1, -low, 1, false, true);
                if s > low && s < beta && !self.stopped {
                    s = -self.alpha_beta(depth - 1 + ext, -beta, -low, 1, true, true);
                }
                s
            };
            self.unmake();
            if self.stopped {
                // A move whose search was cut short is ignored.
                break;
            }
            scores[i].1 = if exact || score > low || i == 0 {
                score
            } else {
                // Fail-low: an upper bound; keep it below the best (and the margin).
                score.min(low) - 1
            };
            if score > best {
                best = score;
                if score > alpha || i == 0 {
                    self.pv[0][0] = mv;
                    let child = self.pv_len[1].max(1);
                    for p in 1..child {
                        self.pv[0][p] = self.pv[1][p];
                    }
                    self.pv_len[0] = child;
                }
                if score > alpha && !exact {
                    alpha = score;
                    if score >= beta {
                        break;
                    }
                }
            }
        }
        // Stable sort: best first, ties keep previous order (deterministic).
        if !self.stopped {
            scores.sort_by_key(|e| std::cmp::Reverse(e.1));
        } else if let Some(pos) = scores
            .iter()
            .position(|&(m, _)| Some(&m) == self.pv[0][..self.pv_len[0]].first())
        {
            let e = scores.remove(pos);
            scores.insert(0, e);
        }
        best
    }
}

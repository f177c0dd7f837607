//! Chess search, built like the xiangqi one: iterative deepening with aspiration windows, PVS
//! over a transposition table, null move, reverse futility, late-move reductions, check
//! extensions, quiescence over captures and promotions (all evasions in check), killers,
//! counter moves and history, mate scores `-MATE + ply`, and draws by repetition (a position
//! repeated once inside the tree, as engines do), the fifty-move rule and insufficient material.
//! Node-limited searches are deterministic.

use crate::chess::eval::{evaluate, piece_value, EvalParams};
use crate::chess::movegen::MoveList;
use crate::chess::position::Position;
use crate::chess::types::{Color, Move, MoveKind, PieceKind};
use crate::search::{Limits, INFINITE, MATE, MATE_BOUND, MAX_PLY};
use std::time::Instant;

/// What one finished iteration reports (the shared type, with chess moves).
pub type SearchInfo = crate::search::SearchInfo<Move>;

/// The outcome of a search (the shared type, with chess moves).
pub type SearchResult = crate::search::SearchResult<Move>;

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Bound {
    Exact,
    Lower,
    Upper,
}

#[derive(Clone, Copy, Debug)]
struct Entry {
    key: u64,
    mv: Move,
    score: i16,
    depth: i8,
    bound: Bound,
    age: u8,
}

const EMPTY_ENTRY: Entry = Entry {
    key: 0,
    mv: Move::NONE,
    score: 0,
    depth: -1,
    bound: Bound::Upper,
    age: 0,
};

/// A transposition table of two-entry buckets: the first slot keeps the deepest result of
/// the current search, the second always takes the newest.
struct Table {
    entries: Vec<[Entry; 2]>,
    age: u8,
}

impl Table {
    fn new(mb: usize) -> Table {
        let bucket = std::mem::size_of::<[Entry; 2]>();
        let wanted = (mb.max(1) << 20) / bucket;
        let n = wanted.next_power_of_two() >> usize::from(!wanted.is_power_of_two());
        Table {
            entries: vec![[EMPTY_ENTRY; 2]; n.max(1)],
            age: 0,
        }
    }

    fn index(&self, key: u64) -> usize {
        (key as usize) & (self.entries.len() - 1)
    }

    fn probe(&self, key: u64) -> Option<Entry> {
        self.entries[self.index(key)]
            .iter()
            .find(|e| e.depth >= 0 && e.key == key)
            .copied()
    }

    fn store(&mut self, key: u64, mv: Move, score: i32, depth: i32, bound: Bound) {
        let age = self.age;
        let i = self.index(key);
        let bucket = &mut self.entries[i];
        let new = Entry {
            key,
            mv,
            score: score as i16,
            depth: depth.clamp(0, 127) as i8,
            bound,
            age,
        };
        let keep_move = |old: &Entry, new: &mut Entry| {
            if new.mv.is_none() && old.key == key {
                new.mv = old.mv;
            }
        };
        let first = bucket[0];
        if first.key == key || first.depth < 0 || first.age != age || depth >= first.depth as i32 {
            let mut e = new;
            keep_move(&first, &mut e);
            bucket[0] = e;
        } else {
            let mut e = new;
            keep_move(&bucket[1], &mut e);
            bucket[1] = e;
        }
    }

    fn clear(&mut self) {
        for b in &mut self.entries {
            *b = [EMPTY_ENTRY; 2];
        }
    }
}

/// Mate scores are stored relative to the node, so that one entry serves any ply.
fn to_tt(score: i32, ply: usize) -> i32 {
    if score >= MATE_BOUND {
        score + ply as i32
    } else if score <= -MATE_BOUND {
        score - ply as i32
    } else {
        score
    }
}

fn from_tt(score: i32, ply: usize) -> i32 {
    if score >= MATE_BOUND {
        score - ply as i32
    } else if score <= -MATE_BOUND {
        score + ply as i32
    } else {
        score
    }
}

const HISTORY_MAX: i32 = 16_384;

/// The chess searcher: owns the transposition table, history, killers and counter moves.
pub struct Searcher {
    params: EvalParams,
    tt: Table,
    history: Vec<[i32; 4096]>,
    counters: Vec<Move>,
    killers: [[Move; 2]; MAX_PLY + 1],
    pv: Vec<[Move; MAX_PLY + 1]>,
    pv_len: [usize; MAX_PLY + 1],
    lmr: [[u8; 64]; 64],
    pos: Position,
    nodes: u64,
    seldepth: usize,
    stopped: bool,
    limits: Limits,
    start: Instant,
}

impl Searcher {
    /// A searcher with these evaluation parameters and a table of `tt_mb` megabytes (callers
    /// check it against [`crate::search::tt::MAX_TT_MB`]).
    pub fn new(params: EvalParams, tt_mb: usize) -> Searcher {
        let mut lmr = [[0u8; 64]; 64];
        for (d, row) in lmr.iter_mut().enumerate().skip(1) {
            for (m, r) in row.iter_mut().enumerate().skip(1) {
                let v = 0.75 + (d as f64).ln() * (m as f64).ln() / 2.25;
                *r = v.clamp(0.0, 40.0) as u8;
            }
        }
        Searcher {
            params,
            tt: Table::new(tt_mb),
            history: vec![[0; 4096]; 2],
            counters: vec![Move::NONE; 4096],
            killers: [[Move::NONE; 2]; MAX_PLY + 1],
            pv: vec![[Move::NONE; MAX_PLY + 1]; MAX_PLY + 1],
            pv_len: [0; MAX_PLY + 1],
            lmr,
            pos: Position::startpos(),
            nodes: 0,
            seldepth: 0,
            stopped: false,
            limits: Limits::default(),
            start: Instant::now(),
        }
    }

    /// The evaluation parameters in use.
    pub fn params(&self) -> &EvalParams {
        &self.params
    }

    /// Forgets everything learned (new game).
    pub fn clear(&mut self) {
        self.tt.clear();
        for h in &mut self.history {
            h.fill(0);
        }
        self.counters.fill(Move::NONE);
        self.killers = [[Move::NONE; 2]; MAX_PLY + 1];
    }

    #[inline]
    fn check_limits(&mut self) {
        if self.limits.reached(self.nodes, self.start) {
            self.stopped = true;
        }
    }

    /// Searches `pos` (its move history counts for repetitions) within `limits`, calling
    /// `info` after every completed iteration. `root_moves` restricts the moves considered
    /// (empty = all legal moves). With `exact_root_scores`, every root move gets an exact
    /// score at each depth (slower; for levels that stray).
    pub fn search(
        &mut self,
        pos: &Position,
        limits: &Limits,
        root_moves: &[Move],
        exact_root_scores: bool,
        info: &mut dyn FnMut(&SearchInfo),
    ) -> SearchResult {
        self.pos = pos.clone();
        self.nodes = 0;
        self.seldepth = 0;
        self.stopped = false;
        self.limits = limits.clone();
        self.start = Instant::now();
        self.tt.age = self.tt.age.wrapping_add(1);
        for h in &mut self.history {
            for v in h.iter_mut() {
                *v /= 2;
            }
        }

        let mut moves: Vec<Move> = self.pos.legal_moves().iter().copied().collect();
        if !root_moves.is_empty() {
            moves.retain(|m| root_moves.contains(m));
        }
        let mut result = SearchResult {
            best_move: moves.first().copied().unwrap_or(Move::NONE),
            score: if moves.is_empty() {
                if self.pos.in_check() {
                    -MATE
                } else {
                    0
                }
            } else {
                0
            },
            depth: 0,
            seldepth: 0,
            nodes: 0,
            pv: moves.first().map(|&m| vec![m]).unwrap_or_default(),
            root_scores: Vec::new(),
        };
        if moves.is_empty() {
            return result;
        }
        let max_depth = limits
            .depth
            .unwrap_or(MAX_PLY as u32 - 1)
            .min(MAX_PLY as u32 - 1);
        let mut score = 0;
        for depth in 1..=max_depth.max(1) {
            if depth > 1 {
                if let Some(soft) = limits.soft_time() {
                    // A new iteration takes longer than all the ones before: do not start one
                    // that cannot finish.
                    if self.start.elapsed() >= soft.mul_f64(0.55) {
                        break;
                    }
                }
            }
            let (s, scores) = if exact_root_scores {
                self.root_exact(&mut moves, depth as i32)
            } else {
                (self.aspiration(&mut moves, depth as i32, score), Vec::new())
            };
            if self.stopped && depth > 1 {
                break;
            }
            score = s;
            result.best_move = moves[0];
            result.score = s;
            result.depth = depth;
            result.seldepth = self.seldepth as u32;
            result.pv = self.pv[0][..self.pv_len[0].max(1)].to_vec();
            result.pv[0] = moves[0];
            result.root_scores = scores;
            info(&SearchInfo {
                depth,
                seldepth: self.seldepth as u32,
                score: s,
                nodes: self.nodes,
                elapsed: self.start.elapsed(),
                pv: result.pv.clone(),
            });
            if self.stopped {
                break;
            }
            if s.abs() >= MATE_BOUND && depth as i32 > MATE - s.abs() + 2 {
                break;
            }
        }
        result.nodes = self.nodes;
        result
    }

    fn aspiration(&mut self, moves: &mut [Move], depth: i32, previous: i32) -> i32 {
        if depth < 5 || previous.abs() >= MATE_BOUND {
            return self.root(moves, depth, -INFINITE, INFINITE);
        }
        let mut delta = 25;
        let mut alpha = (previous - delta).max(-INFINITE);
        let mut beta = (previous + delta).min(INFINITE);
        loop {
            let s = self.root(moves, depth, alpha, beta);
            if self.stopped {
                return s;
            }
            if s <= alpha {
                alpha = (s - delta).max(-INFINITE);
            } else if s >= beta {
                beta = (s + delta).min(INFINITE);
            } else {
                return s;
            }
            delta *= 2;
            if delta > 1000 {
                alpha = -INFINITE;
                beta = INFINITE;
            }
        }
    }

    /// Every root move with a full window: exact scores, sorted best first.
    fn root_exact(&mut self, moves: &mut [Move], depth: i32) -> (i32, Vec<(Move, i32)>) {
        let mut scored = Vec::with_capacity(moves.len());
        for &mv in moves.iter() {
            self.pos.make(mv);
            let s = -self.negamax(depth - 1, -INFINITE, INFINITE, 1, true, mv);
            self.pos.unmake();
            if self.stopped && !scored.is_empty() {
                break;
            }
            scored.push((mv, s));
        }
        scored.sort_by_key(|&(_, s)| std::cmp::Reverse(s));
        for (i, &(m, _)) in scored.iter().enumerate() {
            moves[i] = m;
        }
        self.pv[0][0] = scored[0].0;
        self.pv_len[0] = 1;
        (scored[0].1, scored)
    }

    fn root(&mut self, moves: &mut [Move], depth: i32, mut alpha: i32, beta: i32) -> i32 {
        let mut best = -INFINITE;
        let mut best_index = 0;
        self.pv_len[0] = 0;
        for i in 0..moves.len() {
            let mv = moves[i];
            self.pos.make(mv);
            let s = if i == 0 {
                -self.negamax(depth - 1, -beta, -alpha, 1, true, mv)
            } else {
                let s = -self.negamax(depth - 1, -alpha - 1, -alpha, 1, true, mv);
                if s > alpha && s < beta {
                    -self.negamax(depth - 1, -beta, -alpha, 1, true, mv)
                } else {
                    s
                }
            };
            self.pos.unmake();
            if self.stopped && i > 0 {
                break;
            }
            if s > best {
                best = s;
                best_index = i;
                if s > alpha {
                    alpha = s;
                    self.pv[0][0] = mv;
                    let n = self.pv_len[1];
                    for k in 0..n {
                        self.pv[0][k + 1] = self.pv[1][k];
                    }
                    self.pv_len[0] = n + 1;
                }
                if s >= beta {
                    break;
                }
            }
        }
        // The best move first; the others keep their order.
        moves[..=best_index].rotate_right(1);
        best
    }

    fn is_draw(&self, ply: usize) -> bool {
        if self.pos.halfmove() >= 100 || self.pos.insufficient_material() {
            return true;
        }
        ply > 0 && self.pos.repetition_count() >= 2
    }

    fn has_non_pawn_material(&self, color: Color) -> bool {
        [
            PieceKind::Knight,
            PieceKind::Bishop,
            PieceKind::Rook,
            PieceKind::Queen,
        ]
        .iter()
        .any(|&k| self.pos.count(color, k) > 0)
    }

    /// Capture and promotion order: most valuable victim, then least valuable attacker.
    fn capture_score(&self, mv: Move) -> i32 {
        let victim = match mv.kind() {
            MoveKind::EnPassant => PieceKind::Pawn,
            _ => self.pos.piece_at(mv.to()).kind().unwrap_or(PieceKind::Pawn),
        };
        let attacker = self
            .pos
            .piece_at(mv.from())
            .kind()
            .unwrap_or(PieceKind::Pawn);
        let promo = mv.promotion().map_or(0, |k| piece_value(&self.params, k));
        10 * piece_value(&self.params, victim) - piece_value(&self.params, attacker) / 10 + promo
    }

    fn order(
        &self,
        list: &MoveList,
        tt_move: Move,
        ply: usize,
        previous: Move,
    ) -> Vec<(Move, i32)> {
        let side = self.pos.side_to_move().index();
        let counter = if previous.is_none() {
            Move::NONE
        } else {
            self.counters[previous.history_index()]
        };
        list.iter()
            .map(|&mv| {
                let s = if mv == tt_move {
                    1 << 30
                } else if self.pos.is_capture(mv) || mv.promotion().is_some() {
                    (1 << 20) + self.capture_score(mv)
                } else if mv == self.killers[ply][0] {
                    (1 << 19) + 2
                } else if mv == self.killers[ply][1] {
                    (1 << 19) + 1
                } else if mv == counter {
                    1 << 19
                } else {
                    self.history[side][mv.history_index()]
                };
                (mv, s)
            })
            .collect()
    }

    fn update_history(&mut self, mv: Move, bonus: i32) {
        let side = self.pos.side_to_move().index();
        let h = &mut self.history[side][mv.history_index()];
        *h += bonus - *h * bonus.abs() / HISTORY_MAX;
    }

    #[allow(clippy::too_many_arguments)]
    fn negamax(
        &mut self,
        mut depth: i32,
        mut alpha: i32,
        mut beta: i32,
        ply: usize,
        allow_null: bool,
        previous: Move,
    ) -> i32 {
        self.pv_len[ply] = 0;
        if ply >= MAX_PLY - 1 {
            return evaluate(&self.pos, &self.params);
        }
        self.seldepth = self.seldepth.max(ply);
        if self.is_draw(ply) {
            return 0;
        }
        // Mate distance: no line from here beats a mate already found nearer the root.
        alpha = alpha.max(-MATE + ply as i32);
        beta = beta.min(MATE - ply as i32 - 1);
        if alpha >= beta {
            return alpha;
        }
        let in_check = self.pos.in_check();
        if in_check {
            depth += 1;
        }
        if depth <= 0 {
            return self.quiescence(alpha, beta, ply);
        }
        if self.stopped {
            return 0;
        }
        self.nodes += 1;
        self.check_limits();
        if self.stopped {
            return 0;
        }
        let pv_node = beta - alpha > 1;
        let key = self.pos.key();
        let entry = self.tt.probe(key);
        let tt_move = entry.map_or(Move::NONE, |e| e.mv);
        if let Some(e) = entry {
            if !pv_node && e.depth as i32 >= depth {
                let s = from_tt(e.score as i32, ply);
                let cut = match e.bound {
                    Bound::Exact => true,
                    Bound::Lower => s >= beta,
                    Bound::Upper => s <= alpha,
                };
                if cut {
                    return s;
                }
            }
        }
        let static_eval = if in_check {
            -INFINITE
        } else {
            evaluate(&self.pos, &self.params)
        };
        let us = self.pos.side_to_move();
        if !in_check && !pv_node {
            // Reverse futility: far above beta at low depth, a quiet move will not fall back.
            if depth <= 6 && static_eval - 80 * depth >= beta && beta.abs() < MATE_BOUND {
                return static_eval;
            }
            // Null move: passing still fails high, so a real move would too (not in pawn
            // endings, where zugzwang is common).
            if allow_null && depth >= 3 && static_eval >= beta && self.has_non_pawn_material(us) {
                let r = 3 + depth / 4;
                self.pos.make_null();
                let s = -self.negamax(depth - 1 - r, -beta, -beta + 1, ply + 1, false, Move::NONE);
                self.pos.unmake();
                if self.stopped {
                    return 0;
                }
                if s >= beta {
                    return if s >= MATE_BOUND { beta } else { s };
                }
            }
        }
        // Internal iterative reduction: without a table move, a deep node is searched less.
        if tt_move.is_none() && depth >= 5 {
            depth -= 1;
        }

        let list = self.pos.legal_moves();
        if list.is_empty() {
            return if in_check { -MATE + ply as i32 } else { 0 };
        }
        let mut ordered = self.order(&list, tt_move, ply, previous);
        let mut best = -INFINITE;
        let mut best_move = Move::NONE;
        let mut quiets_tried: Vec<Move> = Vec::new();
        let original_alpha = alpha;
        for i in 0..ordered.len() {
            // Pick the best remaining move (selection sort, one step).
            let mut top = i;
            for j in i + 1..ordered.len() {
                if ordered[j].1 > ordered[top].1 {
                    top = j;
                }
            }
            ordered.swap(i, top);
            let mv = ordered[i].0;
            let quiet = !self.pos.is_capture(mv) && mv.promotion().is_none();
            // Late-move pruning of quiet moves at shallow depth, once a move has been found.
            if quiet && !in_check && !pv_node && best > -MATE_BOUND && depth <= 4 {
                if quiets_tried.len() >= (3 + depth * depth) as usize {
                    continue;
                }
                if static_eval + 100 + 90 * depth <= alpha {
                    continue;
                }
            }
            self.pos.make(mv);
            let gives_check = self.pos.in_check();
            let mut s;
            if i == 0 {
                s = -self.negamax(depth - 1, -beta, -alpha, ply + 1, true, mv);
            } else {
                let mut r = 0;
                if depth >= 3 && i >= 3 && quiet && !in_check && !gives_check {
                    r = self.lmr[depth.min(63) as usize][i.min(63)] as i32;
                    if pv_node {
                        r -= 1;
                    }
                    let side = us.index();
                    r -= self.history[side][mv.history_index()] / 6000;
                    r = r.clamp(0, depth - 2);
                }
                s = -self.negamax(depth - 1 - r, -alpha - 1, -alpha, ply + 1, true, mv);
                if s > alpha && r > 0 {
                    s = -self.negamax(depth - 1, -alpha - 1, -alpha, ply + 1, true, mv);
                }
                if s > alpha && s < beta {
                    s = -self.negamax(depth - 1, -beta, -alpha, ply + 1, true, mv);
                }
            }
            self.pos.unmake();
            if self.stopped {
                return 0;
            }
            if quiet {
                quiets_tried.push(mv);
            }
            if s > best {
                best = s;
                best_move = mv;
                if s > alpha {
                    alpha = s;
                    self.pv[ply][0] = mv;
                    let n = self.pv_len[ply + 1];
                    for k in 0..n {
                        self.pv[ply][k + 1] = self.pv[ply + 1][k];
                    }
                    self.pv_len[ply] = n + 1;
                }
                if s >= beta {
                    if quiet {
                        if self.killers[ply][0] != mv {
                            self.killers[ply][1] = self.killers[ply][0];
                            self.killers[ply][0] = mv;
                        }
                        if !previous.is_none() {
                            self.counters[previous.history_index()] = mv;
                        }
                        let bonus = (depth * depth * 16).min(2000);
                        for &q in &quiets_tried {
                            self.update_history(q, if q == mv { bonus } else { -bonus });
                        }
                    }
                    break;
                }
            }
        }
        if best == -INFINITE {
            // Every move was pruned: fall back on the static view.
            return alpha;
        }
        let bound = if best >= beta {
            Bound::Lower
        } else if best > original_alpha {
            Bound::Exact
        } else {
            Bound::Upper
        };
        self.tt
            .store(key, best_move, to_tt(best, ply), depth, bound);
        best
    }

    fn quiescence(&mut self, mut alpha: i32, beta: i32, ply: usize) -> i32 {
        if self.stopped {
            return 0;
        }
        self.nodes += 1;
        self.check_limits();
        if self.stopped {
            return 0;
        }
        self.seldepth = self.seldepth.max(ply);
        self.pv_len[ply] = 0;
        if self.is_draw(ply) {
            return 0;
        }
        let in_check = self.pos.in_check();
        let list = self.pos.legal_moves();
        if list.is_empty() {
            return if in_check { -MATE + ply as i32 } else { 0 };
        }
        if ply >= MAX_PLY - 1 {
            return evaluate(&self.pos, &self.params);
        }
        let stand = if in_check {
            -INFINITE
        } else {
            evaluate(&self.pos, &self.params)
        };
        if stand >= beta {
            return stand;
        }
        let mut best = stand;
        alpha = alpha.max(stand);
        let mut moves: Vec<(Move, i32)> = list
            .iter()
            .filter(|&&m| {
                in_check || self.pos.is_capture(m) || m.promotion() == Some(PieceKind::Queen)
            })
            .map(|&m| {
                let s = if self.pos.is_capture(m) || m.promotion().is_some() {
                    self.capture_score(m)
                } else {
                    -(1 << 20)
                };
                (m, s)
            })
            .collect();
        moves.sort_by_key(|&(_, s)| std::cmp::Reverse(s));
        for (mv, _) in moves {
            if !in_check {
                // Delta pruning: even winning the piece outright cannot reach alpha.
                let gain = match mv.kind() {
                    MoveKind::EnPassant => self.params.pawn_mg,
                    _ => self
                        .pos
                        .piece_at(mv.to())
                        .kind()
                        .map_or(0, |k| piece_value(&self.params, k)),
                } + mv.promotion().map_or(0, |k| piece_value(&self.params, k));
                if stand + gain + 200 < alpha {
                    continue;
                }
            }
            self.pos.make(mv);
            let s = -self.quiescence(-beta, -alpha, ply + 1);
            self.pos.unmake();
            if self.stopped {
                return 0;
            }
            if s > best {
                best = s;
                if s > alpha {
                    alpha = s;
                }
                if s >= beta {
                    break;
                }
            }
        }
        best
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn best(fen: &str, depth: u32) -> SearchResult {
        let pos = Position::from_fen(fen).unwrap();
        let mut s = Searcher::new(EvalParams::default(), 4);
        s.search(&pos, &Limits::depth(depth), &[], false, &mut |_| {})
    }

    #[test]
    fn finds_mates_and_wins_material() {
        // Back-rank mate in one.
        let r = best("6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1", 3);
        assert_eq!(r.best_move.to_string(), "d1d8");
        assert_eq!(r.score, MATE - 1);
        // A queen mate backed by a pawn (Qg7#) is found as a mate score.
        let r = best("5rk1/5p1p/5PpQ/8/8/8/8/6K1 w - - 0 1", 5);
        assert!(r.score >= MATE_BOUND, "{r:?}");
        // A hanging queen is taken.
        let r = best("4k3/8/8/3q4/8/8/3R4/4K3 w - - 0 1", 4);
        assert_eq!(r.best_move.to_string(), "d2d5");
    }

    #[test]
    fn stalemate_and_mated_roots_score_right() {
        let mated = best("7k/6Q1/6K1/8/8/8/8/8 b - - 0 1", 3);
        assert_eq!((mated.best_move, mated.score), (Move::NONE, -MATE));
        let stalemate = best("7k/5Q2/6K1/8/8/8/8/8 b - - 0 1", 3);
        assert_eq!((stalemate.best_move, stalemate.score), (Move::NONE, 0));
    }

    #[test]
    fn node_limited_searches_are_deterministic_and_bounded() {
        let fen = "r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4";
        let pos = Position::from_fen(fen).unwrap();
        let run = || {
            let mut s = Searcher::new(EvalParams::default(), 4);
            s.search(&pos, &Limits::nodes(20_000), &[], false, &mut |_| {})
        };
        let (a, b) = (run(), run());
        assert_eq!(a, b);
        // The node check runs at every node and nothing is counted once it trips.
        assert_eq!(a.nodes, 20_000);
        assert!(pos.is_legal(a.best_move));
    }

    #[test]
    fn exact_root_scores_rank_every_move() {
        let pos = Position::from_fen("4k3/8/8/3q4/8/8/3R4/4K3 w - - 0 1").unwrap();
        let mut s = Searcher::new(EvalParams::default(), 4);
        let r = s.search(&pos, &Limits::depth(3), &[], true, &mut |_| {});
        assert_eq!(r.root_scores.len(), pos.legal_moves().len());
        assert_eq!(r.root_scores[0], (r.best_move, r.score));
        assert!(r.root_scores.windows(2).all(|w| w[0].1 >= w[1].1));
    }

    #[test]
    fn a_repeated_position_is_a_draw_inside_the_tree() {
        // After Nf3 Nf6 Ng1 Ng8 Nf3 Nf6 Ng1, Black's Ng8 brings back the start position a third
        // time: a draw, scored 0, while the same move without that history is not a draw.
        let mut pos = Position::startpos();
        for uci in ["g1f3", "g8f6", "f3g1", "f6g8", "g1f3", "g8f6", "f3g1"] {
            let mv = pos.parse_uci(uci).unwrap();
            pos.make(mv);
        }
        let back = pos.parse_uci("f6g8").unwrap();
        let mut s = Searcher::new(EvalParams::default(), 4);
        let r = s.search(&pos, &Limits::depth(4), &[back], false, &mut |_| {});
        assert_eq!((r.best_move, r.score), (back, 0));
        let fresh = Position::from_fen(&pos.to_fen()).unwrap();
        let r = s.search(&fresh, &Limits::depth(4), &[back], false, &mut |_| {});
        assert_ne!(r.score, 0);
    }
}

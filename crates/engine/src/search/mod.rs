//! Search: iterative deepening, PVS with a transposition table, null move, late-move
//! reductions, check extensions, quiescence over captures (all evasions in check), killers and
//! history, moves picked one at a time, mate scores `-MATE + ply`, repetition judged from the
//! make/unmake stacks. Node-limited searches are deterministic.

mod history;
pub mod limits;
mod movepick;
mod see;
pub mod smp;
mod timeman;
pub mod tt;

use crate::eval::nnue::Network;
use crate::eval::{EvalTables, Psq};
use crate::params::{self, Params};
use crate::xiangqi::movegen::{GenKind, MoveList};
use crate::xiangqi::position::Position;
pub use crate::xiangqi::rules::{
    asian_cycle, check_only_cycle, judge_for, CycleVerdict, RepetitionJudge,
};
use crate::xiangqi::types::{Color, Move, PieceKind};
pub use limits::Limits;
use movepick::pick;
use std::sync::Arc;
use std::time::{Duration, Instant};
use tt::{Bound, TranspositionTable};

/// Score of being mated at the root; a mate in `n` plies scores `MATE - n`.
pub const MATE: i32 = 30_000;
/// Scores beyond this (in absolute value) are mate scores.
pub const MATE_BOUND: i32 = MATE - 1_000;
/// Larger than any score.
pub const INFINITE: i32 = 32_000;
/// Deepest ply the search reaches.
pub const MAX_PLY: usize = 128;

/// Search features that can be switched off (for A/B tests and debugging).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SearchOptions {
    /// Null-move pruning.
    pub null_move: bool,
    /// Late-move reductions.
    pub lmr: bool,
    /// Check extensions.
    pub check_extension: bool,
    /// Reverse futility pruning at shallow depth.
    pub futility: bool,
    /// Transposition table size in megabytes.
    pub tt_mb: usize,
}

impl Default for SearchOptions {
    fn default() -> Self {
        SearchOptions {
            null_move: true,
            lmr: true,
            check_extension: true,
            futility: true,
            tt_mb: 16,
        }
    }
}

/// What one finished iteration reports, for either game's moves (`M`; xiangqi by default).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SearchInfo<M = Move> {
    /// Nominal depth.
    pub depth: u32,
    /// Deepest ply reached.
    pub seldepth: u32,
    /// Score from the side to move's view (centipawns or mate score).
    pub score: i32,
    /// Nodes so far.
    pub nodes: u64,
    /// Time so far.
    pub elapsed: Duration,
    /// Principal variation.
    pub pv: Vec<M>,
}

/// The outcome of a search, for either game's moves (`M`; xiangqi by default).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SearchResult<M = Move> {
    /// The move to play (the game's "no move" when there is no legal move).
    pub best_move: M,
    /// Score from the side to move's view.
    pub score: i32,
    /// Last completed depth.
    pub depth: u32,
    /// Deepest ply reached.
    pub seldepth: u32,
    /// Nodes searched.
    pub nodes: u64,
    /// Principal variation.
    pub pv: Vec<M>,
    /// With `exact_root_scores`: every root move's score at the last completed depth (with
    /// [`Searcher::search_within`]: exact within the margin, a bound below it otherwise).
    pub root_scores: Vec<(M, i32)>,
}

/// Formats a score as UCI does: `cp N` or `mate N` (moves, negative when being mated).
pub fn uci_score(score: i32) -> String {
    if score >= MATE_BOUND {
        format!("mate {}", (MATE - score + 1) / 2)
    } else if score <= -MATE_BOUND {
        format!("mate -{}", (MATE + score) / 2)
    } else {
        format!("cp {score}")
    }
}

/// Whether a score is a forced mate for either side.
pub fn is_mate_score(score: i32) -> bool {
    score.abs() >= MATE_BOUND
}

struct Tunables {
    contempt: i32,
    null_reduction: i32,
    lmr_min_depth: i32,
    lmr_min_moves: usize,
    futility_margin: i32,
    delta_margin: i32,
    aspiration: i32,
    lmp_base: usize,
    futility_quiet: i32,
    // SEE margins per ply (captures) and per reduced ply squared (quiet moves) for pruning.
    capture_see: i32,
    quiet_see: i32,
    lmr: [[u8; 64]; 64],
}

impl Tunables {
    fn new(p: &Params) -> Tunables {
        let get = |n: &str| p.get(params::scalar(n));
        let base = get("search.lmr_base") as f64 / 100.0;
        let divisor = (get("search.lmr_divisor") as f64 / 100.0).max(0.1);
        let mut lmr = [[0u8; 64]; 64];
        for (d, row) in lmr.iter_mut().enumerate().skip(1) {
            for (m, r) in row.iter_mut().enumerate().skip(1) {
                let v = base + (d as f64).ln() * (m as f64).ln() / divisor;
                *r = v.clamp(0.0, 40.0) as u8;
            }
        }
        Tunables {
            contempt: get("search.contempt"),
            null_reduction: get("search.null_reduction"),
            lmr_min_depth: get("search.lmr_min_depth"),
            lmr_min_moves: get("search.lmr_min_moves").max(1) as usize,
            futility_margin: get("search.futility_margin"),
            delta_margin: get("search.delta_margin"),
            aspiration: get("search.aspiration"),
            lmp_base: get("search.lmp_base").max(0) as usize,
            futility_quiet: get("search.futility_quiet"),
            capture_see: 140,
            quiet_see: 22,
            lmr,
        }
    }
}

/// The searcher: owns the transposition table, history and killers across searches.
pub struct Searcher {
    params: Params,
    eval: EvalTables,
    see_values: [i32; 8],
    tunables: Tunables,
    options: SearchOptions,
    tt: TranspositionTable,
    history: history::History,
    killers: [[Move; 2]; MAX_PLY + 1],
    pv: Vec<[Move; MAX_PLY + 1]>,
    pv_len: [usize; MAX_PLY + 1],
    // Static evaluation per ply (`-INFINITE` in check), for the improving test.
    evals: [i32; MAX_PLY + 2],
    // (piece, to) of the move made at each ply, for continuation history.
    moved: [history::PieceTo; MAX_PLY + 2],
    judge: RepetitionJudge,
    // Per search.
    pos: Position,
    psq: Vec<Psq>,
    nodes: u64,
    seldepth: usize,
    stopped: bool,
    limits: Limits,
    start: Instant,
    root_side: Color,
    repetition_hits: u64,
    // The network that replaces the handcrafted evaluation, when one is set, and its
    // accumulators per ply (`2 × hidden` each, Red's perspective first), kept like `psq`.
    net: Option<Arc<Network>>,
    acc: Vec<i16>,
    // The other threads of a multi-threaded search (see `smp`); None on one thread.
    smp: Option<smp::Link>,
}

impl Searcher {
    /// A searcher with these parameters and options.
    pub fn new(params: Params, options: SearchOptions) -> Searcher {
        let eval = EvalTables::new(&params);
        Searcher {
            see_values: see::exchange_values(&eval.material),
            eval,
            tunables: Tunables::new(&params),
            params,
            options,
            tt: TranspositionTable::new(options.tt_mb),
            history: history::History::new(),
            killers: [[Move::NONE; 2]; MAX_PLY + 1],
            pv: vec![[Move::NONE; MAX_PLY + 1]; MAX_PLY + 1],
            pv_len: [0; MAX_PLY + 1],
            evals: [-INFINITE; MAX_PLY + 2],
            moved: [history::PieceTo::NONE; MAX_PLY + 2],
            judge: asian_cycle,
            pos: Position::startpos(),
            psq: Vec::with_capacity(MAX_PLY + 8),
            nodes: 0,
            seldepth: 0,
            stopped: false,
            limits: Limits::default(),
            start: Instant::now(),
            root_side: Color::Red,
            repetition_hits: 0,
            net: None,
            acc: Vec::new(),
            smp: None,
        }
    }

    /// The parameters in use.
    pub fn params(&self) -> &Params {
        &self.params
    }

    /// The evaluation tables in use.
    pub fn eval_tables(&self) -> &EvalTables {
        &self.eval
    }

    /// Sets the repetition judge used inside the tree (default: Asian rules; see [`judge_for`]).
    pub fn set_repetition_judge(&mut self, judge: RepetitionJudge) {
        self.judge = judge;
    }

    /// Forgets everything learned (new game).
    pub fn clear(&mut self) {
        self.tt.clear();
        self.history.clear();
        self.killers = [[Move::NONE; 2]; MAX_PLY + 1];
    }

    /// Static evaluation of a position from the side to move's view.
    pub fn evaluate(&self, pos: &Position) -> i32 {
        match &self.net {
            Some(net) if net.residual() => self.eval.evaluate(pos) + net.evaluate_position(pos),
            Some(net) => net.evaluate_position(pos),
            None => self.eval.evaluate(pos),
        }
    }

    /// Evaluates with `net` instead of the handcrafted evaluation (`None`: back to it).
    pub fn set_network(&mut self, net: Option<Arc<Network>>) {
        self.net = net;
        self.acc = Vec::new();
    }

    /// The network in use, if any.
    pub fn network(&self) -> Option<&Arc<Network>> {
        self.net.as_ref()
    }

    #[inline]
    fn static_eval(&self) -> i32 {
        if let Some(net) = &self.net {
            let n = 2 * net.hidden();
            let acc = &self.acc[self.acc.len() - n..];
            // The incremental accumulators equal a refresh (checked in debug builds, so the
            // tests walk every node of their searches).
            debug_assert_eq!(
                {
                    let mut fresh = vec![0; n];
                    net.refresh(&self.pos, &mut fresh);
                    fresh
                },
                acc
            );
            let value = net.evaluate(acc, self.pos.side_to_move());
            if !net.residual() {
                return value;
            }
            return value + self.handcrafted_eval();
        }
        self.handcrafted_eval()
    }

    /// The handcrafted evaluation of the current position (side to move's view) from the
    /// incremental material stack.
    #[inline]
    fn handcrafted_eval(&self) -> i32 {
        let mut red = self.psq.last().copied().unwrap_or_default().value();
        if self.eval.has_optional_terms() {
            red += self.eval.optional_terms(&self.pos);
        }
        let stm = if self.pos.side_to_move() == Color::Red {
            red
        } else {
            -red
        };
        stm + self.eval.tempo
    }

    #[inline]
    fn make(&mut self, mv: Move) {
        let delta = self.eval.psq_delta(&self.pos, mv);
        let top = self.psq.last().copied().unwrap_or_default();
        self.psq.push(top + delta);
        if let Some(net) = &self.net {
            let n = 2 * net.hidden();
            let len = self.acc.len();
            self.acc.resize(len + n, 0);
            let (parent, child) = self.acc.split_at_mut(len);
            net.update(&self.pos, mv, &parent[len - n..], child);
        }
        self.pos.make(mv);
    }

    /// Makes `mv` at `ply`, remembering its (piece, to) for continuation history.
    #[inline]
    fn make_at(&mut self, mv: Move, ply: usize) {
        self.moved[ply] = history::PieceTo::new(self.pos.board()[mv.from().index()], mv);
        self.make(mv);
    }

    /// The (piece, to) keys of the moves one and two plies before `ply`.
    #[inline]
    fn conts(&self, ply: usize) -> [history::PieceTo; 2] {
        let at = |back: usize| {
            if ply >= back {
                self.moved[ply - back]
            } else {
                history::PieceTo::NONE
            }
        };
        [at(1), at(2)]
    }

    #[inline]
    fn unmake(&mut self) {
        self.pos.unmake();
        self.psq.pop();
        if let Some(net) = &self.net {
            self.acc.truncate(self.acc.len() - 2 * net.hidden());
        }
    }

    #[inline]
    fn check_limits(&mut self) {
        let nodes = self.nodes;
        if self.limits.reached(nodes, self.start)
            || self.smp.as_mut().is_some_and(|l| l.poll(nodes))
        {
            self.stopped = true;
        }
    }

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

    fn draw_score(&self) -> i32 {
        if self.pos.side_to_move() == self.root_side {
            -self.tunables.contempt
        } else {
            self.tunables.contempt
        }
    }

    fn alpha_beta(
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

    fn qsearch(&mut self, mut alpha: i32, beta: i32, ply: usize) -> i32 {
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

fn score_to_tt(score: i32, ply: usize) -> i32 {
    if score >= MATE_BOUND {
        score + ply as i32
    } else if score <= -MATE_BOUND {
        score - ply as i32
    } else {
        score
    }
}

fn score_from_tt(score: i32, ply: usize) -> i32 {
    if score >= MATE_BOUND {
        score - ply as i32
    } else if score <= -MATE_BOUND {
        score + ply as i32
    } else {
        score
    }
}

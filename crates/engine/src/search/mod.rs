//! Search: iterative deepening, PVS with a transposition table, null move, late-move
//! reductions, check extensions, quiescence over captures (all evasions in check), killers and
//! history, moves picked one at a time, mate scores `-MATE + ply`, repetition judged from the
//! make/unmake stacks. Node-limited searches are deterministic.

mod alphabeta;
mod driver;
mod history;
pub mod limits;
mod movepick;
mod node;
mod qsearch;
mod see;
pub mod smp;
mod timeman;
pub mod tt;

use crate::eval::nnue::Network;
use crate::eval::{EvalTables, Psq};
use crate::params::{self, Params};
use crate::xiangqi::position::Position;
pub use crate::xiangqi::rules::{
    asian_cycle, check_only_cycle, judge_for, CycleVerdict, RepetitionJudge,
};
use crate::xiangqi::types::{Color, Move};
pub use limits::Limits;
use std::sync::Arc;
use std::time::{Duration, Instant};
use tt::TranspositionTable;

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

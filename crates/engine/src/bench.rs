//! Bench: fixed positions searched to a fixed depth, one thread, fixed TT size. The total node
//! count is the engine's signature: a functional change alters it, a refactor must not.

use crate::params::Params;
use crate::search::{Limits, SearchOptions, Searcher};
use crate::xiangqi::position::Position;
use std::time::{Duration, Instant};

/// Depth used by `chuhan bench`.
pub const BENCH_DEPTH: u32 = 8;

/// The bench node count at [`BENCH_DEPTH`]: the engine's signature. A functional change to
/// search or evaluation changes it; update it (and say so in the commit) when intended.
pub const SIGNATURE: u64 = 212_586;

/// The bench positions: the start, opening and middlegame positions, and endgames.
pub const BENCH_FENS: &[&str] = &[
    "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1",
    "r1ba1a3/4kn3/2n1b4/pNp1p1p1p/4c4/6P2/P1P2R2P/1CcC5/9/2BAKAB2 w - - 0 1",
    "1cbak4/9/n2a5/2p1p3p/5cp2/2n2N3/6PCP/3AB4/2C6/3A1K1N1 w - - 0 1",
    "r2akab1r/3n5/4b3n/p1p1pRp1p/9/2P3P2/P3P3c/N2C3C1/4A4/1RBAK1B2 w - - 0 1",
    "r1bakabr1/9/2n3nc1/p3C1p1p/2p6/6P2/PcP1P3P/1CN3N2/9/R1BAKABR1 b - - 0 6",
    "rnbakab1C/9/2c5r/4p1p1p/p1p6/2B1P4/P1P3P1P/RcC3N2/9/1N1AKAB1R b - - 12 8",
    "3aka1n1/9/b3b4/4pcp1r/6PrC/p1P5P/P1n1P1NRC/8R/2N1K4/2B2A3 w - - 13 46",
    "5a3/3k5/3aR4/9/5r3/5n3/9/3A1A3/5K3/2BC2B2 w - - 0 1",
    "4ka3/4a4/9/9/4N4/p8/9/4C3c/7n1/2BK5 w - - 0 1",
    "2b1ka3/9/b3N4/4n4/9/9/9/4C4/2p6/2BK5 w - - 0 1",
];

/// Bench outcome.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BenchResult {
    /// Total nodes: the signature.
    pub nodes: u64,
    /// Wall time.
    pub elapsed: Duration,
    /// Nodes per position.
    pub per_position: Vec<u64>,
}

impl BenchResult {
    /// Nodes per second.
    pub fn nps(&self) -> f64 {
        self.nodes as f64 / self.elapsed.as_secs_f64().max(1e-9)
    }
}

/// Runs the bench at `depth` as the default engine (default parameters, the embedded network,
/// 16 MB TT, cleared before each position).
pub fn run(depth: u32) -> BenchResult {
    let mut searcher = Searcher::new(Params::default(), SearchOptions::default());
    searcher.set_network(Some(crate::eval::nnue::embedded()));
    run_with(depth, &mut searcher)
}

/// [`run`] with the handcrafted evaluation instead of the network.
pub fn run_handcrafted(depth: u32) -> BenchResult {
    run_with(
        depth,
        &mut Searcher::new(Params::default(), SearchOptions::default()),
    )
}

/// [`run`] with `searcher` (another evaluation, such as a network), cleared before each
/// position.
pub fn run_with(depth: u32, searcher: &mut Searcher) -> BenchResult {
    let start = Instant::now();
    let mut per_position = Vec::new();
    for fen in BENCH_FENS {
        let pos = Position::from_fen(fen).expect("bench FENs are valid");
        searcher.clear();
        let r = searcher.search(&pos, &Limits::depth(depth), &[], false, &mut |_| {});
        per_position.push(r.nodes);
    }
    BenchResult {
        nodes: per_position.iter().sum(),
        elapsed: start.elapsed(),
        per_position,
    }
}

//! Chess bench: fixed positions searched to a fixed depth, one thread, a 16 MB table cleared
//! before each position. The total node count is the chess engine's signature, as
//! [`crate::bench`] is the xiangqi engine's.

use crate::chess::eval::EvalParams;
use crate::chess::position::Position;
use crate::chess::search::Searcher;
use crate::search::Limits;
use std::time::Instant;

pub use crate::bench::BenchResult;

/// Depth used by `chuhan bench --game chess`.
pub const BENCH_DEPTH: u32 = 9;

/// The chess bench node count at [`BENCH_DEPTH`]: update it (and say so in the commit) when
/// a change to the chess search or evaluation is intended.
pub const SIGNATURE: u64 = 855_769;

/// The bench positions: the start, open and closed middlegames, Kiwipete, endgames.
pub const BENCH_FENS: &[&str] = &[
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    "r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4",
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "rnbq1rk1/pp2ppbp/3p1np1/2pP4/2P5/2N2NP1/PP2PPBP/R1BQK2R w KQ - 0 7",
    "r2q1rk1/1b2bppp/p2ppn2/1p6/3NP3/1BN1B3/PPP2PPP/R2Q1RK1 w - - 0 12",
    "2r3k1/pp3ppp/4p3/3pP3/3P4/P4N2/1P3PPP/2R3K1 w - - 0 24",
    "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
    "8/8/4k3/3p4/3P4/4K3/8/8 w - - 0 1",
    "6k1/5p2/6p1/8/7p/8/6PP/6K1 b - - 0 1",
    "4r1k1/1q3ppp/p7/1p1Q4/8/P4N2/1P3PPP/6K1 w - - 0 30",
];

/// Runs the chess bench at `depth` with default parameters.
pub fn run(depth: u32) -> BenchResult {
    let mut searcher = Searcher::new(EvalParams::default(), 16);
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bench_matches_its_signature() {
        // A functional change to the chess search or evaluation changes this count: update
        // SIGNATURE on purpose, never by accident.
        let r = run(BENCH_DEPTH);
        assert_eq!(r.per_position.len(), BENCH_FENS.len());
        assert_eq!(r.nodes, SIGNATURE);
    }
}

//! Chess perft: the start position, the classic CPW positions, and every position of the
//! committed suite (counts from Stockfish, `scripts/chess_suite_stockfish.py verify`).

mod common;

use chuhan_engine::chess::{divide, parse_suite, perft, Position, START_FEN};
use chuhan_engine::SuiteEntry;

/// Counts above this are left to the example and the script (CI time).
const TEST_NODE_LIMIT: u64 = 3_000_000;

fn suite() -> Vec<SuiteEntry> {
    parse_suite(include_str!("data/chess.epd")).expect("the suite parses")
}

fn check(fen: &str, expected: &[u64]) {
    let mut pos = Position::from_fen(fen).unwrap();
    for (d, &n) in expected.iter().enumerate() {
        assert_eq!(perft(&mut pos, d as u32 + 1), n, "depth {} of {fen}", d + 1);
    }
    assert_eq!(
        pos,
        Position::from_fen(fen).unwrap(),
        "perft restores {fen}"
    );
}

#[test]
fn suite_has_at_least_100_positions_starting_with_the_start_position() {
    let s = suite();
    assert!(s.len() >= 100, "{} positions", s.len());
    assert_eq!(s[0].fen, START_FEN);
    // Rich in the hard rules: many positions with castling rights, an en-passant square,
    // or a pawn on its seventh rank.
    let castling = s
        .iter()
        .filter(|e| e.fen.split(' ').nth(2) != Some("-"))
        .count();
    let ep = s
        .iter()
        .filter(|e| e.fen.split(' ').nth(3) != Some("-"))
        .count();
    assert!(castling >= 20, "{castling} positions with castling rights");
    assert!(ep >= 10, "{ep} positions with an en-passant square");
}

#[test]
fn start_position_depths_1_to_5() {
    check(START_FEN, &[20, 400, 8_902, 197_281, 4_865_609]);
}

#[test]
fn cpw_kiwipete() {
    check(
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        &[48, 2_039, 97_862],
    );
}

#[test]
fn cpw_position_3() {
    check(
        "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
        &[14, 191, 2_812, 43_238, 674_624],
    );
}

#[test]
fn cpw_position_4_and_its_mirror() {
    for fen in [
        "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
        "r2q1rk1/pP1p2pp/Q4n2/bbp1p3/Np6/1B3NBn/pPPP1PPP/R3K2R b KQ - 0 1",
    ] {
        check(fen, &[6, 264, 9_467, 422_333]);
    }
}

#[test]
fn cpw_position_5() {
    check(
        "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
        &[44, 1_486, 62_379],
    );
}

#[test]
fn cpw_position_6() {
    check(
        "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10",
        &[46, 2_079, 89_890],
    );
}

/// Every count of the suite up to [`TEST_NODE_LIMIT`] nodes.
#[test]
fn every_suite_position() {
    let mut checked = 0;
    for e in suite() {
        let mut pos = Position::from_fen(&e.fen).unwrap_or_else(|err| {
            panic!("line {}: {err}", e.line);
        });
        checked += common::chess::check_counts(&mut pos, &e, TEST_NODE_LIMIT);
    }
    assert!(checked >= 400, "only {checked} counts checked");
}

#[test]
fn divide_sums_to_perft() {
    let mut pos =
        Position::from_fen("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1")
            .unwrap();
    let parts = divide(&mut pos, 3);
    assert_eq!(parts.len(), 48);
    assert_eq!(parts.iter().map(|&(_, n)| n).sum::<u64>(), 97_862);
    let castle = parts.iter().find(|(m, _)| m.to_uci() == "e1g1").unwrap();
    assert_eq!(castle.1, 2_059);
}

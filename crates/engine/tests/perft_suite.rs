//! Perft regression: the start position and every position of the shared suite.

use chuhan_engine::{parse_suite, perft, Position, SuiteEntry, START_FEN};

fn suite() -> Vec<SuiteEntry> {
    parse_suite(include_str!("data/xiangqi.epd")).expect("the suite parses")
}

#[test]
fn suite_has_45_positions_starting_with_the_start_position() {
    let s = suite();
    assert_eq!(s.len(), 45);
    assert_eq!(s[0].fen, START_FEN);
}

#[test]
fn start_position_depths_1_to_4() {
    let mut pos = Position::from_fen(START_FEN).unwrap();
    let expected = [44u64, 1_920, 79_666, 3_290_240];
    for (d, &n) in expected.iter().enumerate() {
        assert_eq!(perft(&mut pos, d as u32 + 1), n, "depth {}", d + 1);
    }
}

/// Depth 3 for every position (depth 4 too, where the count is small enough for CI).
#[test]
fn every_suite_position_to_depth_3() {
    for e in suite() {
        let mut pos = Position::from_fen(&e.fen).unwrap_or_else(|err| {
            panic!("line {}: {err}", e.line);
        });
        for &(d, n) in &e.expected {
            if d <= 3 || (d == 4 && n < 3_000_000) {
                assert_eq!(
                    perft(&mut pos, d),
                    n,
                    "line {} depth {d}: {}",
                    e.line,
                    e.fen
                );
            }
        }
    }
}

//! Chess960 castling: the committed suite (counts from Stockfish with `UCI_Chess960`,
//! `scripts/chess_suite_stockfish.py --chess960 verify`), the castles that are easy to get
//! wrong, X-FEN and Shredder-FEN both ways, UCI and SAN, keys and make/unmake over random
//! games from every kind of start position.

mod common;

use chuhan_engine::chess::{
    parse_suite_chess960, perft, Color, FromFenError, MoveKind, Position, PositionError, Setup,
    START_FEN,
};
use chuhan_engine::SuiteEntry;

/// Counts above this are left to the script (test time).
const TEST_NODE_LIMIT: u64 = 2_000_000;

fn suite() -> Vec<SuiteEntry> {
    parse_suite_chess960(include_str!("data/chess960.epd")).expect("the suite parses")
}

fn pos960(fen: &str) -> Position {
    Position::from_fen_chess960(fen).unwrap_or_else(|e| panic!("{fen}: {e}"))
}

/// The legal castling moves, in UCI.
fn castles(p: &Position) -> Vec<String> {
    p.legal_moves()
        .iter()
        .filter(|m| m.kind() == MoveKind::Castle)
        .map(|m| m.to_uci())
        .collect()
}

/// Plays a UCI move, checking that make/unmake restores the position and its key.
fn play(fen: &str, uci: &str) -> String {
    let mut p = pos960(fen);
    let before = p.clone();
    let mv = p.parse_uci(uci).unwrap_or_else(|e| panic!("{e}"));
    p.make(mv);
    assert_eq!(p.key(), p.compute_key(), "key after {uci} in {fen}");
    let after = p.to_fen();
    p.unmake();
    assert_eq!(p, before, "unmake {uci} in {fen}");
    after
}

/// Chess960 start position `n` (Scharnagl's numbering: 518 is the standard array).
fn start_position(n: u32) -> String {
    let mut rank = [' '; 8];
    let (n, light) = (n / 4, n % 4);
    rank[(2 * light + 1) as usize] = 'B';
    let (n, dark) = (n / 4, n % 4);
    rank[(2 * dark) as usize] = 'B';
    let (n, queen) = (n / 6, n % 6);
    let empty = |r: &[char; 8]| -> Vec<usize> { (0..8).filter(|&f| r[f] == ' ').collect() };
    rank[empty(&rank)[queen as usize]] = 'Q';
    let knights = [
        (0, 1),
        (0, 2),
        (0, 3),
        (0, 4),
        (1, 2),
        (1, 3),
        (1, 4),
        (2, 3),
        (2, 4),
        (3, 4),
    ][n as usize];
    let e = empty(&rank);
    rank[e[knights.0]] = 'N';
    rank[e[knights.1]] = 'N';
    for (f, piece) in empty(&rank).into_iter().zip(['R', 'K', 'R']) {
        rank[f] = piece;
    }
    let white: String = rank.iter().collect();
    format!(
        "{}/pppppppp/8/8/8/8/PPPPPPPP/{white} w KQkq - 0 1",
        white.to_ascii_lowercase()
    )
}

#[test]
fn every_suite_position() {
    let s = suite();
    assert!(s.len() >= 50, "{} positions", s.len());
    let mut checked = 0;
    for e in s {
        let mut pos = pos960(&e.fen);
        checked += common::chess::check_counts(&mut pos, &e, TEST_NODE_LIMIT);
        assert_eq!(pos, pos960(&e.fen), "perft restores line {}", e.line);
    }
    assert!(checked >= 200, "only {checked} counts checked");
}

#[test]
fn standard_chess_is_one_chess960_position() {
    let mut standard = Position::from_fen(START_FEN).unwrap();
    let mut chess960 = pos960(START_FEN);
    assert!(!standard.is_chess960() && chess960.is_chess960());
    assert_eq!(chess960.to_fen(), START_FEN);
    for d in 1..=4 {
        assert_eq!(perft(&mut standard, d), perft(&mut chess960, d));
    }
    assert_eq!(standard.key(), chess960.key());
    // Kiwipete: the same counts, castling written the two ways.
    let kiwi = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";
    let mut a = Position::from_fen(kiwi).unwrap();
    let mut b = pos960(kiwi);
    assert_eq!(perft(&mut a, 3), 97_862);
    assert_eq!(perft(&mut b, 3), 97_862);
    assert_eq!(castles(&a), ["e1g1", "e1c1"]);
    assert_eq!(castles(&b), ["e1h1", "e1a1"]);
    assert!(a.parse_uci("e1h1").is_err() && b.parse_uci("e1g1").is_err());
}

#[test]
fn standard_chess_refuses_what_only_chess960_allows() {
    for fen in [
        "r3k2r/8/8/8/8/8/8/R4K1R w KQkq - 0 1",
        "4k3/8/8/8/8/8/8/1K5R w K - 0 1",
        "4k3/8/8/8/8/8/8/RR2K2R w KB - 0 1",
    ] {
        assert!(
            matches!(
                Position::from_fen(fen),
                Err(FromFenError::Position(
                    PositionError::ImpossibleCastling { .. }
                ))
            ),
            "{fen}"
        );
        pos960(fen);
    }
    // Shredder-FEN's letters for the standard rooks are standard chess.
    let p = Position::from_fen("r3k2r/8/8/8/8/8/8/R3K2R w HAha - 0 1").unwrap();
    assert_eq!(p.to_fen(), "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1");
}

#[test]
fn chess960_refuses_rights_without_their_pieces() {
    let refused = |fen: &str, right: char| match Position::from_fen_chess960(fen) {
        Err(FromFenError::Position(PositionError::ImpossibleCastling { right: r, .. })) => {
            assert_eq!(r, right, "{fen}")
        }
        other => panic!("{fen}: expected the right '{right}' refused, got {other:?}"),
    };
    // No rook on the king side of the king.
    refused("4k3/8/8/8/8/8/8/R6K w K - 0 1", 'K');
    // The king off its first rank.
    refused("4k3/8/8/8/8/8/4K3/R6R w Q - 0 1", 'Q');
    // A file letter with no rook on it.
    refused("4k3/8/8/8/8/8/8/R3K2R w G - 0 1", 'G');
    refused("rk6/8/8/8/8/8/8/4K3 w b - 0 1", 'b');
    // Two rights on one side of the king are not FEN.
    assert!(matches!(
        Position::from_fen_chess960("4k3/8/8/8/8/8/8/R3K1RR w GH - 0 1"),
        Err(FromFenError::Syntax(_))
    ));
    assert!(matches!(
        Position::from_fen_chess960("4k3/8/8/8/8/8/8/R3K2R w KH - 0 1"),
        Err(FromFenError::Syntax(_))
    ));
}

#[test]
fn x_fen_means_the_outermost_rook_and_files_name_the_others() {
    // Q is a1 (the outermost); b1 stands in its way.
    let outer = pos960("4k3/8/8/8/8/8/8/RR2K2R w KQ - 0 1");
    assert_eq!(outer.castling_rook(Color::White, false).to_string(), "a1");
    assert_eq!(castles(&outer), ["e1h1"]);
    // B is the inner rook, which may go.
    let inner = pos960("4k3/8/8/8/8/8/8/RR2K2R w KB - 0 1");
    assert_eq!(inner.castling_rook(Color::White, false).to_string(), "b1");
    assert_eq!(castles(&inner), ["e1h1", "e1b1"]);
    // Written back unambiguously: the outermost rook as K/Q, another by its file.
    assert_eq!(outer.to_fen(), "4k3/8/8/8/8/8/8/RR2K2R w KQ - 0 1");
    assert_eq!(inner.to_fen(), "4k3/8/8/8/8/8/8/RR2K2R w KB - 0 1");
    assert_eq!(
        pos960("4k3/8/8/8/8/8/8/RR2K2R w HA - 0 1").to_fen(),
        "4k3/8/8/8/8/8/8/RR2K2R w KQ - 0 1"
    );
    let shredder = pos960("bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9");
    assert_eq!(
        shredder.to_fen(),
        "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w KQkq - 2 9"
    );
    assert_eq!(
        Setup::parse_chess960(&shredder.to_fen()).unwrap(),
        shredder.to_setup()
    );
}

#[test]
fn the_king_that_does_not_move() {
    // King on g1: O-O moves only the rook, h1 to f1.
    let fen = "1r4kr/8/8/8/8/8/8/1R4KR w KQkq - 0 1";
    assert_eq!(castles(&pos960(fen)), ["g1h1", "g1b1"]);
    assert_eq!(play(fen, "g1h1"), "1r4kr/8/8/8/8/8/8/1R3RK1 b kq - 1 1");
    assert_eq!(play(fen, "g1b1"), "1r4kr/8/8/8/8/8/8/2KR3R b kq - 1 1");
    // King staying on c1 with its rook on b1: the rook shields it from the queen on a1.
    assert!(castles(&pos960("4k3/8/8/8/8/8/8/qRK5 w Q - 0 1")).is_empty());
    assert_eq!(castles(&pos960("4k3/8/8/8/8/8/8/1RK5 w Q - 0 1")), ["c1b1"]);
}

#[test]
fn the_rook_that_does_not_move_and_king_and_rook_that_swap() {
    let fen = "4k3/8/8/8/8/8/8/4KR2 w K - 0 1";
    assert_eq!(castles(&pos960(fen)), ["e1f1"]);
    assert_eq!(play(fen, "e1f1"), "4k3/8/8/8/8/8/8/5RK1 b - - 1 1");
    let fen = "4k3/8/8/8/8/8/8/5KR1 w K - 0 1";
    assert_eq!(play(fen, "f1g1"), "4k3/8/8/8/8/8/8/5RK1 b - - 1 1");
    let fen = "2rk4/8/8/8/8/8/8/4K3 b q - 0 1";
    assert_eq!(play(fen, "d8c8"), "2kr4/8/8/8/8/8/8/4K3 w - - 1 2");
}

#[test]
fn paths_of_king_and_rook() {
    // The rook starts beyond the king's target: b1 to g1, h1 to f1.
    let fen = "4k3/8/8/8/8/8/8/1K5R w K - 0 1";
    assert_eq!(play(fen, "b1h1"), "4k3/8/8/8/8/8/8/5RK1 b - - 1 1");
    // The same with one square of the king's long path attacked.
    assert!(castles(&pos960("4k3/8/8/8/8/8/4r3/1K5R w K - 0 1")).is_empty());
    // The king moves towards the centre on the queen side: b1 to c1, a1 to d1.
    let fen = "4k3/8/8/8/8/8/8/RK6 w Q - 0 1";
    assert_eq!(play(fen, "b1a1"), "4k3/8/8/8/8/8/8/2KR4 b - - 1 1");
    // The rook's path is blocked though the king's is clear.
    assert!(castles(&pos960("4k3/8/8/8/8/8/8/RNK5 w Q - 0 1")).is_empty());
    // The rook's target may be attacked when the king does not cross it.
    assert_eq!(
        castles(&pos960("4k3/8/8/8/8/8/3r4/RK6 w Q - 0 1")),
        ["b1a1"]
    );
    // Out of check never.
    assert!(castles(&pos960("1r2k1r1/8/8/8/8/8/8/1R1rK1R1 w KQkq - 0 1")).is_empty());
}

#[test]
fn rights_go_with_the_king_and_their_rook() {
    let fen = "rk5r/8/8/8/8/6n1/8/RK5R b KQkq - 0 1";
    // The knight takes the h1 rook: White keeps only a1's right.
    assert_eq!(play(fen, "g3h1"), "rk5r/8/8/8/8/8/8/RK5n w Qkq - 0 2");
    // The a8 rook moves: Black keeps h8's.
    assert_eq!(play(fen, "a8a7"), "1k5r/r7/8/8/8/6n1/8/RK5R w KQk - 1 2");
    // The king moves: both go.
    assert_eq!(play(fen, "b8c8"), "r1k4r/8/8/8/8/6n1/8/RK5R w KQ - 1 2");
}

#[test]
fn san_both_ways() {
    let mut p = pos960("1r4kr/8/8/8/8/8/8/1R4KR w KQkq - 0 1");
    for (uci, san) in [("g1h1", "O-O"), ("g1b1", "O-O-O")] {
        let mv = p.parse_uci(uci).unwrap();
        assert_eq!(p.to_san(mv).unwrap(), san);
        assert_eq!(p.parse_san(san).unwrap(), mv);
    }
    // A king step to the square castling would reach is a king move, not a castle.
    let mut p = pos960("4k3/8/8/8/8/8/8/RK6 w Q - 0 1");
    let castle = p.parse_san("O-O-O").unwrap();
    assert_eq!(castle.to_uci(), "b1a1");
    let step = p.parse_san("Kc1").unwrap();
    assert_eq!(
        (step.kind(), step.to_uci().as_str()),
        (MoveKind::Normal, "b1c1")
    );
    assert_eq!(p.to_san(step).unwrap(), "Kc1");
    assert_eq!(p.to_san(castle).unwrap(), "O-O-O");
}

/// Random games from 960 start positions: the key always equals the one computed afresh,
/// every legal move unmakes to the same position, the FEN round-trips, and SAN and UCI text
/// read back to the same move.
#[test]
fn random_games_keep_keys_fens_and_text() {
    let mut seed = 0x9600_0001_u64;
    let mut next = || {
        seed = seed
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        (seed >> 33) as usize
    };
    let mut castled = 0;
    for n in (0..960).step_by(37) {
        let fen = start_position(n);
        let mut p = pos960(&fen);
        // One move of either side cannot touch the other's first moves.
        let first = p.legal_moves().len() as u64;
        assert_eq!(perft(&mut p, 2), first * first, "{fen}");
        for _ in 0..120 {
            let moves = p.legal_moves();
            if moves.is_empty() {
                break;
            }
            assert_eq!(p.key(), p.compute_key(), "{}", p.to_fen());
            let again = pos960(&p.to_fen());
            assert_eq!((again.to_fen(), again.key()), (p.to_fen(), p.key()));
            for &mv in moves.iter() {
                let before = p.clone();
                assert_eq!(p.parse_uci(&mv.to_uci()), Ok(mv));
                let san = p.to_san(mv).unwrap();
                assert_eq!(p.parse_san(&san), Ok(mv), "{san} in {}", p.to_fen());
                p.make(mv);
                assert_eq!(p.key(), p.compute_key(), "{mv} in {}", before.to_fen());
                p.unmake();
                assert_eq!(p, before, "unmake {mv}");
            }
            // Castle whenever possible, so that games reach the positions after castling.
            let castle = moves.iter().find(|m| m.kind() == MoveKind::Castle);
            let mv = match castle {
                Some(&c) if next() % 2 == 0 => {
                    castled += 1;
                    c
                }
                _ => moves.as_slice()[next() % moves.len()],
            };
            p.make(mv);
        }
    }
    assert!(castled >= 10, "only {castled} castles played");
}

//! Move generation against an independent reference generator, the classic traps, make/unmake
//! and incremental Zobrist keys.

mod reference;

use chuhan_engine::{Color, Move, Position, Square, START_FEN};
use rand::{Rng, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;
use reference::RefBoard;

fn sorted_moves(pos: &mut Position) -> Vec<String> {
    let mut v: Vec<String> = pos.legal_moves().iter().map(|m| m.to_uci()).collect();
    v.sort();
    v
}

/// Plays `games` seeded random games and calls `visit` on every position (before each move).
fn random_games(games: u64, max_plies: usize, mut visit: impl FnMut(&mut Position, u64, usize)) {
    for g in 0..games {
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(0xC0FFEE + g);
        let mut pos = Position::startpos();
        for ply in 0..max_plies {
            visit(&mut pos, g, ply);
            let moves = pos.legal_moves();
            if moves.is_empty() {
                break;
            }
            let mv = moves.as_slice()[rng.gen_range(0..moves.len())];
            pos.make(mv);
        }
        visit(&mut pos, g, max_plies);
    }
}

#[test]
fn same_moves_and_check_as_the_reference_over_200_random_games() {
    let mut positions = 0;
    let mut checks = 0;
    random_games(200, 160, |pos, g, ply| {
        let fen = pos.to_fen();
        let reference = RefBoard::from_fen(&fen).expect("reference reads our FEN");
        assert_eq!(
            sorted_moves(pos),
            reference.legal_moves(),
            "game {g} ply {ply}: {fen}"
        );
        assert_eq!(
            pos.in_check(),
            reference.in_check(),
            "game {g} ply {ply}: {fen}"
        );
        positions += 1;
        checks += usize::from(pos.in_check());
    });
    assert!(positions > 20_000, "only {positions} positions compared");
    assert!(
        checks > 100,
        "only {checks} positions in check: not a real test of evasions"
    );
}

#[test]
fn reference_perft_agrees_on_suite_positions_to_depth_2() {
    let suite = chuhan_engine::parse_suite(include_str!("data/xiangqi.epd")).unwrap();
    for e in suite {
        let mut pos = Position::from_fen(&e.fen).unwrap();
        let reference = RefBoard::from_fen(&e.fen).unwrap();
        assert_eq!(
            chuhan_engine::perft(&mut pos, 2),
            reference.perft(2),
            "line {}",
            e.line
        );
    }
}

#[test]
fn make_unmake_restores_everything_and_keys_match_from_scratch() {
    random_games(60, 200, |pos, g, ply| {
        assert_eq!(pos.key(), pos.compute_key(), "game {g} ply {ply}");
        let before = pos.clone();
        let fen = pos.to_fen();
        for mv in pos.legal_moves().iter().copied().collect::<Vec<_>>() {
            pos.make(mv);
            assert_eq!(pos.key(), pos.compute_key(), "after {mv} in {fen}");
            pos.unmake();
            assert!(*pos == before, "make/unmake of {mv} changed {fen}");
        }
        // A null move and its undo also restore the position exactly.
        if !pos.in_check() {
            pos.make_null();
            assert_eq!(pos.key(), pos.compute_key());
            pos.unmake_null();
            assert!(*pos == before, "null move changed {fen}");
        }
    });
}

/// A FEN from piece placements like `("N", "e4")`: upper case Red, lower case Black.
fn place(pieces: &[(&str, &str)], side: char) -> String {
    let mut board = [['.'; 9]; 10];
    for (p, sq) in pieces {
        let s = Square::parse(sq).unwrap();
        board[s.rank() as usize][s.file() as usize] = p.chars().next().unwrap();
    }
    let mut rows = Vec::new();
    for rank in (0..10).rev() {
        let mut row = String::new();
        let mut empty = 0;
        for c in board[rank] {
            if c == '.' {
                empty += 1;
            } else {
                if empty > 0 {
                    row.push_str(&empty.to_string());
                    empty = 0;
                }
                row.push(c);
            }
        }
        if empty > 0 {
            row.push_str(&empty.to_string());
        }
        rows.push(row);
    }
    format!("{} {side} - - 0 1", rows.join("/"))
}

#[test]
fn history_stack_records_moves_captures_and_checks() {
    let mut pos = Position::from_fen(&place(
        &[("K", "d0"), ("k", "f9"), ("R", "a1"), ("n", "a5")],
        'w',
    ))
    .unwrap();
    let key0 = pos.key();
    let mv = pos.parse_uci_move("a1a5").unwrap();
    pos.make(mv);
    let st = pos.history()[0];
    assert_eq!(st.mv, mv);
    assert_eq!(st.captured.fen_char(), 'n');
    assert_eq!(st.key_before, key0);
    assert!(!st.gave_check);
    assert_eq!(pos.quiet_plies(), 0);
    let mv2 = pos.parse_uci_move("f9f8").unwrap();
    pos.make(mv2);
    let mv3 = pos.parse_uci_move("a5f5").unwrap();
    pos.make(mv3);
    assert!(pos.history()[2].gave_check && pos.in_check());
    assert_eq!(pos.quiet_plies(), 2);
    pos.unmake();
    pos.unmake();
    pos.unmake();
    assert_eq!(pos.key(), key0);
    assert!(pos.history().is_empty());
}

fn moves_of(pieces: &[(&str, &str)], side: char, from: &str) -> Vec<String> {
    let fen = place(pieces, side);
    let mut pos = Position::from_fen(&fen).unwrap_or_else(|e| panic!("{fen}: {e}"));
    let sq = Square::parse(from).unwrap();
    let mut v: Vec<String> = pos
        .legal_moves()
        .iter()
        .filter(|m| m.from() == sq)
        .map(|m| m.to_uci())
        .collect();
    v.sort();
    v
}

const GENERALS: [(&str, &str); 2] = [("K", "f0"), ("k", "d9")];

fn with(extra: &[(&'static str, &'static str)]) -> Vec<(&'static str, &'static str)> {
    GENERALS.iter().chain(extra).copied().collect()
}

#[test]
fn horse_legs() {
    // A central horse on an empty board has 8 moves; each blocked leg (either colour) removes 2.
    assert_eq!(moves_of(&with(&[("N", "e4")]), 'w', "e4").len(), 8);
    assert_eq!(
        moves_of(&with(&[("N", "e4"), ("p", "e5")]), 'w', "e4").len(),
        6
    );
    assert_eq!(
        moves_of(&with(&[("N", "e4"), ("C", "d4")]), 'w', "e4").len(),
        6
    );
    assert_eq!(
        moves_of(&with(&[("N", "e4"), ("R", "f4")]), 'w', "e4").len(),
        6
    );
    assert_eq!(
        moves_of(&with(&[("N", "e4"), ("c", "e3")]), 'w', "e4").len(),
        6
    );
    assert_eq!(
        moves_of(&with(&[("N", "e4"), ("c", "e3"), ("p", "e5")]), 'w', "e4").len(),
        4
    );
    // In the corner: two moves, both behind one leg.
    assert_eq!(moves_of(&with(&[("N", "a0")]), 'w', "a0"), ["a0b2", "a0c1"]);
    assert_eq!(
        moves_of(&with(&[("N", "a0"), ("R", "a1")]), 'w', "a0"),
        ["a0c1"]
    );
    // A horse blocked from the far side is not blocked: the leg is next to the horse.
    assert_eq!(
        moves_of(&with(&[("N", "e4"), ("p", "e6")]), 'w', "e4").len(),
        8
    );
}

#[test]
fn elephant_eye_river_and_retreats() {
    // On c4 (its most forward point) a Red elephant may only retreat: never across the river.
    assert_eq!(moves_of(&with(&[("B", "c4")]), 'w', "c4"), ["c4a2", "c4e2"]);
    // The eye d3 blocked: only a2.
    assert_eq!(
        moves_of(&with(&[("B", "c4"), ("n", "d3")]), 'w', "c4"),
        ["c4a2"]
    );
    // From the centre: all four, and each eye blocks one.
    assert_eq!(
        moves_of(&with(&[("B", "e2")]), 'w', "e2"),
        ["e2c0", "e2c4", "e2g0", "e2g4"]
    );
    assert_eq!(
        moves_of(&with(&[("B", "e2"), ("N", "d1")]), 'w', "e2"),
        ["e2c4", "e2g0", "e2g4"]
    );
    // A Black elephant on c5 stays on its side too.
    assert_eq!(moves_of(&with(&[("b", "c5")]), 'b', "c5"), ["c5a7", "c5e7"]);
    // Forward from its back rank.
    assert_eq!(moves_of(&with(&[("B", "c0")]), 'w', "c0"), ["c0a2", "c0e2"]);
}

#[test]
fn cannon_screen() {
    // Cannon b2, own screen b5, black horse b7: b7 is capturable; nothing else beyond.
    let m = moves_of(&with(&[("C", "b2"), ("P", "b5"), ("n", "b7")]), 'w', "b2");
    assert!(m.contains(&"b2b7".to_string()), "{m:?}");
    for beyond in ["b2b5", "b2b6", "b2b8", "b2b9"] {
        assert!(!m.contains(&beyond.to_string()), "{beyond} in {m:?}");
    }
    assert!(m.contains(&"b2b3".to_string()) && m.contains(&"b2b4".to_string()));
    // No screen: an adjacent enemy is not capturable.
    let m = moves_of(&with(&[("C", "b2"), ("n", "b3")]), 'w', "b2");
    assert!(!m.contains(&"b2b3".to_string()), "{m:?}");
    // Two screens: nothing beyond the second.
    let m = moves_of(
        &with(&[("C", "b2"), ("P", "b5"), ("n", "b7"), ("r", "b8")]),
        'w',
        "b2",
    );
    assert!(
        m.contains(&"b2b7".to_string()) && !m.contains(&"b2b8".to_string()),
        "{m:?}"
    );
    // Own piece beyond the screen is never captured.
    let m = moves_of(&with(&[("C", "b2"), ("n", "b5"), ("R", "b7")]), 'w', "b2");
    assert!(!m.contains(&"b2b7".to_string()), "{m:?}");
}

#[test]
fn flying_general() {
    // A cannon between the generals may only move along the file.
    let m = moves_of(&[("K", "e0"), ("k", "e9"), ("C", "e2")], 'w', "e2");
    assert!(
        !m.is_empty() && m.iter().all(|s| s.starts_with("e2e")),
        "{m:?}"
    );
    // A general may not step onto the other general's open file.
    let m = moves_of(&[("K", "e0"), ("k", "d9")], 'w', "e0");
    assert!(
        !m.contains(&"e0d0".to_string()) && m.contains(&"e0f0".to_string()),
        "{m:?}"
    );
    // Facing generals are rejected in a FEN.
    assert!(Position::from_fen(&place(&[("K", "e0"), ("k", "e9")], 'w')).is_err());
    // A Black horse pinned on the file by the facing general has no move.
    assert!(moves_of(&[("K", "e0"), ("k", "e9"), ("n", "e7")], 'b', "e7").is_empty());
}

#[test]
fn fen_garbage_never_panics() {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(7);
    let alphabet: Vec<char> = "rnbakcpRNBAKCPEH0123456789/ -wbx\u{00e9}".chars().collect();
    for _ in 0..20_000 {
        let len = rng.gen_range(0..80);
        let s: String = (0..len)
            .map(|_| alphabet[rng.gen_range(0..alphabet.len())])
            .collect();
        let _ = Position::from_fen(&s);
    }
    // Mutations of valid FENs too.
    for _ in 0..20_000 {
        let mut chars: Vec<char> = START_FEN.chars().collect();
        let i = rng.gen_range(0..chars.len());
        chars[i] = alphabet[rng.gen_range(0..alphabet.len())];
        let s: String = chars.into_iter().collect();
        if let Ok(p) = Position::from_fen(&s) {
            assert_eq!(
                Position::from_fen(&p.to_fen()).unwrap().to_fen(),
                p.to_fen()
            );
        }
    }
}

#[test]
fn uci_text_and_fairy_stockfish_ranks() {
    let mut pos = Position::startpos();
    let mv = pos.parse_uci_move("h2e2").unwrap();
    assert_eq!(
        mv,
        Move::new(Square::parse("h2").unwrap(), Square::parse("e2").unwrap())
    );
    assert!(
        pos.parse_uci_move("h2h9").is_ok(),
        "the cannon takes the horse over the h7 screen"
    );
    assert!(
        pos.parse_uci_move("h2h8").is_err(),
        "an empty point beyond the screen"
    );
    assert!(pos.parse_uci_move("zz").is_err());
    assert!(pos.parse_uci_move("e0e1").is_ok());
    assert_eq!(
        chuhan_engine::to_fairy_uci("b2b9").as_deref(),
        Some("b3b10")
    );
    assert_eq!(
        chuhan_engine::from_fairy_uci("b3b10").as_deref(),
        Some("b2b9")
    );
    assert_eq!(chuhan_engine::from_fairy_uci("b0b1"), None);
    assert_eq!(chuhan_engine::move_to_fairy(mv), "h3e3");
    assert_eq!(chuhan_engine::move_from_fairy("h3e3"), Some(mv));
}

#[test]
fn fen_round_trips() {
    random_games(20, 120, |pos, _, _| {
        let fen = pos.to_fen();
        let back = Position::from_fen(&fen).unwrap();
        assert_eq!(back.to_fen(), fen);
        assert_eq!(back.key(), pos.key());
    });
    // E and H are read as elephant and horse.
    let a =
        Position::from_fen("rheakaehr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RHEAKAEHR w - - 0 1")
            .unwrap();
    assert_eq!(a.to_fen(), START_FEN);
    let b =
        Position::from_fen("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR b - - 3 7")
            .unwrap();
    assert_eq!(b.side_to_move(), Color::Black);
    assert_eq!(
        b.to_fen(),
        "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR b - - 3 7"
    );
    // Two-field FENs get default clocks.
    let c = Position::from_fen("3k5/9/9/9/9/9/9/9/4R4/5K3 w").unwrap();
    assert_eq!((c.quiet_plies(), c.fullmove()), (0, 1));
}

#[test]
fn may_give_check_is_true_for_every_checking_move() {
    // Over random games from the start and the suite's positions (sparse endings, where lines
    // are long), every legal move that checks must have been flagged; the flag must also be
    // false often enough to be worth having.
    let mut starts: Vec<Position> = include_str!("data/xiangqi.epd")
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .map(|l| Position::from_fen(l.split(';').next().unwrap().trim()).unwrap())
        .collect();
    starts.push(Position::startpos());
    let (mut moves, mut checks, mut cleared) = (0usize, 0usize, 0usize);
    for (g, start) in starts.iter().enumerate() {
        for game in 0..20u64 {
            let mut rng = Xoshiro256PlusPlus::seed_from_u64(7_000 + 100 * g as u64 + game);
            let mut pos = start.clone();
            for _ in 0..120 {
                let legal = pos.legal_moves();
                if legal.is_empty() {
                    break;
                }
                for &mv in legal.as_slice() {
                    let flagged = pos.may_give_check(mv);
                    pos.make(mv);
                    let check = pos.in_check();
                    pos.unmake();
                    assert!(
                        flagged || !check,
                        "{} checks but was not flagged in {}",
                        mv.to_uci(),
                        pos.to_fen()
                    );
                    moves += 1;
                    checks += usize::from(check);
                    cleared += usize::from(!flagged);
                }
                let mv = legal.as_slice()[rng.gen_range(0..legal.len())];
                pos.make(mv);
            }
        }
    }
    assert!(
        moves > 500_000 && checks > 10_000,
        "{moves} moves, {checks} checks"
    );
    assert!(
        cleared * 5 > moves,
        "only {cleared} of {moves} moves cleared"
    );
}

//! Chess rules: FEN rejections (one test each), move text both ways over random games,
//! incremental Zobrist keys and make/unmake at every ply, garbage-FEN fuzzing, and the game
//! judge's fixtures.

use chuhan_engine::chess::{
    judge, FenError, FromFenError, Game, GameResult, Move, MoveKind, PieceKind, Position,
    PositionError, SanError, Setup, Termination, Verdict, START_FEN,
};
use rand::{Rng, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;

const KIWIPETE: &str = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";

/// Starts for random games: the start position and positions rich in castling, en passant
/// and promotion.
const STARTS: [&str; 4] = [
    START_FEN,
    KIWIPETE,
    "r3k2r/1P4P1/8/3pP3/3Pp3/8/1p4p1/R3K2R w KQkq d6 0 1",
    "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
];

fn pos(fen: &str) -> Position {
    Position::from_fen(fen).unwrap_or_else(|e| panic!("{fen}: {e}"))
}

fn syntax_error(fen: &str) -> FenError {
    match Position::from_fen(fen) {
        Err(FromFenError::Syntax(e)) => {
            assert_eq!(Setup::parse(fen), Err(e.clone()));
            e
        }
        other => panic!("{fen}: expected a syntax error, got {other:?}"),
    }
}

fn position_error(fen: &str) -> PositionError {
    assert!(Setup::parse(fen).is_ok(), "{fen} is well-formed FEN");
    match Position::from_fen(fen) {
        Err(FromFenError::Position(e)) => e,
        other => panic!("{fen}: expected a position error, got {other:?}"),
    }
}

// ---- FEN syntax errors -------------------------------------------------------------------

#[test]
fn fen_rejects_empty_text() {
    assert_eq!(syntax_error("   "), FenError::Empty);
}

#[test]
fn fen_rejects_wrong_field_count() {
    let e = syntax_error("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0");
    assert_eq!(e, FenError::FieldCount(5));
    assert!(e.to_string().contains("5 fields"), "{e}");
}

#[test]
fn fen_rejects_wrong_row_count() {
    let e = syntax_error("rnbqkbnr/pppppppp/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1");
    assert_eq!(e, FenError::RowCount(7));
}

#[test]
fn fen_rejects_wrong_file_count() {
    let e = syntax_error("rnbqkbnr/pppppppp/9/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1");
    assert!(e.to_string().contains("'9'"), "{e}");
    let e = syntax_error("rnbqkbnr/ppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1");
    assert_eq!(
        e,
        FenError::FileCount {
            row: 2,
            rank: 7,
            files: 7
        }
    );
}

#[test]
fn fen_rejects_unknown_piece_letter() {
    let e = syntax_error("rnbqkbnr/pppppppp/8/8/4X3/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1");
    assert_eq!(
        e,
        FenError::UnknownChar {
            ch: 'X',
            row: 5,
            rank: 4,
            column: 24
        }
    );
    assert!(e.to_string().contains("character 24"), "{e}");
}

#[test]
fn fen_rejects_bad_side() {
    let e = syntax_error("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR x KQkq - 0 1");
    assert_eq!(e, FenError::Side("x".into()));
}

#[test]
fn fen_rejects_bad_castling_field() {
    for field in ["KQxq", "KK", "kqKQ-", ""] {
        let fen = format!("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w {field} - 0 1");
        if field.is_empty() {
            // An empty field is no field at all.
            assert_eq!(syntax_error(&fen), FenError::FieldCount(5));
        } else {
            assert_eq!(syntax_error(&fen), FenError::Castling(field.into()));
        }
    }
}

#[test]
fn fen_rejects_bad_en_passant_field() {
    let e = syntax_error("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq e9 0 1");
    assert_eq!(e, FenError::EnPassant("e9".into()));
    assert!(e.to_string().contains("field 4"), "{e}");
}

#[test]
fn fen_rejects_bad_counters() {
    let e = syntax_error("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - -1 1");
    assert!(matches!(e, FenError::Number { field: 5, .. }), "{e:?}");
    let e = syntax_error("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 0");
    assert!(matches!(e, FenError::Number { field: 6, .. }), "{e:?}");
}

// ---- position errors ---------------------------------------------------------------------

#[test]
fn position_rejects_two_kings() {
    let e = position_error("4k3/8/8/8/8/8/8/3KK3 w - - 0 1");
    assert_eq!(
        e,
        PositionError::KingCount {
            color: chuhan_engine::chess::Color::White,
            count: 2
        }
    );
    assert!(e.to_string().contains("2 kings"), "{e}");
}

#[test]
fn position_rejects_a_missing_king() {
    let e = position_error("8/8/8/8/8/8/8/4K3 w - - 0 1");
    assert!(e.to_string().contains("Black has 0 kings"), "{e}");
}

#[test]
fn position_rejects_pawns_on_back_ranks() {
    let e = position_error("4k2P/8/8/8/8/8/8/4K3 w - - 0 1");
    assert!(e.to_string().contains("White pawn on h8"), "{e}");
    let e = position_error("4k3/8/8/8/8/8/8/p3K3 w - - 0 1");
    assert!(e.to_string().contains("Black pawn on a1"), "{e}");
}

#[test]
fn position_rejects_too_many_pawns() {
    let e = position_error("4k3/pppppppp/p7/8/8/8/8/4K3 w - - 0 1");
    assert!(e.to_string().contains("9 pawns"), "{e}");
}

#[test]
fn position_rejects_side_not_to_move_in_check() {
    let e = position_error("4k3/8/8/8/8/8/4R3/4K3 w - - 0 1");
    assert_eq!(
        e,
        PositionError::OpponentInCheck(chuhan_engine::chess::Color::Black)
    );
    // The same position with Black to move is fine.
    pos("4k3/8/8/8/8/8/4R3/4K3 b - - 0 1");
    // So is a position without the rook.
    pos("4k3/8/8/8/8/8/8/4K3 w - - 0 1");
}

#[test]
fn position_rejects_impossible_castling_rights() {
    // King moved.
    let e = position_error("r3k2r/8/8/8/8/8/8/R4K1R w KQkq - 0 1");
    assert!(e.to_string().contains("castling right 'K'"), "{e}");
    // Rook missing.
    let e = position_error("r3k2r/8/8/8/8/8/8/4K2R w KQkq - 0 1");
    assert!(
        e.to_string().contains("castling right 'Q'") && e.to_string().contains("a1"),
        "{e}"
    );
    let e = position_error("r3k3/8/8/8/8/8/8/R3K2R w KQkq - 0 1");
    assert!(e.to_string().contains("castling right 'k'"), "{e}");
    let e = position_error("1r2k2r/8/8/8/8/8/8/R3K2R w KQq - 0 1");
    assert!(e.to_string().contains("castling right 'q'"), "{e}");
    // The rights that are there are fine.
    pos("1r2k2r/8/8/8/8/8/8/R3K2R w KQk - 0 1");
}

#[test]
fn position_rejects_bad_en_passant_square() {
    let cases = [
        // Wrong rank for the side to move.
        (
            "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq e3 0 2",
            "rank 6",
        ),
        // No pawn in front of the square.
        (
            "rnbqkbnr/pppp1ppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq e6 0 1",
            "no pawn",
        ),
        // The pawn's starting square is occupied.
        (
            "rnbqk1nr/ppppbppp/8/4p3/8/8/PPPPPPPP/RNBQKBNR w KQkq e6 0 2",
            "starting square",
        ),
        // The square itself is occupied.
        (
            "rnbqkb1r/pppp1ppp/4n3/4p3/8/8/PPPPPPPP/RNBQKBNR w KQkq e6 0 2",
            "occupied",
        ),
    ];
    for (fen, needle) in cases {
        let e = position_error(fen);
        assert!(
            matches!(e, PositionError::BadEnPassant { .. }) && e.to_string().contains(needle),
            "{fen}: '{e}' does not mention '{needle}'"
        );
    }
}

#[test]
fn en_passant_square_nobody_can_use_is_dropped() {
    // After 1.e4 no black pawn can take on e3: FEN and key forget the square, as Stockfish's do.
    let p = pos("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1");
    assert_eq!(p.en_passant(), None);
    assert_eq!(
        p.to_fen(),
        "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1"
    );
    let mut start = Position::startpos();
    start.make(start.parse_uci("e2e4").unwrap());
    assert_eq!(start.key(), p.key());
}

// ---- random games: move text, keys, make/unmake ------------------------------------------

/// Plays `games` seeded random games of up to `plies` plies and calls `visit` on every
/// position reached (the start included) before the next move is drawn.
fn random_games(games: u64, plies: usize, mut visit: impl FnMut(&mut Position)) {
    for g in 0..games {
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(0xc4e55 + g);
        let mut p = pos(STARTS[g as usize % STARTS.len()]);
        for _ in 0..plies {
            visit(&mut p);
            let legal = p.legal_moves();
            if legal.is_empty() {
                break;
            }
            let mv = legal.as_slice()[rng.gen_range(0..legal.len())];
            p.make(mv);
        }
        visit(&mut p);
    }
}

#[test]
fn san_and_uci_round_trip_every_legal_move_of_100_random_games() {
    let mut moves = 0;
    random_games(100, 120, |p| {
        for &mv in p.legal_moves().iter() {
            let san = p.to_san(mv).unwrap();
            assert_eq!(p.parse_san(&san), Ok(mv), "{san} in {}", p.to_fen());
            assert_eq!(p.parse_uci(&mv.to_uci()), Ok(mv), "{mv} in {}", p.to_fen());
            moves += 1;
        }
    });
    assert!(moves > 100_000, "{moves} moves");
}

#[test]
fn incremental_key_equals_key_from_scratch_and_unmake_restores_bit_for_bit() {
    let mut plies = 0;
    random_games(100, 200, |p| {
        assert_eq!(p.key(), p.compute_key(), "{}", p.to_fen());
        // FEN round trip keeps board, rights, counters and key.
        let again = pos(&p.to_fen());
        assert_eq!(again.to_fen(), p.to_fen());
        assert_eq!(again.key(), p.key());
        for &mv in p.legal_moves().iter() {
            let before = p.clone();
            p.make(mv);
            assert_eq!(
                p.key(),
                p.compute_key(),
                "after {mv} from {}",
                before.to_fen()
            );
            p.unmake();
            assert_eq!(*p, before, "unmake {mv}");
        }
        plies += 1;
    });
    assert!(plies > 10_000, "{plies} plies");
}

#[test]
fn garbage_fen_never_panics() {
    const ALPHABET: &[u8] = b"pnbrqkPNBRQK12345678/ -wbKQkqa1h8e3e60123456789xX";
    let seeds = [
        START_FEN,
        KIWIPETE,
        "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
    ];
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(2026);
    let mut accepted = 0;
    for i in 0..5_000 {
        let mut bytes = seeds[i % seeds.len()].as_bytes().to_vec();
        for _ in 0..rng.gen_range(1..4) {
            let at = rng.gen_range(0..=bytes.len());
            match rng.gen_range(0..3) {
                0 if at < bytes.len() => {
                    bytes.remove(at);
                }
                1 if at < bytes.len() => bytes[at] = ALPHABET[rng.gen_range(0..ALPHABET.len())],
                _ => bytes.insert(at, ALPHABET[rng.gen_range(0..ALPHABET.len())]),
            }
        }
        let text = String::from_utf8_lossy(&bytes);
        if let Ok(mut p) = Position::from_fen(&text) {
            accepted += 1;
            // A position that was accepted works.
            let n: u64 = chuhan_engine::chess::perft(&mut p, 2);
            assert_eq!(
                n,
                chuhan_engine::chess::divide(&mut p, 2)
                    .iter()
                    .map(|x| x.1)
                    .sum()
            );
            assert_eq!(pos(&p.to_fen()).key(), p.key());
        }
    }
    assert!(accepted > 100, "only {accepted} mutations were accepted");
}

// ---- SAN specifics -----------------------------------------------------------------------

fn san_of(fen: &str, uci: &str) -> String {
    let mut p = pos(fen);
    let mv = p.parse_uci(uci).unwrap();
    p.to_san(mv).unwrap()
}

#[test]
fn san_disambiguates_by_file_then_rank_then_both() {
    assert_eq!(san_of("4k3/8/8/8/8/8/8/N3K2N w - - 0 1", "a1b3"), "Nb3");
    assert_eq!(san_of("4k3/8/8/8/8/8/8/N1N1K3 w - - 0 1", "a1b3"), "Nab3");
    let rooks = "6k1/8/8/R7/8/8/4K3/R6R w - - 0 1";
    assert_eq!(san_of(rooks, "a1a3"), "R1a3");
    assert_eq!(san_of(rooks, "a1d1"), "Rad1");
    assert_eq!(san_of(rooks, "h1d1"), "Rhd1");
    // Three queens reach e1: by file, by rank, and one that needs both.
    let queens = "8/8/1k6/8/4Q2Q/8/8/K6Q w - - 0 1";
    assert_eq!(san_of(queens, "e4e1"), "Qee1");
    assert_eq!(san_of(queens, "h1e1"), "Q1e1");
    assert_eq!(san_of(queens, "h4e1"), "Qh4e1");
    let p = pos(queens);
    assert!(matches!(
        p.parse_san("Qe1"),
        Err(SanError::Ambiguous { .. })
    ));
    assert!(matches!(
        p.parse_san("Qhe1"),
        Err(SanError::Ambiguous { .. })
    ));
    assert_eq!(p.parse_san("Qh4e1").unwrap().to_uci(), "h4e1");
    assert_eq!(p.parse_san("Qee1").unwrap().to_uci(), "e4e1");
    // Rank 4 holds two of them: not enough.
    assert!(matches!(
        p.parse_san("Q4e1"),
        Err(SanError::Ambiguous { .. })
    ));
}

#[test]
fn san_marks_captures_checks_mates_castling_and_promotions() {
    assert_eq!(san_of(KIWIPETE, "e1g1"), "O-O");
    assert_eq!(san_of(KIWIPETE, "e1c1"), "O-O-O");
    assert_eq!(san_of(KIWIPETE, "d5e6"), "dxe6");
    assert_eq!(san_of(KIWIPETE, "e5f7"), "Nxf7");
    assert_eq!(san_of("6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1", "a1a8"), "Ra8#");
    assert_eq!(san_of("6k1/5pp1/8/8/8/8/8/R5K1 w - - 0 1", "a1a8"), "Ra8+");
    let promo = "1n2k3/P7/8/8/8/8/8/4K3 w - - 0 1";
    assert_eq!(san_of(promo, "a7a8q"), "a8=Q");
    assert_eq!(san_of("4k3/P7/8/8/8/8/8/4K3 w - - 0 1", "a7a8q"), "a8=Q+");
    assert_eq!(san_of(promo, "a7b8n"), "axb8=N");
    assert_eq!(san_of(promo, "a7a8r"), "a8=R");
    let p = pos(promo);
    assert_eq!(p.parse_san("a8Q").unwrap().to_uci(), "a7a8q");
    assert_eq!(p.parse_san("axb8=B").unwrap().to_uci(), "a7b8b");
    assert!(matches!(p.parse_san("a8"), Err(SanError::Illegal { .. })));
    let ep = "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3";
    assert_eq!(san_of(ep, "e5f6"), "exf6");
    assert_eq!(
        pos(ep).parse_san("exf6").unwrap().kind(),
        MoveKind::EnPassant
    );
    assert_eq!(pos(KIWIPETE).parse_san("0-0-0").unwrap().to_uci(), "e1c1");
}

// ---- rules fixtures ----------------------------------------------------------------------

fn play_san(game: &mut Game, moves: &str) -> Option<Verdict> {
    let mut verdict = None;
    for san in moves.split_whitespace() {
        assert!(verdict.is_none(), "{san} played after {verdict:?}");
        let mv = game.position().parse_san(san).unwrap();
        verdict = game.play(mv).unwrap();
    }
    verdict
}

#[test]
fn checkmate_wins() {
    let mut game = Game::new(Position::startpos());
    let v = play_san(&mut game, "f3 e5 g4 Qh4#");
    assert_eq!(
        v,
        Some(Verdict::loss(
            chuhan_engine::chess::Color::White,
            Termination::Checkmate
        ))
    );
    assert_eq!(v.unwrap().result, GameResult::BlackWins);
    assert_eq!(game.moves().len(), 4);
}

#[test]
fn stalemate_is_a_draw() {
    let mut game = Game::new(pos("7k/8/6Q1/8/8/8/8/K7 w - - 0 1"));
    let v = play_san(&mut game, "Qe6");
    assert_eq!(v, None);
    let mut game = Game::new(pos("7k/8/8/8/8/8/8/K4Q2 w - - 0 1"));
    let v = play_san(&mut game, "Qf7");
    assert_eq!(v, Some(Verdict::draw(Termination::Stalemate)));
}

#[test]
fn threefold_repetition_is_a_draw() {
    let mut game = Game::new(Position::startpos());
    // The start position occurs for the second time after 4 plies, the third after 8.
    assert_eq!(play_san(&mut game, "Nf3 Nf6 Ng1 Ng8"), None);
    assert_eq!(game.position().repetition_count(), 2);
    let v = play_san(&mut game, "Nf3 Nf6 Ng1 Ng8");
    assert_eq!(v, Some(Verdict::draw(Termination::Repetition)));
}

#[test]
fn repetition_needs_the_same_castling_rights() {
    let start = "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1";
    let mut game = Game::new(pos(start));
    // The first trip costs White the king-side right and Black both: the start board comes
    // back twice more, but with other rights, so it has occurred only twice as a position.
    assert_eq!(play_san(&mut game, "Rh2 Kd8 Rh1 Ke8 Rh2 Kd8 Rh1 Ke8"), None);
    assert_eq!(game.position().board(), pos(start).board());
    assert_eq!(game.position().castling().to_fen(), "Q");
    assert_eq!(game.position().repetition_count(), 2);
    assert_eq!(play_san(&mut game, "Rh2"), None);
    // The position after the first Kd8 (rights already "Q") now occurs for the third time.
    let v = play_san(&mut game, "Kd8");
    assert_eq!(v, Some(Verdict::draw(Termination::Repetition)));
}

#[test]
fn fifty_moves_without_capture_or_pawn_move_is_a_draw() {
    let mut game = Game::new(pos("4k3/8/8/8/8/8/4P3/R3K3 w - - 98 80"));
    assert_eq!(play_san(&mut game, "Ra2"), None);
    assert_eq!(
        play_san(&mut game, "Kd8"),
        Some(Verdict::draw(Termination::FiftyMoves))
    );
    // A pawn move resets the count.
    let mut game = Game::new(pos("4k3/8/8/8/8/8/4P3/R3K3 w - - 99 80"));
    assert_eq!(play_san(&mut game, "e3"), None);
    assert_eq!(game.position().halfmove(), 0);
    // Mate on the hundredth ply is a mate.
    let mut game = Game::new(pos("6k1/5ppp/8/8/8/8/8/R5K1 w - - 99 80"));
    let v = play_san(&mut game, "Ra8#").unwrap();
    assert_eq!(v.termination, Termination::Checkmate);
}

#[test]
fn insufficient_material() {
    let draws = [
        "4k3/8/8/8/8/8/8/4K3 w - - 0 1",
        "4k3/8/8/8/8/8/8/4KN2 w - - 0 1",
        "4k3/8/8/8/8/8/8/4KB2 w - - 0 1",
        "4kb2/8/8/8/8/8/8/4K3 w - - 0 1",
        // Bishops on the same colour (f1 and c8 are both light).
        "2b1k3/8/8/8/8/8/8/4KB2 w - - 0 1",
    ];
    for fen in draws {
        assert_eq!(
            judge(&pos(fen)),
            Some(Verdict::draw(Termination::InsufficientMaterial)),
            "{fen}"
        );
    }
    let playable = [
        // Bishops on different colours.
        "1b2k3/8/8/8/8/8/8/4KB2 w - - 0 1",
        "4k3/8/8/8/8/8/8/3NKN2 w - - 0 1",
        "4kn2/8/8/8/8/8/8/4KB2 w - - 0 1",
        "4k3/8/8/8/8/8/4P3/4K3 w - - 0 1",
        "4k3/8/8/8/8/8/8/4K2R w - - 0 1",
    ];
    for fen in playable {
        assert_eq!(judge(&pos(fen)), None, "{fen}");
    }
    // A capture that leaves bare kings ends the game.
    let mut game = Game::new(pos("4k3/8/8/8/8/8/3q4/4K3 w - - 0 1"));
    let v = play_san(&mut game, "Kxd2");
    assert_eq!(v, Some(Verdict::draw(Termination::InsufficientMaterial)));
}

#[test]
fn en_passant_that_exposes_the_king_is_illegal() {
    // Along the rank.
    let p = pos("8/8/8/K2pP2r/8/8/8/7k w - d6 0 1");
    assert!(p.parse_uci("e5d6").is_err());
    // Along a diagonal.
    let p = pos("8/1k6/8/8/3Pp3/8/8/4K2B b - d3 0 1");
    assert!(p.parse_uci("e4d3").is_err());
    // Legal when nothing is exposed.
    let p = pos("8/8/8/K2pP3/8/8/8/7k w - d6 0 1");
    assert_eq!(p.parse_uci("e5d6").unwrap().kind(), MoveKind::EnPassant);
    // Capturing the checking pawn en passant is legal.
    let p = pos("8/8/8/2k5/3Pp3/8/8/4K3 b - d3 0 1");
    assert!(p.in_check());
    assert!(p.parse_uci("e4d3").is_ok());
}

#[test]
fn castling_through_into_or_out_of_check_is_illegal() {
    let legal = |fen: &str, uci: &str| pos(fen).parse_uci(uci).is_ok();
    let base = "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1";
    assert!(legal(base, "e1g1") && legal(base, "e1c1"));
    // f1 attacked: no king side; d1 free so queen side stays.
    let through = "r3k2r/8/8/8/8/8/6b1/R3K2R w KQkq - 0 1";
    assert!(!legal(through, "e1g1"));
    // Out of check.
    let out = "r3k2r/8/8/8/4r3/8/8/R3K2R w KQkq - 0 1";
    assert!(!legal(out, "e1g1") && !legal(out, "e1c1"));
    // Into check.
    let into = "r3k2r/8/8/8/8/8/8/R3K1rR w KQkq - 0 1";
    assert!(!legal(into, "e1c1"));
    // b1 attacked does not stop the long castle; a blocked b1 does.
    assert!(legal("1r2k2r/8/8/8/8/8/8/R3K2R w KQk - 0 1", "e1c1"));
    assert!(!legal("r3k2r/8/8/8/8/8/8/RN2K2R w KQkq - 0 1", "e1c1"));
}

#[test]
fn promotion_to_each_piece() {
    let fen = "4k3/1P6/8/8/8/8/8/4K3 w - - 0 1";
    for (letter, kind) in [
        ('q', PieceKind::Queen),
        ('r', PieceKind::Rook),
        ('b', PieceKind::Bishop),
        ('n', PieceKind::Knight),
    ] {
        let mut p = pos(fen);
        let mv = p.parse_uci(&format!("b7b8{letter}")).unwrap();
        assert_eq!(mv.promotion(), Some(kind));
        p.make(mv);
        let b8 = chuhan_engine::chess::Square::parse("b8").unwrap();
        assert_eq!(p.piece_at(b8).kind(), Some(kind));
        p.unmake();
        assert_eq!(p, pos(fen));
    }
    // A promotion needs its letter.
    assert!(pos(fen).parse_uci("b7b8").is_err());
    assert!(pos(fen).parse_uci("b7b8k").is_err());
    assert_eq!(
        pos(fen)
            .legal_moves()
            .iter()
            .filter(|m| m.promotion().is_some())
            .count(),
        4
    );
}

#[test]
fn illegal_moves_change_nothing() {
    let mut game = Game::new(Position::startpos());
    let e = game.play(Move::NONE).unwrap_err();
    assert!(e.fen.starts_with("rnbqkbnr"), "{e}");
    assert_eq!(game.position(), &Position::startpos());
}

#[test]
fn saturated_counters_come_back_exactly() {
    let fen = "4k3/8/8/8/8/8/8/R3K3 b - - 65535 65535";
    let mut p = pos(fen);
    let before = p.clone();
    let mv = p.parse_uci("e8d7").unwrap();
    p.make(mv);
    assert_eq!((p.halfmove(), p.fullmove()), (65535, 65535));
    p.unmake();
    assert_eq!(p, before);
    assert_eq!(p.to_fen(), fen);
}

#[test]
fn null_moves_keep_the_key_and_come_back_exactly() {
    random_games(20, 100, |p| {
        if p.in_check() {
            return;
        }
        let before = p.clone();
        p.make_null();
        assert_eq!(p.side_to_move(), before.side_to_move().flip());
        assert_eq!(p.en_passant(), None);
        assert_eq!(p.key(), p.compute_key(), "{}", before.to_fen());
        assert_eq!(p.repetition_count(), 1);
        p.unmake();
        assert_eq!(*p, before);
    });
}

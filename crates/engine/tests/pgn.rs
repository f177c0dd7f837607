//! Xiangqi PGN: write + read round trips in every notation, golden output, tolerant reading
//! and errors that name the line.

mod common;

use chuhan_engine::{
    read_pgn, write_pgn, write_pgn_annotated, GameRecord, Move, Notation, NotationError,
    PgnErrorKind, Position, START_FEN,
};
use common::{random_game, tandem_positions};

fn moves(uci: &str) -> Vec<Move> {
    uci.split_whitespace()
        .map(|m| Move::parse_uci(m).unwrap())
        .collect()
}

fn record(start_fen: &str, moves: Vec<Move>, result: &str) -> GameRecord {
    GameRecord {
        tags: vec![
            ("Event".into(), "Test \"quoted\" \\ event".into()),
            ("Red".into(), "红方".into()),
            ("Black".into(), "Black side".into()),
            ("Date".into(), "2024.01.02".into()),
        ],
        start_fen: start_fen.to_string(),
        moves,
        result: result.to_string(),
    }
}

#[test]
fn write_then_read_gives_back_random_games_in_every_notation() {
    let start = Position::startpos();
    let mut starts: Vec<Position> = vec![start];
    starts.extend(tandem_positions().into_iter().map(|(_, p)| p));
    let results = ["1-0", "0-1", "1/2-1/2", "*"];
    for notation in Notation::ALL {
        let mut records = Vec::new();
        for seed in 0..40u64 {
            let start = &starts[seed as usize % starts.len()];
            let game = random_game(start, 1000 + seed, 150);
            let fen = start.to_fen();
            records.push(record(&fen, game, results[seed as usize % 4]));
        }
        let text: String = records
            .iter()
            .map(|r| write_pgn(r, notation).unwrap())
            .collect::<Vec<_>>()
            .join("\n");
        let read = read_pgn(&text).unwrap_or_else(|e| panic!("{notation}: {e}"));
        assert_eq!(read.len(), records.len(), "{notation}");
        for (i, (got, want)) in read.iter().zip(&records).enumerate() {
            assert_eq!(got.moves, want.moves, "{notation} game {i}");
            assert_eq!(got.result, want.result, "{notation} game {i}");
            assert_eq!(got.start_fen, want.start_fen, "{notation} game {i}");
            for (name, value) in &want.tags {
                assert_eq!(got.tag(name), Some(value.as_str()), "{notation} tag {name}");
            }
            assert_eq!(got.tag("Game"), Some("Chinese Chess"));
            // Writing what was read and reading it again changes nothing.
            let again = read_pgn(&write_pgn(got, notation).unwrap()).unwrap();
            assert_eq!(&again[0], got, "{notation} game {i}");
        }
    }
}

#[test]
fn golden_wxf_and_chinese_records() {
    let mut r = record(START_FEN, moves("h2e2 h9g7 b0c2 i9h9"), "*");
    r.tags = vec![
        ("Event".into(), "Demo".into()),
        ("Red".into(), "A".into()),
        ("Black".into(), "B".into()),
    ];
    assert_eq!(
        write_pgn(&r, Notation::Wxf).unwrap(),
        "[Game \"Chinese Chess\"]\n[Event \"Demo\"]\n[Red \"A\"]\n[Black \"B\"]\n\
         [Result \"*\"]\n[Format \"WXF\"]\n\n1. C2.5 H8+7 2. H8+7 R9.8 *\n"
    );
    assert!(write_pgn(&r, Notation::Chinese)
        .unwrap()
        .ends_with("[Format \"Chinese\"]\n\n1. 炮二平五 马８进７ 2. 马八进七 车９平８ *\n"));
    assert!(write_pgn(&r, Notation::Iccs)
        .unwrap()
        .ends_with("[Format \"ICCS\"]\n\n1. H2-E2 H9-G7 2. B0-C2 I9-H9 *\n"));
}

#[test]
fn a_start_with_black_to_move_numbers_from_the_fen() {
    let fen = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR b - - 0 7";
    let r = record(fen, moves("h9g7 b0c2"), "0-1");
    let text = write_pgn(&r, Notation::Wxf).unwrap();
    assert!(text.contains(&format!("[FEN \"{fen}\"]")), "{text}");
    assert!(text.contains("7... H8+7 8. H8+7 0-1"), "{text}");
    let read = read_pgn(&text).unwrap();
    assert_eq!(read[0].moves, r.moves);
    assert_eq!(read[0].start_fen, fen);
}

#[test]
fn reading_skips_comments_variations_glyphs_and_numbers() {
    let text = "\
[Game \"Chinese Chess\"]
[Event \"Annotated\"]
[Format \"Chinese\"]

1.炮二平五 {the central cannon
spans lines} 马８进７ ; a line comment 车一平二
2. 马八进七 $1 (2. 兵七进一 (2. 相三进五) 卒７进１) 车９平８!?
3. h0g2 1-0
";
    let games = read_pgn(text).unwrap();
    assert_eq!(games.len(), 1);
    assert_eq!(games[0].moves, moves("h2e2 h9g7 b0c2 i9h9 h0g2"));
    assert_eq!(games[0].result, "1-0");
    assert_eq!(games[0].tag("Event"), Some("Annotated"));
    // No Format tag means ICCS; a game without a result token takes the Result tag.
    let games = read_pgn("[Result \"0-1\"]\n1. H2-E2 h9-g7\n\n[Event \"two\"]\n1. c3c4\n").unwrap();
    assert_eq!(games.len(), 2);
    assert_eq!(games[0].moves, moves("h2e2 h9g7"));
    assert_eq!(games[0].result, "0-1");
    assert_eq!(games[1].moves, moves("c3c4"));
    assert_eq!(games[1].result, "*");
    assert_eq!(read_pgn("").unwrap(), vec![]);
    assert_eq!(read_pgn("\n  \n").unwrap(), vec![]);
}

/// Reads `text`, expects an error on `line`, and returns its message.
fn error_on_line(text: &str, line: usize) -> (PgnErrorKind, String) {
    let err = read_pgn(text).expect_err("malformed record must not read");
    assert_eq!(err.line, line, "{err}");
    let message = err.to_string();
    assert!(message.starts_with(&format!("line {line}: ")), "{message}");
    (err.kind, message)
}

#[test]
fn malformed_records_name_the_line() {
    let (kind, msg) = error_on_line("[Event \"ok\"]\n[Red \"unterminated]\n1. h2e2 *\n", 2);
    assert!(matches!(kind, PgnErrorKind::BadTag { .. }), "{msg}");
    assert!(msg.contains("[Red \"unterminated]"), "{msg}");
    let (kind, _) = error_on_line("[Event unquoted]\n", 1);
    assert!(matches!(kind, PgnErrorKind::BadTag { .. }));
    let (kind, _) = error_on_line("[Event \"x\"\n", 1);
    assert!(matches!(kind, PgnErrorKind::BadTag { .. }));
    let (kind, _) = error_on_line("[\"x\"]\n", 1);
    assert!(matches!(kind, PgnErrorKind::BadTag { .. }));

    // An illegal move: the message names the move number, side and text.
    let (kind, msg) = error_on_line("[Event \"x\"]\n\n1. h2e2 h9g7\n2. h2e3 *\n", 4);
    assert!(matches!(kind, PgnErrorKind::BadMove { .. }), "{msg}");
    assert!(msg.contains("move 2. for Red 'h2e3'"), "{msg}");
    // UCI text in an ICCS game: the error is the illegal move, not the notation.
    assert!(msg.contains("denotes no legal move"), "{msg}");
    let (_, msg) = error_on_line("[Format \"WXF\"]\n1. C2.5 H8+7\n2. C5+9 *\n", 3);
    assert!(msg.contains("'C5+9'"), "{msg}");
    let (kind, msg) = error_on_line("[Format \"WXF\"]\n1. C2.5 Q8+7 *\n", 2);
    match kind {
        PgnErrorKind::BadMove {
            number,
            text,
            error,
            ..
        } => {
            assert_eq!(number, "1...");
            assert_eq!(text, "Q8+7");
            assert!(matches!(*error, NotationError::Syntax { .. }), "{msg}");
        }
        other => panic!("{other:?}"),
    }
    let (_, msg) = error_on_line(
        "[Format \"Chinese\"]\n1. 炮二平五\n马８进７ 车二进九 *\n",
        3,
    );
    assert!(msg.contains("'车二进九'"), "{msg}");

    let (kind, _) = error_on_line("1. h2e2 {never closed\nh9g7\n\n", 1);
    assert_eq!(kind, PgnErrorKind::UnterminatedComment);
    let (kind, _) = error_on_line("1. h2e2\n(1... h9g7 *\n", 2);
    assert_eq!(kind, PgnErrorKind::UnterminatedVariation);
    let (kind, _) = error_on_line("1. h2e2 h9g7 )\n", 1);
    assert_eq!(kind, PgnErrorKind::Unmatched(')'));
    let (kind, _) = error_on_line("1. h2e2 }\n", 1);
    assert_eq!(kind, PgnErrorKind::Unmatched('}'));
    let (kind, _) = error_on_line("[Format \"SAN\"]\n", 1);
    assert_eq!(kind, PgnErrorKind::UnknownFormat("SAN".into()));
    let (kind, _) = error_on_line("[Result \"win\"]\n", 1);
    assert_eq!(kind, PgnErrorKind::BadResult("win".into()));
    let (kind, msg) = error_on_line("[Event \"x\"]\n[FEN \"9/9 w\"]\n1. h2e2\n", 2);
    assert!(matches!(kind, PgnErrorKind::BadFen(_)), "{msg}");
    assert!(msg.contains("9/9 w"), "{msg}");
    let (kind, _) = error_on_line("[Result \"1-0\"]\n1. h2e2 h9g7\n0-1\n", 3);
    assert!(matches!(kind, PgnErrorKind::ResultMismatch { .. }));
    let (kind, _) = error_on_line("1. h2e2 h9g7 1-0\n2. b0c2\n", 2);
    assert_eq!(kind, PgnErrorKind::AfterResult("2.".into()));
}

#[test]
fn write_rejects_bad_records() {
    let r = record("not a fen", vec![], "*");
    assert!(matches!(
        write_pgn(&r, Notation::Wxf),
        Err(NotationError::Fen { .. })
    ));
    let r = record(START_FEN, moves("h2e2 h2e2"), "*");
    let err = write_pgn(&r, Notation::Iccs).unwrap_err();
    assert!(err.to_string().contains("h2e2"), "{err}");
    let r = record(START_FEN, vec![], "win");
    assert_eq!(
        write_pgn(&r, Notation::Iccs),
        Err(NotationError::BadResult("win".into()))
    );
}

#[test]
fn reading_never_panics_on_junk() {
    let samples = [
        "[",
        "]",
        "[]",
        "[A \"\\",
        "{",
        "}",
        "(",
        ")",
        ";",
        "$",
        "1.",
        "1...",
        "1-0 1-0",
        "[FEN \"\"]\n1. h2e2",
        "\u{0}\u{feff}",
        "33.4 ++.4 前兵",
        "[Format \"WXF\"]\n33.4",
    ];
    for s in samples {
        let _ = read_pgn(s);
    }
}

#[test]
fn reading_random_pgn_fragments_never_panics() {
    use rand::{Rng, SeedableRng};
    let pieces = [
        "[Event \"x\"]",
        "[Format \"WXF\"]",
        "[Format \"Chinese\"]",
        "[FEN \"",
        "\"]",
        "[",
        "]",
        "{",
        "}",
        "(",
        ")",
        ";",
        "\n",
        " ",
        "1.",
        "2...",
        "h2e2",
        "H2-E2",
        "C2.5",
        "H8+7",
        "炮二平五",
        "马８进７",
        "1-0",
        "*",
        "$3",
        "!?",
        "33.4",
        "\\",
        "\"",
        "r",
    ];
    let mut rng = rand_xoshiro::Xoshiro256PlusPlus::seed_from_u64(11);
    for _ in 0..5_000 {
        let n = rng.gen_range(0..16);
        let text: String = (0..n)
            .map(|_| pieces[rng.gen_range(0..pieces.len())])
            .collect();
        if let Ok(games) = read_pgn(&text) {
            for g in games {
                // What was read can be written back.
                write_pgn(&g, Notation::Wxf).unwrap();
            }
        }
    }
}

#[test]
fn annotated_moves_carry_their_comments_and_read_back_unchanged() {
    let rec = record(START_FEN, moves("h2e2 h9g7 h0g2 i9h9"), "*");
    let comments: Vec<String> = vec![
        "+0.35/12 10234 0.051s".into(),
        String::new(),
        "a {brace} inside".into(),
    ];
    for notation in Notation::ALL {
        let text = write_pgn_annotated(&rec, notation, &comments).unwrap();
        assert!(text.contains(" {+0.35/12 10234 0.051s} "), "{text}");
        assert!(text.contains("{a (brace) inside}"), "{text}");
        assert_eq!(text.matches('{').count(), 2, "{text}");
        let back = read_pgn(&text).unwrap();
        assert_eq!(back.len(), 1);
        assert_eq!(back[0].moves, rec.moves);
        assert_eq!(back[0].result, rec.result);
    }
    assert_eq!(
        write_pgn_annotated(&rec, Notation::Iccs, &[]).unwrap(),
        write_pgn(&rec, Notation::Iccs).unwrap()
    );
}

//! Inputs found by the fuzz targets in `fuzz/` (see docs/reliability.md), kept as tests.

use chuhan_engine::notation::Notation;
use chuhan_engine::{chess, read_pgn, write_pgn, Position};

/// Found by `xiangqi_pgn`: a lone carriage return inside a tag value (`str::lines` splits
/// only at `\n`) is read into the value; the writer cannot put a line break in a tag line and
/// writes it as a space. Everything else survives the round trip, and the written text is a
/// fixed point.
#[test]
fn xiangqi_pgn_tag_value_with_a_carriage_return() {
    let text = "[Format \"ICCS\"]\n[Result \"0-1\"]\n1. H2-E2 H9-G7 2. B0-C2 I9-H9 0-1\n\n\
                [Dvent \"t\rv\"]\n1. c3c4 *\n";
    let games = read_pgn(text).unwrap();
    assert_eq!(games.len(), 2);
    assert_eq!(games[1].tag("Dvent"), Some("t\rv"));
    for n in Notation::ALL {
        let written = write_pgn(&games[1], n).unwrap();
        let back = read_pgn(&written).unwrap();
        assert_eq!(back.len(), 1, "{written}");
        assert_eq!(back[0].tag("Dvent"), Some("t v"), "{written}");
        assert_eq!(back[0].moves, games[1].moves);
        assert_eq!(back[0].start_fen, games[1].start_fen);
        assert_eq!(back[0].result, games[1].result);
        assert_eq!(write_pgn(&back[0], n).unwrap(), written);
    }
}

/// Found by `chess_pgn`: the same for a chess tag value holding a carriage return (and
/// control characters, which are kept as they are).
#[test]
fn chess_pgn_tag_value_with_a_carriage_return() {
    let text = "[SetUp \"1\"]\n[E \"\u{1}8NF\0RtY/4K3\r\0/2-1/2\"]\n *\n";
    let games = chess::read_pgn(text).unwrap();
    assert_eq!(games.len(), 1);
    assert_eq!(games[0].tag("E"), Some("\u{1}8NF\0RtY/4K3\r\0/2-1/2"));
    let written = chess::write_pgn(&games[0]).unwrap();
    let back = chess::read_pgn(&written).unwrap();
    assert_eq!(back.len(), 1, "{written}");
    assert_eq!(back[0].tag("E"), Some("\u{1}8NF\0RtY/4K3 \0/2-1/2"));
    assert_eq!(back[0].moves, games[0].moves);
    assert_eq!(back[0].start_fen, games[0].start_fen);
    assert_eq!(back[0].result, games[0].result);
    assert_eq!(chess::write_pgn(&back[0]).unwrap(), written);
}

/// Found by `chess_pgn` in the campaign: a carriage return between the fields of a `FEN` tag.
/// The FEN reads (CR is whitespace between fields) and is kept as written; the writer puts a
/// space there, so the start FEN text read back differs while the start position is the same.
#[test]
fn chess_pgn_fen_tag_with_a_carriage_return() {
    let text = "[SetUp \"1\"]\n[FEN \"4k3/Q7/8/8/8/8/8/4K3 w \r- - 0 1\"]\n[SetUp \"1\"]\n";
    let games = chess::read_pgn(text).unwrap();
    assert_eq!(games.len(), 1);
    assert_eq!(games[0].start_fen, "4k3/Q7/8/8/8/8/8/4K3 w \r- - 0 1");
    let written = chess::write_pgn(&games[0]).unwrap();
    let back = chess::read_pgn(&written).unwrap();
    assert_eq!(back.len(), 1, "{written}");
    assert_eq!(back[0].start_fen, "4k3/Q7/8/8/8/8/8/4K3 w  - - 0 1");
    assert_eq!(
        chess::Position::from_fen(&back[0].start_fen).unwrap(),
        chess::Position::from_fen(&games[0].start_fen).unwrap()
    );
    assert_eq!(chess::write_pgn(&back[0]).unwrap(), written);
}

/// The same input shape for xiangqi: the start position survives, the FEN text comes back
/// with a space for the carriage return.
#[test]
fn xiangqi_pgn_fen_tag_with_a_carriage_return() {
    let text = "[FEN \"4k4/9/9/9/R8/9/9/9/5R3/3K5 w \r- - 0 1\"]\n\n1. a5e5 1-0\n";
    let games = read_pgn(text).unwrap();
    assert_eq!(games.len(), 1);
    for n in Notation::ALL {
        let written = write_pgn(&games[0], n).unwrap();
        let back = read_pgn(&written).unwrap();
        assert_eq!(back.len(), 1, "{written}");
        assert_eq!(
            back[0].start_fen,
            games[0].start_fen.replace('\r', " "),
            "{written}"
        );
        assert_eq!(
            Position::from_fen(&back[0].start_fen).unwrap(),
            Position::from_fen(&games[0].start_fen).unwrap()
        );
        assert_eq!(back[0].moves, games[0].moves);
        assert_eq!(write_pgn(&back[0], n).unwrap(), written);
    }
}

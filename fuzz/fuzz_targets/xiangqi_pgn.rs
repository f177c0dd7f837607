//! Xiangqi PGN on arbitrary text.
//!
//! Properties: every game read has legal moves from a valid start; writing it (in every
//! notation) succeeds and reads back to one game with the same start position, moves, result
//! and tag values (CR and LF in a value, the FEN's included, written as spaces); writing that
//! again gives the same text.
#![no_main]

use chuhan_engine::notation::Notation;
use chuhan_engine::{read_pgn, write_pgn, Position};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let Ok(games) = read_pgn(text) else {
        return;
    };
    for game in &games {
        let mut pos = Position::from_fen(&game.start_fen).expect("a read start FEN is valid");
        for &mv in &game.moves {
            assert!(pos.is_legal(mv), "read an illegal move {mv}");
            pos.make(mv);
        }
        for n in Notation::ALL {
            let written = write_pgn(game, n).expect("a read game writes");
            let again = read_pgn(&written).unwrap_or_else(|e| panic!("{e}\n{written}"));
            assert_eq!(again.len(), 1, "one game written, read as {}", again.len());
            let back = &again[0];
            // The same start position; the FEN text too, but for CR/LF written as spaces.
            let start = Position::from_fen(&back.start_fen).expect("a written start FEN is valid");
            assert_eq!(
                start,
                Position::from_fen(&game.start_fen).unwrap(),
                "start of\n{written}"
            );
            let fen = game.start_fen.replace(['\r', '\n'], " ");
            assert_eq!(back.start_fen, fen, "start FEN of\n{written}");
            assert_eq!(back.moves, game.moves, "moves of\n{written}");
            assert_eq!(back.result, game.result, "result of\n{written}");
            for (name, _) in &game.tags {
                // A tag line cannot hold a line break: the writer turns CR and LF into spaces.
                let value = game.tag(name).map(|v| v.replace(['\r', '\n'], " "));
                assert_eq!(back.tag(name), value.as_deref(), "tag {name} of\n{written}");
            }
            assert_eq!(write_pgn(back, n).as_ref(), Ok(&written), "write is stable");
        }
    }
});

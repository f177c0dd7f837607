//! Chess move text (UCI and SAN) on arbitrary text in a legal position (the first input byte
//! picks one of the perft suite's positions).
//!
//! Properties: every successful parse is a legal move; it renders back (UCI and SAN) to
//! text that reads as the same move; `to_san` leaves the position as it was.
#![no_main]

use chuhan_engine::chess::{Move, Position};
use chuhan_fuzz::{chess_positions, pick};
use libfuzzer_sys::fuzz_target;

fn round_trip(pos: &mut Position, mv: Move, text: &str) {
    assert!(pos.is_legal(mv), "{text:?} read as an illegal move");
    let uci = mv.to_uci();
    assert_eq!(pos.parse_uci(&uci), Ok(mv), "UCI {uci:?} of {text:?}");
    let before = pos.clone();
    let san = pos.to_san(mv).expect("a legal move has SAN");
    assert!(*pos == before, "to_san changed the position");
    assert_eq!(pos.parse_san(&san), Ok(mv), "SAN {san:?} of {text:?}");
}

fuzz_target!(|data: &[u8]| {
    let (mut pos, text) = pick(data, chess_positions());
    if let Ok(mv) = pos.parse_uci(&text) {
        round_trip(&mut pos, mv, &text);
    }
    if let Ok(mv) = pos.parse_san(&text) {
        round_trip(&mut pos, mv, &text);
    }
});

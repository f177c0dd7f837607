//! Xiangqi move notations (UCI, ICCS, WXF, Chinese, and `parse_any`) on arbitrary text in a
//! legal position (the first input byte picks one of the perft suite's positions).
//!
//! Properties: parsing leaves the position as it was; every successful parse is a legal move;
//! the move rendered back in the same notation parses to the same move (and in every other
//! notation too, including through `parse_any`).
#![no_main]

use chuhan_engine::notation::{parse, parse_any, render, Notation};
use chuhan_engine::{Move, Position};
use chuhan_fuzz::{pick, xiangqi_positions};
use libfuzzer_sys::fuzz_target;

/// Asserts that `mv` is legal and renders, in every notation, to text that reads back to it.
fn round_trip(pos: &mut Position, mv: Move, text: &str, read_as: &str) {
    assert!(pos.is_legal(mv), "{read_as} read {text:?} as illegal {mv}");
    for n in Notation::ALL {
        let rendered = render(pos, mv, n).expect("a legal move renders");
        assert_eq!(
            parse(pos, &rendered, n),
            Ok(mv),
            "{read_as} read {text:?} as {mv}; its {n} text {rendered:?} does not read back"
        );
        assert_eq!(
            parse_any(pos, &rendered),
            Ok(mv),
            "parse_any of {n} text {rendered:?} for {mv}"
        );
    }
}

fuzz_target!(|data: &[u8]| {
    let (mut pos, text) = pick(data, xiangqi_positions());
    let before = pos.clone();
    for n in Notation::ALL {
        if let Ok(mv) = parse(&mut pos, &text, n) {
            assert_eq!(pos, before, "parsing changed the position");
            round_trip(&mut pos, mv, &text, n.name());
        }
        assert_eq!(pos, before, "parsing changed the position");
    }
    if let Ok(mv) = parse_any(&mut pos, &text) {
        round_trip(&mut pos, mv, &text, "parse_any");
    }
    assert_eq!(pos, before, "parsing changed the position");
});

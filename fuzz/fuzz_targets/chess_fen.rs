//! Chess FEN: `Setup::parse` and `Position::from_fen` on arbitrary text.
//!
//! Properties as for xiangqi: what parses renders to a FEN that parses back to the same
//! setup and position; `from_fen` = parse + `from_setup`; an accepted position's legal moves
//! make and unmake cleanly with the incremental key equal to the recomputed one.
#![no_main]

use chuhan_engine::chess::{Position, Setup};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let setup = Setup::parse(text);
    let position = Position::from_fen(text);
    match &setup {
        Ok(s) => {
            let fen = s.to_fen();
            let again = Setup::parse(&fen).expect("a rendered setup parses");
            assert_eq!(&again, s, "setup round trip via {fen:?}");
            assert_eq!(again.to_fen(), fen, "to_fen is stable");
            assert_eq!(
                Position::from_setup(*s).ok(),
                position.clone().ok(),
                "from_fen = parse + from_setup"
            );
        }
        Err(_) => assert!(
            position.is_err(),
            "from_fen accepted what Setup::parse refused"
        ),
    }
    if let Ok(mut pos) = position {
        let fen = pos.to_fen();
        let again = Position::from_fen(&fen).expect("a rendered position parses");
        assert!(again == pos, "position round trip via {fen:?}");
        assert_eq!(again.to_fen(), fen);
        assert_eq!(pos.key(), pos.compute_key());
        let before = pos.clone();
        for &mv in pos.legal_moves().iter() {
            pos.make(mv);
            assert_eq!(pos.key(), pos.compute_key(), "incremental key after {mv:?}");
            pos.unmake();
        }
        assert!(pos == before, "make/unmake restores {fen}");
    }
});

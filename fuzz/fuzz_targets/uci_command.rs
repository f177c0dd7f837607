//! `chuhan uci`'s input: arbitrary bytes through the line reader and the command tokenizer of
//! `chuhan_arena::engines::uci_front`, then `setoption`, `position` and `go` as the xiangqi
//! session reads them.
//!
//! Properties: the reader returns one line per line end (plus a last unterminated one), each
//! within the cap; a command written back by its `Display` tokenizes to the same command; `go`
//! limits are sane for both sides (depth 1..=100, nodes >= 1, soft time <= hard time, hard
//! time >= 1 ms); an accepted option is in range; an accepted position is a legal one whose
//! FEN reads back.
#![no_main]

use chuhan_arena::engines::uci_front::{
    parse_command, parse_go, read_capped_line, xiangqi_option, xiangqi_position, Command,
    XiangqiOption,
};
use chuhan_engine::search::tt::MAX_TT_MB;
use chuhan_engine::Position;
use libfuzzer_sys::fuzz_target;
use std::io::BufReader;

fuzz_target!(|data: &[u8]| {
    // The first byte picks the cap: small caps reach the truncation paths.
    let (first, bytes) = data.split_first().map_or((0, &[][..]), |(f, r)| (*f, r));
    let cap = if first & 1 == 0 {
        chuhan_arena::engines::uci_front::MAX_LINE_BYTES
    } else {
        usize::from(first >> 1) + 1
    };
    let mut reader = BufReader::with_capacity(5, bytes);
    let mut lines = 0usize;
    while let Some(line) = read_capped_line(&mut reader, cap).expect("a slice reads") {
        lines += 1;
        // A kept byte decodes to at most 3 bytes (U+FFFD).
        assert!(line.text.len() <= 3 * cap, "line over the cap");
        assert!(!line.text.contains('\n'));
        if line.dropped > 0 || line.invalid_utf8 {
            continue; // the session names and skips such a line
        }
        check_command(&line.text);
    }
    let ends = bytes.iter().filter(|&&b| b == b'\n').count();
    let tail = usize::from(!bytes.is_empty() && bytes.last() != Some(&b'\n'));
    assert_eq!(lines, ends + tail, "lines lost or invented");
});

fn check_command(text: &str) {
    let Some(parsed) = parse_command(text) else {
        assert!(text.trim().is_empty());
        return;
    };
    let Ok(command) = parsed else { return };
    let written = command.to_string();
    assert_eq!(
        parse_command(&written),
        Some(Ok(command.clone())),
        "{command:?} written as {written:?}"
    );
    match &command {
        Command::Go(words) => {
            for red in [true, false] {
                let Ok(limits) = parse_go(words, red) else {
                    continue;
                };
                if let Some(d) = limits.depth {
                    assert!((1..=100).contains(&d));
                }
                assert!(limits.nodes.map_or(true, |n| n >= 1));
                if let (Some(soft), Some(hard)) = (limits.soft_time, limits.hard_time) {
                    assert!(soft <= hard, "soft {soft:?} above hard {hard:?}");
                }
                assert_eq!(limits.soft_time.is_some(), limits.hard_time.is_some());
                assert!(limits.hard_time.map_or(true, |h| h.as_millis() >= 1));
            }
        }
        Command::SetOption { name, value } => {
            let levels = chuhan_fuzz::levels();
            if let Ok(option) = xiangqi_option(name, value.as_deref(), levels) {
                match option {
                    XiangqiOption::Hash(mb) => assert!((1..=MAX_TT_MB).contains(&mb)),
                    XiangqiOption::Threads(n) => {
                        assert!((1..=chuhan_engine::search::smp::MAX_THREADS).contains(&n))
                    }
                    XiangqiOption::Param(name, n) => {
                        let mut params = chuhan_engine::Params::default();
                        params
                            .set(&name, n)
                            .expect("an accepted parameter is in range");
                    }
                    XiangqiOption::Level(Some(level)) => {
                        assert!(levels.iter().any(|l| *l == level))
                    }
                    _ => {}
                }
            }
        }
        Command::Position { fen, moves } => {
            if let Ok(pos) = xiangqi_position(fen.as_deref(), moves) {
                assert_eq!(pos.ply_count(), moves.len());
                let again =
                    Position::from_fen(&pos.to_fen()).expect("a reached position's FEN reads");
                assert_eq!(again.to_fen(), pos.to_fen());
                assert_eq!(pos.key(), pos.compute_key());
            }
        }
        _ => {}
    }
}

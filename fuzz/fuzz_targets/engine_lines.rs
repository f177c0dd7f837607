//! What an external engine prints, as the arena reads it: arbitrary bytes through the capped
//! line reader, each line as an `info` line (`SearchReport::update`), an `option` declaration
//! (UCI and UCCI forms) and a `bestmove` word in both coordinate conventions.
//!
//! Properties: one line per line end (nothing lost), each within the cap; `info string` and
//! lines other than `info` leave the report unchanged; a declared option has a name without
//! surrounding blanks; a move read is written back to text that reads to the same move.
#![no_main]

use chuhan_arena::play::player::lines::{read_capped_line, MAX_LINE_BYTES};
use chuhan_arena::play::player::uci::{declared_option, Coordinates, Protocol, SearchReport};
use libfuzzer_sys::fuzz_target;
use std::io::BufReader;

fuzz_target!(|data: &[u8]| {
    let (first, bytes) = data.split_first().map_or((0, &[][..]), |(f, r)| (*f, r));
    let protocol = if first & 1 == 0 {
        Protocol::Uci
    } else {
        Protocol::Ucci
    };
    let cap = if first & 2 == 0 {
        MAX_LINE_BYTES
    } else {
        usize::from(first >> 2) + 1
    };
    let mut reader = BufReader::with_capacity(7, bytes);
    let mut report = SearchReport::default();
    let mut lines = 0usize;
    while let Some(line) = read_capped_line(&mut reader, cap).expect("a slice reads") {
        lines += 1;
        assert!(line.text.len() <= 3 * cap, "line over the cap");
        assert!(!line.text.contains('\n'));
        let text = &line.text;
        let words: Vec<&str> = text.split_whitespace().collect();
        let before = report;
        report.update(text);
        if words.first() != Some(&"info") || words.get(1) == Some(&"string") {
            assert_eq!(
                report, before,
                "a non-info line changed the report: {text:?}"
            );
        }
        if let Some(option) = declared_option(&words, protocol) {
            assert!(!option.name.is_empty());
            assert_eq!(option.name.trim(), option.name);
            assert!(words.first() == Some(&"option"));
        }
        if let [_, word, ..] = words.as_slice() {
            for coords in [Coordinates::A0, Coordinates::A1] {
                if let Some(mv) = coords.read(word) {
                    let written = coords.write(mv);
                    assert_eq!(coords.read(&written), Some(mv), "{word} -> {written}");
                }
            }
        }
    }
    let ends = bytes.iter().filter(|&&b| b == b'\n').count();
    let tail = usize::from(!bytes.is_empty() && bytes.last() != Some(&b'\n'));
    assert_eq!(lines, ends + tail, "lines lost or invented");
});

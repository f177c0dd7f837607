//! Perft suite files (`FEN ;D1 n ;D2 n ...`, xiangqi and chess) on arbitrary text.
//!
//! Properties: every entry's FEN is a valid position, depths are at least 1, line numbers
//! increase, and the entries written back as suite lines (at their line numbers) parse to
//! the same entries.
#![no_main]

use chuhan_engine::{chess, Position, SuiteEntry};
use libfuzzer_sys::fuzz_target;

/// The entries as suite text, each on its own line number (blank lines in between).
fn render(entries: &[SuiteEntry]) -> String {
    let mut out = String::new();
    let mut line = 1;
    for e in entries {
        while line < e.line {
            out.push('\n');
            line += 1;
        }
        out.push_str(&e.fen);
        for (d, n) in &e.expected {
            out.push_str(&format!(" ;D{d} {n}"));
        }
        out.push('\n');
        line += 1;
    }
    out
}

fn check(
    entries: &[SuiteEntry],
    valid: impl Fn(&str) -> bool,
    reparse: impl Fn(&str) -> Vec<SuiteEntry>,
) {
    let mut last = 0;
    for e in entries {
        assert!(
            valid(&e.fen),
            "line {}: invalid FEN {:?} accepted",
            e.line,
            e.fen
        );
        assert!(e.line > last, "line numbers increase");
        last = e.line;
        assert!(!e.expected.is_empty());
        assert!(e.expected.iter().all(|&(d, _)| d >= 1), "depth 0 accepted");
    }
    let text = render(entries);
    assert_eq!(reparse(&text), entries, "suite round trip via\n{text}");
}

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    if let Ok(entries) = chuhan_engine::parse_suite(text) {
        check(
            &entries,
            |f| Position::from_fen(f).is_ok(),
            |t| chuhan_engine::parse_suite(t).expect("rendered suite parses"),
        );
    }
    if let Ok(entries) = chess::parse_suite(text) {
        check(
            &entries,
            |f| chess::Position::from_fen(f).is_ok(),
            |t| chess::parse_suite(t).expect("rendered suite parses"),
        );
    }
});

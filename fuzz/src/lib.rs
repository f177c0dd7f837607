//! Helpers shared by the fuzz targets: the positions the move parsers are fuzzed in, taken
//! from the engine's perft suites so they cover checks, pins, promotions and castling.

use std::sync::OnceLock;

/// The FENs of an EPD suite (the text before the first `;` of each non-comment line).
fn suite_fens(text: &str) -> Vec<String> {
    text.lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .map(|l| l.split(';').next().unwrap_or("").trim().to_string())
        .collect()
}

/// Legal xiangqi positions (the suite's FENs, all valid).
pub fn xiangqi_positions() -> &'static [chuhan_engine::Position] {
    static POSITIONS: OnceLock<Vec<chuhan_engine::Position>> = OnceLock::new();
    POSITIONS.get_or_init(|| {
        suite_fens(include_str!("../../crates/engine/tests/data/xiangqi.epd"))
            .iter()
            .map(|f| chuhan_engine::Position::from_fen(f).expect("suite FEN is valid"))
            .collect()
    })
}

/// Legal chess positions (the suite's FENs, all valid).
pub fn chess_positions() -> &'static [chuhan_engine::chess::Position] {
    static POSITIONS: OnceLock<Vec<chuhan_engine::chess::Position>> = OnceLock::new();
    POSITIONS.get_or_init(|| {
        suite_fens(include_str!("../../crates/engine/tests/data/chess.epd"))
            .iter()
            .map(|f| chuhan_engine::chess::Position::from_fen(f).expect("suite FEN is valid"))
            .collect()
    })
}

/// Splits a fuzz input into a position index (its first byte) and the rest as text (lossy,
/// so that every input reaches the parser).
pub fn pick<T: Clone>(data: &[u8], items: &[T]) -> (T, String) {
    let (first, rest) = data.split_first().map_or((0, &[][..]), |(f, r)| (*f, r));
    let item = items[usize::from(first) % items.len()].clone();
    (item, String::from_utf8_lossy(rest).into_owned())
}

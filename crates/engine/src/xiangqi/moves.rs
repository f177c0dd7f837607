//! Move text: the error for UCI/UCCI coordinates with ranks 0–9 (`h2e2`) checked against a
//! position (`Position::parse_uci_move`), and explicit conversion to and from Fairy-Stockfish's
//! UCI ranks 1–10 (`h3e3`, `b3b10`).

use super::types::{Move, Square};
use thiserror::Error;

/// Why move text was rejected.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum MoveError {
    /// Not of the form `a0i9`.
    #[error("'{0}' is not a move in a0–i9 coordinates (like h2e2)")]
    Syntax(String),
    /// Well formed but not legal in the position.
    #[error("'{text}' is not a legal move in {fen}")]
    Illegal {
        /// The move text.
        text: String,
        /// The position it was tried in.
        fen: String,
    },
}

fn convert_ranks(text: &str, to_fairy: bool) -> Option<String> {
    let bytes = text.as_bytes();
    let mut out = String::with_capacity(6);
    let mut i = 0;
    let mut squares = 0;
    while i < bytes.len() {
        let file = bytes[i];
        if !(b'a'..=b'i').contains(&file) {
            return None;
        }
        i += 1;
        let start = i;
        while i < bytes.len() && bytes[i].is_ascii_digit() {
            i += 1;
        }
        let rank: u8 = text.get(start..i)?.parse().ok()?;
        let converted = if to_fairy {
            (rank <= 9).then_some(rank + 1)?
        } else {
            (1..=10).contains(&rank).then(|| rank - 1)?
        };
        out.push(file as char);
        out.push_str(&converted.to_string());
        squares += 1;
    }
    (squares == 2).then_some(out)
}

/// Converts Fairy-Stockfish UCI text (ranks 1–10, `b3b10`) to ours (ranks 0–9, `b2b9`).
pub fn from_fairy_uci(text: &str) -> Option<String> {
    convert_ranks(text, false)
}

/// Converts our UCI text (ranks 0–9) to Fairy-Stockfish's (ranks 1–10).
pub fn to_fairy_uci(text: &str) -> Option<String> {
    convert_ranks(text, true)
}

/// Converts a move to Fairy-Stockfish UCI text.
pub fn move_to_fairy(mv: Move) -> String {
    format!(
        "{}{}{}{}",
        (b'a' + mv.from().file()) as char,
        mv.from().rank() + 1,
        (b'a' + mv.to().file()) as char,
        mv.to().rank() + 1
    )
}

/// Parses Fairy-Stockfish UCI text into a move (legality not checked).
pub fn move_from_fairy(text: &str) -> Option<Move> {
    let ours = from_fairy_uci(text)?;
    let from = Square::parse(&ours[0..2])?;
    let to = Square::parse(&ours[2..4])?;
    Some(Move::new(from, to))
}

//! Perft: counts of legal move paths, with bulk counting at the last ply and a divide.

use crate::xiangqi::movegen::{GenKind, MoveList};
use crate::xiangqi::position::Position;
use crate::xiangqi::types::Move;

/// Number of legal move paths of length `depth` from `pos`.
pub fn perft(pos: &mut Position, depth: u32) -> u64 {
    match depth {
        0 => 1,
        1 => pos.count_legal(),
        _ => {
            let mut list = MoveList::new();
            pos.generate_pseudo(GenKind::All, &mut list);
            let mut nodes = 0;
            for &mv in list.iter() {
                if !pos.is_legal_pseudo(mv) {
                    continue;
                }
                pos.make(mv);
                nodes += perft(pos, depth - 1);
                pos.unmake();
            }
            nodes
        }
    }
}

/// Perft split by root move: one `(move, count)` per legal move, in generation order.
pub fn divide(pos: &mut Position, depth: u32) -> Vec<(Move, u64)> {
    let moves = pos.legal_moves();
    moves
        .iter()
        .map(|&mv| {
            if depth == 0 {
                return (mv, 1);
            }
            pos.make(mv);
            let n = perft(pos, depth - 1);
            pos.unmake();
            (mv, n)
        })
        .collect()
}

/// One position of a perft suite: `FEN ;D1 n ;D2 n ...`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SuiteEntry {
    /// 1-based line number in the suite text.
    pub line: usize,
    /// The position.
    pub fen: String,
    /// Expected counts as `(depth, nodes)`, in the order given.
    pub expected: Vec<(u32, u64)>,
}

/// A malformed perft suite line.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("line {line}: {message}")]
pub struct SuiteError {
    /// 1-based line number.
    pub line: usize,
    /// What is wrong.
    pub message: String,
}

/// Parses a perft suite: lines `FEN ;D1 n ;D2 n ...`, `#` comments and blank lines allowed.
/// Every FEN is validated as a xiangqi position, so a bad position is reported with its line.
pub fn parse_suite(text: &str) -> Result<Vec<SuiteEntry>, SuiteError> {
    parse_suite_with(text, |fen| {
        Position::from_fen(fen).map(drop).map_err(|e| e.to_string())
    })
}

/// Parses a perft suite in the shared `FEN ;D1 n ;D2 n ...` format of every game, checking each
/// FEN with `validate` (the game's own FEN parser; its error becomes "bad FEN: ..." on the line).
pub fn parse_suite_with(
    text: &str,
    validate: impl Fn(&str) -> Result<(), String>,
) -> Result<Vec<SuiteEntry>, SuiteError> {
    let mut out = Vec::new();
    for (i, raw) in text.lines().enumerate() {
        let line = i + 1;
        let trimmed = raw.trim();
        if trimmed.is_empty() || trimmed.starts_with('#') {
            continue;
        }
        let err = |message: String| SuiteError { line, message };
        let mut parts = trimmed.split(';');
        let fen = parts.next().unwrap_or_default().trim().to_string();
        validate(&fen).map_err(|e| err(format!("bad FEN: {e}")))?;
        let mut expected = Vec::new();
        for part in parts {
            let part = part.trim();
            if part.is_empty() {
                continue;
            }
            let mut it = part.split_whitespace();
            let (Some(d), Some(n), None) = (it.next(), it.next(), it.next()) else {
                return Err(err(format!(
                    "'{part}' is not of the form 'D<depth> <count>'"
                )));
            };
            let depth = d
                .strip_prefix('D')
                .and_then(|x| x.parse::<u32>().ok())
                .filter(|&x| x >= 1)
                .ok_or_else(|| err(format!("'{d}' is not a depth like D1")))?;
            let nodes = n
                .parse::<u64>()
                .map_err(|_| err(format!("'{n}' is not a node count")))?;
            expected.push((depth, nodes));
        }
        if expected.is_empty() {
            return Err(err("no ';D<depth> <count>' entries".to_string()));
        }
        out.push(SuiteEntry {
            line,
            fen,
            expected,
        });
    }
    Ok(out)
}

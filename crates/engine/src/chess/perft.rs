//! Chess perft: counts of legal move paths, with bulk counting at the last ply, and a divide.
//! Suites use the same `FEN ;D1 n ;D2 n ...` format as xiangqi's
//! ([`crate::perft::parse_suite`] parses the lines; [`parse_suite`] here validates the FENs
//! as chess positions).

use super::movegen::MoveList;
use super::position::Position;
use super::types::Move;
use crate::perft::{SuiteEntry, SuiteError};

/// Number of legal move paths of length `depth` from `pos`.
pub fn perft(pos: &mut Position, depth: u32) -> u64 {
    match depth {
        0 => 1,
        1 => pos.count_legal(),
        _ => {
            let mut list = MoveList::new();
            pos.generate_legal(&mut list);
            let mut nodes = 0;
            for &mv in list.iter() {
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

/// Parses a chess perft suite: lines `FEN ;D1 n ;D2 n ...`, `#` comments and blank lines
/// allowed. Every FEN is validated as a chess position, so a bad one is reported with its
/// line.
pub fn parse_suite(text: &str) -> Result<Vec<SuiteEntry>, SuiteError> {
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
        Position::from_fen(&fen).map_err(|e| err(format!("bad FEN: {e}")))?;
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn start_position_shallow() {
        let mut pos = Position::startpos();
        assert_eq!(perft(&mut pos, 1), 20);
        assert_eq!(perft(&mut pos, 2), 400);
        assert_eq!(perft(&mut pos, 3), 8_902);
        let d = divide(&mut pos, 2);
        assert_eq!(d.len(), 20);
        assert_eq!(d.iter().map(|&(_, n)| n).sum::<u64>(), 400);
    }

    #[test]
    fn suite_errors_name_the_line() {
        let e = parse_suite("# c\n\n8/8/8/8/8/8/8/8 w - - ;D1 1\n").unwrap_err();
        assert_eq!(e.line, 3);
        assert!(e.message.contains("kings"), "{e}");
    }
}

//! Chess perft: counts of legal move paths, with bulk counting at the last ply, and a divide.
//! Suites use the same `FEN ;D1 n ;D2 n ...` format as xiangqi's
//! ([`crate::perft::parse_suite_with`] parses the lines; [`parse_suite`] here validates the FENs
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
    crate::perft::parse_suite_with(text, |fen| {
        Position::from_fen(fen).map(drop).map_err(|e| e.to_string())
    })
}

/// Parses a Chess960 perft suite: as [`parse_suite`], every FEN read with
/// [`Position::from_fen_chess960`].
pub fn parse_suite_chess960(text: &str) -> Result<Vec<SuiteEntry>, SuiteError> {
    crate::perft::parse_suite_with(text, |fen| {
        Position::from_fen_chess960(fen)
            .map(drop)
            .map_err(|e| e.to_string())
    })
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

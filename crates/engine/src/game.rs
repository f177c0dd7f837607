//! The rules both games share behind one small trait, so that code which only needs a
//! position, its legal moves and perft (the perft command today; the arena's runner next) is
//! written once for xiangqi and chess.

use crate::perft::{SuiteEntry, SuiteError};
use std::fmt::Display;

/// One game's rules: positions from FEN, legal moves, make, perft.
pub trait Rules {
    /// A position with its move history.
    type Position: Clone + Send + Sync;
    /// A move (its `Display` is the game's UCI text).
    type Move: Copy + Eq + Display + Send + Sync;
    /// Why a FEN was refused.
    type FenError: Display;
    /// The game's name as commands spell it (`xiangqi`, `chess`).
    const NAME: &'static str;

    /// The position a FEN describes.
    fn from_fen(fen: &str) -> Result<Self::Position, Self::FenError>;
    /// Every legal move, in the generator's order.
    fn legal_moves(pos: &Self::Position) -> Vec<Self::Move>;
    /// Plays a legal move.
    fn make(pos: &mut Self::Position, mv: Self::Move);
    /// Legal move paths of `depth` plies.
    fn perft(pos: &mut Self::Position, depth: u32) -> u64;
    /// Per root move, the paths of `depth - 1` plies after it.
    fn divide(pos: &mut Self::Position, depth: u32) -> Vec<(Self::Move, u64)>;
    /// A perft suite (`FEN ;D1 n ;D2 n ...`), every FEN checked by this game's rules.
    fn parse_suite(text: &str) -> Result<Vec<SuiteEntry>, SuiteError>;
}

/// Xiangqi (Chinese chess).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Xiangqi;

/// Chess.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Chess;

impl Rules for Xiangqi {
    type Position = crate::xiangqi::position::Position;
    type Move = crate::xiangqi::types::Move;
    type FenError = crate::xiangqi::position::FromFenError;
    const NAME: &'static str = "xiangqi";

    fn from_fen(fen: &str) -> Result<Self::Position, Self::FenError> {
        Self::Position::from_fen(fen)
    }
    fn legal_moves(pos: &Self::Position) -> Vec<Self::Move> {
        pos.clone().legal_moves().iter().copied().collect()
    }
    fn make(pos: &mut Self::Position, mv: Self::Move) {
        pos.make(mv)
    }
    fn perft(pos: &mut Self::Position, depth: u32) -> u64 {
        crate::perft::perft(pos, depth)
    }
    fn divide(pos: &mut Self::Position, depth: u32) -> Vec<(Self::Move, u64)> {
        crate::perft::divide(pos, depth)
    }
    fn parse_suite(text: &str) -> Result<Vec<SuiteEntry>, SuiteError> {
        crate::perft::parse_suite(text)
    }
}

impl Rules for Chess {
    type Position = crate::chess::position::Position;
    type Move = crate::chess::types::Move;
    type FenError = crate::chess::position::FromFenError;
    const NAME: &'static str = "chess";

    fn from_fen(fen: &str) -> Result<Self::Position, Self::FenError> {
        Self::Position::from_fen(fen)
    }
    fn legal_moves(pos: &Self::Position) -> Vec<Self::Move> {
        pos.legal_moves().iter().copied().collect()
    }
    fn make(pos: &mut Self::Position, mv: Self::Move) {
        pos.make(mv)
    }
    fn perft(pos: &mut Self::Position, depth: u32) -> u64 {
        crate::chess::perft::perft(pos, depth)
    }
    fn divide(pos: &mut Self::Position, depth: u32) -> Vec<(Self::Move, u64)> {
        crate::chess::perft::divide(pos, depth)
    }
    fn parse_suite(text: &str) -> Result<Vec<SuiteEntry>, SuiteError> {
        crate::chess::perft::parse_suite(text)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn start_counts<R: Rules>(fen: &str) -> Vec<u64> {
        let mut pos = R::from_fen(fen).ok().expect("a valid FEN");
        (1..=3).map(|d| R::perft(&mut pos, d)).collect()
    }

    #[test]
    fn both_games_count_through_the_trait() {
        assert_eq!(
            start_counts::<Xiangqi>(crate::START_FEN),
            vec![44, 1_920, 79_666]
        );
        assert_eq!(
            start_counts::<Chess>(crate::chess::START_FEN),
            vec![20, 400, 8_902]
        );
        let mut pos = Chess::from_fen(crate::chess::START_FEN).ok().unwrap();
        let parts = Chess::divide(&mut pos, 2);
        assert_eq!(parts.len(), Chess::legal_moves(&pos).len());
        assert_eq!(parts.iter().map(|p| p.1).sum::<u64>(), 400);
        assert!(Chess::from_fen("8/8/8 w - - 0 1").is_err());
        assert!(Xiangqi::parse_suite(
            "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1 ;D1 44"
        )
        .is_ok());
    }
}

//! What the engine jobs ([`perft`](super::perft) and [`check`](super::check)) need of a game's
//! rules, for xiangqi and chess alike: positions from and to FEN, legal moves, the divide, and
//! moves as the engine writes them. The two implementations are the engine crate's
//! [`Xiangqi`] and [`Chess`] markers.

use crate::play::player::uci::Coordinates;
pub use chuhan_engine::game::{Chess, Xiangqi};
use chuhan_engine::{chess, Move, Position};
use std::fmt::Display;
use std::hash::Hash;

/// One game's rules as the engine jobs use them.
pub trait EngineGame {
    /// A position with its history.
    type Position: Clone;
    /// A move; its `Display` is our UCI text (xiangqi ranks 0-9).
    type Move: Copy + Eq + Hash + Display;

    /// The game's name (`xiangqi`, `chess`).
    const NAME: &'static str;
    /// The start position.
    const START_FEN: &'static str;
    /// A middlegame with every kind of move, for the time and perft checks.
    const MIDDLEGAME_FEN: &'static str;
    /// Two opening moves from the start, in our UCI text.
    const OPENING: [&'static str; 2];

    /// The position of `fen` (the checks' own positions and validated input only).
    fn from_fen(fen: &str) -> Option<Self::Position>;
    /// The position's FEN, as the engine is sent it.
    fn to_fen(pos: &Self::Position) -> String;
    /// Our UCI text of a legal move of `pos`.
    fn parse_ours(pos: &Self::Position, text: &str) -> Option<Self::Move>;
    /// Plays a legal move.
    fn make(pos: &mut Self::Position, mv: Self::Move);
    /// Whether `mv` is legal in `pos`.
    fn is_legal(pos: &Self::Position, mv: Self::Move) -> bool;
    /// Whether the side to move has a legal move.
    fn has_legal_move(pos: &Self::Position) -> bool;
    /// Per legal root move, the paths of `depth - 1` plies after it.
    fn divide(pos: &Self::Position, depth: u32) -> Vec<(Self::Move, u64)>;
    /// A move as the engine writes it, legal in `pos` or not (so an engine's extra move can be
    /// named); `None` when the text is no move of this game in those coordinates.
    fn read(pos: &Self::Position, text: &str, coords: Coordinates) -> Option<Self::Move>;
    /// A move as the engine reads it.
    fn write(mv: Self::Move, coords: Coordinates) -> String;
    /// How [`EngineGame::read`]'s moves look, for messages.
    fn move_form(coords: Coordinates) -> String;
}

impl EngineGame for Xiangqi {
    type Position = Position;
    type Move = Move;
    const NAME: &'static str = "xiangqi";
    const START_FEN: &'static str = chuhan_engine::START_FEN;
    const MIDDLEGAME_FEN: &'static str = chuhan_engine::bench::BENCH_FENS[3];
    const OPENING: [&'static str; 2] = ["h2e2", "h9g7"];

    fn from_fen(fen: &str) -> Option<Position> {
        Position::from_fen(fen).ok()
    }
    fn to_fen(pos: &Position) -> String {
        pos.to_fen()
    }
    fn parse_ours(pos: &Position, text: &str) -> Option<Move> {
        Move::parse_uci(text).filter(|&m| pos.clone().is_legal(m))
    }
    fn make(pos: &mut Position, mv: Move) {
        pos.make(mv)
    }
    fn is_legal(pos: &Position, mv: Move) -> bool {
        pos.clone().is_legal(mv)
    }
    fn has_legal_move(pos: &Position) -> bool {
        pos.clone().has_legal_move()
    }
    fn divide(pos: &Position, depth: u32) -> Vec<(Move, u64)> {
        chuhan_engine::divide(&mut pos.clone(), depth)
    }
    fn read(_: &Position, text: &str, coords: Coordinates) -> Option<Move> {
        coords.read(text)
    }
    fn write(mv: Move, coords: Coordinates) -> String {
        coords.write(mv)
    }
    fn move_form(coords: Coordinates) -> String {
        let name = match coords {
            Coordinates::A0 => "a0",
            Coordinates::A1 => "a1",
        };
        format!("a move in {name} coordinates (the engine file's `coordinates`)")
    }
}

impl EngineGame for Chess {
    type Position = chess::Position;
    type Move = chess::Move;
    const NAME: &'static str = "chess";
    const START_FEN: &'static str = chess::START_FEN;
    /// Kiwipete: castling both ways, en passant, promotions near, pins.
    const MIDDLEGAME_FEN: &'static str = chess::bench::BENCH_FENS[2];
    const OPENING: [&'static str; 2] = ["e2e4", "e7e5"];

    fn from_fen(fen: &str) -> Option<chess::Position> {
        chess::Position::from_fen(fen).ok()
    }
    fn to_fen(pos: &chess::Position) -> String {
        pos.to_fen()
    }
    fn parse_ours(pos: &chess::Position, text: &str) -> Option<chess::Move> {
        pos.parse_uci(text).ok()
    }
    fn make(pos: &mut chess::Position, mv: chess::Move) {
        pos.make(mv)
    }
    fn is_legal(pos: &chess::Position, mv: chess::Move) -> bool {
        pos.is_legal(mv)
    }
    fn has_legal_move(pos: &chess::Position) -> bool {
        pos.has_legal_move()
    }
    fn divide(pos: &chess::Position, depth: u32) -> Vec<(chess::Move, u64)> {
        chess::divide(&mut pos.clone(), depth)
    }
    /// The legal move with this text; else the plain move (or promotion) the text spells, which
    /// writes back as the same text.
    fn read(pos: &chess::Position, text: &str, _: Coordinates) -> Option<chess::Move> {
        if let Ok(mv) = pos.parse_uci(text) {
            return Some(mv);
        }
        if !text.is_ascii() || !(4..=5).contains(&text.len()) {
            return None;
        }
        let from = chess::Square::parse(&text[0..2])?;
        let to = chess::Square::parse(&text[2..4])?;
        let kind = match text.as_bytes().get(4) {
            None => chess::MoveKind::Normal,
            Some(&c) => chess::MoveKind::Promotion(
                chess::PieceKind::from_upper(c.to_ascii_uppercase() as char)
                    .filter(|k| chess::PieceKind::PROMOTIONS.contains(k))?,
            ),
        };
        Some(chess::Move::with_kind(from, to, kind)).filter(|m| m.to_uci() == text)
    }
    fn write(mv: chess::Move, _: Coordinates) -> String {
        mv.to_uci()
    }
    fn move_form(_: Coordinates) -> String {
        "a chess move in UCI (like e2e4 or e7e8q)".into()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn chess_moves_read_as_written_legal_or_not() {
        let pos = chess::Position::startpos();
        let e4 = Chess::read(&pos, "e2e4", Coordinates::A0).unwrap();
        assert!(Chess::is_legal(&pos, e4));
        let bad = Chess::read(&pos, "e2e5", Coordinates::A0).unwrap();
        assert!(!Chess::is_legal(&pos, bad));
        assert_eq!(bad.to_uci(), "e2e5");
        let promo = Chess::read(&pos, "a7a8q", Coordinates::A0).unwrap();
        assert_eq!(Chess::write(promo, Coordinates::A0), "a7a8q");
        assert_eq!(Chess::read(&pos, "a7a8k", Coordinates::A0), None);
        assert_eq!(Chess::read(&pos, "h2e9", Coordinates::A0), None);
        assert_eq!(Chess::read(&pos, "e1g", Coordinates::A0), None);
        // Castling is the legal move of that text (its kind), not a plain king move.
        let fen = "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1";
        let pos = chess::Position::from_fen(fen).unwrap();
        let castle = Chess::read(&pos, "e1g1", Coordinates::A0).unwrap();
        assert!(Chess::is_legal(&pos, castle));
        assert_eq!(Chess::divide(&pos, 1).len(), 26);
        assert!(Chess::divide(&pos, 1).iter().any(|&(m, _)| m == castle));
    }

    #[test]
    fn the_checks_positions_are_valid_and_the_openings_legal() {
        fn check<G: EngineGame>() {
            for fen in [G::START_FEN, G::MIDDLEGAME_FEN] {
                let pos = G::from_fen(fen).expect("a valid FEN");
                assert!(G::has_legal_move(&pos));
            }
            let mut pos = G::from_fen(G::START_FEN).unwrap();
            for text in G::OPENING {
                let mv = G::parse_ours(&pos, text).expect("a legal opening move");
                G::make(&mut pos, mv);
            }
        }
        check::<Xiangqi>();
        check::<Chess>();
    }
}

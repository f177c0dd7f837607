//! Chess rules: types, compile-time tables, setups and FEN, positions (bitboards beside a
//! mailbox, legal move generation, make/unmake, Zobrist keys), UCI and SAN move text, perft,
//! the game judge, and an engine: evaluation, search, levels and a bench signature.
//!
//! ```
//! use chuhan_engine::chess::{perft, Position};
//! let mut pos = Position::startpos();
//! assert_eq!(perft(&mut pos, 3), 8_902);
//! ```

pub mod bench;
pub mod engine;
pub mod eval;
pub mod fen;
pub mod movegen;
pub mod notation;
pub mod perft;
pub mod pgn;
pub mod position;
pub mod rules;
pub mod search;
pub mod setup;
pub mod tables;
pub mod types;

pub use engine::{ChessConfig, ChessEngine};
pub use eval::EvalParams;
pub use fen::{FenError, START_FEN};
pub use movegen::{MoveList, MAX_MOVES};
pub use notation::{MoveError, SanError};
pub use perft::{divide, parse_suite, parse_suite_chess960, perft};
pub use pgn::{read_pgn, write_pgn, GameRecord, PgnError, PgnErrorKind, PgnWriteError};
pub use position::{FromFenError, Position, StateInfo};
pub use rules::{judge, Game, GameResult, IllegalMove, Termination, Verdict, FIFTY_MOVE_PLIES};
pub use setup::{PositionError, Setup};
pub use types::{Bitboard, Castling, Color, Move, MoveKind, Piece, PieceKind, Square};

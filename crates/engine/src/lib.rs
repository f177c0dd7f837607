//! # chuhan-engine
//!
//! A fast, rules-exact xiangqi (Chinese chess) engine: a 90-point board with one-byte pieces,
//! geometry precomputed at compile time, legality by make + "is my general attacked",
//! incremental Zobrist hashing, and stacks that serve repetition detection.
//!
//! The [`chess`] module holds the rules of international chess (bitboards, legal move
//! generation exact to perft, FEN, UCI and SAN, the game judge) for the same harness.
//!
//! The crate does no I/O and never prints.
//!
//! ```
//! use chuhan_engine::{perft, Position};
//! let mut pos = Position::startpos();
//! assert_eq!(perft(&mut pos, 2), 1920);
//! ```
#![forbid(unsafe_code)]

pub mod bench;
pub mod chess;
pub mod engine;
pub mod eval;
pub mod game;
pub mod level;
pub mod move_list;
pub mod params;
pub mod perft;
pub mod search;
pub mod text;
pub mod xiangqi;

pub use engine::{Engine, EngineConfig};
pub use level::{Level, SKILL_MAX};
pub use params::{ParamDef, ParamError, Params};
pub use perft::{divide, parse_suite, perft, SuiteEntry, SuiteError};
pub use search::{Limits, SearchInfo, SearchOptions, SearchResult, Searcher};
pub use xiangqi::fen::{FenError, START_FEN};
pub use xiangqi::movegen::{GenKind, MoveList, MAX_MOVES};
pub use xiangqi::moves::{from_fairy_uci, move_from_fairy, move_to_fairy, to_fairy_uci, MoveError};
pub use xiangqi::notation::{Notation, NotationError};
pub use xiangqi::pgn::{
    read_pgn, write_pgn, write_pgn_annotated, GameRecord, PgnError, PgnErrorKind,
};
pub use xiangqi::position::{FromFenError, Position, StateInfo};
pub use xiangqi::rules::{
    cycle_outcome, repetition_ruling, Game, GameConfig, GameResult, IllegalMove, RepetitionOutcome,
    RepetitionRuling, RuleSet, Termination, UnknownRuleSet, UnknownTermination, Verdict,
};
pub use xiangqi::setup::{PositionError, Setup};
pub use xiangqi::types::{Color, Move, Piece, PieceKind, Square, SQUARE_COUNT};
pub use xiangqi::{notation, pgn};

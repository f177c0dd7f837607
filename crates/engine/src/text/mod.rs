//! The text formats both games share, written once: PGN ([`pgn`]: the lexer, the reader of
//! game records and the game-independent part of writing them). Each game keeps only what is
//! its own: its move notations and its own tags.

pub mod pgn;

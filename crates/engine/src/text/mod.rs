//! The text formats both games share, written once: PGN ([`pgn`]: the lexer, the reader of
//! game records and the game-independent part of writing them) and FEN ([`fen`]: fields,
//! board rows, side to move, counters and their named errors). Each game keeps only what is
//! its own: its move notations and tags, and the FEN fields only it has.

pub mod fen;
pub mod pgn;

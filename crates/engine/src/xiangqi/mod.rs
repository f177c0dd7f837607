//! Xiangqi rules: types, tables, setups and FEN, positions, move generation, move text and
//! notations, PGN, and the game judge.

pub mod fen;
pub mod movegen;
pub mod moves;
pub mod notation;
pub mod pgn;
pub mod position;
pub mod rules;
pub mod setup;
pub mod tables;
pub mod types;

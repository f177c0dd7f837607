//! Xiangqi rules: types, tables, positions, move generation, FEN, move text and notations, PGN.

pub mod fen;
pub mod movegen;
pub mod moves;
pub mod notation;
pub mod pgn;
pub mod position;
pub mod rules;
pub mod tables;
pub mod types;

//! Xiangqi rules: types, tables, positions, move generation, FEN and move text.

pub mod fen;
pub mod movegen;
pub mod moves;
pub mod position;
pub mod rules;
pub mod tables;
pub mod types;
